/**
 * The benchmarks' latency in blocks (scripts/bench/blockLatency.ts): deposit block → fill block on two
 * interval-mined chains whose clocks disagree, as the devnet's do (the destination's market moves its
 * clock a minute ahead). Two fake chains mine a block every 2 s on one virtual wall clock, the
 * destination 1.2 s after the origin, its timestamps 60 s ahead: a fill in the first destination
 * block after the deposit's is 1 block (0.6 block times later, rounded), one block later 2 — not the
 * 31 that the chains' timestamps would give (60 s of clock difference is 30 blocks of 2 s).
 */
import { expect } from "chai";
import { blockLatencyReport, blocksToFill, startBlockClock } from "../../scripts/bench/blockLatency.ts";

const BASE = 1_700_000_000;

/** A chain mining block n at `phaseMs + n × 2000` virtual ms, its clock `aheadSeconds` ahead of the wall clock. */
function fakeChain(chainId: number, phaseMs: number, aheadSeconds: number, now: () => number) {
  return {
    chainId,
    publicClient: {
      getBlock: async () => {
        const number = BigInt(Math.max(0, Math.floor((now() - phaseMs) / 2000)));
        const minedAt = phaseMs + Number(number) * 2000;
        return { number, timestamp: BigInt(BASE + aheadSeconds + Math.floor(minedAt / 1000)) };
      },
    } as never,
  };
}

async function runClock(untilMs: number) {
  let t = 0;
  const now = () => t;
  const clock = startBlockClock([fakeChain(1, 0, 0, now), fakeChain(2, 1200, 60, now)], {
    pollMs: 10,
    now,
    sleep: () => new Promise((resolve) => setImmediate(resolve)),
  });
  for (; t <= untilMs; t += 10) {
    for (let i = 0; i < 4; i++) await new Promise((resolve) => setImmediate(resolve));
  }
  clock.stop();
  return clock;
}

describe("bench latency in blocks: timed on one clock, not the chains' timestamps", () => {
  it("counts a fill in the first destination block after the deposit's as 1 block, the next as 2, whatever the chains' clocks say", async () => {
    const clock = await runClock(16_000);
    const latency = blocksToFill({
      intents: [
        { requestId: "0xAA", depositBlock: 5n },
        { requestId: "0xBB", depositBlock: 5n },
      ],
      fills: [
        { requestId: "0xaa", blockNumber: 5n },
        { requestId: "0xbb", blockNumber: 6n },
      ],
      clock,
      originChainId: 1,
      destinationChainId: 2,
      blockTimeSeconds: 2,
      confirmations: 1,
    });
    expect(latency.blocks).to.deep.equal([1, 2]);
    expect(latency.untimed).to.equal(0);
    // What the chains' timestamps would have added: the destination's minute, 30 blocks of 2 s.
    expect(latency.aheadSeconds.destination - latency.aheadSeconds.origin).to.be.closeTo(60, 1);
    expect(latency.stagesMs.fillBlock).to.be.closeTo(1200, 20);
  });

  it("takes the confirmations beyond the first off (0 counts as 1), and reports what it could not time", async () => {
    const clock = await runClock(16_000);
    const intents = [
      { requestId: "0xaa", depositBlock: 4n },
      { requestId: "0xcc", depositBlock: 4n },
    ];
    const fills = [{ requestId: "0xaa", blockNumber: 6n }];
    const args = { intents, fills, clock, originChainId: 1, destinationChainId: 2, blockTimeSeconds: 2 };
    expect(blocksToFill({ ...args, confirmations: 0 }).blocks).to.deep.equal([3]);
    expect(blocksToFill({ ...args, confirmations: 1 }).blocks).to.deep.equal([3]);
    const deeper = blocksToFill({ ...args, confirmations: 2 });
    expect(deeper.blocks).to.deep.equal([2]);
    expect(deeper.untimed).to.equal(1);
    const report = blockLatencyReport(2, [{ label: "run", latency: deeper }]);
    expect(report.over).to.deep.equal(["run: deposit block → fill block p50 2 blocks", "run: 1 intents not timed in blocks"]);
  });
});
