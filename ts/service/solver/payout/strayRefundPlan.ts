/**
 * The refund of a stray deposit (a deposit no request accounts for): the policy that decides whether
 * it is refunded, and the allocator-signed `CallRequest` that returns it. Pure.
 *
 * - Refunded: the whole amount, to the deposit's credited `depositor`, in the deposited token, on the
 *   deposit's chain — when the token is the chain's native currency or one of its configured ERC-20s.
 * - Ignored: any other token (`UNSUPPORTED_CURRENCY`: Ferry never calls a token it does not know; an
 *   operator decides), and an amount of 0 or below the currency's dust threshold
 *   (`AMOUNT_TOO_LOW_TO_REFUND`: ../../config/strayRefundMinimum.ts — returning 1 wei would cost the
 *   operator a payout's gas; an operator can still refund it by hand).
 * - Ignored too (`AMOUNT_TOO_LOW_TO_REFUND`), once the refund is planned: an amount below
 *   `solver.strayRefundGasFactor` × the refund's own gas cost at the current gas price
 *   (`strayBelowRefundGas`), converted into the deposited token — a flat USD threshold alone lets an
 *   attacker make the operator pay more gas than the stray is worth when gas is dear. An ERC-20 whose
 *   gas cost cannot be converted (no `usdPrice` on it or on the native currency) is refunded only at
 *   or above its own configured `strayRefundMinimum`, the operator's explicit word on it.
 *
 * The nonce is `keccak256(abi.encode("ferry.stray-refund", chainId, txHash, logIndex))` — a domain
 * tag of its own, so it can never equal a request's repayment or refund nonce (those encode
 * `("ferry.repayment"|"ferry.refund", requestId)`) — and the expiration is chosen once and stored
 * before the first send, exactly like a request's payouts (./payoutPlan.ts): a retry re-signs the very
 * same struct, and the Depository's replay guard on its hash makes a second execution revert.
 */
import { encodeAbiParameters, keccak256, type Hex } from "viem";
import type { ChainConfig } from "../../config/configSchema.ts";
import type { Payout } from "../../model/payout.ts";
import { canonicalAddress, ZERO_ADDRESS } from "../../model/values.ts";
import type { StoredStrayDeposit } from "../../store/solver/strayDeposits.ts";
import { preparedPayout } from "./payoutPlan.ts";
import { strayRefundMinimum } from "../../config/strayRefundMinimum.ts";
import { convertCeil } from "../../prices/usdPrice.ts";

export const STRAY_REFUND_NONCE_TAG = "ferry.stray-refund";

/** Why a stray deposit is not refunded (stored as its `ignored_reason`). */
export const StrayIgnoredReason = {
  AMOUNT_TOO_LOW_TO_REFUND: "AMOUNT_TOO_LOW_TO_REFUND",
  UNSUPPORTED_CURRENCY: "UNSUPPORTED_CURRENCY",
} as const;
export type StrayIgnoredReason = (typeof StrayIgnoredReason)[keyof typeof StrayIgnoredReason];

/** What the plan needs of a stray deposit (the store's record). */
export type StrayDepositFacts = Pick<StoredStrayDeposit, "chainId" | "txHash" | "logIndex" | "depository" | "depositor" | "token" | "amount">;

export function strayRefundNonce(chainId: number, txHash: Hex, logIndex: number): bigint {
  return BigInt(
    keccak256(
      encodeAbiParameters([{ type: "string" }, { type: "uint256" }, { type: "bytes32" }, { type: "uint256" }], [STRAY_REFUND_NONCE_TAG, BigInt(chainId), txHash, BigInt(logIndex)]),
    ),
  );
}

/**
 * The policy: null = refund it; otherwise why it is ignored. `chain` is the deposit's chain's config,
 * `strayRefundMinimumUsd` the solver's default dust threshold in USD.
 */
export function strayIgnoredReason(stray: StrayDepositFacts, chain: ChainConfig, strayRefundMinimumUsd: string): StrayIgnoredReason | null {
  if (stray.amount === 0n) return StrayIgnoredReason.AMOUNT_TOO_LOW_TO_REFUND;
  const currency = stray.token === ZERO_ADDRESS ? chain.nativeCurrency : chain.erc20Currencies.find((c) => c.address === stray.token);
  if (!currency) return StrayIgnoredReason.UNSUPPORTED_CURRENCY;
  if (stray.amount < strayRefundMinimum(currency, strayRefundMinimumUsd)) return StrayIgnoredReason.AMOUNT_TOO_LOW_TO_REFUND;
  return null;
}

/**
 * The gas policy: whether `stray` is worth less than `factor` × `refundGasCost` (wei of the chain's
 * native currency: the planned refund's gas estimate × the current gas price), converted into the
 * deposited token and rounded up. A supported ERC-20 whose cost cannot be converted (a missing USD
 * price) counts as below unless the operator configured its own `strayRefundMinimum`.
 */
export function strayBelowRefundGas(stray: Pick<StrayDepositFacts, "token" | "amount">, chain: ChainConfig, refundGasCost: bigint, factor: number): boolean {
  const cost = (refundGasCost * BigInt(Math.round(factor * 100)) + 99n) / 100n;
  if (stray.token === ZERO_ADDRESS) return stray.amount < cost;
  const currency = chain.erc20Currencies.find((c) => c.address === stray.token);
  if (!currency) return true;
  const native = chain.nativeCurrency;
  if (native.symbol !== currency.symbol && (native.usdPrice === undefined || currency.usdPrice === undefined)) return currency.strayRefundMinimum === undefined;
  return stray.amount < convertCeil(cost, native, currency);
}

/** The refund payout to store (status `prepared`) before anything is signed or sent. */
export function planStrayRefund(stray: StrayDepositFacts, nowSeconds: number): Payout {
  return preparedPayout({
    chainId: stray.chainId,
    depository: stray.depository,
    nonce: strayRefundNonce(stray.chainId, stray.txHash, stray.logIndex),
    calls: [{ to: stray.depositor, token: stray.token, amount: stray.amount }],
    nowSeconds,
  });
}
