/**
 * The EIP-712 typed data a user signs for a permit quote (the quote body's `usePermit`), built from the
 * quoted intent's `permit` (./quotedIntent.ts): the token's EIP-2612 `Permit`, or Permit2's
 * `PermitWitnessTransferFrom` with witness `FerryDeposit(orderId)` (../../core/permitDeposit.ts). Pure.
 * The quote puts it in the signature step (../quote/permitSteps.ts); POST /execute/permits rebuilds it
 * from the stored intent — never from what the client sends — to check the signature
 * (../solver/fill/submitPermitDeposit.ts).
 */
import type { Address, Hex } from "viem";
import { eip2612PermitTypedData, permit2DepositTypedData } from "../../core/permitDeposit.ts";

export type PermitKind = "eip2612" | "permit2";

/** The quoted permit, as the intent stores it. */
export type QuotedPermit = { kind: PermitKind; nonce: bigint; deadline: number; tokenName?: string; tokenVersion?: string };

/** The EIP-712 typed data the user signs for `permit` (bigints; the quote's step carries it as JSON). */
export function permitTypedData(args: { permit: QuotedPermit; chainId: number; token: Address; depository: Address; user: Address; amount: bigint; orderId: Hex }) {
  const { permit } = args;
  if (permit.kind === "eip2612") {
    return eip2612PermitTypedData(
      { name: permit.tokenName!, version: permit.tokenVersion!, chainId: BigInt(args.chainId), verifyingContract: args.token },
      { owner: args.user, spender: args.depository, value: args.amount, nonce: permit.nonce, deadline: BigInt(permit.deadline) },
    );
  }
  return permit2DepositTypedData({
    chainId: args.chainId,
    deposit: { token: args.token, amount: args.amount, depository: args.depository, orderId: args.orderId, nonce: permit.nonce, deadline: BigInt(permit.deadline) },
  });
}
