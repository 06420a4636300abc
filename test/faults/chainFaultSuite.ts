/**
 * How the chain fault tests run: only under `npm run test:faults` (FERRY_TEST_FAULTS=1; plain `npm test`
 * skips them, as it skips the packaging suite), once per store engine — PGlite, then PostgreSQL (a
 * fresh schema; unreachable PostgreSQL fails the suite when FERRY_TEST_REQUIRE_POSTGRES or CI is set,
 * and skips it otherwise).
 */
import type { FaultEngine } from "./chainService.ts";
import { faultPostgresUrl } from "./chainService.ts";
import { skipUnlessFaults } from "./faultSuite.ts";

/** An outage's length: FERRY_FAULT_OUTAGE_MS when set (to iterate faster), else `defaultMs`. */
export function outageMs(defaultMs: number): number {
  const raw = process.env.FERRY_FAULT_OUTAGE_MS;
  return raw && /^\d+$/.test(raw) ? Number(raw) : defaultMs;
}

export function describeChainFault(title: string, body: (engine: FaultEngine) => void): void {
  for (const engine of ["pglite", "postgres"] as const) {
    describe(`${title} [${engine}]`, function () {
      this.timeout(600_000);
      before(async function () {
        skipUnlessFaults(this);
        if (engine === "postgres") {
          const resolved = await faultPostgresUrl();
          if ("reason" in resolved) {
            if (process.env.CI || process.env.FERRY_TEST_REQUIRE_POSTGRES) throw new Error(`PostgreSQL unreachable: ${resolved.reason}`);
            console.log(`    (skipped: PostgreSQL unreachable: ${resolved.reason})`);
            this.skip();
          }
        }
      });
      body(engine);
    });
  }
}

/** Resolves after `ms`. */
export const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/** Polls `check` every 100 ms until it holds; throws after `timeoutMs` naming `what`. */
export async function until(what: string, timeoutMs: number, check: () => Promise<boolean> | boolean): Promise<number> {
  const started = Date.now();
  while (!(await Promise.resolve(check()).catch(() => false))) {
    if (Date.now() - started > timeoutMs) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
    await sleep(100);
  }
  return Date.now() - started;
}
