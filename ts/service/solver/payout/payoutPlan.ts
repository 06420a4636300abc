/**
 * The Depository payouts a request gets, as allocator-signed `CallRequest`s. Pure.
 *
 * - **Repayment** (after `success`): the solver gets the quoted originAmount minus the app fees, in the
 *   deposited currency on the deposit's chain; each app fee is *credited* to its recipient's claimable
 *   balance in the Depository by the same signed request (a `SettlementRequest` for `settle`; the app
 *   withdraws with `claim`, GET /app-fees/{wallet}/balances shows it); anything deposited above
 *   originAmount goes back to `refundTo`. Without app fees it stays a `CallRequest` for `execute`.
 * - **Refund** (after `failure`): the whole deposit goes back to `refundTo` — except, for a permit
 *   request, the service's gas (`refundCharge`, ./permitRefundCharge.ts), paid to the solver by the
 *   same signed request.
 *
 * - **A reclaimable deposit** (`deposit.reclaimAt`): the same calls and credits as a `ReleaseRequest` for
 *   `Depository.release` under the deposit's orderId, which deletes the depositor's reclaim commitment in
 *   the transaction that pays: the deposit can then no longer be reclaimed, and a deposit already
 *   reclaimed makes the release revert (`NoReclaimCommitment`) instead of paying it twice.
 *
 * The nonce is derived from the requestId and the kind (`keccak256(abi.encode("ferry.<kind>",
 * requestId))`), and the expiration is chosen once and stored in the request's solver state before
 * the first send: a retry re-sends the very same struct, so the Depository's replay guard (keyed on
 * the struct hash) makes a second execution impossible, and two different structs are never signed
 * for one request and kind.
 */
import { encodeAbiParameters, keccak256, type Hex } from "viem";
import { payoutRequestHash, type PayoutRequest } from "../../../core/payoutRequest.ts";
import { settlementRequestHash, type SettlementRequest } from "../../../core/settlementRequest.ts";
import { releaseRequestHash, type ReleaseRequest } from "../../../core/releaseRequest.ts";
import type { Payout, PayoutKind } from "../../model/payout.ts";
import type { Address, Bytes32 } from "../../model/values.ts";
import type { CreditedDeposit } from "../../model/solverState.ts";

/** How long a signed payout stays executable: long enough to survive an outage, bounded all the same. */
export const PAYOUT_TTL_SECONDS = 30 * 24 * 3600;

export function payoutNonce(kind: PayoutKind, requestId: Hex): bigint {
  return BigInt(keccak256(encodeAbiParameters([{ type: "string" }, { type: "bytes32" }], [`ferry.${kind}`, requestId])));
}

export type AppFeeShare = { recipient: Address; amount: bigint };

/**
 * The payouts and credits of a request. Repayment: the deposit up to originAmount is split between the
 * app fees (credits, one per fee with a non-zero amount) and the solver (the rest); a deposit too small
 * for the app fees (never the case after a fill: the fill checks need originAmount) credits nothing
 * and pays it all to the solver rather than credit fees the deposit does not hold.
 */
export function payoutCalls(args: {
  kind: PayoutKind;
  deposit: CreditedDeposit;
  originAmount: bigint;
  solver: Address;
  refundTo: Address;
  appFees?: readonly AppFeeShare[];
  /** Refund only: what the refund keeps for the service's gas (≤ the deposit), paid to the solver. */
  refundCharge?: bigint;
}): { calls: Payout["calls"]; credits: Payout["calls"] } {
  const { token, amount: deposited } = args.deposit;
  if (args.kind === "refund") {
    const charge = args.refundCharge !== undefined && args.refundCharge > 0n ? (args.refundCharge < deposited ? args.refundCharge : deposited) : 0n;
    const calls = [{ to: args.refundTo, token, amount: deposited - charge }];
    if (charge > 0n) calls.push({ to: args.solver, token, amount: charge });
    return { calls, credits: [] };
  }
  const settled = deposited < args.originAmount ? deposited : args.originAmount;
  const fees = (args.appFees ?? []).filter((fee) => fee.amount > 0n);
  const feeTotal = fees.reduce((sum, fee) => sum + fee.amount, 0n);
  const credits = feeTotal <= settled ? fees.map((fee) => ({ to: fee.recipient, token, amount: fee.amount })) : [];
  const toSolver = settled - (credits.length > 0 ? feeTotal : 0n);
  const calls = [{ to: args.solver, token, amount: toSolver }];
  if (deposited > settled) calls.push({ to: args.refundTo, token, amount: deposited - settled });
  return { calls, credits };
}

/** A payout to store (status `prepared`) before anything is signed or sent. */
export function preparedPayout(args: {
  chainId: number;
  depository: Address;
  nonce: bigint;
  calls: Payout["calls"];
  credits?: Payout["calls"];
  /** The orderId of the reclaimable deposit paid from: the payout is a release of its commitment. */
  release?: Bytes32;
  nowSeconds: number;
}): Payout {
  const expiration = args.nowSeconds + PAYOUT_TTL_SECONDS;
  const credits = args.credits ?? [];
  const base = { chainId: args.chainId, depository: args.depository, nonce: args.nonce, expiration, calls: args.calls, status: "prepared" as const };
  const terms = { calls: args.calls, nonce: args.nonce, expiration: BigInt(expiration) };
  const requestHash =
    args.release !== undefined
      ? releaseRequestHash({ ...terms, id: args.release, credits })
      : credits.length === 0
        ? payoutRequestHash(terms)
        : settlementRequestHash({ ...terms, credits });
  return { ...base, ...(credits.length > 0 && { credits }), ...(args.release !== undefined && { release: args.release }), requestHash };
}

/** A request's repayment or refund, planned (status `prepared`). */
export function planPayout(args: {
  kind: PayoutKind;
  requestId: Hex;
  /** The order the deposit was made under: a reclaimable deposit's payout releases its commitment. */
  orderId: Bytes32;
  deposit: CreditedDeposit;
  originAmount: bigint;
  solver: Address;
  refundTo: Address;
  appFees?: readonly AppFeeShare[];
  refundCharge?: bigint;
  nowSeconds: number;
}): Payout {
  const { calls, credits } = payoutCalls(args);
  return preparedPayout({
    chainId: args.deposit.chainId,
    depository: args.deposit.depository,
    nonce: payoutNonce(args.kind, args.requestId),
    calls,
    credits,
    ...(args.deposit.reclaimAt !== undefined && { release: args.orderId }),
    nowSeconds: args.nowSeconds,
  });
}

/** The struct to sign and send, exactly as stored (a `CallRequest` without credits). */
export function payoutRequestOf(payout: Payout): PayoutRequest {
  return { calls: payout.calls, nonce: payout.nonce, expiration: BigInt(payout.expiration) };
}

/** The release to sign and send, exactly as stored, or undefined for a payout of a plain deposit. */
export function releaseRequestOf(payout: Payout): ReleaseRequest | undefined {
  if (payout.release === undefined) return undefined;
  return { id: payout.release, calls: payout.calls, credits: payout.credits ?? [], nonce: payout.nonce, expiration: BigInt(payout.expiration) };
}

/** The settlement to sign and send, exactly as stored, or undefined for a payout without credits (or a release). */
export function settlementRequestOf(payout: Payout): SettlementRequest | undefined {
  if (payout.release !== undefined || !payout.credits || payout.credits.length === 0) return undefined;
  return { calls: payout.calls, credits: payout.credits, nonce: payout.nonce, expiration: BigInt(payout.expiration) };
}
