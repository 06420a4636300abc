/**
 * ts/service/prices/chainlinkFeed.ts: the four checks of a round (positive answer, complete round,
 * answered in its own round, fresh), pure and against a feed contract on a real EDR chain
 * (contracts/mocks/MockAggregatorV3.sol, whose rounds the test sets, malformed ones included).
 */
import { expect } from "chai";
import { network } from "hardhat";
import type { Abi, Address, Hex, PublicClient } from "viem";
import feedArtifact from "../../../artifacts/contracts/mocks/MockAggregatorV3.sol/MockAggregatorV3.json" with { type: "json" };
import { checkRound, createChainlinkFeed, type FeedRound } from "../../../ts/service/prices/chainlinkFeed.ts";
import { codeOf } from "../quote/quoteFixture.ts";

const FEED: Address = "0x5f4ec3df9cbd43714fe2740f5e3616155c5b8419";
const NOW = 1_767_225_600n;
const good: FeedRound = { roundId: 10n, answer: 3_000n * 10n ** 8n, startedAt: NOW - 60n, updatedAt: NOW - 60n, answeredInRound: 10n };

describe("chainlinkFeed", function () {
  it("checkRound_acceptsAFreshCompleteRoundWithAPositiveAnswer", () => {
    expect(checkRound(FEED, good, NOW, 3_600)).to.equal(3_000n * 10n ** 8n);
  });

  it("checkRound_refusesEachMalformedRound_PRICE_UNAVAILABLE", async () => {
    const cases: [string, Partial<FeedRound>, RegExp][] = [
      ["negative answer", { answer: -1n }, /answered -1/],
      ["zero answer", { answer: 0n }, /answered 0/],
      ["incomplete round", { updatedAt: 0n }, /incomplete/],
      ["not started", { startedAt: 0n }, /incomplete/],
      ["carried over", { answeredInRound: 9n }, /carries the answer of round 9/],
      ["stale", { updatedAt: NOW - 3_601n }, /3601 s ago/],
      ["from the future", { updatedAt: NOW + 1n }, /after the chain's time/],
    ];
    for (const [name, change, message] of cases) {
      expect(await codeOf(() => checkRound(FEED, { ...good, ...change }, NOW, 3_600)), name).to.equal("PRICE_UNAVAILABLE");
      expect(() => checkRound(FEED, { ...good, ...change }, NOW, 3_600), name).to.throw(message);
    }
  });

  it("readsAFeedContract_decimalsOnchain_andChecksItsRounds", async () => {
    const chain = await network.create();
    const publicClient = (await chain.viem.getPublicClient()) as unknown as PublicClient;
    const [wallet] = await chain.viem.getWalletClients();
    const hash = await wallet!.deployContract({ abi: feedArtifact.abi as Abi, bytecode: feedArtifact.bytecode as Hex, args: [8, "ETH / USD"] });
    const address = (await publicClient.waitForTransactionReceipt({ hash })).contractAddress!;
    const now = (await publicClient.getBlock()).timestamp;
    const setRound = async (round: FeedRound) => {
      const tx = await wallet!.writeContract({
        address,
        abi: feedArtifact.abi as Abi,
        functionName: "setRound",
        args: [round.roundId, round.answer, round.startedAt, round.updatedAt, round.answeredInRound],
      });
      await publicClient.waitForTransactionReceipt({ hash: tx });
    };
    const feed = createChainlinkFeed(address, 3_600);
    const fresh = { roundId: 5n, answer: 2_999_5000_0000n, startedAt: now - 10n, updatedAt: now - 10n, answeredInRound: 5n };
    await setRound(fresh);
    expect(await feed.decimals(publicClient)).to.equal(8);
    expect(await feed.read(publicClient, now)).to.deep.equal({ answer: 2_999_5000_0000n, decimals: 8, updatedAt: now - 10n });

    await setRound({ ...fresh, answer: -5n });
    expect(await codeOf(() => feed.read(publicClient, now)), "negative").to.equal("PRICE_UNAVAILABLE");
    await setRound({ ...fresh, updatedAt: 0n });
    expect(await codeOf(() => feed.read(publicClient, now)), "incomplete").to.equal("PRICE_UNAVAILABLE");
    await setRound({ ...fresh, roundId: 6n });
    expect(await codeOf(() => feed.read(publicClient, now)), "answered in an earlier round").to.equal("PRICE_UNAVAILABLE");
    await setRound(fresh);
    expect(await codeOf(() => feed.read(publicClient, now + 3_591n)), "stale").to.equal("PRICE_UNAVAILABLE");
  });
});
