/**
 * The request receipt (`GET /requests/{requestId}/receipt`, format `ferry.receipt.v1`): one
 * self-contained JSON bundle of everything a filled and repaid request did — the quote's order, the
 * origin deposit's `Deposited` log, the fill attestation with its signature, the destination
 * receiver's signer set at the fill block, the fill's `Filled` log and the repayment's
 * `RequestExecuted` log with the allocator's request — that `verifyReceipt` (./verifyReceipt.ts)
 * checks offline. docs/api.md "Request receipts" documents the format.
 *
 * Wire form: chain ids, block numbers and log indexes are JSON numbers (safe integers); amounts,
 * nonces, deadlines and timestamps decimal strings; hashes, addresses and log data 0x-hex. Each log is
 * carried raw (`address`, `topics`, `data`, exactly as the chain returned it) beside its decoded
 * `fields`: the verifier decodes the raw log itself and requires both to agree.
 */
import type { Address, Hex } from "viem";
import { normalizeFillAttestation, type FillAttestation } from "./attestationDigest.ts";
import { InvalidInputError } from "./errors.ts";
import { parseAddress, parseArray, parseBytes32, parseHexBytes, parseObject, parseString, parseUint } from "./inputParsers.ts";
import type { PayoutCall } from "./payoutRequest.ts";

/** The one format version this core reads and writes. */
export const RECEIPT_VERSION = "ferry.receipt.v1";

/** The two attestation types a fill can carry (a calls attestation runs through `fillWithCalls` only). */
export type ReceiptAttestationType = "FillAttestation" | "CallsFillAttestation";

/** A log as the chain returned it. */
export type ReceiptLog = { address: Address; topics: Hex[]; data: Hex };

/** Where a log is: its chain, transaction, block and index in the block. */
export type ReceiptLogPlace = { chainId: number; txHash: Hex; blockNumber: number; blockHash: Hex; logIndex: number; log: ReceiptLog };

/** A chain as the order names it (`solverChainId`, `inputs[].payment.chainId`, `output.chainId`) and its EVM chain id. */
export type ReceiptChain = { id: number; name: string };

export type RequestReceipt = {
  version: typeof RECEIPT_VERSION;
  requestId: Hex;
  chains: { origin: ReceiptChain; destination: ReceiptChain };
  /** The quote's `protocol.v2.orderData` (wire form, hashed by the verifier) and the orderId it claims. */
  order: { orderId: Hex; orderData: unknown };
  /**
   * The Depository's `Deposited(id, depositor, token, amount)` that credited the request, or for a
   * reclaimable deposit its `DepositedReclaimable(id, depositor, token, amount, reclaimAt)` (`reclaimAt` present).
   */
  deposit: ReceiptLogPlace & { depository: Address; fields: { id: Hex; depositor: Address; token: Address; amount: bigint; reclaimAt?: bigint } };
  /** The v2 attestation the fill carried, the digest signed (fill or calls digest) and the attester's signature. */
  attestation: { type: ReceiptAttestationType; fields: FillAttestation; digest: Hex; signature: Hex };
  /** The destination AttestedReceiver's `signers()` at `blockNumber` (the fill's block). */
  signerSet: { chainId: number; receiver: Address; blockNumber: number; signers: Address[] };
  /** The receiver's `Filled(requestId, recipient, filler, currency, amount)`, the fill block's time and `filledDigest(requestId)` after it. */
  fill: ReceiptLogPlace & {
    receiver: Address;
    blockTimestamp: bigint;
    filledDigest: Hex;
    fields: { requestId: Hex; recipient: Address; filler: Address; currency: Address; amount: bigint };
  };
  /**
   * The allocator's repayment request (`release` present: a ReleaseRequest of that orderId for
   * `release` — a reclaimable deposit's; else `credits` present: a SettlementRequest for `settle`; else a
   * CallRequest for `execute`) and the Depository's `RequestExecuted(requestHash, nonce)`.
   */
  repayment: ReceiptLogPlace & {
    depository: Address;
    request: { calls: PayoutCall[]; credits?: PayoutCall[]; release?: Hex; nonce: bigint; expiration: bigint };
    fields: { requestHash: Hex; nonce: bigint };
    /**
     * A batched repayment (one request paying several requests' repayments): this request's calls and
     * credits in `request` (indexes). The checks of what is paid apply to these only.
     */
    batch?: { calls: number[]; credits: number[] };
  };
};

/** The JSON form of a receipt (what the route serves and `ferry requests receipt` writes). */
export type RequestReceiptJson = ReturnType<typeof requestReceiptToJson>;

const dec = (value: bigint) => value.toString();
const callJson = (call: PayoutCall) => ({ to: call.to, token: call.token, amount: dec(call.amount) });
const placeJson = (p: ReceiptLogPlace) => ({
  chainId: p.chainId,
  txHash: p.txHash,
  blockNumber: p.blockNumber,
  blockHash: p.blockHash,
  logIndex: p.logIndex,
  log: { address: p.log.address, topics: [...p.log.topics], data: p.log.data },
});

/** The wire form of a typed receipt. */
export function requestReceiptToJson(r: RequestReceipt) {
  const a = r.attestation.fields;
  return {
    version: r.version,
    requestId: r.requestId,
    chains: { origin: { ...r.chains.origin }, destination: { ...r.chains.destination } },
    order: { orderId: r.order.orderId, orderData: r.order.orderData },
    deposit: {
      ...placeJson(r.deposit),
      depository: r.deposit.depository,
      fields: {
        id: r.deposit.fields.id,
        depositor: r.deposit.fields.depositor,
        token: r.deposit.fields.token,
        amount: dec(r.deposit.fields.amount),
        ...(r.deposit.fields.reclaimAt !== undefined ? { reclaimAt: dec(r.deposit.fields.reclaimAt) } : {}),
      },
    },
    attestation: {
      type: r.attestation.type,
      fields: {
        requestId: a.requestId,
        orderId: a.orderId,
        originChainId: dec(a.originChainId),
        originUser: a.originUser,
        originCurrency: a.originCurrency,
        originAmount: dec(a.originAmount),
        destinationChainId: dec(a.destinationChainId),
        destinationUser: a.destinationUser,
        destinationCurrency: a.destinationCurrency,
        destinationAmount: dec(a.destinationAmount),
        deadline: dec(a.deadline),
        receiver: a.receiver,
      },
      digest: r.attestation.digest,
      signature: r.attestation.signature,
    },
    signerSet: { chainId: r.signerSet.chainId, receiver: r.signerSet.receiver, blockNumber: r.signerSet.blockNumber, signers: [...r.signerSet.signers] },
    fill: {
      ...placeJson(r.fill),
      receiver: r.fill.receiver,
      blockTimestamp: dec(r.fill.blockTimestamp),
      filledDigest: r.fill.filledDigest,
      fields: { ...r.fill.fields, amount: dec(r.fill.fields.amount) },
    },
    repayment: {
      ...placeJson(r.repayment),
      depository: r.repayment.depository,
      request: {
        calls: r.repayment.request.calls.map(callJson),
        ...(r.repayment.request.credits ? { credits: r.repayment.request.credits.map(callJson) } : {}),
        ...(r.repayment.request.release !== undefined ? { release: r.repayment.request.release } : {}),
        nonce: dec(r.repayment.request.nonce),
        expiration: dec(r.repayment.request.expiration),
      },
      fields: { requestHash: r.repayment.fields.requestHash, nonce: dec(r.repayment.fields.nonce) },
      ...(r.repayment.batch ? { batch: { calls: [...r.repayment.batch.calls], credits: [...r.repayment.batch.credits] } } : {}),
    },
  };
}

const safeInt = (value: unknown, path: string): number => {
  if (typeof value !== "number" || !Number.isSafeInteger(value) || value < 0) throw new InvalidInputError("expected a non-negative safe integer", { path });
  return value;
};

function parseLog(input: unknown, path: string): ReceiptLog {
  const o = parseObject(input, path);
  return {
    address: parseAddress(o.address, `${path}.address`),
    topics: parseArray(o.topics, `${path}.topics`).map((t, i) => parseBytes32(t, `${path}.topics[${i}]`)),
    data: parseHexBytes(o.data, `${path}.data`),
  };
}

function parsePlace(o: Record<string, unknown>, path: string): ReceiptLogPlace {
  return {
    chainId: safeInt(o.chainId, `${path}.chainId`),
    txHash: parseBytes32(o.txHash, `${path}.txHash`),
    blockNumber: safeInt(o.blockNumber, `${path}.blockNumber`),
    blockHash: parseBytes32(o.blockHash, `${path}.blockHash`),
    logIndex: safeInt(o.logIndex, `${path}.logIndex`),
    log: parseLog(o.log, `${path}.log`),
  };
}

function parseChain(input: unknown, path: string): ReceiptChain {
  const o = parseObject(input, path);
  return { id: safeInt(o.id, `${path}.id`), name: parseString(o.name, `${path}.name`) };
}

function parseCalls(input: unknown, path: string): PayoutCall[] {
  return parseArray(input, path).map((value, i) => {
    const c = parseObject(value, `${path}[${i}]`);
    return { to: parseAddress(c.to, `${path}[${i}].to`), token: parseAddress(c.token, `${path}[${i}].token`), amount: parseUint(c.amount, `${path}[${i}].amount`) };
  });
}

function parseBatch(input: unknown): { calls: number[]; credits: number[] } {
  const o = parseObject(input, "repayment.batch");
  return {
    calls: parseArray(o.calls, "repayment.batch.calls").map((v, i) => safeInt(v, `repayment.batch.calls[${i}]`)),
    credits: parseArray(o.credits, "repayment.batch.credits").map((v, i) => safeInt(v, `repayment.batch.credits[${i}]`)),
  };
}

/**
 * Reads a receipt's JSON (loose notations as ./inputParsers.ts accepts them) into the typed receipt,
 * or throws INVALID_INPUT / INVALID_ADDRESS naming the field. The order is kept as given: the verifier
 * hashes it.
 */
export function requestReceiptFromJson(input: unknown): RequestReceipt {
  const o = parseObject(input, "receipt");
  if (o.version !== RECEIPT_VERSION) throw new InvalidInputError(`unknown receipt version ${JSON.stringify(o.version)} (expected ${RECEIPT_VERSION})`, { path: "version" });
  const chains = parseObject(o.chains, "chains");
  const order = parseObject(o.order, "order");
  const deposit = parseObject(o.deposit, "deposit");
  const depositFields = parseObject(deposit.fields, "deposit.fields");
  const attestation = parseObject(o.attestation, "attestation");
  const signerSet = parseObject(o.signerSet, "signerSet");
  const fill = parseObject(o.fill, "fill");
  const fillFields = parseObject(fill.fields, "fill.fields");
  const repayment = parseObject(o.repayment, "repayment");
  const request = parseObject(repayment.request, "repayment.request");
  const repaymentFields = parseObject(repayment.fields, "repayment.fields");
  if (attestation.type !== "FillAttestation" && attestation.type !== "CallsFillAttestation") {
    throw new InvalidInputError("expected FillAttestation or CallsFillAttestation", { path: "attestation.type" });
  }
  let fields: FillAttestation;
  try {
    fields = normalizeFillAttestation(attestation.fields);
  } catch (error) {
    if (error instanceof InvalidInputError) throw new InvalidInputError(error.message, { path: "attestation.fields", cause: error });
    throw error;
  }
  return {
    version: RECEIPT_VERSION,
    requestId: parseBytes32(o.requestId, "requestId"),
    chains: { origin: parseChain(chains.origin, "chains.origin"), destination: parseChain(chains.destination, "chains.destination") },
    order: { orderId: parseBytes32(order.orderId, "order.orderId"), orderData: parseObject(order.orderData, "order.orderData") },
    deposit: {
      ...parsePlace(deposit, "deposit"),
      depository: parseAddress(deposit.depository, "deposit.depository"),
      fields: {
        id: parseBytes32(depositFields.id, "deposit.fields.id"),
        depositor: parseAddress(depositFields.depositor, "deposit.fields.depositor"),
        token: parseAddress(depositFields.token, "deposit.fields.token"),
        amount: parseUint(depositFields.amount, "deposit.fields.amount"),
        ...(depositFields.reclaimAt !== undefined ? { reclaimAt: parseUint(depositFields.reclaimAt, "deposit.fields.reclaimAt") } : {}),
      },
    },
    attestation: {
      type: attestation.type,
      fields,
      digest: parseBytes32(attestation.digest, "attestation.digest"),
      signature: parseHexBytes(attestation.signature, "attestation.signature"),
    },
    signerSet: {
      chainId: safeInt(signerSet.chainId, "signerSet.chainId"),
      receiver: parseAddress(signerSet.receiver, "signerSet.receiver"),
      blockNumber: safeInt(signerSet.blockNumber, "signerSet.blockNumber"),
      signers: parseArray(signerSet.signers, "signerSet.signers").map((s, i) => parseAddress(s, `signerSet.signers[${i}]`)),
    },
    fill: {
      ...parsePlace(fill, "fill"),
      receiver: parseAddress(fill.receiver, "fill.receiver"),
      blockTimestamp: parseUint(fill.blockTimestamp, "fill.blockTimestamp"),
      filledDigest: parseBytes32(fill.filledDigest, "fill.filledDigest"),
      fields: {
        requestId: parseBytes32(fillFields.requestId, "fill.fields.requestId"),
        recipient: parseAddress(fillFields.recipient, "fill.fields.recipient"),
        filler: parseAddress(fillFields.filler, "fill.fields.filler"),
        currency: parseAddress(fillFields.currency, "fill.fields.currency"),
        amount: parseUint(fillFields.amount, "fill.fields.amount"),
      },
    },
    repayment: {
      ...parsePlace(repayment, "repayment"),
      depository: parseAddress(repayment.depository, "repayment.depository"),
      request: {
        calls: parseCalls(request.calls, "repayment.request.calls"),
        ...(request.credits !== undefined ? { credits: parseCalls(request.credits, "repayment.request.credits") } : {}),
        ...(request.release !== undefined ? { release: parseBytes32(request.release, "repayment.request.release") } : {}),
        nonce: parseUint(request.nonce, "repayment.request.nonce"),
        expiration: parseUint(request.expiration, "repayment.request.expiration"),
      },
      fields: { requestHash: parseBytes32(repaymentFields.requestHash, "repayment.fields.requestHash"), nonce: parseUint(repaymentFields.nonce, "repayment.fields.nonce") },
      ...(repayment.batch !== undefined ? { batch: parseBatch(repayment.batch) } : {}),
    },
  };
}
