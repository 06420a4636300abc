/**
 * POST /app-balance/withdrawals {chainId, currency, amountUsd} — the app's owner (x-api-key) takes
 * unused balance back. Paid to the key's funding address, which only the operator sets (`ferry keys
 * funding-address`): the body names no recipient, so a stolen key cannot send the balance anywhere
 * else. In one store transaction: a "withdrawal" hold of `amountUsd` (400 SPONSOR_BALANCE_TOO_LOW
 * when the available balance does not cover it — two concurrent withdrawals of the whole balance
 * cannot both pass, ../../store/appBalances.ts) and the withdrawal row; the solver then pays
 * `amountUsd` converted at the currency's configured USD price (rounded down) through an
 * allocator-signed Depository `execute` (../../solver/payout/appWithdrawal.ts), settling the hold
 * when it is mined and releasing it if it reverts. 409 APP_FUNDING_ADDRESS_MISSING without a
 * funding address; 400 UNSUPPORTED_CHAIN / UNSUPPORTED_CURRENCY / AMOUNT_TOO_LOW.
 */
import { randomBytes } from "node:crypto";
import { Type } from "typebox";
import { requireFundingCurrency } from "../../balances/fundingCurrency.ts";
import { parseUsdMicros, unitsOfUsdMicros } from "../../balances/usdMicros.ts";
import { DEFAULT_APP_BALANCES, type AppBalanceSettings, type ChainConfig } from "../../config/configSchema.ts";
import { ServiceError } from "../../errors/serviceError.ts";
import { AddressString } from "../../model/values.ts";
import type { Store } from "../../store/createStore.ts";
import { addressInput } from "../addressInput.ts";
import { callerKeyId } from "../appBalanceRecord.ts";
import { NoQuery, type FerryApp } from "../ferryApp.ts";
import { commonErrorResponses, ErrorBody } from "../httpErrors.ts";

export const AppWithdrawalResponse = Type.Object(
  {
    withdrawalId: Type.String(),
    state: Type.Union([Type.Literal("pending"), Type.Literal("paid"), Type.Literal("failed")]),
    chainId: Type.Integer(),
    currency: Type.String(),
    amount: Type.String({ description: "What is paid, in the currency's smallest units" }),
    amountUsd: Type.String({ description: "What is debited (USD micro-units)" }),
    recipient: Type.String({ description: "The key's funding address" }),
  },
  { additionalProperties: false },
);

export const appBalanceWithdrawalsSchema = {
  summary: "Withdraw unused app balance",
  description:
    "Pays `amountUsd` (USD micro-units) of the app's (x-api-key) available balance in `currency` on `chainId` to the key's funding address, set by the operator. 401 API_KEY_REQUIRED; 400 SPONSOR_BALANCE_TOO_LOW, UNSUPPORTED_CHAIN, UNSUPPORTED_CURRENCY, AMOUNT_TOO_LOW; 409 APP_FUNDING_ADDRESS_MISSING.",
  tags: ["App balance"],
  querystring: NoQuery,
  body: Type.Object(
    {
      chainId: Type.Integer({ minimum: 1, maximum: Number.MAX_SAFE_INTEGER }),
      currency: Type.String({ ...AddressString, description: "A funding currency of the chain (zero address: native)" }),
      amountUsd: Type.String({ pattern: "^[1-9][0-9]{0,30}$", description: "USD micro-units (6 decimals) to withdraw" }),
    },
    { additionalProperties: false },
  ),
  response: { 200: AppWithdrawalResponse, 409: ErrorBody, ...commonErrorResponses },
};

export function registerAppBalanceWithdrawalsRoute(app: FerryApp, options: { chains: readonly ChainConfig[]; settings?: AppBalanceSettings; store: Store }): void {
  const settings = options.settings ?? DEFAULT_APP_BALANCES;
  app.post("/app-balance/withdrawals", { schema: appBalanceWithdrawalsSchema }, async (request) => {
    const apiKeyId = callerKeyId(request, "POST /app-balance/withdrawals");
    const { chainId } = request.body;
    const chain = options.chains.find((c) => c.id === chainId && !c.disabled);
    if (!chain) throw new ServiceError("UNSUPPORTED_CHAIN", `chain ${chainId} is not served here`);
    const currency = requireFundingCurrency(chain, settings.fundingCurrencies[chainId], addressInput(request.body.currency, "body/currency"));
    const amountUsd = parseUsdMicros(request.body.amountUsd, "amountUsd");
    const amount = unitsOfUsdMicros(amountUsd, currency.decimals, currency.priceE8);
    if (amount === 0n) throw new ServiceError("AMOUNT_TOO_LOW", `${amountUsd} USD micro-units buy no ${currency.symbol}`);
    const withdrawal = await options.store.transaction(async (tx) => {
      const recipient = await tx.getApiKeyFundingAddress(apiKeyId);
      if (!recipient) throw new ServiceError("APP_FUNDING_ADDRESS_MISSING", "the app has no funding address to withdraw to: the operator sets it (ferry keys funding-address)");
      const id = `wd_${randomBytes(12).toString("hex")}`;
      const { holdId } = await tx.appBalances.hold({ apiKeyId, amountUsd, purpose: "withdrawal", reference: id });
      return tx.createAppWithdrawal({ id, apiKeyId, chainId, currency: currency.address, amountUsd, amount, recipient, holdId });
    });
    return {
      withdrawalId: withdrawal.id,
      state: withdrawal.state,
      chainId,
      currency: withdrawal.currency,
      amount: withdrawal.amount.toString(),
      amountUsd: withdrawal.amountUsd.toString(),
      recipient: withdrawal.recipient,
    };
  });
}
