/**
 * Whether a deposit is the one a quote asked for: on the quoted origin chain, in the quoted origin
 * currency, at least the quoted origin amount, and — a reclaimable deposit — answering a reclaimable
 * quote no earlier than its `reclaimAt` (an earlier one would let the depositor take it back while the
 * fill's repayment is still due: INCORRECT_PAYMENT). A plain deposit answers a reclaimable quote too:
 * it gives the depositor less, not the service. Only a matching deposit credits (and so consumes) an
 * order; any other deposit under the same orderId — an attacker's 1 wei, a worthless token, the same
 * orderId on another chain where the Depository has the same address, or a user's own short payment
 * — is a stray named by the first condition it fails, and the request keeps waiting for the real
 * deposit. Pure.
 */
import type { Address } from "viem";
import type { QuotedIntent } from "../../model/quotedIntent.ts";

/** Why a deposit does not match its quote: the spec failReason of the first failed condition. */
export type DepositMismatch = "DEPOSIT_CHAIN_MISMATCH" | "INCORRECT_DEPOSIT_CURRENCY" | "DEPOSITED_AMOUNT_TOO_LOW_TO_FILL" | "INCORRECT_PAYMENT";

/**
 * A deposit as far as it is known: `amount` is null for a pending allowance-form deposit (unknown until
 * mined); `reclaimAt` only for a reclaimable deposit.
 */
export type DepositTerms = { chainId: number; token: Address; amount: bigint | null; reclaimAt?: bigint };

export function depositMismatch(
  intent: Pick<QuotedIntent, "originChainId" | "originCurrency" | "originAmount" | "reclaimAt">,
  deposit: DepositTerms,
): DepositMismatch | null {
  if (deposit.chainId !== intent.originChainId) return "DEPOSIT_CHAIN_MISMATCH";
  if (deposit.token !== intent.originCurrency) return "INCORRECT_DEPOSIT_CURRENCY";
  if (deposit.amount !== null && deposit.amount < intent.originAmount) return "DEPOSITED_AMOUNT_TOO_LOW_TO_FILL";
  if (deposit.reclaimAt !== undefined && (intent.reclaimAt === undefined || deposit.reclaimAt < BigInt(intent.reclaimAt))) return "INCORRECT_PAYMENT";
  return null;
}
