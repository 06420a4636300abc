/**
 * How a solver step sends a transaction: through the process's nonce manager (../transactions/nonceManager.ts), with
 * the step's lease signal, so that the transaction and the step's own record of it (`record`, e.g.
 * `pending → submitted` with the hash and the nonce) are stored in one database transaction before
 * the broadcast. A process killed after that leaves a stored, signed transaction: the step that
 * resumes follows its nonce (`ctx.transactions.follow`), re-broadcasting it when the chain does not know
 * it, replacing it with higher fees when it is stuck, and learns that the nonce went elsewhere only
 * from the chain.
 */
import type { PublicClient } from "viem";
import type { SolverWallet } from "../chains/chainClients.ts";
import type { Repositories } from "../store/createStore.ts";
import type { TxPurpose } from "../model/solverTransaction.ts";
import type { OutgoingTx, SentTx } from "../transactions/nonceManager.ts";
import type { SolverContext } from "./solverContext.ts";
import { gasLimitWithin } from "../transactions/gasCap.ts";
import type { Bytes32 } from "../model/values.ts";
import { signedTransactionOf } from "../transactions/signedTransaction.ts";

export type { OutgoingTx, SentTx } from "../transactions/nonceManager.ts";

export async function sendRecorded(
  ctx: SolverContext,
  chainId: number,
  what: { purpose: TxPurpose; subject: string; logFields?: Record<string, unknown> },
  tx: OutgoingTx,
  record: (sent: SentTx, repos: Repositories) => Promise<void>,
): Promise<SentTx> {
  return ctx.transactions.send({ chainId, purpose: what.purpose, subject: what.subject, tx, record, logFields: what.logFields, ...(ctx.signal && { signal: ctx.signal }) });
}

/**
 * A transaction from a key the nonce manager does not manage — the attester's cancels
 * (./payout/cancelBeforeRefund.ts): prepared by the node (nonce, fees; the gas limit within `tx.maxGas`,
 * ../transactions/gasCap.ts — a revert shows up here, before anything is sent), signed locally, its hash handed to
 * `record` (a store write; the hash canonical, as the return value), then broadcast. A process killed after `record` leaves a hash the chain may
 * not know: the caller's resume logic checks the contract's state before sending again.
 */
export async function sendRecordedFrom(wallet: SolverWallet, publicClient: PublicClient, tx: OutgoingTx, record: (hash: Bytes32) => Promise<void>): Promise<Bytes32> {
  const gas = tx.maxGas === undefined ? undefined : await gasLimitWithin(publicClient, wallet.chain.id, wallet.account.address, tx, tx.maxGas);
  const prepared = await wallet.prepareTransactionRequest({ account: wallet.account, chain: wallet.chain, to: tx.to, data: tx.data, value: tx.value ?? 0n, ...(gas !== undefined && { gas }) });
  const serialized = await wallet.signTransaction(prepared as Parameters<SolverWallet["signTransaction"]>[0]);
  const { hash } = signedTransactionOf(serialized);
  await record(hash);
  await publicClient.sendRawTransaction({ serializedTransaction: serialized });
  return hash;
}
