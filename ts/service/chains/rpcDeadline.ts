/**
 * A deadline for every RPC call made within an async scope (AsyncLocalStorage): a solver step, one
 * chain's indexing pass, a quote's chain reads. The RPC transport (./rpcTransport.ts) cuts each
 * attempt's timeout to what is left and refuses to start a call after the deadline, so a hanging RPC
 * cannot make a step outlive the lease it runs under (two replicas never act on one request at once),
 * nor hold a route past its bound. Scopes nest: the inner deadline can only be earlier.
 */
import { AsyncLocalStorage } from "node:async_hooks";
import { ServiceError } from "../errors/serviceError.ts";

const scope = new AsyncLocalStorage<{ deadline: number; what: string }>();

/** Runs `fn` with every RPC call in it bounded to finish within `ms` from now (or the enclosing deadline, if earlier). */
export function withRpcDeadline<T>(ms: number, what: string, fn: () => Promise<T>, now: () => number = Date.now): Promise<T> {
  const outer = scope.getStore();
  const deadline = Math.min(now() + ms, outer?.deadline ?? Number.POSITIVE_INFINITY);
  return scope.run({ deadline, what: outer && outer.deadline <= deadline ? outer.what : what }, fn);
}

/** The current scope's deadline (ms since the epoch) and what set it, or undefined outside any scope. */
export function currentRpcDeadline(): { deadline: number; what: string } | undefined {
  return scope.getStore();
}

/**
 * Runs `fn` in exactly `saved` (a scope `currentRpcDeadline` returned earlier; outside any scope when
 * undefined), whatever scope runs it: work one caller queued and another caller's code carries out later
 * (the nonce manager's batches) keeps the deadline of the caller it is for.
 */
export function inRpcDeadlineScope<T>(saved: { deadline: number; what: string } | undefined, fn: () => T): T {
  return saved ? scope.run(saved, fn) : scope.exit(fn);
}

export class RpcDeadlineExceededError extends ServiceError {
  constructor(what: string, method: string, options: { cause?: unknown } = {}) {
    super("RPC_DEADLINE_EXCEEDED", `${what}: out of time before ${method} could finish`, options);
  }
}
