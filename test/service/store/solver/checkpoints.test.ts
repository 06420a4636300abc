import { expect } from "chai";
import { canonicalAddress, canonicalHex } from "../../../../ts/service/model/values.ts";
import { describeEachEngine } from "../engines.ts";

describeEachEngine("store checkpoints", (engine) => {
  const depository = canonicalAddress("0x5FbDB2315678afecb367f032d93F642f64180aa3");

  it("getCheckpoint_returnsNull_beforeTheFirstSet", async () => {
    expect(await engine.store.getCheckpoint(31337, depository)).to.equal(null);
  });

  it("setCheckpoint_upserts_perChainAndContract", async () => {
    const { store } = engine;
    await store.setCheckpoint(31337, depository, 10);
    await store.setCheckpoint(31337, canonicalAddress("0x5FBDB2315678AFECB367F032D93F642F64180AA3"), 25);
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

  const hash = (n: number) => canonicalHex(`0x${n.toString(16).padStart(64, "0")}`);

  it("setCheckpoint_withAHash_keepsTheBlockHashAndTheLast32RangeEnds", async () => {
    const { store } = engine;
    for (let block = 1; block <= 40; block++) await store.setCheckpoint(31337, depository, block * 10, hash(block));
    const checkpoint = (await store.getIndexerCheckpoint(31337, depository))!;
    expect(checkpoint.block).to.equal(400);
    expect(checkpoint.hash).to.equal(hash(40));
    expect(checkpoint.recent).to.have.length(32);
    expect(checkpoint.recent[0]).to.deep.equal({ block: 90, hash: hash(9) });
    expect(checkpoint.recent.at(-1)).to.deep.equal({ block: 400, hash: hash(40) });
    expect(checkpoint.halted).to.equal(null);
    // Moving back drops the range ends above the new block.
    await store.setCheckpoint(31337, depository, 255, hash(99));
    const back = (await store.getIndexerCheckpoint(31337, depository))!;
    expect(back.recent.map((r) => r.block).filter((b) => b > 250)).to.deep.equal([255]);
  });

  it("haltIndexer_keepsTheFirstHalt_listsTheChain_andResumeClearsItAtTheOperatorsBlock", async () => {
    const { store } = engine;
    for (const block of [10, 20, 30]) await store.setCheckpoint(31338, depository, block, hash(block));
    const halt = { at: "2026-11-24T00:00:00.000Z", block: 30, expectedHash: hash(30), actualHash: hash(31), lastGood: { block: 20, hash: hash(20) }, depth: 10 };
    await store.haltIndexer(31338, depository, halt);
    await store.haltIndexer(31338, depository, { ...halt, block: 99 });
    expect((await store.getIndexerCheckpoint(31338, depository))!.halted).to.deep.equal(halt);
    expect(await store.listHaltedChains()).to.deep.equal([31338]);
    expect(await store.resumeIndexer(31338, depository, { block: 20, hash: hash(20) })).to.equal(true);
    const resumed = (await store.getIndexerCheckpoint(31338, depository))!;
    expect(resumed).to.deep.include({ block: 20, hash: hash(20), halted: null });
    expect(resumed.recent).to.deep.equal([{ block: 10, hash: hash(10) }, { block: 20, hash: hash(20) }]);
    expect(await store.listHaltedChains()).to.deep.equal([]);
    expect(await store.resumeIndexer(1, depository, { block: 1, hash: hash(1) })).to.equal(false);
  });
});
