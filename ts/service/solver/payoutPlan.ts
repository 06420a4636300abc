/**
 * The Depository payouts a request gets, as allocator-signed `CallRequest`s. Pure.
 *
 * - **Repayment** (after `success`): the solver gets the quoted originAmount of the deposited
 *   currency on the deposit's chain; anything deposited above it goes back to `refundTo` in a second
 *   call of the same request.
 * - **Refund** (after `failure`): the whole deposit goes back to `refundTo`.
 *
 * The nonce is derived from the requestId and the kind (`keccak256(abi.encode("ferry.<kind>",
 * requestId))`), and the expiration is chosen once and stored in the request's `data` before the
 * first send: a retry re-sends the very same struct, so the Depository's replay guard (keyed on the
 * struct hash) makes a second execution impossible, and two different structs are never signed for
 * one request and kind.
 */
import { encodeAbiParameters, keccak256, type Address, type Hex } from "viem";
import { payoutRequestHash, type PayoutRequest } from "../../core/payoutRequest.ts";
import type { StoredDeposit } from "./depositRequest.ts";

export type PayoutKind = "repayment" | "refund";

/** How long a signed payout stays executable: long enough to survive an outage, bounded all the same. */
export const PAYOUT_TTL_SECONDS = 30 * 24 * 3600;

/** `data.repayment` / `data.refund`: the struct (stored before sending) and how sending went. */
export type StoredPayout = {
  chainId: number;
  depository: Address;
  nonce: string;
  expiration: number;
  calls: { to: Address; token: Address; amount: string }[];
  /** EIP-712 struct hash: the Depository's replay key. */
  requestHash: Hex;
  status: "prepared" | "sent" | "confirmed" | "reverted";
  hash?: Hex;
  block?: number;
  failReason?: string;
};

export function payoutNonce(kind: PayoutKind, requestId: Hex): bigint {
  return BigInt(keccak256(encodeAbiParameters([{ type: "string" }, { type: "bytes32" }], [`ferry.${kind}`, requestId])));
}

export function payoutCalls(args: { kind: PayoutKind; deposit: StoredDeposit; originAmount: bigint; solver: Address; refundTo: Address }): StoredPayout["calls"] {
  const deposited = BigInt(args.deposit.amount);
  const token = args.deposit.token.toLowerCase() as Address;
  const refundTo = args.refundTo.toLowerCase() as Address;
  if (args.kind === "refund") return [{ to: refundTo, token, amount: deposited.toString() }];
  const toSolver = deposited < args.originAmount ? deposited : args.originAmount;
  const calls = [{ to: args.solver.toLowerCase() as Address, token, amount: toSolver.toString() }];
  if (deposited > toSolver) calls.push({ to: refundTo, token, amount: (deposited - toSolver).toString() });
  return calls;
}

/** The payout to store (status `prepared`) before anything is signed or sent. */
export function planPayout(args: {
  kind: PayoutKind;
  requestId: Hex;
  deposit: StoredDeposit;
  originAmount: bigint;
  solver: Address;
  refundTo: Address;
  nowSeconds: number;
}): StoredPayout {
  const calls = payoutCalls(args);
  const nonce = payoutNonce(args.kind, args.requestId);
  const expiration = args.nowSeconds + PAYOUT_TTL_SECONDS;
  return {
    chainId: args.deposit.chainId,
    depository: args.deposit.depository,
    nonce: nonce.toString(),
    expiration,
    calls,
    requestHash: payoutRequestHash({ calls, nonce, expiration }),
    status: "prepared",
  };
}

/** The struct to sign and send, exactly as stored. */
export function payoutRequestOf(payout: StoredPayout): PayoutRequest {
  return {
    calls: payout.calls.map((c) => ({ to: c.to, token: c.token, amount: BigInt(c.amount) })),
    nonce: BigInt(payout.nonce),
    expiration: BigInt(payout.expiration),
  };
}
