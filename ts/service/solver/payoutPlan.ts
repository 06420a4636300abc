/**
 * The Depository payouts a request gets, as allocator-signed `CallRequest`s. Pure.
 *
 * - **Repayment** (after `success`): the solver gets the quoted originAmount of the deposited
 *   currency on the deposit's chain; anything deposited above it goes back to `refundTo` in a second
 *   call of the same request.
 * - **Refund** (after `failure`): the whole deposit goes back to `refundTo`.
 *
 * The nonce is derived from the requestId and the kind (`keccak256(abi.encode("ferry.<kind>",
 * requestId))`), and the expiration is chosen once and stored in the request's solver state before
 * the first send: a retry re-sends the very same struct, so the Depository's replay guard (keyed on
 * the struct hash) makes a second execution impossible, and two different structs are never signed
 * for one request and kind.
 */
import { encodeAbiParameters, keccak256, type Address, type Hex } from "viem";
import { payoutRequestHash, type PayoutRequest } from "../../core/payoutRequest.ts";
import type { Payout, PayoutKind } from "../model/payout.ts";
import type { CreditedDeposit } from "../model/solverState.ts";

/** How long a signed payout stays executable: long enough to survive an outage, bounded all the same. */
export const PAYOUT_TTL_SECONDS = 30 * 24 * 3600;

export function payoutNonce(kind: PayoutKind, requestId: Hex): bigint {
  return BigInt(keccak256(encodeAbiParameters([{ type: "string" }, { type: "bytes32" }], [`ferry.${kind}`, requestId])));
}

export function payoutCalls(args: { kind: PayoutKind; deposit: CreditedDeposit; originAmount: bigint; solver: Address; refundTo: Address }): Payout["calls"] {
  const { token, amount: deposited } = args.deposit;
  if (args.kind === "refund") return [{ to: args.refundTo, token, amount: deposited }];
  const toSolver = deposited < args.originAmount ? deposited : args.originAmount;
  const calls = [{ to: args.solver, token, amount: toSolver }];
  if (deposited > toSolver) calls.push({ to: args.refundTo, token, amount: deposited - toSolver });
  return calls;
}

/** A payout to store (status `prepared`) before anything is signed or sent. */
export function preparedPayout(args: { chainId: number; depository: Address; nonce: bigint; calls: Payout["calls"]; nowSeconds: number }): Payout {
  const expiration = args.nowSeconds + PAYOUT_TTL_SECONDS;
  return {
    chainId: args.chainId,
    depository: args.depository,
    nonce: args.nonce,
    expiration,
    calls: args.calls,
    requestHash: payoutRequestHash({ calls: args.calls, nonce: args.nonce, expiration: BigInt(expiration) }),
    status: "prepared",
  };
}

/** A request's repayment or refund, planned (status `prepared`). */
export function planPayout(args: {
  kind: PayoutKind;
  requestId: Hex;
  deposit: CreditedDeposit;
  originAmount: bigint;
  solver: Address;
  refundTo: Address;
  nowSeconds: number;
}): Payout {
  return preparedPayout({
    chainId: args.deposit.chainId,
    depository: args.deposit.depository,
    nonce: payoutNonce(args.kind, args.requestId),
    calls: payoutCalls(args),
    nowSeconds: args.nowSeconds,
  });
}

/** The struct to sign and send, exactly as stored. */
export function payoutRequestOf(payout: Payout): PayoutRequest {
  return { calls: payout.calls, nonce: payout.nonce, expiration: BigInt(payout.expiration) };
}
