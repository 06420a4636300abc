// The solver's deposit-address passes (ts/service/solver/startSolver.ts): what they find is chain state at
// the final block, so a pass at the head the last clean pass ran at is skipped — no store reads — until a
// block comes, or DEPOSIT_ADDRESS_PASS_MAX_SKIP_MS pass (a row written meanwhile is still seen on a chain
// that stalls).
import { expect } from "chai";
import { createSolver, DEPOSIT_ADDRESS_PASS_MAX_SKIP_MS } from "../../../../ts/service/solver/startSolver.ts";
import { createStore, type Store } from "../../../../ts/service/store/createStore.ts";
import { useTwoChainsAndStore, type TwoChains } from "../twoChains.ts";
import { countingStore } from "../solverHelpers.ts";

const LISTINGS = ["listWatchingDepositAddresses", "listSettledDepositAddresses", "mirrorDepositAddresses", "listElsewhereDepositAddresses", "listDepositAddressRefundWork", "listOpenDepositAddresses"];

describe("solver: deposit-address passes at one head", function () {
  this.timeout(300_000);
  let env: TwoChains;
  let store: Store;

  useTwoChainsAndStore((made) => ({ env, store } = made));

  it("listsNothing_whileTheHeadStays_thenOnTheNextBlock_andAfterTheLongestSkip", async () => {
    const { store: counted, calls } = countingStore(store);
    const listings = () => calls.filter((name) => LISTINGS.includes(name));
    const clock = { ms: Date.now() };
    const solver = createSolver({ config: env.config, store: counted, now: () => new Date(clock.ms) });
    const chainsWithFactory = env.config.chains.filter((c) => c.contracts.depositAddressFactory).length;
    expect(chainsWithFactory).to.be.greaterThan(0);

    await solver.tick();
    expect(listings().length, "the first pass reads").to.be.greaterThan(0);
    calls.length = 0;
    for (let i = 0; i < 5; i++) await solver.tick();
    expect(listings(), "passes at the same heads").to.deep.equal([]);

    await env.origin.testClient.mine({ blocks: 1 });
    await solver.tick();
    expect(listings().filter((name) => name === "listWatchingDepositAddresses"), "the origin chain's pass after its new block").to.have.length(1);

    calls.length = 0;
    clock.ms += DEPOSIT_ADDRESS_PASS_MAX_SKIP_MS;
    await solver.tick();
    expect(listings().filter((name) => name === "listWatchingDepositAddresses"), "every chain's pass after the longest skip").to.have.length(chainsWithFactory);
  });
});
