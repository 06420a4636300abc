/**
 * GET /app-fees/{wallet}/balances — the app fees `wallet` can claim, per chain and currency: its
 * claimable balances in the Depositories (../appFees/claimableBalances.ts), each as the spec's Amount
 * object, plus their total in USD (operator-configured prices). What @relayprotocol/relay-sdk's
 * `getAppFees({wallet})` reads (`balances`). An empty list when there is nothing to claim. 503
 * CHAIN_UNAVAILABLE when a chain's RPC does not answer.
 */
import { Type } from "typebox";
import type { ChainClients } from "../../chains/chainClients.ts";
import type { ChainConfig } from "../../config/configSchema.ts";
import { AddressString } from "../../model/values.ts";
import { addressInput } from "../addressInput.ts";
import { amountObject } from "../../quote/amountObject.ts";
import { formatUsd, usdValueE8 } from "../../prices/usdPrice.ts";
import { readAllClaimable } from "../appFees/claimableBalances.ts";
import type { FerryApp } from "../ferryApp.ts";
import { commonErrorResponses, ErrorBody } from "../httpErrors.ts";
import { AmountSchema } from "../quoteRecord.ts";

export const AppFeeBalancesResponse = Type.Object(
  {
    balances: Type.Array(AmountSchema, { description: "One per chain and currency with a non-zero claimable balance" }),
    totalBalanceUsd: Type.Number({ description: "Sum of the balances' amountUsd (0 for currencies without a configured USD price)" }),
  },
  { additionalProperties: false },
);

export const appFeeBalancesSchema = {
  summary: "App fee balances of a wallet",
  description:
    "The app fees a wallet (an app-fee recipient) can claim: its claimable balance in each chain's Depository, per currency. Claim with POST /app-fees/{wallet}/claim. 400 INVALID_ADDRESS (a mixed-case wallet that is not its EIP-55 checksum); 503 CHAIN_UNAVAILABLE.",
  tags: ["App fees"],
  params: Type.Object({ wallet: Type.String({ ...AddressString, description: "The app-fee recipient" }) }, { additionalProperties: false }),
  querystring: Type.Object({ referrer: Type.Optional(Type.String({ maxLength: 256, description: "Accepted and ignored" })) }, { additionalProperties: false }),
  response: { 200: AppFeeBalancesResponse, 503: ErrorBody, ...commonErrorResponses },
};

export function registerAppFeeBalancesRoute(app: FerryApp, options: { chains: readonly ChainConfig[]; clients: ChainClients }): void {
  app.get("/app-fees/:wallet/balances", { schema: appFeeBalancesSchema }, async (request) => {
    const balances = await readAllClaimable(options.clients, options.chains, addressInput(request.params.wallet, "params/wallet"));
    const totalE8 = balances.reduce((sum, b) => sum + (usdValueE8(b.amount, b.currency) ?? 0n), 0n);
    return { balances: balances.map((b) => amountObject(b.currency, b.amount)), totalBalanceUsd: Number(formatUsd(totalE8)) };
  });
}
