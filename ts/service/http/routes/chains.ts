/**
 * GET /chains — the spec's Chain record for every configured chain (see chainRecord.ts). With the
 * solver's inventory, each `solverCurrencies` entry carries `capacity` (what the solver can fill in it
 * now; ../chains/solverInventory.ts, read at most once a second) — absent when the chain did not answer.
 */
import { Type } from "typebox";
import type { Address } from "../../model/values.ts";
import type { ChainConfig } from "../../config/configSchema.ts";
import { ChainRecord, toChainRecord, withCapacity } from "../chainRecord.ts";
import type { SolverInventory } from "../../chains/solverInventory.ts";
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
  options: {
    chains: readonly ChainConfig[];
    solverAddress: Address | undefined;
    attesterAddress?: Address | undefined;
    strayRefundMinimumUsd?: string;
    inventory?: Pick<SolverInventory, "lines">;
  },
): void {
  // The configuration is fixed for the life of the app: build the records once; only capacity moves.
  const records = options.chains.map((chain) => toChainRecord(chain, options.solverAddress, options.strayRefundMinimumUsd, options.attesterAddress));
  const body = { chains: records };
  const inventory = options.inventory;
  if (!inventory) {
    app.get("/chains", { schema: chainsSchema }, async () => body);
    return;
  }
  app.get("/chains", { schema: chainsSchema }, async () => {
    const lines = await Promise.all(records.map((record) => inventory.lines(record.id).catch(() => [])));
    return { chains: records.map((record, i) => withCapacity(record, lines[i]!)) };
  });
}
