/**
 * Builds the request receipt (ts/core/requestReceipt.ts, served by GET /requests/{requestId}/receipt)
 * of a request that is filled and repaid: the facts come from the chains, not from the service's
 * records — the store only says where to look (the credited deposit's transaction and log index, the
 * fill's and the repayment's transactions) and holds the quote's order and the allocator's repayment
 * request (which are not onchain as such; the verifier hashes them and compares with what is).
 *
 * Read from the chains: the `Deposited` (or `DepositedReclaimable`) log (origin, the deposit's receipt), the fill transaction's
 * input — the attestation and the signature that were actually sent, decoded (`fill_7hVe`,
 * `fillAndCall`, or the full-ABI `fill` / `fillWithCalls`) — its `Filled` log, block time, and the
 * receiver's `signers()` and `filledDigest(requestId)` at the fill block (destination), the
 * `RequestExecuted` log (origin, the repayment's receipt). About eight RPC reads per receipt.
 *
 * Refused with 409 RECEIPT_UNAVAILABLE until the request is `success` with its repayment confirmed
 * (and for a request with no quoted order: a relayed execution); 404 REQUEST_NOT_FOUND for an unknown
 * id; 503 RECEIPT_DATA_MISSING when a transaction, block or log is not where the record says (a node
 * that lost it, a reorg); 503 CHAIN_UNAVAILABLE when a chain's RPC does not answer.
 */
import { decodeFunctionData, isAddressEqual, type Address, type Hex, type Log } from "viem";
import { attestedReceiverAbi } from "../../abi/AttestedReceiver.ts";
import { callsFillDigest, fillDigest, normalizeFillAttestation, type FillAttestation } from "../../core/attestationDigest.ts";
import { decodeFill } from "../../core/fillCalldata.ts";
import { fromCompactSignature } from "../../core/compactSignature.ts";
import { orderToJson } from "../../core/orderJson.ts";
import { RECEIPT_VERSION, type ReceiptLogPlace, type RequestReceipt } from "../../core/requestReceipt.ts";
import { RECEIPT_EVENTS_ABI } from "../../core/verifyReceipt.ts";
import type { ChainClients } from "../chains/chainClients.ts";
import { decodeLog } from "../chains/decodeLog.ts";
import type { ChainConfig } from "../config/configSchema.ts";
import { ServiceError } from "../errors/serviceError.ts";
import { hasCalls } from "../model/intentCalls.ts";
import { canonicalFields, type Bytes32 } from "../model/values.ts";
import type { Store } from "../store/createStore.ts";

export type ReceiptSources = { store: Pick<Store, "getRequest" | "getQuote">; chains: readonly ChainConfig[]; clients: Pick<ChainClients, "get"> };

const unavailable = (message: string) => new ServiceError("RECEIPT_UNAVAILABLE", message);
const missing = (message: string) => new ServiceError("RECEIPT_DATA_MISSING", message);

export async function buildRequestReceipt(sources: ReceiptSources, requestId: Bytes32): Promise<RequestReceipt> {
  const stored = await sources.store.getRequest(requestId);
  if (!stored) {
    if (await sources.store.getQuote(requestId)) throw unavailable("the request is quoted but its deposit is not indexed yet");
    throw new ServiceError("REQUEST_NOT_FOUND", `request not found: ${requestId}`);
  }
  const state = stored.solver;
  if (stored.status !== "success") throw unavailable(`the request is ${stored.status}: a receipt covers a filled and repaid request`);
  if (!state?.deposit || !state.fill?.block) throw unavailable("the request has no credited deposit or confirmed fill on record");
  if (state.repayment?.status !== "confirmed" || !state.repayment.hash) throw unavailable("the solver's repayment is not confirmed yet");
  const quote = await sources.store.getQuote(requestId);
  if (!quote) throw unavailable("the request has no quoted order (a relayed execution)");
  const { intent, deposit, fill, repayment } = state;
  const repaymentHash = repayment.hash!;

  const originConfig = chainConfig(sources.chains, stored.originChainId);
  const destinationConfig = chainConfig(sources.chains, stored.destinationChainId);
  const origin = sources.clients.get(stored.originChainId).publicClient;
  const destination = sources.clients.get(stored.destinationChainId).publicClient;
  const receiver = destinationConfig.contracts.attestedReceiver;
  const fillBlock = BigInt(fill.block!);

  const [depositReceipt, fillReceipt, fillTx, repaymentReceipt, block, signers, filledDigest] = await Promise.all([
    origin.getTransactionReceipt({ hash: deposit.txHash }),
    destination.getTransactionReceipt({ hash: fill.hash }),
    destination.getTransaction({ hash: fill.hash }),
    origin.getTransactionReceipt({ hash: repaymentHash }),
    destination.getBlock({ blockNumber: fillBlock }),
    destination.readContract({ address: receiver, abi: attestedReceiverAbi, functionName: "signers", blockNumber: fillBlock }),
    destination.readContract({ address: receiver, abi: attestedReceiverAbi, functionName: "filledDigest", args: [requestId], blockNumber: fillBlock }),
  ]).catch((cause: unknown) => {
    // A transaction or block the node does not have: the record points where the chain no longer is.
    if (cause instanceof Error && /NotFoundError$/.test(cause.name)) throw missing(`a chain no longer returns what the request's record points at (${cause.name})`);
    throw new ServiceError("CHAIN_UNAVAILABLE", "a chain of the request did not answer; retry", { cause });
  });

  const depositLog = depositReceipt.logs.find((log) => log.logIndex === deposit.logIndex && isAddressEqual(log.address, deposit.depository));
  if (!depositLog) throw missing(`no log ${deposit.logIndex} of the Depository in deposit ${deposit.txHash}`);
  const filledLog = findEvent(fillReceipt.logs, receiver, "Filled", (args) => args.requestId === requestId);
  if (!filledLog) throw missing(`no Filled log of ${requestId} in fill ${fill.hash}`);
  const executedLog = findEvent(repaymentReceipt.logs, repayment.depository, "RequestExecuted", (args) => args.requestHash === repayment.requestHash);
  if (!executedLog) throw missing(`no RequestExecuted log of ${repayment.requestHash} in repayment ${repaymentHash}`);

  const sent = sentAttestation(fillTx.input, { chainId: stored.destinationChainId, receiver });
  const calls = hasCalls(intent);
  const filled = filledLog.args as { requestId: Hex; recipient: Address; filler: Address; currency: Address; amount: bigint };
  const executed = executedLog.args as { requestHash: Hex; nonce: bigint };
  return {
    version: RECEIPT_VERSION,
    requestId,
    chains: { origin: { id: originConfig.id, name: originConfig.name }, destination: { id: destinationConfig.id, name: destinationConfig.name } },
    order: { orderId: stored.orderId, orderData: orderToJson(quote.orderData) },
    deposit: {
      ...place(stored.originChainId, depositLog),
      depository: deposit.depository,
      fields: {
        id: stored.orderId,
        depositor: deposit.depositor,
        token: deposit.token,
        amount: deposit.amount,
        ...(deposit.reclaimAt !== undefined && { reclaimAt: deposit.reclaimAt }),
      },
    },
    attestation: {
      type: calls ? "CallsFillAttestation" : "FillAttestation",
      fields: sent.attestation,
      digest: calls ? callsFillDigest(sent.attestation) : fillDigest(sent.attestation),
      signature: sent.signature,
    },
    signerSet: { chainId: stored.destinationChainId, receiver, blockNumber: Number(fillBlock), signers: [...signers] },
    fill: {
      ...place(stored.destinationChainId, filledLog.log),
      receiver,
      blockTimestamp: block.timestamp,
      filledDigest,
      fields: { requestId: filled.requestId, recipient: filled.recipient, filler: filled.filler, currency: filled.currency, amount: filled.amount },
    },
    repayment: {
      ...place(stored.originChainId, executedLog.log),
      depository: repayment.depository,
      request: {
        calls: repayment.calls.map((c) => ({ ...c })),
        ...(repayment.credits && repayment.credits.length > 0 ? { credits: repayment.credits.map((c) => ({ ...c })) } : {}),
        ...(repayment.release !== undefined && { release: repayment.release }),
        nonce: repayment.nonce,
        expiration: BigInt(repayment.expiration),
      },
      fields: { requestHash: executed.requestHash, nonce: executed.nonce },
      ...(repayment.batch && { batch: { calls: [...repayment.batch.calls], credits: [...repayment.batch.credits] } }),
    },
  };
}

function chainConfig(chains: readonly ChainConfig[], id: number): ChainConfig {
  const chain = chains.find((c) => c.id === id);
  if (!chain) throw unavailable(`chain ${id} of the request is not configured any more`);
  return chain;
}

/**
 * The log of `eventName` that `emitter` emitted and whose decoded arguments `match`, with those
 * arguments canonical (the chains room's decoder), so they compare with `===`.
 */
function findEvent<const N extends "Filled" | "RequestExecuted">(logs: readonly Log[], emitter: Address, eventName: N, match: (args: Record<string, unknown>) => boolean) {
  const abi = RECEIPT_EVENTS_ABI.filter((item) => item.type === "event" && item.name === eventName);
  for (const log of logs) {
    const args = decodeLog(abi, log) as Record<string, unknown> | undefined;
    if (args && args.emitter === emitter && match(args)) return { log, args };
  }
  return undefined;
}

function place(chainId: number, log: Log): ReceiptLogPlace {
  const hashes = canonicalFields({ txHash: log.transactionHash!, blockHash: log.blockHash! });
  return {
    chainId,
    ...hashes,
    blockNumber: Number(log.blockNumber),
    logIndex: log.logIndex!,
    log: { address: log.address, topics: [...log.topics], data: log.data },
  };
}

/** The attestation and signature the fill transaction carried, decoded from its input. */
function sentAttestation(input: Hex, target: { chainId: number; receiver: Address }): { attestation: FillAttestation; signature: Hex } {
  try {
    const packed = decodeFill(input, target);
    return { attestation: packed.attestation, signature: packed.signature65 };
  } catch {
    // Not the packed forms: the full-ABI fill or fillWithCalls.
  }
  try {
    const call = decodeFunctionData({ abi: attestedReceiverAbi, data: input });
    if (call.functionName === "fill" || call.functionName === "fillWithCalls") {
      const [att, signature] = call.args as unknown as [Record<string, unknown>, Hex | { r: Hex; vs: Hex }];
      return { attestation: normalizeFillAttestation(att), signature: typeof signature === "string" ? signature : fromCompactSignature(signature) };
    }
  } catch {
    // Reported below.
  }
  throw missing("the fill transaction's input is not a fill the receiver takes");
}
