/**
 * A deposit under a funding order (POST /app-balance/deposits; ../../store/appFundingOrders.ts)
 * credits the app's balance instead of making a request. Called by ./recordDeposits.ts inside its
 * transaction, for final blocks only (the indexer reads checkpoint → final block), so a credit is never
 * made for a deposit a shallow reorg can remove; the ledger credits once per log (chainId, txHash,
 * logIndex), so re-reads, restarts, replicas and POST /transactions/index credit once.
 *
 * The credit is the deposited amount at the currency's configured USD price (stablecoins 1:1), rounded
 * down to USD micro-units. A deposit that does not fit its funding order — another chain, another
 * currency, a currency with no price any more, or one worth less than one micro-unit — is not
 * credited: it is recorded as a stray (the same reasons as a quote's mismatch), so its depositor gets
 * it back. A reclaimable deposit never funds a balance (INCORRECT_PAYMENT): its depositor could spend
 * the credit and then take the deposit back with `reclaim`; it stays the depositor's to reclaim.
 */
import type { ChainConfig } from "../../config/configSchema.ts";
import { fundingCreditUsd, fundingCurrencies } from "../../balances/fundingCurrency.ts";
import type { Logger } from "../../logging/logger.ts";
import type { AppFundingOrder } from "../../store/appFundingOrders.ts";
import type { Repositories } from "../../store/createStore.ts";
import type { StrayDepositReason } from "../../store/solver/strayDeposits.ts";
import type { ObservedDeposit } from "./depositRequest.ts";

export type FundingOutcome =
  | { outcome: "funded"; apiKeyId: string; amountUsd: bigint; credited: boolean }
  | { outcome: "funding-mismatch"; reason: Extract<StrayDepositReason, "DEPOSIT_CHAIN_MISMATCH" | "INCORRECT_DEPOSIT_CURRENCY" | "DEPOSITED_AMOUNT_TOO_LOW_TO_FILL" | "INCORRECT_PAYMENT"> };

export async function creditFundingDeposit(
  tx: Repositories,
  deps: { chains: readonly ChainConfig[]; log: Logger },
  order: AppFundingOrder,
  deposit: ObservedDeposit,
): Promise<FundingOutcome> {
  if (deposit.chainId !== order.chainId) return { outcome: "funding-mismatch", reason: "DEPOSIT_CHAIN_MISMATCH" };
  const chain = deps.chains.find((c) => c.id === deposit.chainId);
  const currency = chain ? fundingCurrencies(chain, [order.currency])[0] : undefined;
  if (deposit.token !== order.currency || !currency) return { outcome: "funding-mismatch", reason: "INCORRECT_DEPOSIT_CURRENCY" };
  const amountUsd = fundingCreditUsd(currency, deposit.amount);
  if (amountUsd === 0n) return { outcome: "funding-mismatch", reason: "DEPOSITED_AMOUNT_TOO_LOW_TO_FILL" };
  if (deposit.reclaimAt !== undefined) return { outcome: "funding-mismatch", reason: "INCORRECT_PAYMENT" };
  const { credited } = await tx.appBalances.credit({
    apiKeyId: order.apiKeyId,
    amountUsd,
    source: { chainId: deposit.chainId, txHash: deposit.txHash, logIndex: deposit.logIndex },
    currency: deposit.token,
    amount: deposit.amount,
  });
  if (credited) deps.log.info({ apiKeyId: order.apiKeyId, chainId: deposit.chainId, txHash: deposit.txHash, amountUsd: amountUsd.toString() }, "app balance funded");
  return { outcome: "funded", apiKeyId: order.apiKeyId, amountUsd, credited };
}
