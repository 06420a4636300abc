/**
 * Reads deposits from a chain: the `Deposited` logs of a block range or of one receipt, each enriched
 * with what the request record reports (block time, the transaction's fee and input).
 */
import type { Hex, Log } from "viem";
import type { ChainClient } from "../../chains/chainClients.ts";
import { readReceipt, type Receipt } from "../../chains/readReceipt.ts";
import { readTransaction } from "../../chains/readTransaction.ts";
import type { Address } from "../../model/values.ts";
import { decodeDepositLogs, type DepositLog } from "./depositEvent.ts";
import type { ObservedDeposit } from "./depositRequest.ts";

/** The Depository's deposits in one mined transaction. */
export async function depositsInReceipt(client: ChainClient, receipt: Receipt): Promise<ObservedDeposit[]> {
  return enrichDeposits(client, decodeDepositLogs(client.config.id, client.config.contracts.depository, receipt.logs as Log[]), receipt);
}

/** Decoded deposit logs with the facts the request record reports (block time, the transaction's fee, input and sender). */
export async function enrichDeposits(client: ChainClient, logs: DepositLog[], knownReceipt?: Receipt): Promise<ObservedDeposit[]> {
  const { publicClient } = client;
  const blocks = new Map<bigint, Promise<number>>();
  const txs = new Map<Hex, Promise<{ fee: bigint; input: Hex; from: Address }>>();
  const blockTime = (n: bigint) => {
    if (!blocks.has(n)) blocks.set(n, publicClient.getBlock({ blockNumber: n }).then((b) => Number(b.timestamp)));
    return blocks.get(n)!;
  };
  const txFacts = (hash: Hex) => {
    if (!txs.has(hash)) {
      txs.set(
        hash,
        (async () => {
          const [receipt, tx] = await Promise.all([
            knownReceipt && knownReceipt.transactionHash === hash ? knownReceipt : readReceipt(publicClient, hash),
            readTransaction(publicClient, hash),
          ]);
          return { fee: receipt.gasUsed * receipt.effectiveGasPrice, input: tx.input, from: tx.from };
        })(),
      );
    }
    return txs.get(hash)!;
  };
  return Promise.all(
    logs.map(async (log) => {
      const [blockTimestamp, facts] = await Promise.all([blockTime(log.blockNumber), txFacts(log.txHash)]);
      return { ...log, blockTimestamp, txFee: facts.fee, txInput: facts.input, txFrom: facts.from };
    }),
  );
}
