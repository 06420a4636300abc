/**
 * End to end, on the devnet (real chains, real HTTP), with batched repayment on
 * (FERRY_REPAYMENT_BATCH_MAX_SIZE=2): two users' requests are repaid by one origin transaction, and
 * each request's receipt (GET /requests/{id}/receipt) carries the
 * batch request with its own call indexes and verifies offline with the devnet's contracts pinned.
 */
import { expect } from "chai";
import { parseEther, type Address, type Hex } from "viem";
import type { Quote } from "../../ts/client/apiTypes.ts";
import { verifyReceipt } from "../../ts/core/verifyReceipt.ts";
import { DESTINATION, NATIVE, ORIGIN, freshRecipient, startE2eDevnet, type E2eDevnet } from "./e2eDevnet.ts";

type Json = Record<string, any>;

describe("e2e: batched repayment", function () {
  this.timeout(420_000);
  let devnet: E2eDevnet;

  before(async function () {
    this.timeout(300_000);
    devnet = await startE2eDevnet({ env: { FERRY_REPAYMENT_BATCH_MAX_SIZE: "2" } });
  });
  after(async () => devnet?.close());

  const get = async (path: string) => {
    const response = await fetch(`${devnet.file.apiUrl}${path}`);
    return { status: response.status, body: (await response.json()) as Json };
  };

  it("repays two requests with one origin transaction, and each receipt verifies on its own calls", async () => {
    const users = devnet.users.slice(0, 2);
    const run = async (user: (typeof users)[number]) => {
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
      const result = await devnet.client.executeQuote({ quote, walletClient: devnet.origin.wallet(user), publicClient: devnet.origin.publicClient, pollIntervalMs: 250, timeoutMs: 120_000 });
      expect(result.status.status).to.equal("success");
      return quote.steps.at(-1)!.requestId as Hex;
    };
    const requestIds = await Promise.all(users.map(run));

    const receipts: Json[] = [];
    for (const id of requestIds) {
      const until = Date.now() + 90_000;
      for (;;) {
        const { status, body } = await get(`/requests/${id}/receipt`);
        if (status === 200) {
          receipts.push(body);
          break;
        }
        expect(status, JSON.stringify(body)).to.equal(409);
        if (Date.now() > until) throw new Error(`no receipt within 90 s: ${JSON.stringify(body)}`);
        await new Promise((resolve) => setTimeout(resolve, 250));
      }
    }
    // One origin transaction, one RequestExecuted, for both.
    expect(receipts[0]!.repayment.txHash).to.equal(receipts[1]!.repayment.txHash);
    expect(receipts[0]!.repayment.fields).to.deep.equal(receipts[1]!.repayment.fields);
    const own = receipts.map((r) => r.repayment.batch.calls as number[]);
    expect(own[0]!.some((i) => own[1]!.includes(i)), "a call shared by two members").to.equal(false);

    const chains = (await get("/chains")).body as { chains: { id: number; attestationSigners?: string[] }[] };
    const attester = chains.chains.find((c) => c.id === DESTINATION)!.attestationSigners![0] as Address;
    const trusted = { signers: [attester], depositories: [devnet.origin.file.contracts.depository!], receivers: [devnet.destination.file.contracts.attestedReceiver!] };
    for (const receipt of receipts) expect(await verifyReceipt(receipt, { trusted })).to.include({ valid: true });

  });
});
