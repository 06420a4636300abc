import { expect } from "chai";
import { describeEachEngine } from "./engines.ts";

describeEachEngine("store checkpoints", (engine) => {
  const depository = "0x5FbDB2315678afecb367f032d93F642f64180aa3";

  it("getCheckpoint_returnsNull_beforeTheFirstSet", async () => {
    expect(await engine.store.getCheckpoint(31337, depository)).to.equal(null);
  });

  it("setCheckpoint_upserts_perChainAndContract", async () => {
    const { store } = engine;
    await store.setCheckpoint(31337, depository, 10);
    await store.setCheckpoint(31337, depository.toLowerCase(), 25);
    await store.setCheckpoint(31338, depository, 3);
    await store.setCheckpoint(31337, "0x0000000000000000000000000000000000000001", 99);
    expect(await store.getCheckpoint(31337, depository)).to.equal(25);
    expect(await store.getCheckpoint(31338, depository)).to.equal(3);
    const { rows } = await store.engine.query<{ n: number }>("SELECT count(*)::int AS n FROM indexer_checkpoints");
    expect(rows[0].n).to.equal(3);
  });

  it("setCheckpoint_mayMoveBackwards_forAReorgWindow", async () => {
    await engine.store.setCheckpoint(31337, depository, 100);
    await engine.store.setCheckpoint(31337, depository, 94);
    expect(await engine.store.getCheckpoint(31337, depository)).to.equal(94);
  });

  it("setCheckpoint_keepsBlocksBeyond32Bits", async () => {
    await engine.store.setCheckpoint(2 ** 40, depository, 2 ** 40 + 1);
    expect(await engine.store.getCheckpoint(2 ** 40, depository)).to.equal(2 ** 40 + 1);
  });
});
