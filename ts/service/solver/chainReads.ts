/**
 * Chain reads the steps share: a receipt or transaction that may not exist yet (re-exported from
 * ../transactions/transactionLookup.ts), the spec's `outTxs`/`inTxs` entry of a mined transaction,
 * and the onchain facts that make a step idempotent — the receiver's `Filled` log of a request and the Depository's `RequestExecuted`
 * log of a payout. Those log lookups are bounded: they read backwards from the head in pieces
 * (./indexer/logScan.ts, the chain's maxLogRange, halved on a provider's range error) and stop at the block
 * before which the log cannot exist (a time the caller knows: the quote for a fill, the payout's
 * planning for a payout) — never one getLogs from the deployment block to the head.
 */
import { blockTime } from "../chains/blockTime.ts";
import type { Hex, PublicClient } from "viem";
import { attestedReceiverAbi } from "../../abi/AttestedReceiver.ts";
import { depositoryAbi } from "../../abi/Depository.ts";
import type { ChainClient } from "../chains/chainClients.ts";
import { findLogBackwards } from "./indexer/logScan.ts";
import type { OnchainTx } from "../model/requestData.ts";
import { canonicalHex, type Bytes32 } from "../model/values.ts";
import type { Receipt } from "../chains/readReceipt.ts";
import { readTransaction, type ReadTransaction } from "../chains/readTransaction.ts";
import { QUOTE_TTL_MAX_SECONDS } from "../config/configSchema.ts";
import type { QuotedIntent } from "../model/quotedIntent.ts";

export { receiptOrNull, transactionKnown } from "../transactions/transactionLookup.ts";

/** The fill digest `dest`'s AttestedReceiver recorded for `requestId` (zero when unfilled), canonical. */
export async function filledDigestOf(dest: ChainClient, requestId: Bytes32): Promise<Bytes32> {
  return canonicalHex(await dest.publicClient.readContract({ address: dest.config.contracts.attestedReceiver, abi: attestedReceiverAbi, functionName: "filledDigest", args: [requestId] }));
}

const FILLED_EVENT = attestedReceiverAbi.find((i) => i.type === "event" && i.name === "Filled")!;
const REQUEST_EXECUTED_EVENT = depositoryAbi.find((i) => i.type === "event" && i.name === "RequestExecuted")!;
const RECLAIMED_EVENT = depositoryAbi.find((i) => i.type === "event" && i.name === "Reclaimed")!;

/**
 * The spec's transaction entry (`inTxs` / `outTxs`) of a mined transaction, its hash canonical (as read).
 * `sent`: the transaction as the service stored and sent it (../transactions/nonceManager.ts `follow`),
 * used instead of reading it back when it is the receipt's.
 */
export async function onchainTxOf(client: ChainClient, receipt: Receipt, sent?: ReadTransaction): Promise<OnchainTx & { hash: Bytes32 }> {
  const [timestamp, tx] = await Promise.all([
    blockTime(client, receipt.blockNumber, receipt.blockHash),
    sent && sent.hash === receipt.transactionHash ? sent : readTransaction(client.publicClient, receipt.transactionHash),
  ]);
  return {
    fee: (receipt.gasUsed * receipt.effectiveGasPrice).toString(),
    data: { from: tx.from, to: tx.to, input: tx.input, value: tx.value.toString() },
    stateChanges: [],
    hash: tx.hash,
    block: Number(receipt.blockNumber),
    type: "onchain",
    chainId: client.config.id,
    timestamp: Number(timestamp),
    status: receipt.status === "success" ? "success" : "failure",
  };
}

/**
 * Chain clocks and the service's clock disagree by minutes at most; lookups start this much earlier
 * than the time they are bounded by.
 */
export const CLOCK_SKEW_SECONDS = 3_600;

/**
 * Reads backwards from the head for the first log of `query`, stopping below the block whose time is
 * before `notBefore` (unix seconds) or at the deployment block.
 */
async function findBackwards(client: ChainClient, query: Parameters<typeof findLogBackwards>[1], notBefore: number): Promise<Bytes32 | null> {
  const head = await client.publicClient.getBlockNumber({ cacheTime: 0 });
  const floor = BigInt(client.config.deploymentBlock ?? 0);
  const log = await findLogBackwards(client, query, head, async (pieceStart) => {
    if (pieceStart <= floor) return true;
    const block = await client.publicClient.getBlock({ blockNumber: pieceStart });
    return Number(block.timestamp) < notBefore - CLOCK_SKEW_SECONDS;
  });
  return log?.transactionHash ? canonicalHex(log.transactionHash) : null;
}

/** The earliest time a fill of `intent` can have happened: its quote's, at the longest quote TTL before its expiry. */
export function fillNotBefore(intent: Pick<QuotedIntent, "expiresAt">): number {
  return intent.expiresAt - QUOTE_TTL_MAX_SECONDS;
}

/**
 * The transaction that filled `requestId` on this chain's receiver, from its `Filled` log. `notBefore`:
 * a time no fill of the request can precede (its quote's time at the earliest).
 */
export async function findFillTx(client: ChainClient, requestId: Hex, notBefore: number): Promise<Bytes32 | null> {
  return findBackwards(client, { address: client.config.contracts.attestedReceiver, event: FILLED_EVENT, args: { requestId } }, notBefore);
}

export async function isFilled(client: ChainClient, requestId: Hex): Promise<boolean> {
  return client.publicClient.readContract({ address: client.config.contracts.attestedReceiver, abi: attestedReceiverAbi, functionName: "filled", args: [requestId] });
}

/**
 * The transaction that executed the payout with struct hash `requestHash`, from its `RequestExecuted`
 * log. `notBefore`: when the payout was planned (nothing signed it earlier).
 */
export async function findPayoutTx(client: ChainClient, requestHash: Hex, notBefore: number): Promise<Bytes32 | null> {
  return findBackwards(client, { address: client.config.contracts.depository, event: REQUEST_EXECUTED_EVENT, args: { requestHash } }, notBefore);
}

/** Whether the Depository's replay guard has used `nonce` (payouts are keyed by nonce onchain). */
export async function isPayoutExecuted(client: ChainClient, nonce: bigint): Promise<boolean> {
  return client.publicClient.readContract({ address: client.config.contracts.depository, abi: depositoryAbi, functionName: "executed", args: [nonce] });
}

/**
 * The depositor's `reclaim` of the reclaimable deposit under `orderId`, from its `Reclaimed` log.
 * `notBefore`: the deposit's block time (nothing reclaims it earlier).
 */
export async function findReclaimTx(client: ChainClient, orderId: Hex, notBefore: number): Promise<Bytes32 | null> {
  return findBackwards(client, { address: client.config.contracts.depository, event: RECLAIMED_EVENT, args: { id: orderId } }, notBefore);
}
