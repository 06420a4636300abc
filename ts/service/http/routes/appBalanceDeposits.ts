/**
 * POST /app-balance/deposits {chainId, currency, amount} — funds the caller's app balance (x-api-key
 * required): answers the deposit transaction (an `approve` step first for an ERC-20) under a fresh
 * order id recorded as "funds app <keyId>" (../../store/appFundingOrders.ts). The solver's indexer,
 * finding a final deposit under that order id, credits the app at the currency's configured USD price
 * (stablecoins 1:1), once per deposit log (../../solver/indexer/fundingDeposit.ts). The currency must
 * be one the operator lists for app balances on that chain (config appBalances.fundingCurrencies):
 * 400 UNSUPPORTED_CHAIN / UNSUPPORTED_CURRENCY otherwise; the amount must credit at least one micro-unit.
 */
import { randomBytes } from "node:crypto";
import { encodeFunctionData, erc20Abi, type Hex } from "viem";
import { Type } from "typebox";
import { encodeDeposit } from "../../../core/depositCalldata.ts";
import { fundingCreditUsd, requireFundingCurrency } from "../../balances/fundingCurrency.ts";
import { DEFAULT_APP_BALANCES, type AppBalanceSettings, type ChainConfig } from "../../config/configSchema.ts";
import { ServiceError } from "../../errors/serviceError.ts";
import { AddressString, bytes32Of, fitsUint256, UintString, ZERO_ADDRESS } from "../../model/values.ts";
import type { Repositories } from "../../store/createStore.ts";
import { addressInput } from "../addressInput.ts";
import { callerKeyId } from "../appBalanceRecord.ts";
import { NoQuery, type FerryApp } from "../ferryApp.ts";
import { commonErrorResponses } from "../httpErrors.ts";

const TransactionItem = Type.Object(
  {
    status: Type.Literal("incomplete"),
    data: Type.Object({ to: Type.String(), data: Type.String(), value: Type.String(), chainId: Type.Integer() }, { additionalProperties: false }),
  },
  { additionalProperties: false },
);

export const AppBalanceDepositResponse = Type.Object(
  {
    orderId: Type.String({ description: "The funding order the deposit is made under" }),
    chainId: Type.Integer(),
    currency: Type.String(),
    amount: Type.String({ description: "Smallest units" }),
    creditUsd: Type.String({ description: "What the deposit credits at today's configured price (USD micro-units); the price at indexing time decides" }),
    steps: Type.Array(
      Type.Object(
        {
          id: Type.Union([Type.Literal("approve"), Type.Literal("deposit")]),
          action: Type.String(),
          description: Type.String(),
          kind: Type.Literal("transaction"),
          items: Type.Array(TransactionItem, { minItems: 1, maxItems: 1 }),
        },
        { additionalProperties: false },
      ),
    ),
  },
  { additionalProperties: false },
);

export const appBalanceDepositsSchema = {
  summary: "Fund the caller's app balance",
  description:
    "The deposit transaction that funds the app (x-api-key) with `amount` of `currency` on `chainId`, under a fresh funding order. Send the steps from any wallet; once the deposit is final the app's balance is credited at the currency's USD price. 401 API_KEY_REQUIRED; 400 UNSUPPORTED_CHAIN, UNSUPPORTED_CURRENCY, AMOUNT_TOO_LOW.",
  tags: ["App balance"],
  querystring: NoQuery,
  body: Type.Object(
    {
      chainId: Type.Integer({ minimum: 1, maximum: Number.MAX_SAFE_INTEGER }),
      currency: Type.String({ ...AddressString, description: "A funding currency of the chain (zero address: native)" }),
      amount: Type.String({ ...UintString, description: "Smallest units of the currency" }),
    },
    { additionalProperties: false },
  ),
  response: { 200: AppBalanceDepositResponse, ...commonErrorResponses },
};

export function registerAppBalanceDepositsRoute(
  app: FerryApp,
  options: { chains: readonly ChainConfig[]; settings?: AppBalanceSettings; store: Pick<Repositories, "saveAppFundingOrder"> },
): void {
  const settings = options.settings ?? DEFAULT_APP_BALANCES;
  app.post("/app-balance/deposits", { schema: appBalanceDepositsSchema }, async (request) => {
    const apiKeyId = callerKeyId(request, "POST /app-balance/deposits");
    const { chainId } = request.body;
    const chain = options.chains.find((c) => c.id === chainId && !c.disabled && c.depositEnabled);
    if (!chain) throw new ServiceError("UNSUPPORTED_CHAIN", `chain ${chainId} takes no deposits here`);
    const currency = requireFundingCurrency(chain, settings.fundingCurrencies[chainId], addressInput(request.body.currency, "body/currency"));
    const amount = BigInt(request.body.amount);
    if (!fitsUint256(amount)) throw new ServiceError("INVALID_REQUEST", "amount does not fit a uint256");
    const creditUsd = fundingCreditUsd(currency, amount);
    if (creditUsd === 0n) throw new ServiceError("AMOUNT_TOO_LOW", `${amount} of ${currency.symbol} is worth less than one USD micro-unit`);
    const orderId = bytes32Of(randomBytes(32));
    await options.store.saveAppFundingOrder({ orderId, apiKeyId, chainId, currency: currency.address, amount });

    const depository = chain.contracts.depository;
    const deposit = encodeDeposit({ currency: currency.address, amount, id: orderId });
    const item = (to: string, data: Hex, value: bigint) => ({ status: "incomplete" as const, data: { to, data, value: value.toString(), chainId } });
    const steps = [
      ...(currency.address === ZERO_ADDRESS
        ? []
        : [
            {
              id: "approve" as const,
              action: "Confirm transaction in your wallet",
              description: `Approve the Ferry Depository to take ${currency.symbol}`,
              kind: "transaction" as const,
              items: [item(currency.address, encodeFunctionData({ abi: erc20Abi, functionName: "approve", args: [depository, amount] }), 0n)],
            },
          ]),
      {
        id: "deposit" as const,
        action: "Confirm transaction in your wallet",
        description: `Deposit ${currency.symbol} to fund the app balance of ${apiKeyId}`,
        kind: "transaction" as const,
        items: [item(depository, deposit.data, deposit.value)],
      },
    ];
    return { orderId, chainId, currency: currency.address, amount: amount.toString(), creditUsd: creditUsd.toString(), steps };
  });
}
