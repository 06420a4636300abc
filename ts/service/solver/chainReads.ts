/**
 * Chain reads the steps share: a receipt or transaction that may not exist yet (null instead of a
 * throw), the spec's `outTxs`/`inTxs` entry of a mined transaction, and the onchain facts that make a
 * step idempotent — the receiver's `Filled` log of a request and the Depository's `RequestExecuted`
 * log of a payout.
 */
import { TransactionNotFoundError, TransactionReceiptNotFoundError, type Hex, type PublicClient, type TransactionReceipt } from "viem";
import { attestedReceiverAbi } from "../../abi/AttestedReceiver.ts";
import { depositoryAbi } from "../../abi/Depository.ts";
import type { ChainClient } from "../chains/chainClients.ts";
import type { OnchainTx } from "../model/requestData.ts";
import { canonicalAddress, canonicalHex } from "../model/values.ts";

const FILLED_EVENT = attestedReceiverAbi.find((i) => i.type === "event" && i.name === "Filled")!;
const REQUEST_EXECUTED_EVENT = depositoryAbi.find((i) => i.type === "event" && i.name === "RequestExecuted")!;

export async function receiptOrNull(publicClient: PublicClient, hash: Hex): Promise<TransactionReceipt | null> {
  try {
    return await publicClient.getTransactionReceipt({ hash });
  } catch (error) {
    if (error instanceof TransactionReceiptNotFoundError) return null;
    throw error;
  }
}

/** Whether the node knows the transaction at all (mined or in its mempool). */
export async function transactionKnown(publicClient: PublicClient, hash: Hex): Promise<boolean> {
  try {
    await publicClient.getTransaction({ hash });
    return true;
  } catch (error) {
    if (error instanceof TransactionNotFoundError) return false;
    throw error;
  }
}

/** The spec's transaction entry (`inTxs` / `outTxs`) of a mined transaction. */
export async function onchainTxOf(client: ChainClient, receipt: TransactionReceipt): Promise<OnchainTx> {
  const [block, tx] = await Promise.all([
    client.publicClient.getBlock({ blockNumber: receipt.blockNumber }),
    client.publicClient.getTransaction({ hash: receipt.transactionHash }),
  ]);
  return {
    fee: (receipt.gasUsed * receipt.effectiveGasPrice).toString(),
    data: { from: canonicalAddress(tx.from), to: tx.to ? canonicalAddress(tx.to) : null, input: tx.input, value: tx.value.toString() },
    stateChanges: [],
    hash: canonicalHex(receipt.transactionHash),
    block: Number(receipt.blockNumber),
    type: "onchain",
    chainId: client.config.id,
    timestamp: Number(block.timestamp),
    status: receipt.status === "success" ? "success" : "failure",
  };
}

/** The transaction that filled `requestId` on this chain's receiver, from its `Filled` log. */
export async function findFillTx(client: ChainClient, requestId: Hex): Promise<Hex | null> {
  const logs = await client.publicClient.getLogs({
    address: client.config.contracts.attestedReceiver,
    event: FILLED_EVENT,
    args: { requestId },
    fromBlock: BigInt(client.config.deploymentBlock ?? 0),
    toBlock: "latest",
  });
  return logs[0]?.transactionHash ?? null;
}

export async function isFilled(client: ChainClient, requestId: Hex): Promise<boolean> {
  return client.publicClient.readContract({ address: client.config.contracts.attestedReceiver, abi: attestedReceiverAbi, functionName: "filled", args: [requestId] });
}

/** The transaction that executed the payout with struct hash `requestHash`, from its `RequestExecuted` log. */
export async function findPayoutTx(client: ChainClient, requestHash: Hex): Promise<Hex | null> {
  const logs = await client.publicClient.getLogs({
    address: client.config.contracts.depository,
    event: REQUEST_EXECUTED_EVENT,
    args: { requestHash },
    fromBlock: BigInt(client.config.deploymentBlock ?? 0),
    toBlock: "latest",
  });
  return logs[0]?.transactionHash ?? null;
}

/** Whether the Depository's replay guard has used `nonce` (payouts are keyed by nonce onchain). */
export async function isPayoutExecuted(client: ChainClient, nonce: bigint): Promise<boolean> {
  return client.publicClient.readContract({ address: client.config.contracts.depository, abi: depositoryAbi, functionName: "executed", args: [nonce] });
}
