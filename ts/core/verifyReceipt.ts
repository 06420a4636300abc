/**
 * Offline verification of a request receipt (./requestReceipt.ts), with no trust in the server that
 * made it: every id and digest is recomputed here, every log decoded from its raw topics and data,
 * and the attestation's signature recovered with the contracts' strict rules. Pure (no clock, no
 * network): `now` is not needed, the fill's own block time is checked against the deadline.
 *
 * The checks run in one fixed order (`RECEIPT_CHECKS`) and the first that fails is named:
 *
 * 1. the format (`format`); the order: its id recomputed (`order.orderId`), its chain names
 *    (`order.chains`);
 * 2. the deposit log: on the origin chain, emitted by the Depository, a `Deposited` (or, reclaimable,
 *    `DepositedReclaimable`) event whose decoded
 *    fields are the receipt's, under the orderId, in the order's currency, at least its amount, from a
 *    non-zero depositor;
 * 3. the attestation: its type (a calls attestation exactly when the order has calls) and every field
 *    bound to the request, the order and the deposit (chains, currency, amounts, recipient, deadline,
 *    receiver — the one the order's `output.extraData` names), its digest recomputed;
 * 4. the signer set: the destination chain's receiver; the signature recovers (strictly) to one of its
 *    signers;
 * 5. the fill log: a `Filled` event of that receiver on the destination chain paying the attested
 *    recipient the attested currency and amount for the requestId, the receiver's recorded digest equal
 *    to the attestation's, in a block no later than the deadline, and the signer set read at that block;
 * 6. the repayment: a `RequestExecuted` event of the deposit's Depository whose request hash is the
 *    receipt's request's (EIP-712 struct hash, `CallRequest`, `SettlementRequest` or `ReleaseRequest`)
 *    and nonce its nonce — a release of the orderId exactly when the deposit is reclaimable (any other
 *    payout would leave the depositor free to reclaim what repaid the fill) —, paying only the
 *    deposited currency, no more than the deposit, and paying the filler. A batched repayment (one
 *    request repaying several requests, `repayment.batch`: this request's call and credit indexes in
 *    it; never a release) is checked on those calls and credits: indexes in range, distinct, at least
 *    one call (`repayment.batch`), then currency, amount and filler as above.
 *
 * What it cannot know offline: that the logs are in the chains' canonical history (compare each
 * `blockHash` with a node or explorer you trust) and that the signer set is the receiver's (pass
 * `trusted.signers`, and `trusted.depositories` / `trusted.receivers`, from a deployment you trust:
 * the checks `trust.*` then pin them). Without them the receipt proves its parts consistent with each
 * other and signed by a key the receipt's own signer set names.
 */
import { decodeEventLog, parseAbi, type Address, type Hex } from "viem";
import { callsFillDigest, fillDigest } from "./attestationDigest.ts";
import { FerryError, ReceiptInvalidError } from "./errors.ts";
import { hashOrder } from "./orderId.ts";
import { orderFromJson, type Order } from "./orderJson.ts";
import { payoutRequestHash } from "./payoutRequest.ts";
import { recoverPersonalSignerStrict } from "./recoverStrict.ts";
import { requestReceiptFromJson, type RequestReceipt } from "./requestReceipt.ts";
import { settlementRequestHash } from "./settlementRequest.ts";
import { releaseRequestHash } from "./releaseRequest.ts";

/** Every check, in the order the verifier runs them. */
export const RECEIPT_CHECKS = [
  "format",
  "order.orderId",
  "order.chains",
  "deposit.chainId",
  "deposit.log.address",
  "trust.depository",
  "deposit.log.event",
  "deposit.log.fields",
  "deposit.id",
  "deposit.currency",
  "deposit.amount",
  "deposit.depositor",
  "attestation.type",
  "attestation.requestId",
  "attestation.orderId",
  "attestation.originChainId",
  "attestation.originCurrency",
  "attestation.originAmount",
  "attestation.destinationChainId",
  "attestation.destinationUser",
  "attestation.destinationCurrency",
  "attestation.destinationAmount",
  "attestation.deadline",
  "attestation.receiver",
  "attestation.digest",
  "signerSet.target",
  "trust.receiver",
  "attestation.signature",
  "signerSet.signer",
  "trust.signer",
  "fill.chainId",
  "fill.log.address",
  "fill.log.event",
  "fill.log.fields",
  "fill.requestId",
  "fill.recipient",
  "fill.currency",
  "fill.amount",
  "fill.filledDigest",
  "fill.deadline",
  "signerSet.block",
  "repayment.chainId",
  "repayment.log.address",
  "repayment.log.event",
  "repayment.log.fields",
  "repayment.release",
  "repayment.requestHash",
  "repayment.nonce",
  "repayment.batch",
  "repayment.currency",
  "repayment.amount",
  "repayment.filler",
] as const;

export type ReceiptCheck = (typeof RECEIPT_CHECKS)[number];

/** Addresses the caller trusts from its own source (a deployment record, an explorer): compared case-insensitively. */
export type ReceiptTrust = { signers?: readonly string[]; depositories?: readonly string[]; receivers?: readonly string[] };

export type VerifyReceiptResult =
  | { valid: true; requestId: Hex; orderId: Hex; signer: Address; checks: readonly ReceiptCheck[] }
  | { valid: false; check: ReceiptCheck; error: FerryError };

/** The contracts' events, exactly as declared in IDepository / IAttestedReceiver (a test checks them against the compiled ABIs). */
export const RECEIPT_EVENTS_ABI = parseAbi([
  "event Deposited(bytes32 indexed id, address indexed depositor, address token, uint256 amount)",
  "event DepositedReclaimable(bytes32 indexed id, address depositor, address token, uint256 amount, uint256 reclaimAt)",
  "event Filled(bytes32 indexed requestId, address recipient, address filler, address currency, uint256 amount)",
  "event RequestExecuted(bytes32 indexed requestHash, uint256 indexed nonce)",
]);

/**
 * Verifies a receipt (its JSON, or an already typed one). Never throws for a bad receipt: the first
 * failed check comes back as `{valid: false, check, error}` (error code RECEIPT_INVALID, or
 * INVALID_INPUT / INVALID_ADDRESS for `format`); only bugs are rethrown.
 */
export async function verifyReceipt(input: unknown, options: { trusted?: ReceiptTrust } = {}): Promise<VerifyReceiptResult> {
  let receipt: RequestReceipt;
  try {
    receipt = requestReceiptFromJson(input);
  } catch (error) {
    if (error instanceof FerryError) return { valid: false, check: "format", error };
    throw error;
  }
  try {
    const { signer } = await assertReceiptChecks(receipt, options.trusted ?? {});
    return { valid: true, requestId: receipt.requestId, orderId: receipt.order.orderId, signer, checks: RECEIPT_CHECKS };
  } catch (error) {
    if (error instanceof ReceiptInvalidError) return { valid: false, check: error.check as ReceiptCheck, error };
    throw error;
  }
}

/** Like verifyReceipt, but returns the attester's address or throws the typed FerryError. */
export async function assertReceipt(input: unknown, options: { trusted?: ReceiptTrust } = {}): Promise<{ signer: Address }> {
  const result = await verifyReceipt(input, options);
  if (!result.valid) throw result.error;
  return { signer: result.signer };
}

function ensure(check: ReceiptCheck, ok: boolean, message: string): void {
  if (!ok) throw new ReceiptInvalidError(check, message);
}

const lower = (value: string) => value.toLowerCase();
const same = (a: string, b: string) => lower(a) === lower(b);
/** A 20-byte address as a left-padded bytes32 word (what attestations carry), lowercase. */
const word = (address: string): Hex => `0x${"0".repeat(24)}${lower(address).slice(2)}`;
const trustedBy = (list: readonly string[] | undefined, address: string) => list === undefined || list.some((a) => same(a, address));

type ReceiptEvent = "Deposited" | "DepositedReclaimable" | "Filled" | "RequestExecuted";

/** Decodes a raw log as one of `eventNames`, or fails `check`. */
function decodeLog<N extends ReceiptEvent>(check: ReceiptCheck, eventNames: readonly N[], log: { topics: Hex[]; data: Hex }) {
  try {
    const decoded = decodeEventLog({ abi: RECEIPT_EVENTS_ABI, topics: log.topics as [Hex, ...Hex[]], data: log.data, strict: true });
    if ((eventNames as readonly string[]).includes(decoded.eventName)) return decoded as Extract<typeof decoded, { eventName: N }>;
  } catch {
    // Not one of the four events (or malformed): reported below.
  }
  throw new ReceiptInvalidError(check, `the log is not a ${eventNames.join(" or ")} event`);
}

/** The deposit log: a `Deposited`, or a `DepositedReclaimable` with its `reclaimAt`. */
function decodeDepositLog(log: { topics: Hex[]; data: Hex }): { id: Hex; depositor: Address; token: Address; amount: bigint; reclaimAt?: bigint } {
  return decodeLog("deposit.log.event", ["Deposited", "DepositedReclaimable"], log).args;
}

function orderOf(receipt: RequestReceipt): Order {
  try {
    return orderFromJson(receipt.order.orderData);
  } catch (error) {
    if (error instanceof FerryError) throw new ReceiptInvalidError("order.orderId", `the order does not parse (${error.message})`, { cause: error });
    throw error;
  }
}

/** The receiver an order's `output.extraData` names (`abi.encode(address)`), or undefined when it holds none. */
function extraDataReceiver(extraData: Hex): string | undefined {
  if (extraData.length !== 66 || !/^0x0{24}/.test(extraData)) return undefined;
  return `0x${extraData.slice(26)}`;
}

async function assertReceiptChecks(r: RequestReceipt, trusted: ReceiptTrust): Promise<{ signer: Address }> {
  // 1. The order.
  const order = orderOf(r);
  const orderId = hashOrder(order);
  ensure("order.orderId", orderId === lower(r.order.orderId), `orderData hashes to ${orderId}, the receipt says ${r.order.orderId}`);
  const input = order.inputs[0];
  const payment = order.output.payments[0];
  ensure("order.chains", order.inputs.length === 1 && order.output.payments.length === 1, "expected one input and one output payment");
  ensure("order.chains", input!.payment.chainId === r.chains.origin.name, `the order's input is on ${input!.payment.chainId}, the receipt's origin is ${r.chains.origin.name}`);
  ensure("order.chains", order.output.chainId === r.chains.destination.name, `the order's output is on ${order.output.chainId}, the receipt's destination is ${r.chains.destination.name}`);
  const { payment: paid } = input!;

  // 2. The deposit.
  const d = r.deposit;
  ensure("deposit.chainId", d.chainId === r.chains.origin.id, `the deposit is on chain ${d.chainId}, the origin is ${r.chains.origin.id}`);
  ensure("deposit.log.address", same(d.log.address, d.depository), `the log was emitted by ${d.log.address}, not the Depository ${d.depository}`);
  ensure("trust.depository", trustedBy(trusted.depositories, d.depository), `the Depository ${d.depository} is not a trusted one`);
  const deposited = decodeDepositLog(d.log);
  ensure(
    "deposit.log.fields",
    same(deposited.id, d.fields.id) &&
      same(deposited.depositor, d.fields.depositor) &&
      same(deposited.token, d.fields.token) &&
      deposited.amount === d.fields.amount &&
      deposited.reclaimAt === d.fields.reclaimAt,
    "the decoded log differs from the receipt's deposit fields",
  );
  ensure("deposit.id", same(deposited.id, orderId), `the deposit is under ${deposited.id}, not the orderId ${orderId}`);
  ensure("deposit.currency", same(deposited.token, paid.currency), `the deposit is in ${deposited.token}, the order's input in ${paid.currency}`);
  ensure("deposit.amount", deposited.amount >= paid.amount, `the deposit is ${deposited.amount}, the order asks for ${paid.amount}`);
  ensure("deposit.depositor", BigInt(deposited.depositor) !== 0n, "the depositor is the zero address");

  // 3. The attestation.
  const att = r.attestation.fields;
  const hasCalls = order.output.calls.length > 0;
  ensure("attestation.type", r.attestation.type === (hasCalls ? "CallsFillAttestation" : "FillAttestation"), `a ${r.attestation.type} for an order ${hasCalls ? "with" : "without"} destination calls`);
  ensure("attestation.requestId", same(att.requestId, r.requestId), `the attestation is for ${att.requestId}, the receipt for ${r.requestId}`);
  ensure("attestation.orderId", same(att.orderId, orderId), `the attestation names order ${att.orderId}, not ${orderId}`);
  ensure("attestation.originChainId", att.originChainId === BigInt(r.chains.origin.id), `origin chain ${att.originChainId}, the deposit's is ${r.chains.origin.id}`);
  ensure("attestation.originCurrency", same(att.originCurrency, word(deposited.token)), `origin currency ${att.originCurrency}, the deposit's is ${deposited.token}`);
  ensure("attestation.originAmount", att.originAmount === paid.amount, `origin amount ${att.originAmount}, the order's input is ${paid.amount}`);
  ensure("attestation.destinationChainId", att.destinationChainId === BigInt(r.chains.destination.id), `destination chain ${att.destinationChainId}, the receipt's is ${r.chains.destination.id}`);
  ensure("attestation.destinationUser", same(att.destinationUser, word(payment!.recipient)), `recipient ${att.destinationUser}, the order pays ${payment!.recipient}`);
  ensure("attestation.destinationCurrency", same(att.destinationCurrency, word(payment!.currency)), `currency ${att.destinationCurrency}, the order pays ${payment!.currency}`);
  ensure("attestation.destinationAmount", att.destinationAmount >= payment!.minimumAmount, `amount ${att.destinationAmount}, below the order's minimum ${payment!.minimumAmount}`);
  ensure("attestation.deadline", att.deadline === BigInt(order.output.deadline), `deadline ${att.deadline}, the order's is ${order.output.deadline}`);
  const orderReceiver = extraDataReceiver(order.output.extraData);
  ensure("attestation.receiver", orderReceiver === undefined || same(att.receiver, orderReceiver), `receiver ${att.receiver}, the order names ${orderReceiver}`);
  const digest = hasCalls ? callsFillDigest(att) : fillDigest(att);
  ensure("attestation.digest", same(digest, r.attestation.digest), `the attestation hashes to ${digest}, the receipt says ${r.attestation.digest}`);

  // 4. The signer set and the signature.
  const set = r.signerSet;
  ensure("signerSet.target", set.chainId === r.chains.destination.id && same(set.receiver, att.receiver), `the signer set is of ${set.receiver} on chain ${set.chainId}, not the attested receiver`);
  ensure("trust.receiver", trustedBy(trusted.receivers, att.receiver), `the receiver ${att.receiver} is not a trusted one`);
  let signer: Address;
  try {
    signer = await recoverPersonalSignerStrict(digest, r.attestation.signature);
  } catch (error) {
    if (error instanceof FerryError) throw new ReceiptInvalidError("attestation.signature", error.message, { cause: error });
    throw error;
  }
  ensure("signerSet.signer", set.signers.some((s) => same(s, signer)), `the signature recovers to ${signer}, not in the signer set`);
  ensure("trust.signer", trustedBy(trusted.signers, signer), `the signer ${signer} is not a trusted one`);

  // 5. The fill.
  const f = r.fill;
  ensure("fill.chainId", f.chainId === r.chains.destination.id, `the fill is on chain ${f.chainId}, the destination is ${r.chains.destination.id}`);
  ensure("fill.log.address", same(f.log.address, att.receiver) && same(f.receiver, att.receiver), `the log was emitted by ${f.log.address}, not the attested receiver ${att.receiver}`);
  const filled = decodeLog("fill.log.event", ["Filled"], f.log).args;
  ensure(
    "fill.log.fields",
    same(filled.requestId, f.fields.requestId) &&
      same(filled.recipient, f.fields.recipient) &&
      same(filled.filler, f.fields.filler) &&
      same(filled.currency, f.fields.currency) &&
      filled.amount === f.fields.amount,
    "the decoded log differs from the receipt's fill fields",
  );
  ensure("fill.requestId", same(filled.requestId, att.requestId), `the fill is for ${filled.requestId}, not ${att.requestId}`);
  ensure("fill.recipient", same(word(filled.recipient), att.destinationUser), `the fill paid ${filled.recipient}, the attestation names ${att.destinationUser}`);
  ensure("fill.currency", same(word(filled.currency), att.destinationCurrency), `the fill paid in ${filled.currency}, the attestation names ${att.destinationCurrency}`);
  ensure("fill.amount", filled.amount === att.destinationAmount, `the fill paid ${filled.amount}, the attestation says ${att.destinationAmount}`);
  ensure("fill.filledDigest", same(f.filledDigest, digest), `the receiver recorded ${f.filledDigest}, the attestation's digest is ${digest}`);
  ensure("fill.deadline", f.blockTimestamp <= att.deadline, `filled at ${f.blockTimestamp}, after the deadline ${att.deadline}`);
  ensure("signerSet.block", set.blockNumber === f.blockNumber, `the signer set is of block ${set.blockNumber}, the fill's is ${f.blockNumber}`);

  // 6. The repayment.
  const p = r.repayment;
  ensure("repayment.chainId", p.chainId === r.chains.origin.id, `the repayment is on chain ${p.chainId}, the deposit's is ${r.chains.origin.id}`);
  ensure("repayment.log.address", same(p.log.address, d.depository) && same(p.depository, d.depository), `the log was emitted by ${p.log.address}, not the deposit's Depository ${d.depository}`);
  const executed = decodeLog("repayment.log.event", ["RequestExecuted"], p.log).args;
  ensure("repayment.log.fields", same(executed.requestHash, p.fields.requestHash) && executed.nonce === p.fields.nonce, "the decoded log differs from the receipt's repayment fields");
  const { calls, credits, release, nonce, expiration } = p.request;
  if (deposited.reclaimAt !== undefined) {
    ensure("repayment.release", release !== undefined && same(release, orderId), `the deposit is reclaimable: only a release of ${orderId} ends its reclaim, the repayment ${release === undefined ? "is not a release" : `releases ${release}`}`);
  } else {
    ensure("repayment.release", release === undefined, "the repayment is a release, but the deposit is not reclaimable");
  }
  const requestHash =
    release !== undefined
      ? releaseRequestHash({ id: release, calls, credits: credits ?? [], nonce, expiration })
      : credits
        ? settlementRequestHash({ calls, credits, nonce, expiration })
        : payoutRequestHash({ calls, nonce, expiration });
  ensure("repayment.requestHash", same(executed.requestHash, requestHash), `the Depository executed ${executed.requestHash}, the receipt's request hashes to ${requestHash}`);
  ensure("repayment.nonce", executed.nonce === nonce, `the Depository executed nonce ${executed.nonce}, the request's is ${nonce}`);
  let ownCalls = calls;
  let ownCredits = credits ?? [];
  if (p.batch) {
    const { calls: ci, credits: cr } = p.batch;
    const valid = (indexes: number[], length: number) => indexes.every((i) => Number.isSafeInteger(i) && i >= 0 && i < length) && new Set(indexes).size === indexes.length;
    ensure("repayment.batch", release === undefined, "a batched repayment is never a release");
    ensure("repayment.batch", ci.length > 0 && valid(ci, calls.length) && valid(cr, (credits ?? []).length), "the batch's indexes of this request's calls and credits are out of range, repeated or empty");
    ownCalls = ci.map((i) => calls[i]!);
    ownCredits = cr.map((i) => credits![i]!);
  }
  const all = [...ownCalls, ...ownCredits];
  ensure("repayment.currency", all.every((c) => same(c.token, deposited.token)), `the repayment pays another currency than the deposit's ${deposited.token}`);
  const total = all.reduce((sum, c) => sum + c.amount, 0n);
  ensure("repayment.amount", total <= deposited.amount, `the repayment pays ${total}, more than the deposit's ${deposited.amount}`);
  ensure("repayment.filler", ownCalls.some((c) => same(c.to, filled.filler) && c.amount > 0n), `the repayment pays nothing to the filler ${filled.filler}`);
  return { signer };
}
