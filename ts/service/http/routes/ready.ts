/**
 * GET /ready — readiness: every injected check (database, each chain's RPC, …) passes within its
 * timeout. 503 NOT_READY lists which failed. Check errors are logged (scrubbed), not returned: they
 * may carry connection strings.
 */
import { Type } from "typebox";
import type { FerryApp } from "../ferryApp.ts";
import { NoQuery } from "../ferryApp.ts";
import { commonErrorResponses } from "../httpErrors.ts";
import { loggableError } from "../../logging/loggableError.ts";
import { ServiceError } from "../../errors/serviceError.ts";

export type ReadinessCheck = {
  name: string;
  /** Resolves when the dependency is usable; rejects (or times out) otherwise. */
  check: (signal: AbortSignal) => Promise<void>;
};

export const READINESS_TIMEOUT_MS = 2_000;

const CheckResult = Type.Object({ name: Type.String(), ok: Type.Boolean() });

export const readySchema = {
  summary: "Readiness",
  description: "200 when every dependency check passes; 503 NOT_READY with the failed checks otherwise.",
  tags: ["Operations"],
  querystring: NoQuery,
  response: {
    200: Type.Object({ status: Type.Literal("ready"), checks: Type.Array(CheckResult) }),
    503: Type.Object({ message: Type.String(), errorCode: Type.String(), checks: Type.Array(CheckResult) }),
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
  options: { checks: readonly ReadinessCheck[]; secrets: readonly string[]; timeoutMs?: number },
): void {
  const timeoutMs = options.timeoutMs ?? READINESS_TIMEOUT_MS;
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
    const failed = checks.filter((check) => !check.ok).map((check) => check.name);
    if (failed.length === 0) return { status: "ready" as const, checks };
    return reply.code(503).send({ message: `not ready: ${failed.join(", ")}`, errorCode: "NOT_READY", checks });
  });
}
