/**
 * A client's nudge (POST /transactions/index): index the deposits of one transaction now instead of
 * waiting for the indexer's next pass. Mined in a final block (../../chains/chainFinality.ts) → recorded
 * through the indexer's own path (./recordDeposits.ts; the checkpoint is left to the indexer, which
 * will find them credited already). Not mined, not yet final, or on a chain halted after a deep reorg
 * → the request is created in `waiting` with its inTxHash when the transaction's input is a deposit
 * for a known quote (`depositing` for a signature-authorised one, `depositErc20Permit` /
 * `depositPermit2`, which a relayer sends for the user); the indexer finishes.
 */
import type { Bytes32 } from "../../model/values.ts";
import type { ChainConfig } from "../../config/configSchema.ts";
import type { Store } from "../../store/createStore.ts";
import { readChainFinality } from "../../chains/chainFinality.ts";
import type { ChainClient, ChainClients } from "../../chains/chainClients.ts";
import { receiptOrNull } from "../chainReads.ts";
import { decodeDepositCall } from "./depositEvent.ts";
import { depositsInReceipt } from "./observeDeposits.ts";
import { recordDeposits, recordWaitingDeposit } from "./recordDeposits.ts";
import type { Logger } from "../../logging/logger.ts";
import { TransactionNotFoundError as ViemTransactionNotFoundError } from "viem";
import { ServiceError } from "../../errors/serviceError.ts";
import { isFerryError } from "../../../core/errors.ts";
import { withRpcDeadline } from "../../chains/rpcDeadline.ts";
import { readTransaction } from "../../chains/readTransaction.ts";

/** How long the index route waits for the chain: a hanging RPC answers 503 CHAIN_UNAVAILABLE after this. */
export const INDEX_ROUTE_CHAIN_READS_MS = 5_000;

/** The chain does not know the transaction (not in a block, not in the node's mempool). */
export class TransactionNotFoundError extends ServiceError {
  constructor(chainId: number, txHash: string) {
    super("TRANSACTION_NOT_FOUND", `transaction ${txHash} not found on chain ${chainId}`);
  }
}

/** The transaction is not a deposit into this chain's Depository (or it reverted). */
export class NotADepositError extends ServiceError {
  constructor(txHash: string, why: string) {
    super("NOT_A_DEPOSIT", `transaction ${txHash} is not a Ferry deposit: ${why}`);
  }
}

export type IndexTransactionResult = {
  /** `indexed`: recorded as deposited; `waiting`: seen, the indexer finishes once it is confirmed. */
  state: "indexed" | "waiting";
  /** The requests this transaction's deposits belong to (empty when no deposit matches a quote). */
  requestIds: string[];
};

export async function indexTransaction(
  deps: { store: Store; client: ChainClient; chains: readonly ChainConfig[]; log: Logger },
  txHash: Bytes32,
): Promise<IndexTransactionResult> {
  const { client } = deps;
  const receipt = await receiptOrNull(client.publicClient, txHash);
  if (receipt) {
    if (receipt.status !== "success") throw new NotADepositError(txHash, "it reverted");
    const deposits = await depositsInReceipt(client, receipt);
    if (deposits.length === 0) throw new NotADepositError(txHash, "it emitted no Deposited event of the Depository");
    const { final } = await readChainFinality(client);
    const halted = (await deps.store.listHaltedChains()).includes(client.config.id);
    if (receipt.blockNumber <= final && !halted) {
      const outcomes = await recordDeposits(deps, deposits);
      return { state: "indexed", requestIds: unique(outcomes.map((o) => o.requestId)) };
    }
    const ids = [];
    for (const deposit of deposits) ids.push(await recordWaitingDeposit(deps, deposit, txHash));
    return { state: "waiting", requestIds: unique(ids) };
  }
  let tx;
  try {
    tx = await readTransaction(client.publicClient, txHash);
  } catch (error) {
    if (error instanceof ViemTransactionNotFoundError) throw new TransactionNotFoundError(client.config.id, txHash);
    throw error;
  }
  if (tx.to !== client.config.contracts.depository) throw new NotADepositError(txHash, "it is not sent to the Depository");
  const call = decodeDepositCall(tx.input, tx.value);
  if (!call) throw new NotADepositError(txHash, "its input is not a deposit call");
  // A relayed (signature-authorised) deposit is `depositing`, as the service's own permit submissions are.
  const status = call.relayed ? "depositing" : "waiting";
  return { state: "waiting", requestIds: unique([await recordWaitingDeposit(deps, { ...call, chainId: client.config.id }, txHash, status)]) };
}

/**
 * What POST /transactions/index is given (its `TransactionIndexer` port): which chains are served, and
 * the indexing — its chain reads bounded to INDEX_ROUTE_CHAIN_READS_MS; out of time, or no URL having
 * the block yet, is CHAIN_UNAVAILABLE (retry later).
 */
export function createTransactionIndexer(deps: { store: Store; clients: ChainClients; chains: readonly ChainConfig[] }): {
  supports(chainId: number): boolean;
  index(chainId: number, txHash: Bytes32, log: Logger): Promise<IndexTransactionResult>;
} {
  return {
    supports: (chainId) => deps.clients.has(chainId),
    index: async (chainId, txHash, log) => {
      try {
        return await withRpcDeadline(INDEX_ROUTE_CHAIN_READS_MS, "POST /transactions/index", () =>
          indexTransaction({ store: deps.store, client: deps.clients.get(chainId), chains: deps.chains, log }, txHash),
        );
      } catch (error) {
        if (isFerryError(error) && (error.code === "RPC_DEADLINE_EXCEEDED" || error.code === "RPC_BLOCK_NOT_AVAILABLE")) {
          throw new ServiceError("CHAIN_UNAVAILABLE", `chain ${chainId} is unavailable; retry later`, { cause: error });
        }
        throw error;
      }
    },
  };
}

const unique = (ids: (string | null)[]): string[] => [...new Set(ids.filter((id): id is string => id !== null))];
