/**
 * The sweep of POST /execute's stuck holds. /execute holds the gas on the app balance, then the
 * relayer's nonce manager records the transaction (its subject names the hold:
 * ../balances/executeHoldSubject.ts) in one store transaction before the broadcast. A process
 * killed between the two leaves the hold `held` with no
 * transaction to settle it and nothing sent. The relay follower (./relayer.ts) releases such a hold
 * once it is older than the lease, exactly once against the follower's own settle:
 *
 * - the sweep releases only under the hold's lock, after checking again that no transaction names it;
 * - the nonce store transaction takes the same lock first (`requireHeldExecuteHold`) and refuses to
 *   record a transaction for a hold that is no longer `held` (503 EXECUTION_HOLD_EXPIRED, nothing
 *   broadcast: the transaction is recorded before it is sent).
 *
 * So a hold is either released by the sweep (and its transaction never exists) or named by a
 * transaction (and settled or released by the follower from the receipt), never both.
 */
import { ServiceError } from "../errors/serviceError.ts";
import type { Logger } from "../logging/logger.ts";
import type { Repositories, Store } from "../store/createStore.ts";
import type { ExecuteHoldTransaction } from "../store/executeHolds.ts";

/**
 * How old a hold with no transaction must be before it is released. /execute holds and records
 * within one request (a fee read and the nonce's store transaction, seconds); ten minutes leaves
 * room for a slow node without keeping a dead process's hold for long.
 */
export const EXECUTE_HOLD_LEASE_MS = 10 * 60_000;

/**
 * Inside the nonce's store transaction of `own` (the transaction just signed for the hold): the hold
 * locked, then — another transaction already names the hold (a concurrent or earlier post of the
 * same execution recorded it first) → that transaction, and the caller records nothing; else the
 * hold must still be `held` (EXECUTION_HOLD_EXPIRED: swept meanwhile, nothing recorded or sent).
 */
export async function requireHeldExecuteHold(
  repos: Pick<Repositories, "lockExecuteHold">,
  holdId: string,
  own?: { chainId: number; address: string; txNonce: number },
): Promise<ExecuteHoldTransaction | null> {
  const { state, transactions } = await repos.lockExecuteHold(holdId);
  const earlier = transactions.find((t) => !own || t.chainId !== own.chainId || t.address !== own.address || t.nonce !== own.txNonce);
  if (earlier) return earlier;
  if (state !== "held") throw new ServiceError("EXECUTION_HOLD_EXPIRED", `the gas hold ${holdId} was ${state} before the transaction was recorded: nothing sent, retry`);
  return null;
}

/**
 * Releases the hold when it is still `held` and no transaction names it, under the hold's lock (so
 * never against a send that recorded one, nor twice); true when this call released it. A released
 * execute hold therefore always means nothing was sent with it (or its nonce went to another
 * transaction: the follower's release), which is what lets a later post take a new attempt.
 */
export async function releaseUnsentExecuteHold(store: Pick<Store, "transaction">, holdId: string): Promise<boolean> {
  return store.transaction(async (tx) => {
    const { state, transactions } = await tx.lockExecuteHold(holdId);
    if (state !== "held" || transactions.length > 0) return false;
    await tx.appBalances.release(holdId);
    return true;
  });
}

/** Releases up to `limit` stuck holds; the number released. */
export async function releaseStuckExecuteHolds(options: { store: Store; leaseMs: number; limit: number; log: Logger }): Promise<number> {
  let released = 0;
  for (const holdId of await options.store.listUnrecordedExecuteHolds(options.leaseMs, options.limit)) {
    if (await releaseUnsentExecuteHold(options.store, holdId)) {
      released += 1;
      options.log.warn({ holdId }, "execute hold with no relayed transaction released after its lease (the process that took it died before the send)");
    }
  }
  return released;
}
