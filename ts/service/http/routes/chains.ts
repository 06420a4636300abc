/** GET /chains — the spec's Chain record for every configured chain (see chainRecord.ts). */
import { Type } from "typebox";
import type { Address } from "viem";
import type { ChainConfig } from "../../config/configSchema.ts";
import { ChainRecord, toChainRecord } from "../chainRecord.ts";
import type { FerryApp } from "../ferryApp.ts";
import { commonErrorResponses } from "../httpErrors.ts";

export const chainsSchema = {
  summary: "Chains",
  description: "Every chain this service bridges between, with its contracts and currencies.",
  tags: ["Chains"],
  querystring: Type.Object(
    {
      // Sent by the public service's official SDK; accepted and ignored.
      referrer: Type.Optional(Type.String({ maxLength: 256 })),
    },
    { additionalProperties: false },
  ),
  response: {
    200: Type.Object({ chains: Type.Array(ChainRecord) }),
    ...commonErrorResponses,
  },
};

export function registerChainsRoute(
  app: FerryApp,
  options: { chains: readonly ChainConfig[]; solverAddress: Address | undefined; attesterAddress?: Address | undefined; strayRefundMinimumUsd?: string },
): void {
  // The configuration is fixed for the life of the app: build the answer once.
  const body = { chains: options.chains.map((chain) => toChainRecord(chain, options.solverAddress, options.strayRefundMinimumUsd, options.attesterAddress)) };
  app.get("/chains", { schema: chainsSchema }, async () => body);
}
