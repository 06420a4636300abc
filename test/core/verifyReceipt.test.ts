import { expect } from "chai";
import { encodeAbiParameters, encodeEventTopics, keccak256, toHex, type Address, type Hex } from "viem";
import { generatePrivateKey, privateKeyToAccount } from "viem/accounts";
import { payoutRequestHash } from "../../ts/core/payoutRequest.ts";
import { requestReceiptToJson, type RequestReceipt } from "../../ts/core/requestReceipt.ts";
import { signAttestationDigest } from "../../ts/core/signAttestation.ts";
import { assertReceipt, RECEIPT_CHECKS, RECEIPT_EVENTS_ABI, verifyReceipt, type ReceiptCheck, type ReceiptTrust } from "../../ts/core/verifyReceipt.ts";
import { ATTESTER, DEPOSITORY, RECEIVER, USER, validReceipt, validReceiptJson } from "./receiptFixture.ts";
import { highSTwin } from "./signatureFixtures.ts";

const OTHER: Address = "0x000000000000000000000000000000000000dEaD";
const ZERO: Address = "0x0000000000000000000000000000000000000000";
const otherWord = (label: string): Hex => keccak256(toHex(label));
const word = (a: Address): Hex => `0x${"0".repeat(24)}${a.slice(2).toLowerCase()}`;
const attacker = privateKeyToAccount(generatePrivateKey());

/** Rewrites the deposit's log and fields consistently (a forged deposit, not a garbled one). */
function forgeDeposit(r: RequestReceipt, patch: Partial<RequestReceipt["deposit"]["fields"]>): void {
  const fields = { ...r.deposit.fields, ...patch };
  r.deposit.fields = fields;
  r.deposit.log.topics = encodeEventTopics({ abi: RECEIPT_EVENTS_ABI, eventName: "Deposited", args: { id: fields.id, depositor: fields.depositor } }) as Hex[];
  r.deposit.log.data = encodeAbiParameters([{ type: "address" }, { type: "uint256" }], [fields.token, fields.amount]);
}

/** The receipt's deposit made reclaimable: its log a DepositedReclaimable with `reclaimAt`, the fields likewise. */
function forgeReclaimableDeposit(r: RequestReceipt, reclaimAt: bigint): void {
  const fields = { ...r.deposit.fields, reclaimAt };
  r.deposit.fields = fields;
  r.deposit.log.topics = encodeEventTopics({ abi: RECEIPT_EVENTS_ABI, eventName: "DepositedReclaimable", args: { id: fields.id } }) as Hex[];
  r.deposit.log.data = encodeAbiParameters([{ type: "address" }, { type: "address" }, { type: "uint256" }, { type: "uint256" }], [fields.depositor, fields.token, fields.amount, reclaimAt]);
}

function forgeFill(r: RequestReceipt, patch: Partial<RequestReceipt["fill"]["fields"]>): void {
  const fields = { ...r.fill.fields, ...patch };
  r.fill.fields = fields;
  r.fill.log.topics = encodeEventTopics({ abi: RECEIPT_EVENTS_ABI, eventName: "Filled", args: { requestId: fields.requestId } }) as Hex[];
  r.fill.log.data = encodeAbiParameters([{ type: "address" }, { type: "address" }, { type: "address" }, { type: "uint256" }], [fields.recipient, fields.filler, fields.currency, fields.amount]);
}

/** Replaces the repayment's calls, its hash and the RequestExecuted log consistently. */
function forgeRepayment(r: RequestReceipt, calls: RequestReceipt["repayment"]["request"]["calls"], logNonce?: bigint): void {
  const { nonce, expiration } = r.repayment.request;
  r.repayment.request = { calls, nonce, expiration };
  const requestHash = payoutRequestHash({ calls, nonce, expiration });
  const executedNonce = logNonce ?? nonce;
  r.repayment.fields = { requestHash, nonce: executedNonce };
  r.repayment.log.topics = encodeEventTopics({ abi: RECEIPT_EVENTS_ABI, eventName: "RequestExecuted", args: { requestHash, nonce: executedNonce } }) as Hex[];
}

/**
 * The receipt's repayment made a batch: another member's calls first (paying the same filler more than
 * this deposit), then this request's own, the hash and the log recomputed; `indexes` this request's.
 */
function forgeBatch(r: RequestReceipt, own: RequestReceipt["repayment"]["request"]["calls"], indexes?: number[]): void {
  const filler = r.fill.fields.filler;
  const other = [{ to: filler, token: r.deposit.fields.token, amount: r.deposit.fields.amount * 3n }, { to: OTHER, token: r.deposit.fields.token, amount: 7n }];
  forgeRepayment(r, [...other, ...own]);
  r.repayment.batch = { calls: indexes ?? own.map((_, i) => other.length + i), credits: [] };
}

type Tamper = { check: ReceiptCheck; what: string; tamper: (r: RequestReceipt) => void | Promise<void>; trusted?: ReceiptTrust };

/** One forged or garbled receipt per check, each built to pass every earlier check and fail this one. */
const TAMPERS: Tamper[] = [
  { check: "format", what: "an unknown version", tamper: (r) => void ((r as { version: string }).version = "ferry.receipt.v0") },
  { check: "order.orderId", what: "the order's output amount raised", tamper: (r) => void ((r.order.orderData as any).output.payments[0].expectedAmount = "99999999") },
  { check: "order.orderId", what: "the claimed orderId of another order", tamper: (r) => void (r.order.orderId = otherWord("another order")) },
  { check: "order.chains", what: "another origin chain name", tamper: (r) => void (r.chains.origin.name = "mainnet") },
  { check: "deposit.chainId", what: "the deposit on another chain", tamper: (r) => void (r.deposit.chainId = 1) },
  { check: "deposit.log.address", what: "a log of another contract", tamper: (r) => void (r.deposit.log.address = OTHER) },
  { check: "trust.depository", what: "a Depository the caller does not trust", tamper: () => {}, trusted: { depositories: [OTHER] } },
  { check: "deposit.log.event", what: "another event's topic", tamper: (r) => void (r.deposit.log.topics[0] = otherWord("Deposited(bytes32,address,address,uint256,uint256)")) },
  { check: "deposit.log.fields", what: "decoded amount that is not the log's", tamper: (r) => void (r.deposit.fields.amount += 1n) },
  { check: "deposit.log.fields", what: "raw log amount that is not the decoded one", tamper: (r) => void (r.deposit.log.data = encodeAbiParameters([{ type: "address" }, { type: "uint256" }], [r.deposit.fields.token, 1n])) },
  { check: "deposit.id", what: "a deposit under another id", tamper: (r) => forgeDeposit(r, { id: otherWord("another id") }) },
  { check: "deposit.currency", what: "a deposit in another token", tamper: (r) => forgeDeposit(r, { token: OTHER }) },
  { check: "deposit.amount", what: "a 1-unit deposit", tamper: (r) => forgeDeposit(r, { amount: 1n }) },
  { check: "deposit.depositor", what: "a zero depositor", tamper: (r) => forgeDeposit(r, { depositor: ZERO }) },
  { check: "attestation.type", what: "a calls attestation for an order without calls", tamper: (r) => void (r.attestation.type = "CallsFillAttestation") },
  { check: "attestation.requestId", what: "another requestId", tamper: (r) => void (r.attestation.fields.requestId = otherWord("other request")) },
  { check: "attestation.orderId", what: "another orderId", tamper: (r) => void (r.attestation.fields.orderId = otherWord("other order")) },
  { check: "attestation.originChainId", what: "another origin chain", tamper: (r) => void (r.attestation.fields.originChainId = 1n) },
  { check: "attestation.originCurrency", what: "another origin currency", tamper: (r) => void (r.attestation.fields.originCurrency = word(OTHER)) },
  { check: "attestation.originAmount", what: "another origin amount", tamper: (r) => void (r.attestation.fields.originAmount += 1n) },
  { check: "attestation.destinationChainId", what: "another destination chain", tamper: (r) => void (r.attestation.fields.destinationChainId = 10n) },
  { check: "attestation.destinationUser", what: "another recipient", tamper: (r) => void (r.attestation.fields.destinationUser = word(OTHER)) },
  { check: "attestation.destinationCurrency", what: "another destination currency", tamper: (r) => void (r.attestation.fields.destinationCurrency = word(OTHER)) },
  { check: "attestation.destinationAmount", what: "an amount below the order's minimum", tamper: (r) => void (r.attestation.fields.destinationAmount -= 1n) },
  { check: "attestation.deadline", what: "a later deadline", tamper: (r) => void (r.attestation.fields.deadline += 1n) },
  { check: "attestation.receiver", what: "another receiver", tamper: (r) => void (r.attestation.fields.receiver = OTHER) },
  { check: "attestation.digest", what: "another origin user (bound only by the digest)", tamper: (r) => void (r.attestation.fields.originUser = word(OTHER)) },
  { check: "attestation.digest", what: "a claimed digest that is not the attestation's", tamper: (r) => void (r.attestation.digest = otherWord("digest")) },
  { check: "signerSet.target", what: "the signer set of another receiver", tamper: (r) => void (r.signerSet.receiver = OTHER) },
  { check: "signerSet.target", what: "the signer set of another chain", tamper: (r) => void (r.signerSet.chainId = 31337) },
  { check: "trust.receiver", what: "a receiver the caller does not trust", tamper: () => {}, trusted: { receivers: [OTHER] } },
  { check: "attestation.signature", what: "a 64-byte signature", tamper: (r) => void (r.attestation.signature = r.attestation.signature.slice(0, 130) as Hex) },
  { check: "attestation.signature", what: "the high-s twin of the signature", tamper: (r) => void (r.attestation.signature = highSTwin(r.attestation.signature)) },
  { check: "signerSet.signer", what: "a flipped byte of the signature", tamper: (r) => void (r.attestation.signature = `${r.attestation.signature.slice(0, 10)}${r.attestation.signature[10] === "0" ? "1" : "0"}${r.attestation.signature.slice(11)}` as Hex) },
  { check: "signerSet.signer", what: "an attacker's signature", tamper: async (r) => void (r.attestation.signature = await signAttestationDigest(attacker, r.attestation.digest)) },
  { check: "signerSet.signer", what: "the attester removed from the set", tamper: (r) => void (r.signerSet.signers = [OTHER]) },
  {
    check: "trust.signer",
    what: "an attacker's signature with the attacker added to the set",
    tamper: async (r) => {
      r.attestation.signature = await signAttestationDigest(attacker, r.attestation.digest);
      r.signerSet.signers.push(attacker.address);
    },
    trusted: { signers: [ATTESTER.address] },
  },
  { check: "fill.chainId", what: "the fill on another chain", tamper: (r) => void (r.fill.chainId = 31337) },
  { check: "fill.log.address", what: "a Filled log of another contract", tamper: (r) => void (r.fill.log.address = OTHER) },
  { check: "fill.log.address", what: "another fill receiver", tamper: (r) => void (r.fill.receiver = OTHER) },
  { check: "fill.log.event", what: "a Deposited log as the fill", tamper: (r) => void (r.fill.log = { ...r.deposit.log, address: RECEIVER }) },
  { check: "fill.log.fields", what: "a decoded filler that is not the log's", tamper: (r) => void (r.fill.fields.filler = OTHER) },
  { check: "fill.requestId", what: "a fill of another request", tamper: (r) => forgeFill(r, { requestId: otherWord("other request") }) },
  { check: "fill.recipient", what: "a fill to another recipient", tamper: (r) => forgeFill(r, { recipient: OTHER }) },
  { check: "fill.currency", what: "a fill in another currency", tamper: (r) => forgeFill(r, { currency: OTHER }) },
  { check: "fill.amount", what: "a short fill", tamper: (r) => forgeFill(r, { amount: r.fill.fields.amount - 1n }) },
  { check: "fill.filledDigest", what: "another recorded digest", tamper: (r) => void (r.fill.filledDigest = otherWord("recorded")) },
  { check: "fill.deadline", what: "a fill after the deadline", tamper: (r) => void (r.fill.blockTimestamp = r.attestation.fields.deadline + 1n) },
  { check: "signerSet.block", what: "the signer set of another block", tamper: (r) => void (r.signerSet.blockNumber = 1) },
  { check: "repayment.chainId", what: "a repayment on another chain", tamper: (r) => void (r.repayment.chainId = 31338) },
  { check: "repayment.log.address", what: "a log of another contract", tamper: (r) => void (r.repayment.log.address = OTHER) },
  { check: "repayment.log.address", what: "another Depository", tamper: (r) => void (r.repayment.depository = OTHER) },
  { check: "repayment.log.event", what: "no topics", tamper: (r) => void (r.repayment.log.topics = []) },
  { check: "repayment.log.fields", what: "a decoded nonce that is not the log's", tamper: (r) => void (r.repayment.fields.nonce += 1n) },
  { check: "repayment.release", what: "a release of a deposit that is not reclaimable", tamper: (r) => void (r.repayment.request.release = r.order.orderId) },
  { check: "repayment.release", what: "a reclaimable deposit repaid without a release (still reclaimable)", tamper: (r) => forgeReclaimableDeposit(r, 2_000_000_000n) },
  { check: "deposit.log.fields", what: "a reclaimable deposit's log whose reclaim time is not the fields'", tamper: (r) => { forgeReclaimableDeposit(r, 2_000_000_000n); r.deposit.fields.reclaimAt = 1n; } },
  { check: "repayment.requestHash", what: "a request paying more than was executed", tamper: (r) => void (r.repayment.request.calls[0]!.amount += 1n) },
  { check: "repayment.requestHash", what: "the credits dropped from a settlement", tamper: (r) => void delete r.repayment.request.credits, },
  { check: "repayment.nonce", what: "a log of another nonce", tamper: (r) => forgeRepayment(r, r.repayment.request.calls, 5n) },
  { check: "repayment.batch", what: "a batch whose index is past its calls", tamper: (r) => forgeBatch(r, r.repayment.request.calls, [2, 3]) },
  { check: "repayment.batch", what: "a batch naming one call twice", tamper: (r) => forgeBatch(r, r.repayment.request.calls, [2, 2]) },
  { check: "repayment.batch", what: "a batch naming no call of this request", tamper: (r) => forgeBatch(r, r.repayment.request.calls, []) },
  { check: "repayment.batch", what: "a batch whose credit index has no credit", tamper: (r) => {
    forgeBatch(r, r.repayment.request.calls);
    r.repayment.batch!.credits = [0];
  } },
  { check: "repayment.currency", what: "a batch paying this request in another token", tamper: (r) => forgeBatch(r, [{ ...r.repayment.request.calls[0]!, token: OTHER }]) },
  { check: "repayment.amount", what: "a batch paying this request above its deposit", tamper: (r) => forgeBatch(r, [{ ...r.repayment.request.calls[0]!, amount: r.deposit.fields.amount + 1n }]) },
  { check: "repayment.filler", what: "a batch whose indexes name another member's payee, not the filler", tamper: (r) => forgeBatch(r, r.repayment.request.calls, [1]) },
  { check: "repayment.currency", what: "a repayment in another token", tamper: (r) => forgeRepayment(r, [{ ...r.repayment.request.calls[0]!, token: OTHER }]) },
  { check: "repayment.amount", what: "a repayment above the deposit", tamper: (r) => forgeRepayment(r, [{ ...r.repayment.request.calls[0]!, amount: r.deposit.fields.amount + 1n }]) },
  { check: "repayment.filler", what: "a repayment to someone else than the filler", tamper: (r) => forgeRepayment(r, [{ ...r.repayment.request.calls[0]!, to: OTHER }]) },
];

async function tampered(t: Tamper): Promise<unknown> {
  // A settlement (app fee credit) for the credits case, a plain CallRequest otherwise.
  const receipt = await validReceipt(t.what.includes("settlement") ? { appFee: 100_000n } : {});
  await t.tamper(receipt);
  return JSON.parse(JSON.stringify(requestReceiptToJson(receipt)));
}

describe("verifyReceipt", () => {
  it("accepts a valid receipt: plain repayment, settlement with an app fee credit, destination call", async () => {
    for (const [label, options] of [["plain", {}], ["settlement", { appFee: 100_000n }], ["calls", { withCall: true }]] as const) {
      const result = await verifyReceipt(await validReceiptJson(options));
      expect(result, label).to.include({ valid: true });
      if (result.valid) {
        expect(result.signer).to.equal(ATTESTER.address);
        expect(result.checks).to.deep.equal(RECEIPT_CHECKS);
      }
    }
    // With every trust anchor pinned to the real contracts and attester.
    const pinned = await verifyReceipt(await validReceiptJson(), { trusted: { signers: [ATTESTER.address.toLowerCase()], depositories: [DEPOSITORY], receivers: [RECEIVER] } });
    expect(pinned.valid).to.equal(true);
  });

  it("accepts a batched repayment: this request's calls named by index in a request paying other members too", async () => {
    const receipt = await validReceipt();
    forgeBatch(receipt, receipt.repayment.request.calls);
    // The batch pays more than this deposit in all: only this request's calls are its repayment.
    const total = receipt.repayment.request.calls.reduce((sum, c) => sum + c.amount, 0n);
    expect(total > receipt.deposit.fields.amount).to.equal(true);
    const result = await verifyReceipt(JSON.parse(JSON.stringify(requestReceiptToJson(receipt))));
    expect(result).to.include({ valid: true });
  });

  for (const t of TAMPERS) {
    it(`${t.check}: ${t.what}`, async () => {
      const result = await verifyReceipt(await tampered(t), t.trusted ? { trusted: t.trusted } : {});
      expect(result.valid, "tampered receipt accepted").to.equal(false);
      if (result.valid) return;
      expect(result.check).to.equal(t.check);
      expect(result.error.code).to.equal(t.check === "format" ? "INVALID_INPUT" : "RECEIPT_INVALID");
    });
  }

  it("has a tamper case for every check", () => {
    const covered = new Set(TAMPERS.map((t) => t.check));
    expect(RECEIPT_CHECKS.filter((c) => !covered.has(c))).to.deep.equal([]);
  });

  /**
   * Every leaf of the JSON changed, one at a time: each change is detected, except what a verifier
   * without a node cannot check — the locators (where the logs are: transaction, block hash and number,
   * log index) and the fill block's time (only checked against the deadline) — documented in docs/api.md.
   */
  it("detects a change of any single field except the documented locators", async function () {
    this.timeout(60_000);
    const LOCATORS = new Set([
      "deposit.txHash", "deposit.blockNumber", "deposit.blockHash", "deposit.logIndex",
      "fill.txHash", "fill.blockHash", "fill.logIndex", // fill.blockNumber is bound to the signer set's
      "fill.blockTimestamp", // moved later than the deadline it is detected (fill.deadline)

      "repayment.txHash", "repayment.blockNumber", "repayment.blockHash", "repayment.logIndex",
    ]);
    const json = await validReceiptJson({ appFee: 100_000n });
    const undetected: string[] = [];
    let tried = 0;
    for (const path of leafPaths(json)) {
      const copy = JSON.parse(JSON.stringify(json));
      setLeaf(copy, path, mutate(getLeaf(copy, path)));
      tried += 1;
      const result = await verifyReceipt(copy);
      if (result.valid) undetected.push(path.join("."));
    }
    expect(tried).to.be.greaterThan(60);
    expect(undetected.filter((p) => !LOCATORS.has(p))).to.deep.equal([]);
  });

  it("names the first failed check in the fixed order when several fail", async () => {
    const receipt = await validReceipt();
    receipt.fill.filledDigest = otherWord("x"); // fill.filledDigest …
    receipt.attestation.fields.deadline += 1n; // … comes after attestation.deadline
    receipt.deposit.chainId = 5; // … which comes after deposit.chainId
    const result = await verifyReceipt(JSON.parse(JSON.stringify(requestReceiptToJson(receipt))));
    expect(result).to.include({ valid: false, check: "deposit.chainId" });
  });

  it("reports unreadable input as format, naming the field, and never throws", async () => {
    for (const input of [null, "receipt", [], {}, { version: "ferry.receipt.v1" }]) {
      const result = await verifyReceipt(input);
      expect(result).to.include({ valid: false, check: "format" });
    }
    const json = await validReceiptJson();
    json.fill.fields.amount = -1;
    const result = await verifyReceipt(json);
    expect(result.valid).to.equal(false);
    if (!result.valid) expect(result.error.message).to.contain("fill.fields.amount");
  });

  it("assertReceipt returns the signer or throws the typed error", async () => {
    expect(await assertReceipt(await validReceiptJson())).to.deep.equal({ signer: ATTESTER.address });
    const json = await validReceiptJson();
    json.repayment.request.calls[0].to = USER;
    try {
      await assertReceipt(json);
      expect.fail("accepted");
    } catch (error) {
      expect((error as { code: string; check: string }).code).to.equal("RECEIPT_INVALID");
      expect((error as { check: string }).check).to.equal("repayment.requestHash");
    }
  });
});

type Path = (string | number)[];

function leafPaths(value: unknown, prefix: Path = []): Path[] {
  if (value !== null && typeof value === "object") {
    return Object.entries(value as Record<string, unknown>).flatMap(([key, child]) => leafPaths(child, [...prefix, Array.isArray(value) ? Number(key) : key]));
  }
  return [prefix];
}

function getLeaf(root: unknown, path: Path): unknown {
  return path.reduce<unknown>((node, key) => (node as Record<string | number, unknown>)[key], root);
}

function setLeaf(root: unknown, path: Path, value: unknown): void {
  const parent = getLeaf(root, path.slice(0, -1)) as Record<string | number, unknown>;
  parent[path[path.length - 1]!] = value;
}

/** A different value of the same kind: hex with its last digit changed, a decimal or number plus one, a string with a suffix. */
function mutate(value: unknown): unknown {
  if (typeof value === "number") return value + 1;
  if (typeof value === "string" && /^0x[0-9a-fA-F]+$/.test(value)) {
    const lowered = value.toLowerCase();
    const last = lowered[lowered.length - 1]!;
    return `${lowered.slice(0, -1)}${last === "0" ? "1" : "0"}`;
  }
  if (typeof value === "string" && /^[0-9]+$/.test(value)) return (BigInt(value) + 1n).toString();
  if (typeof value === "string") return `${value}x`;
  return "changed";
}

describe("RECEIPT_EVENTS_ABI", () => {
  it("is exactly the compiled contracts' Deposited, Filled and RequestExecuted", async () => {
    const { depositoryAbi } = await import("../../ts/abi/Depository.ts");
    const { attestedReceiverAbi } = await import("../../ts/abi/AttestedReceiver.ts");
    const shape = (e: { name?: string; inputs: readonly { name?: string; type: string; indexed?: boolean }[] }) => ({
      name: e.name,
      inputs: e.inputs.map((i) => ({ name: i.name, type: i.type, indexed: i.indexed ?? false })),
    });
    const compiled = [...depositoryAbi, ...attestedReceiverAbi].filter((e) => e.type === "event").map((e) => shape(e as never));
    for (const event of RECEIPT_EVENTS_ABI) expect(compiled, event.name).to.deep.include(shape(event));
  });
});
