/**
 * How a solver step sends a transaction: through the process's nonce manager (./nonceManager.ts), with
 * the step's lease signal, so that the transaction and the step's own record of it (`record`, e.g.
 * `pending → submitted` with the hash and the nonce) are stored in one database transaction before
 * the broadcast. A process killed after that leaves a stored, signed transaction: the step that
 * resumes follows its nonce (`ctx.transactions.follow`), re-broadcasting it when the chain does not know
 * it, replacing it with higher fees when it is stuck, and learns that the nonce went elsewhere only
 * from the chain.
 */
import type { Repositories } from "../store/createStore.ts";
import type { TxPurpose } from "../model/solverTransaction.ts";
import type { OutgoingTx, SentTx } from "./nonceManager.ts";
import type { SolverContext } from "./solverContext.ts";

export type { OutgoingTx, SentTx } from "./nonceManager.ts";

export async function sendRecorded(
  ctx: SolverContext,
  chainId: number,
  what: { purpose: TxPurpose; subject: string; logFields?: Record<string, unknown> },
  tx: OutgoingTx,
  record: (sent: SentTx, repos: Repositories) => Promise<void>,
): Promise<SentTx> {
  return ctx.transactions.send({ chainId, purpose: what.purpose, subject: what.subject, tx, record, logFields: what.logFields, ...(ctx.signal && { signal: ctx.signal }) });
}
