/**
 * Reads deposits from a chain: the `Deposited` logs of a block range or of one receipt, each enriched
 * with what the request record reports (block time, the transaction's fee, input and sender).
 *
 * How a block's facts are read (per block of the logs):
 * - **one deposit transaction in the block** (and a known receipt: POST /transactions/index, the fast
 *   fill): per transaction — the block's time (../../chains/blockTime.ts: from the shared head when it
 *   saw that block, else its header), the transaction's receipt (fee = gasUsed × effectiveGasPrice) and
 *   the transaction (input, sender): 2–3 calls;
 * - **two or more**: block-wide — the block with its transactions (`eth_getBlockByNumber(n, true)`:
 *   time, input, sender) and its receipts (`eth_getBlockReceipts(n)`): 2 calls, however many deposits,
 *   where the per-transaction reads cost 1 + 2 per transaction (at 200 users a block carries dozens).
 *   At one transaction the block-wide reads would save one call but carry the whole block — every
 *   transaction and every receipt of a busy chain's block, against one of each — and hosted providers
 *   price `eth_getBlockReceipts` as a heavy call, a multiple of one receipt's: the small reads are kept.
 * A node that does not serve `eth_getBlockReceipts` (Hardhat's EDR answers -32004 "Method
 * eth_getBlockReceipts is not supported"; ../../chains/rpcErrors.ts `isUnsupportedMethod`) is
 * remembered per chain client for `BLOCK_RECEIPTS_RETRY_MS`, its blocks read as the full block and one
 * receipt per transaction (1 + n calls) meanwhile, and asked again after it (a URL may change).
 *
 * Block-wide reads are checked as the per-transaction ones cannot be: the block read must be the one the
 * logs came from (its hash), every deposit transaction must be in it, and every receipt must carry that
 * block's hash; otherwise the read fails (`BlockReadMismatchError`) and the indexer's step is retried —
 * a missing receipt is never a zero fee. Every hash and address is canonical as the chain readers
 * make them (../../chains/readReceipt.ts, readTransaction.ts).
 */
import type { Log } from "viem";
import type { ChainClient } from "../../chains/chainClients.ts";
import { readBlockReceipts, readReceipt, type Receipt } from "../../chains/readReceipt.ts";
import { readTransaction, transactionFields } from "../../chains/readTransaction.ts";
import { blockTime } from "../../chains/blockTime.ts";
import { isUnsupportedMethod } from "../../chains/rpcErrors.ts";
import { ServiceError } from "../../errors/serviceError.ts";
import { canonicalHex, type Address, type Bytes32, type CanonicalHex } from "../../model/values.ts";
import { decodeDepositLogs, type DepositLog } from "./depositEvent.ts";
import type { ObservedDeposit } from "./depositRequest.ts";

/** Deposit transactions in one block from which its facts are read block-wide (below: per transaction). */
export const BLOCK_WIDE_MIN_TRANSACTIONS = 2;

/** How long a chain whose node does not serve `eth_getBlockReceipts` is not asked it again (1 h). */
export const BLOCK_RECEIPTS_RETRY_MS = 3_600_000;

/** Per chain client, until when its node is taken not to serve `eth_getBlockReceipts` (ms, process memory). */
const noBlockReceipts = new WeakMap<ChainClient, number>();

/** A block-wide read that does not fit the deposits' block: another block, a transaction or receipt missing. */
export class BlockReadMismatchError extends ServiceError {
  constructor(chainId: number, block: bigint, what: string) {
    super("CHAIN_UNAVAILABLE", `chain ${chainId}: block ${block} as read does not hold its deposits: ${what}; reading again`);
  }
}

type TxFacts = { fee: bigint; input: CanonicalHex; from: Address };
type BlockFacts = { timestamp: number; txs: Map<Bytes32, TxFacts> };

/** The Depository's deposits in one mined transaction. */
export async function depositsInReceipt(client: ChainClient, receipt: Receipt): Promise<ObservedDeposit[]> {
  return enrichDeposits(client, decodeDepositLogs(client.config.id, client.config.contracts.depository, receipt.logs as Log[]), receipt);
}

/** Decoded deposit logs with the facts the request record reports (block time, the transaction's fee, input and sender). */
export async function enrichDeposits(client: ChainClient, logs: DepositLog[], knownReceipt?: Receipt, now: () => number = Date.now): Promise<ObservedDeposit[]> {
  const byBlock = new Map<bigint, DepositLog[]>();
  for (const log of logs) byBlock.set(log.blockNumber, [...(byBlock.get(log.blockNumber) ?? []), log]);
  const facts = new Map<bigint, BlockFacts>();
  await Promise.all(
    [...byBlock].map(async ([block, blockLogs]) => {
      facts.set(block, await blockFacts(client, block, blockLogs, knownReceipt, now));
    }),
  );
  return logs.map((log) => {
    const block = facts.get(log.blockNumber)!;
    const tx = block.txs.get(log.txHash)!;
    return { ...log, blockTimestamp: block.timestamp, txFee: tx.fee, txInput: tx.input, txFrom: tx.from };
  });
}

const feeOf = (receipt: Receipt): bigint => receipt.gasUsed * receipt.effectiveGasPrice;

async function blockFacts(client: ChainClient, block: bigint, logs: DepositLog[], knownReceipt: Receipt | undefined, now: () => number): Promise<BlockFacts> {
  const { publicClient } = client;
  const hashes = [...new Set(logs.map((log) => log.txHash))];
  const receiptOf = (hash: Bytes32) => (knownReceipt && knownReceipt.transactionHash === hash ? knownReceipt : readReceipt(publicClient, hash));

  if (hashes.length < BLOCK_WIDE_MIN_TRANSACTIONS) {
    const [timestamp, txs] = await Promise.all([
      blockTime(client, block, logs[0]!.blockHash).then(Number),
      Promise.all(
        hashes.map(async (hash): Promise<[Bytes32, TxFacts]> => {
          const [receipt, tx] = await Promise.all([receiptOf(hash), readTransaction(publicClient, hash)]);
          return [hash, { fee: feeOf(receipt), input: tx.input, from: tx.from }];
        }),
      ),
    ]);
    return { timestamp, txs: new Map(txs) };
  }

  const mismatch = (what: string) => new BlockReadMismatchError(client.config.id, block, what);
  const [full, receipts] = await Promise.all([
    publicClient.getBlock({ blockNumber: block, includeTransactions: true }),
    receiptsOfBlock(client, block, now).then((all) => all ?? Promise.all(hashes.map(receiptOf))),
  ]);
  const blockHash = full.hash === null ? null : canonicalHex(full.hash);
  const foreign = logs.find((log) => log.blockHash !== blockHash);
  if (foreign) throw mismatch(`its hash is ${blockHash}, the deposit log of ${foreign.txHash} says ${foreign.blockHash}`);
  const inBlock = new Map(full.transactions.flatMap((t) => (typeof t === "object" ? [transactionFields(t)] : [])).map((t) => [t.hash, t]));
  const receiptByHash = new Map(receipts.map((r) => [r.transactionHash, r]));
  const txs = new Map<Bytes32, TxFacts>();
  for (const hash of hashes) {
    const tx = inBlock.get(hash);
    if (!tx) throw mismatch(`transaction ${hash} is not in it`);
    const receipt = receiptByHash.get(hash);
    if (!receipt) throw mismatch(`no receipt for ${hash}`);
    if (receipt.blockHash !== blockHash) throw mismatch(`the receipt of ${hash} is of block ${receipt.blockHash}`);
    txs.set(hash, { fee: feeOf(receipt), input: tx.input, from: tx.from });
  }
  return { timestamp: Number(full.timestamp), txs };
}

/** The block's receipts in one call, or null when the chain's node does not serve `eth_getBlockReceipts` (remembered). */
async function receiptsOfBlock(client: ChainClient, block: bigint, now: () => number): Promise<Receipt[] | null> {
  const until = noBlockReceipts.get(client);
  if (until !== undefined && now() < until) return null;
  try {
    const receipts = await readBlockReceipts(client.publicClient, block);
    noBlockReceipts.delete(client);
    return receipts;
  } catch (error) {
    if (!isUnsupportedMethod(error)) throw error;
    noBlockReceipts.set(client, now() + BLOCK_RECEIPTS_RETRY_MS);
    return null;
  }
}
