/**
 * The fault suite runs only under `npm run test:faults` (FERRY_TEST_FAULTS=1): each test starts real
 * chains, a real service process and sometimes a PostgreSQL cluster of its own, and takes tens of
 * seconds to minutes, so plain `npm test` skips it (as it skips the packaging suite).
 */
export const FAULTS_ENABLED = process.env.FERRY_TEST_FAULTS === "1";

export function skipUnlessFaults(context: Mocha.Context): void {
  if (FAULTS_ENABLED) return;
  console.log("    (skipped: run with `npm run test:faults`, which sets FERRY_TEST_FAULTS=1)");
  context.skip();
}
