// The running solver's background passes (ts/service/solver/startSolver.ts): stray refunds, app-balance
// withdrawals, permit deposits and deposit-address forwardings are read at most once a second
// (BACKGROUND_MIN_INTERVAL_MS) even when the work list is polled every 100 ms, as on the devnet — their
// idle reads were a third of an intent's store queries there.
import { expect } from "chai";
import { BACKGROUND_MIN_INTERVAL_MS, startSolver } from "../../../ts/service/solver/startSolver.ts";
import { SILENT_LOG } from "../../../ts/service/logging/logger.ts";
import { createStore, type Store } from "../../../ts/service/store/createStore.ts";
import { useTwoChainsAndStore, type TwoChains } from "./twoChains.ts";
import { countingStore } from "./solverHelpers.ts";

describe("solver: background passes' cadence", function () {
  this.timeout(300_000);
  let env: TwoChains;
  let store: Store;

  useTwoChainsAndStore((made) => ({ env, store } = made));

  it("readsTheStrayAndWithdrawalQueues_aboutOnceASecond_whenTheWorkListIsPolledEvery100ms", async () => {
    const { store: counted, calls } = countingStore(store);
    const running = startSolver({ config: env.config, store: counted, log: SILENT_LOG, pollIntervalMs: 100 });
    try {
      await new Promise((resolve) => setTimeout(resolve, 3_000));
    } finally {
      await running.stop();
    }
    // Three seconds: about three passes (one at start), never the thirty a 100 ms cadence makes.
    const reads = calls.filter((name) => name === "listPendingStrayDeposits");
    expect(reads.length, `stray queue reads in 3 s: ${reads.length}`).to.be.within(2, 3000 / BACKGROUND_MIN_INTERVAL_MS + 1);
  });
});
