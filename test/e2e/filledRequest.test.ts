/**
 * End to end, on the devnet (real chains, real HTTP): what a filled request leaves behind.
 *
 * - Its receipt: GET /requests/{id}/receipt (404 unknown, 409 while not final) → ferry/core's
 *   verifyReceipt accepts it with the devnet's contracts and attester pinned, the locators point at
 *   the chains' real blocks and logs, and a tampered copy fails the named check; `ferry requests
 *   receipt` and `ferry requests verify-receipt` (exit 0 / 1 / 2), in process.
 * - The SLO metrics: after that one intent, every metric the Grafana dashboard and the Prometheus
 *   alert rules in examples/ name is in a real /metrics scrape, and the SLO series have samples.
 */
import { expect } from "chai";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { parseEther, type Address, type Hex } from "viem";
import { parse as parseYaml } from "yaml";
import type { Quote } from "../../ts/client/apiTypes.ts";
import { verifyReceipt } from "../../ts/core/verifyReceipt.ts";
import { REPO_ROOT, runCliInProcess, tempFiles } from "../cli/runCli.ts";
import { DESTINATION, NATIVE, ORIGIN, freshRecipient, startE2eDevnet, type E2eDevnet } from "./e2eDevnet.ts";

type ReceiptJson = Record<string, any>;

describe("e2e: a filled request's receipt and SLO metrics", function () {
  this.timeout(420_000);
  let devnet: E2eDevnet;
  let requestId: Hex;
  let receipt: ReceiptJson;
  let attester: Address;

  const get = (path: string) => fetch(`${devnet.file.apiUrl}${path}`);
  const json = async (response: Response) => (await response.json()) as ReceiptJson;

  before(async function () {
    this.timeout(300_000); // the devnet starts in ~10 s alone, ~2 min on a loaded machine
    devnet = await startE2eDevnet();
    const user = devnet.users[0]!;
    const quote: Quote = await devnet.client.getQuote({
      user: user.address,
      originChainId: ORIGIN,
      destinationChainId: DESTINATION,
      originCurrency: NATIVE,
      destinationCurrency: NATIVE,
      recipient: freshRecipient(),
      amount: parseEther("0.01").toString(),
      tradeType: "EXACT_INPUT",
    });
    requestId = quote.steps.at(-1)!.requestId as Hex;
    // Quoted, not deposited: no receipt yet.
    const early = await get(`/requests/${requestId}/receipt`);
    expect(early.status).to.equal(409);
    expect((await json(early)).errorCode).to.equal("RECEIPT_UNAVAILABLE");

    const result = await devnet.client.executeQuote({ quote, walletClient: devnet.origin.wallet(user), publicClient: devnet.origin.publicClient, pollIntervalMs: 250, timeoutMs: 120_000 });
    expect(result.status.status).to.equal("success");
    // `success` comes before the repayment is confirmed: 409 until it is.
    const until = Date.now() + 90_000;
    for (;;) {
      const response = await get(`/requests/${requestId}/receipt`);
      const body = await json(response);
      if (response.status === 200) {
        receipt = body;
        break;
      }
      expect(response.status, JSON.stringify(body)).to.equal(409);
      expect(body.errorCode).to.equal("RECEIPT_UNAVAILABLE");
      if (Date.now() > until) throw new Error(`no receipt within 90 s: ${JSON.stringify(body)}`);
      await new Promise((resolve) => setTimeout(resolve, 250));
    }
    const chains = (await (await get("/chains")).json()) as { chains: { id: number; attestationSigners?: string[] }[] };
    attester = chains.chains.find((c) => c.id === DESTINATION)!.attestationSigners![0] as Address;
  });
  after(async () => devnet?.close());

  const trusted = () => ({
    signers: [attester],
    depositories: [devnet.origin.file.contracts.depository!],
    receivers: [devnet.destination.file.contracts.attestedReceiver!],
  });

  describe("GET /requests/{id}/receipt", () => {
    it("404 for an unknown id, 400 for a malformed one", async () => {
      const unknown = await get(`/requests/0x${"ab".repeat(32)}/receipt`);
      expect(unknown.status).to.equal(404);
      expect((await json(unknown)).errorCode).to.equal("REQUEST_NOT_FOUND");
      const malformed = await get("/requests/0x1234/receipt");
      expect(malformed.status).to.equal(400);
      expect((await json(malformed)).errorCode).to.equal("INVALID_REQUEST");
    });

    it("verifies offline with the devnet's contracts and attester pinned", async () => {
      const result = await verifyReceipt(receipt, { trusted: trusted() });
      expect(result, JSON.stringify(result)).to.include({ valid: true, requestId });
      if (result.valid) expect(result.signer.toLowerCase()).to.equal(attester.toLowerCase());
      expect(receipt.version).to.equal("ferry.receipt.v1");
      expect(receipt.attestation.type).to.equal("FillAttestation");
    });

    it("points at the chains' real blocks and logs (what a verifier with a node checks)", async () => {
      for (const [part, chain] of [["deposit", devnet.origin], ["fill", devnet.destination], ["repayment", devnet.origin]] as const) {
        const place = receipt[part];
        const block = await chain.publicClient.getBlock({ blockHash: place.blockHash });
        expect(Number(block.number), part).to.equal(place.blockNumber);
        const onchain = await chain.publicClient.getTransactionReceipt({ hash: place.txHash });
        const log = onchain.logs.find((l) => l.logIndex === place.logIndex)!;
        expect({ address: log.address.toLowerCase(), topics: log.topics, data: log.data }, part).to.deep.equal({
          address: place.log.address.toLowerCase(),
          topics: place.log.topics,
          data: place.log.data,
        });
      }
      expect(receipt.fill.blockTimestamp).to.equal(String((await devnet.destination.publicClient.getBlock({ blockNumber: BigInt(receipt.fill.blockNumber) })).timestamp));
    });

    it("names the failed check of a tampered copy", async () => {
      const cases: [string, (r: ReceiptJson) => void, string][] = [
        ["order amount", (r) => void (r.order.orderData.inputs[0].payment.amount = "1"), "order.orderId"],
        ["deposit amount", (r) => void (r.deposit.fields.amount = "1"), "deposit.log.fields"],
        ["attested recipient", (r) => void (r.attestation.fields.destinationUser = `0x${"0".repeat(24)}${"11".repeat(20)}`), "attestation.destinationUser"],
        // A digit of s changed: still a well-formed signature, recovering to someone else.
        ["signature", (r) => void (r.attestation.signature = `${r.attestation.signature.slice(0, 100)}${r.attestation.signature[100] === "0" ? "1" : "0"}${r.attestation.signature.slice(101)}`), "signerSet.signer"],
        ["fill amount", (r) => void (r.fill.fields.amount = "1"), "fill.log.fields"],
        ["repayment payee", (r) => void (r.repayment.request.calls[0].to = "0x000000000000000000000000000000000000dEaD"), "repayment.requestHash"],
      ];
      for (const [what, tamper, check] of cases) {
        const copy = structuredClone(receipt);
        tamper(copy);
        const result = await verifyReceipt(copy);
        expect(result, what).to.include({ valid: false, check });
      }
    });
  });

  describe("ferry requests receipt / verify-receipt", () => {
    it("fetches the receipt and verifies it: exit 0", async () => {
      const fetched = await runCliInProcess(["requests", "receipt", requestId, "--api-url", devnet.file.apiUrl]);
      expect(fetched.status, fetched.stderr).to.equal(0);
      expect(JSON.parse(fetched.stdout)).to.deep.equal(receipt);
      const { file } = tempFiles({ file: fetched.stdout });
      const verified = await runCliInProcess(["requests", "verify-receipt", file, "--signer", attester, "--depository", devnet.origin.file.contracts.depository!]);
      expect(verified.status, verified.stderr).to.equal(0);
      expect(verified.stdout).to.match(/^valid: request 0x[0-9a-f]{64} /);
      const asJson = await runCliInProcess(["--json", "requests", "verify-receipt", file]);
      expect(JSON.parse(asJson.stdout)).to.include({ valid: true, requestId });
    });

    it("exit 1 naming the check for a tampered receipt, or for an attester not trusted", async () => {
      const copy = structuredClone(receipt);
      copy.fill.fields.amount = "1";
      const { tampered, good } = tempFiles({ tampered: JSON.stringify(copy), good: JSON.stringify(receipt) });
      const run = await runCliInProcess(["requests", "verify-receipt", tampered]);
      expect(run.status).to.equal(1);
      expect(run.stderr).to.contain("RECEIPT_INVALID: fill.log.fields");
      const asJson = await runCliInProcess(["requests", "verify-receipt", "--json", tampered]);
      expect(JSON.parse(asJson.stdout.trim())).to.deep.include({ valid: false, check: "fill.log.fields" });
      const distrusted = await runCliInProcess(["requests", "verify-receipt", good, "--signer", "0x000000000000000000000000000000000000dEaD"]);
      expect(distrusted.status).to.equal(1);
      expect(distrusted.stderr).to.contain("trust.signer");
    });

    it("exit 2 for what is not a receipt: no such file, not JSON, another document", async () => {
      const { notJson, other } = tempFiles({ notJson: "{receipt", other: JSON.stringify({ version: "ferry.receipt.v9" }) });
      for (const file of [join(REPO_ROOT, "no-such-receipt.json"), notJson, other]) {
        const run = await runCliInProcess(["requests", "verify-receipt", file]);
        expect(run.status, `${file}: ${run.stderr}`).to.equal(2);
      }
      const unknown = await runCliInProcess(["requests", "receipt", `0x${"ab".repeat(32)}`, "--api-url", devnet.file.apiUrl]);
      expect(unknown.status).to.equal(2);
      expect(unknown.stderr).to.contain("REQUEST_NOT_FOUND");
    });
  });

  describe("SLO metrics, dashboard and alert rules", () => {
    it("every metric examples/ names is in a real /metrics scrape after one intent", async () => {
      // The latency in blocks is measured after the success commits (a few header reads): let it land.
      let scrape = "";
      for (let i = 0; i < 40 && !/^ferry_fill_latency_blocks_count\{[^}]*\} [1-9]/m.test(scrape); i++) {
        scrape = await (await get("/metrics")).text();
        if (i > 0) await new Promise((resolve) => setTimeout(resolve, 250));
      }
      const served = new Set([...scrape.matchAll(/^# TYPE (\S+) (\S+)$/gm)].flatMap(([, name, type]) =>
        type === "histogram" ? [`${name}_bucket`, `${name}_sum`, `${name}_count`, name!] : [name!],
      ));
      const dashboard = JSON.parse(readFileSync(join(REPO_ROOT, "examples/grafana/ferry-dashboard.json"), "utf8"));
      const dashboardExprs: string[] = dashboard.panels.flatMap((p: { targets: { expr: string }[] }) => p.targets.map((t) => t.expr));
      const rules = parseYaml(readFileSync(join(REPO_ROOT, "examples/prometheus/ferry-alerts.yml"), "utf8"));
      const ruleExprs: string[] = rules.groups.flatMap((g: { rules: { expr: string }[] }) => g.rules.map((r) => String(r.expr)));
      expect(dashboardExprs.length).to.be.greaterThan(5);
      expect(ruleExprs.length).to.be.greaterThan(5);
      const named = new Set([...dashboardExprs, ...ruleExprs].flatMap((expr) => [...expr.matchAll(/\bferry_[a-z0-9_]+/g)].map((m) => m[0])));
      expect([...named].filter((name) => !served.has(name))).to.deep.equal([]);
      // The SLO series carry this intent.
      const sample = (pattern: RegExp) => Number(scrape.match(pattern)?.[1] ?? NaN);
      const route = `origin_chain_id="${ORIGIN}",destination_chain_id="${DESTINATION}"`;
      expect(sample(new RegExp(`^ferry_requests_filled_total\\{${route}\\} (\\S+)$`, "m"))).to.be.at.least(1);
      expect(sample(new RegExp(`^ferry_fill_latency_seconds_count\\{${route}\\} (\\S+)$`, "m"))).to.be.at.least(1);
      expect(sample(new RegExp(`^ferry_fill_latency_blocks_count\\{${route}\\} (\\S+)$`, "m"))).to.be.at.least(1);
      expect(sample(/^ferry_quote_latency_seconds_count\{outcome="quoted"\} (\S+)$/m)).to.be.at.least(1);
      expect(sample(/^ferry_requests_overdue (\S+)$/m)).to.equal(0);
    });
  });
});
