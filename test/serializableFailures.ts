/**
 * In mocha's parallel mode (FERRY_TEST_JOBS > 1) a worker sends each file's results to the main process
 * as JSON. A failed test whose error holds a BigInt below its top level — a viem error carrying a
 * transaction's `value`, an error whose cause holds an amount — could not be sent: the run said only
 * "Uncaught error outside test suite: Do not know how to serialize a BigInt" and lost the file's
 * results, and which test failed and why (CI on 2026-11-29, test/e2e/swapPoolPush.test.ts). This root hook (hardhat.config.ts requires it in parallel runs) rewrites the BigInts of a
 * failed test's error as "<digits>n" strings before the result is sent. No tests here
 * (test/serializableFailuresHook.test.ts).
 */
import type Mocha from "mocha";

/** Replaces, in place, every BigInt reachable from `value`'s own properties by "<digits>n" (at most `depth` levels down). */
export function bigintsAsText(value: unknown, depth = 8, seen = new Set<object>()): void {
  if (depth < 0 || value === null || typeof value !== "object" || seen.has(value)) return;
  seen.add(value);
  for (const key of Reflect.ownKeys(value)) {
    const descriptor = Object.getOwnPropertyDescriptor(value, key);
    if (!descriptor || !("value" in descriptor)) continue;
    const inner: unknown = descriptor.value;
    if (typeof inner === "bigint") {
      if (descriptor.writable) (value as Record<PropertyKey, unknown>)[key] = `${inner}n`;
    } else {
      bigintsAsText(inner, depth - 1, seen);
    }
  }
}

export const mochaHooks = {
  afterEach(this: Mocha.Context): void {
    const error = this.currentTest?.err;
    if (error) bigintsAsText(error);
  },
};
