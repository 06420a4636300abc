/**
 * GET /chains — the spec's Chain record for every configured chain (see chainRecord.ts). With the
 * solver's inventory, each `solverCurrencies` entry carries `capacity` (what the solver can fill in it
 * now; ../chains/solverInventory.ts, read at most once a second) — absent when the chain did not answer.
 * With the chain watch (../chains/chainWatch.ts), `disabled`, `depositEnabled`,
 * `blockProductionLagging` and `incident` are the chain's health as last observed (no read per request).
 */
import { Type } from "typebox";
import type { Address } from "../../model/values.ts";
import type { ChainConfig } from "../../config/configSchema.ts";
import { ChainRecord, toChainRecord, withCapacity, withHealth } from "../chainRecord.ts";
import type { ChainWatch } from "../../chains/chainWatch.ts";
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
    watch?: Pick<ChainWatch, "health">;
  },
): void {
  // The configuration is fixed for the life of the app: build the records once; only capacity moves.
  const records = options.chains.map((chain) => toChainRecord(chain, options.solverAddress, options.strayRefundMinimumUsd, options.attesterAddress));
  const inventory = options.inventory;
  const watch = options.watch;
  const current = (record: ChainRecord): ChainRecord => {
    const health = watch?.health(record.id);
    return health ? withHealth(record, health) : record;
  };
  if (!inventory) {
    app.get("/chains", { schema: chainsSchema }, async () => ({ chains: records.map(current) }));
    return;
  }
  app.get("/chains", { schema: chainsSchema }, async () => {
    const lines = await Promise.all(records.map((record) => inventory.lines(record.id).catch(() => [])));
    return { chains: records.map((record, i) => withCapacity(current(record), lines[i]!)) };
  });
}
