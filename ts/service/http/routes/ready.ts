/**
 * GET /ready — readiness: every injected check (database, each chain's RPC, …) passes within its
 * timeout. 503 NOT_READY lists which failed. Check errors are logged (scrubbed), not returned: they
 * may carry connection strings.
 *
 * With the chain watch (../../chains/chainWatch.ts), both answers list each chain's health (`chains`),
 * and a chain the indexer halted after a deep reorg fails its check `chain:<name>` (an operator must
 * act: `ferry solver recover-reorg`). Other incidents (lagging, RPC down, no inventory, the operator's
 * switch) show in `chains` without failing readiness: the RPC checks already cover an RPC that is down,
 * and a replica taken out of rotation for them would stop serving the healthy chains too.
 */
import { Type } from "typebox";
import type { FerryApp } from "../ferryApp.ts";
import { NoQuery } from "../ferryApp.ts";
import { commonErrorResponses } from "../httpErrors.ts";
import { loggableError } from "../../logging/loggableError.ts";
import { ServiceError } from "../../errors/serviceError.ts";
import type { ChainConfig } from "../../config/configSchema.ts";
import type { ChainWatch } from "../../chains/chainWatch.ts";
import { ChainIncidentField, healthFields } from "../chainRecord.ts";

export type ReadinessCheck = {
  name: string;
  /** Resolves when the dependency is usable; rejects (or times out) otherwise. */
  check: (signal: AbortSignal) => Promise<void>;
};

export const READINESS_TIMEOUT_MS = 2_000;

const CheckResult = Type.Object({ name: Type.String(), ok: Type.Boolean() });
const ChainReadiness = Type.Object({
  id: Type.Integer(),
  name: Type.String(),
  disabled: Type.Boolean(),
  depositEnabled: Type.Boolean(),
  blockProductionLagging: Type.Boolean(),
  incident: ChainIncidentField("Why the chain is disabled or lagging; null when healthy"),
});
const Chains = Type.Optional(Type.Array(ChainReadiness, { description: "Each chain's health (GET /chains shows the same)" }));

export const readySchema = {
  summary: "Readiness",
  description: "200 when every dependency check passes; 503 NOT_READY with the failed checks otherwise.",
  tags: ["Operations"],
  querystring: NoQuery,
  response: {
    200: Type.Object({ status: Type.Literal("ready"), checks: Type.Array(CheckResult), chains: Chains }),
    503: Type.Object({ message: Type.String(), errorCode: Type.String(), checks: Type.Array(CheckResult), chains: Chains }),
    ...commonErrorResponses,
  },
};

async function runCheck(check: ReadinessCheck, timeoutMs: number): Promise<void> {
  const controller = new AbortController();
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => {
      controller.abort();
      reject(new Error(`timed out after ${timeoutMs} ms`));
    }, timeoutMs);
  });
  try {
    await Promise.race([check.check(controller.signal), timeout]);
  } finally {
    clearTimeout(timer);
  }
}

export function registerReadyRoute(
  app: FerryApp,
  options: { checks: readonly ReadinessCheck[]; secrets: readonly string[]; timeoutMs?: number; watch?: { chains: readonly ChainConfig[]; health: ChainWatch["health"] } },
): void {
  const timeoutMs = options.timeoutMs ?? READINESS_TIMEOUT_MS;
  const watch = options.watch;
  const chainsNow = () =>
    watch?.chains.flatMap((chain) => {
      const health = watch.health(chain.id);
      return health ? [{ id: chain.id, name: chain.name, ...healthFields(health) }] : [];
    });
  app.get("/ready", { schema: readySchema }, async (request, reply) => {
    const checks = await Promise.all(
      options.checks.map(async (check) => {
        try {
          await runCheck(check, timeoutMs);
          return { name: check.name, ok: true };
        } catch (error) {
          request.log.warn({ check: check.name, err: loggableError(error as Error, options.secrets, false) }, "readiness check failed");
          return { name: check.name, ok: false };
        }
      }),
    );
    const chains = chainsNow();
    for (const chain of chains ?? []) checks.push({ name: `chain:${chain.name}`, ok: chain.incident !== "CHAIN_HALTED" });
    const failed = checks.filter((check) => !check.ok).map((check) => check.name);
    const listed = chains ? { chains } : {};
    if (failed.length === 0) return { status: "ready" as const, checks, ...listed };
    return reply.code(503).send({ message: `not ready: ${failed.join(", ")}`, errorCode: "NOT_READY", checks, ...listed });
  });
}
