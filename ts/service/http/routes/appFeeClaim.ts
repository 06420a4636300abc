/**
 * POST /app-fees/{wallet}/claim {chainId, currency, recipient, amount?} — the steps that withdraw
 * `wallet`'s app fees of one currency on one chain: a single `transaction` step, sent from `wallet`
 * (whose balance it is), calling `Depository.claim(currency, recipient)`. The service signs nothing and
 * moves nothing: the Depository pays only `msg.sender`'s own claimable balance. What
 * @relayprotocol/relay-sdk's `claimAppFees({wallet, chainId, currency, recipient?, amount?})` posts and
 * then executes with the wallet (it sends `recipient` = the wallet when none is given).
 *
 * `claim` withdraws the whole balance: `amount`, when given, must equal it (400
 * CLAIM_AMOUNT_UNSUPPORTED otherwise — partial claims are not offered); nothing claimable is 400
 * NOTHING_TO_CLAIM; an unknown chain or currency 400 UNSUPPORTED_CHAIN / UNSUPPORTED_CURRENCY; the
 * zero address as recipient 400 INVALID_REQUEST (the contract refuses it too); a mixed-case `wallet`,
 * `recipient` or `currency` that is not its EIP-55 checksum 400 INVALID_ADDRESS (../addressInput.ts). Fees credited after this
 * answer and before the transaction is mined are withdrawn with it.
 */
import { Type } from "typebox";
import { encodeFunctionData, formatUnits } from "viem";
import { depositoryAbi } from "../../../abi/Depository.ts";
import type { ChainClients } from "../../chains/chainClients.ts";
import type { ChainConfig } from "../../config/configSchema.ts";
import { ServiceError } from "../../errors/serviceError.ts";
import { AddressString, UintString, ZERO_ADDRESS } from "../../model/values.ts";
import { addressInput } from "../addressInput.ts";
import { findCurrency } from "../../quote/quoteRoute.ts";
import { readClaimable } from "../appFees/claimableBalances.ts";
import type { FerryApp } from "../ferryApp.ts";
import { bodyErrorResponses, commonErrorResponses, ErrorBody } from "../httpErrors.ts";

export const AppFeeClaimBody = Type.Object(
  {
    chainId: Type.Integer({ minimum: 1, maximum: Number.MAX_SAFE_INTEGER, description: "Chain of the balance" }),
    currency: Type.String({ ...AddressString, description: "Currency of the balance (zero address = native)" }),
    recipient: Type.String({ ...AddressString, description: "Where the claimed fees go" }),
    amount: Type.Optional(Type.String({ ...UintString, description: "Must equal the whole claimable balance when given (claims are whole-balance)" })),
    referrer: Type.Optional(Type.String({ maxLength: 256, description: "Accepted and ignored" })),
  },
  { additionalProperties: false },
);

const ClaimStep = Type.Object({
  id: Type.Literal("claim"),
  action: Type.String(),
  description: Type.String(),
  kind: Type.Literal("transaction"),
  items: Type.Array(
    Type.Object({
      status: Type.Literal("incomplete"),
      data: Type.Object({ from: Type.String(), to: Type.String(), data: Type.String(), value: Type.String(), chainId: Type.Integer() }),
    }),
  ),
});

export const AppFeeClaimResponse = Type.Object(
  { steps: Type.Array(ClaimStep, { description: "One transaction step: Depository.claim(currency, recipient) sent from the wallet" }) },
  { additionalProperties: false },
);

export const appFeeClaimSchema = {
  summary: "Claim app fees",
  description:
    "The transaction that withdraws a wallet's whole claimable balance of one currency on one chain from the Depository to `recipient`; the wallet sends it. 400 NOTHING_TO_CLAIM, CLAIM_AMOUNT_UNSUPPORTED, UNSUPPORTED_CHAIN, UNSUPPORTED_CURRENCY, INVALID_ADDRESS (a mixed-case address that is not its EIP-55 checksum); 503 CHAIN_UNAVAILABLE.",
  tags: ["App fees"],
  params: Type.Object({ wallet: Type.String({ ...AddressString, description: "The app-fee recipient whose balance is claimed" }) }, { additionalProperties: false }),
  body: AppFeeClaimBody,
  response: { 200: AppFeeClaimResponse, 503: ErrorBody, ...bodyErrorResponses, ...commonErrorResponses },
};

export function registerAppFeeClaimRoute(app: FerryApp, options: { chains: readonly ChainConfig[]; clients: ChainClients }): void {
  app.post("/app-fees/:wallet/claim", { schema: appFeeClaimSchema }, async (request) => {
    const wallet = addressInput(request.params.wallet, "params/wallet");
    const { chainId, amount } = request.body;
    const recipient = addressInput(request.body.recipient, "body/recipient");
    if (recipient === ZERO_ADDRESS) throw new ServiceError("INVALID_REQUEST", "body/recipient: the zero address cannot receive a claim");
    const chain = options.chains.find((c) => c.id === chainId);
    if (!chain || !options.clients.has(chainId)) throw new ServiceError("UNSUPPORTED_CHAIN", `chain ${chainId} is not supported`);
    const currency = findCurrency(chain, addressInput(request.body.currency, "body/currency"));
    if (!currency) throw new ServiceError("UNSUPPORTED_CURRENCY", `currency ${request.body.currency} is not supported on chain ${chainId}`);
    const balance = await readClaimable(options.clients.get(chainId), wallet, currency);
    if (balance.amount === 0n) throw new ServiceError("NOTHING_TO_CLAIM", `${wallet} has no ${currency.symbol} to claim on chain ${chainId}`);
    if (amount !== undefined && BigInt(amount) !== balance.amount) {
      throw new ServiceError("CLAIM_AMOUNT_UNSUPPORTED", `claims withdraw the whole balance (${balance.amount}); amount ${amount} differs`);
    }
    const formatted = `${formatUnits(balance.amount, currency.decimals)} ${currency.symbol}`;
    return {
      steps: [
        {
          id: "claim" as const,
          action: "Confirm transaction in your wallet",
          description: `Claim ${formatted} of app fees on ${chain.displayName} to ${recipient}`,
          kind: "transaction" as const,
          items: [
            {
              status: "incomplete" as const,
              data: {
                from: wallet,
                to: balance.depository,
                data: encodeFunctionData({ abi: depositoryAbi, functionName: "claim", args: [currency.address, recipient] }),
                value: "0",
                chainId,
              },
            },
          ],
        },
      ],
    };
  });
}
