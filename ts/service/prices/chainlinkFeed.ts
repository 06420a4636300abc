/**
 * An oracle feed as a price reference: a Chainlink-style `AggregatorV3Interface` (`latestRoundData`,
 * `decimals`), e.g. ETH / USD for an ETH/USDC pair. The answer is the price of one whole `base` in
 * whole `quote` units, with the feed's own decimals (read onchain once). A round is used only when:
 * 1. the answer is positive;
 * 2. the round is complete (`updatedAt` and `startedAt` not 0);
 * 3. it was answered in its own round (`answeredInRound ≥ roundId`: not carried over from an earlier one);
 * 4. it is fresh: the chain's latest block time − `updatedAt` ≤ `maxStalenessSeconds` (and not in the future).
 * Any other round is PRICE_UNAVAILABLE naming the check, and the quote is refused.
 */
import { parseAbi, type Address } from "viem";
import { QuoteError } from "../errors/quoteErrors.ts";

export const AGGREGATOR_V3_ABI = parseAbi([
  "function decimals() view returns (uint8)",
  "function description() view returns (string)",
  "function latestRoundData() view returns (uint80 roundId, int256 answer, uint256 startedAt, uint256 updatedAt, uint80 answeredInRound)",
]);

export type FeedRound = { roundId: bigint; answer: bigint; startedAt: bigint; updatedAt: bigint; answeredInRound: bigint };

/** A checked answer: `answer / 10^decimals` whole quote per whole base. */
export type FeedPrice = { answer: bigint; decimals: number; updatedAt: bigint };

export type FeedReader = {
  readContract(args: { address: Address; abi: typeof AGGREGATOR_V3_ABI; functionName: "decimals" | "latestRoundData" }): Promise<unknown>;
};

/** The four checks, pure: the round as read and the chain's time (unix seconds). */
export function checkRound(feed: Address, round: FeedRound, now: bigint, maxStalenessSeconds: number): bigint {
  const refuse = (why: string) => new QuoteError("PRICE_UNAVAILABLE", `the price feed ${feed} ${why}`);
  if (round.answer <= 0n) throw refuse(`answered ${round.answer}: not a price`);
  if (round.updatedAt === 0n || round.startedAt === 0n) throw refuse(`round ${round.roundId} is incomplete`);
  if (round.answeredInRound < round.roundId) throw refuse(`round ${round.roundId} carries the answer of round ${round.answeredInRound}`);
  if (round.updatedAt > now) throw refuse(`was updated at ${round.updatedAt}, after the chain's time ${now}`);
  if (now - round.updatedAt > BigInt(maxStalenessSeconds)) throw refuse(`was last updated ${now - round.updatedAt} s ago (at most ${maxStalenessSeconds} s)`);
  return round.answer;
}

export type ChainlinkFeed = {
  readonly address: Address;
  /** The feed's decimals (read once). */
  decimals(reader: FeedReader): Promise<number>;
  /** The latest round, checked against the chain's time `now`. */
  read(reader: FeedReader, now: bigint): Promise<FeedPrice>;
};

export function createChainlinkFeed(address: Address, maxStalenessSeconds: number): ChainlinkFeed {
  let decimals: number | undefined;
  const readDecimals = async (reader: FeedReader) => (decimals ??= Number(await reader.readContract({ address, abi: AGGREGATOR_V3_ABI, functionName: "decimals" })));
  return {
    address,
    decimals: readDecimals,
    async read(reader, now) {
      const [feedDecimals, round] = await Promise.all([
        readDecimals(reader),
        reader.readContract({ address, abi: AGGREGATOR_V3_ABI, functionName: "latestRoundData" }) as Promise<readonly [bigint, bigint, bigint, bigint, bigint]>,
      ]);
      const [roundId, answer, startedAt, updatedAt, answeredInRound] = round;
      return { answer: checkRound(address, { roundId, answer, startedAt, updatedAt, answeredInRound }, now, maxStalenessSeconds), decimals: feedDecimals, updatedAt };
    },
  };
}
