// Failed permit requests per user (../../../ts/service/store/permitFailures.ts), on both engines: counted
// within the window on the store's clock, per user (a canonical Address: the type refuses any other
// case), old rows forgotten.
import { expect } from "chai";
import { getAddress } from "viem";
import type { Address } from "../../../ts/service/model/values.ts";
import { describeEachEngine } from "./engines.ts";

const HOUR = 3600_000;
const USER: Address = "0x15d34aaf54267db7d7c367839aaf71a00a2c6a65";
const OTHER: Address = "0x9965507d1a55bcc2695c58ba16fb37d819b0a4dc";

describeEachEngine("permit failures", (engine) => {
  it("permitFailures_countedPerUserWithinTheWindow", async () => {
    const { store, clock } = engine;
    expect(await store.countPermitFailures(USER, HOUR)).to.equal(0);
    await store.recordPermitFailure(USER, HOUR);
    clock.ms += 10 * 60_000;
    // The repository takes the canonical Address only: a checksummed one does not compile (never called).
    const checksummed = () =>
      // @ts-expect-error viem's checksummed address is not the canonical Address
      store.recordPermitFailure(getAddress(USER), HOUR);
    expect(checksummed).to.be.a("function");
    await store.recordPermitFailure(USER, HOUR);
    await store.recordPermitFailure(OTHER, HOUR);
    expect(await store.countPermitFailures(USER, HOUR)).to.equal(2);
    expect(await store.countPermitFailures(OTHER, HOUR)).to.equal(1);
    clock.ms += 50 * 60_000; // the first failure is now exactly an hour old: out of the window
    expect(await store.countPermitFailures(USER, HOUR)).to.equal(1);
    clock.ms += 10 * 60_000;
    expect(await store.countPermitFailures(USER, HOUR)).to.equal(0);
  });

  it("permitFailures_aNewFailureForgetsTheUsersRowsOutsideTheWindow", async () => {
    const { store, clock } = engine;
    for (let i = 0; i < 3; i++) await store.recordPermitFailure(USER, HOUR);
    await store.recordPermitFailure(OTHER, HOUR);
    clock.ms += 2 * HOUR;
    await store.recordPermitFailure(USER, HOUR);
    const { rows } = await store.engine.query<{ user_address: string; n: number }>("SELECT user_address, count(*)::int AS n FROM permit_failures GROUP BY user_address ORDER BY user_address");
    expect(rows).to.deep.equal([
      { user_address: USER, n: 1 },
      { user_address: OTHER, n: 1 },
    ]);
  });
});
