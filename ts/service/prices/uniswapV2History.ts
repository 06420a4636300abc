/**
 * The reads behind a Uniswap V2 pair's TWAP (./uniswapV2Twap.ts): the pair's state at the latest block
 * (its spot reserves, from the same block) and at the newest block at least `windowSeconds` older —
 * an `eth_call` at that block, so the RPC must still have its state (an archive node, or a window
 * within the node's state history: 128 blocks on a full geth node, ~25 min on Ethereum).
 *
 * The old block is found by searching block timestamps between `head − window` (timestamps grow by at
 * least a second a block) and the head, eight blocks read at once per round, then kept: the next reads reuse it while it is no more
 * than half a window older than needed, so a quote costs one block read and three calls at the head.
 * A pair younger than the window (no code or no liquidity at the old block), or a chain shorter than
 * it, has no reference: PRICE_UNAVAILABLE, and the quote is refused.
 */
import { BaseError, ContractFunctionZeroDataError, parseAbi, type Address } from "viem";
import { QuoteError } from "../errors/quoteErrors.ts";
import { averagePrices, observationAt, type AveragePrices, type Observation, type PairState } from "./uniswapV2Twap.ts";

export const UNISWAP_V2_ORACLE_ABI = parseAbi([
  "function getReserves() view returns (uint112 reserve0, uint112 reserve1, uint32 blockTimestampLast)",
  "function price0CumulativeLast() view returns (uint256)",
  "function price1CumulativeLast() view returns (uint256)",
]);

type Block = { number: bigint | null; timestamp: bigint };

/** Blocks read at once per round of the search. */
const PROBES = 8n;

/** The reads this needs: a viem public client of the pair's chain. */
export type HistoryReader = {
  getBlock(args: { blockTag: "latest" } | { blockNumber: bigint }): Promise<Block>;
  readContract(args: { address: Address; abi: typeof UNISWAP_V2_ORACLE_ABI; functionName: "getReserves" | "price0CumulativeLast" | "price1CumulativeLast"; blockNumber: bigint }): Promise<unknown>;
};

/** The pair at the latest block. */
export type PairHead = { state: PairState; blockNumber: bigint; timestamp: bigint };
export type PairReading = PairHead & { average: AveragePrices };

export type PairHistory = {
  /** The pair's state at the latest block (an oracle-referenced source needs no more). */
  head(reader: HistoryReader): Promise<PairHead>;
  /** The head and the mean prices over the window ending at it. */
  read(reader: HistoryReader): Promise<PairReading>;
};

export function createPairHistory(pair: Address, windowSeconds: number): PairHistory {
  const window = BigInt(windowSeconds);
  let anchor: (Observation & { blockNumber: bigint }) | undefined;

  async function stateAt(reader: HistoryReader, blockNumber: bigint): Promise<PairState> {
    const call = (functionName: "getReserves" | "price0CumulativeLast" | "price1CumulativeLast") =>
      reader.readContract({ address: pair, abi: UNISWAP_V2_ORACLE_ABI, functionName, blockNumber });
    const [reserves, price0CumulativeLast, price1CumulativeLast] = (await Promise.all([call("getReserves"), call("price0CumulativeLast"), call("price1CumulativeLast")])) as [
      readonly [bigint, bigint, number],
      bigint,
      bigint,
    ];
    return { reserve0: reserves[0], reserve1: reserves[1], blockTimestampLast: reserves[2], price0CumulativeLast, price1CumulativeLast };
  }

  const noHistory = (why: string) =>
    new QuoteError("PRICE_UNAVAILABLE", `the pool ${pair} has no ${windowSeconds} s price history to check its price against (${why}); retry later`);

  async function findAnchor(reader: HistoryReader, head: bigint, target: bigint): Promise<Observation & { blockNumber: bigint }> {
    const timestampOf = async (blockNumber: bigint) => (await reader.getBlock({ blockNumber })).timestamp;
    let low = head > window ? head - window : 0n;
    if (anchor && anchor.timestamp <= target && anchor.blockNumber > low) low = anchor.blockNumber;
    const lowTime = await timestampOf(low);
    if (lowTime > target) throw noHistory(`block ${low} is only ${lowTime} s old`);
    // Timestamps grow with the block number: probe 8 blocks at once per round (2 rounds for a 60-block
    // range, 4 for 4,000), so the search fits within a quote's chain-read deadline.
    let high = head;
    while (low < high) {
      const step = (high - low) / PROBES + 1n;
      const points: bigint[] = [];
      for (let point = low + step; point <= high; point += step) points.push(point);
      const times = await Promise.all(points.map(timestampOf));
      let next = high;
      for (const [i, point] of points.entries()) {
        if (times[i]! <= target) low = point;
        else {
          next = point - 1n;
          break;
        }
      }
      high = next;
    }
    let state: PairState;
    try {
      state = await stateAt(reader, low);
    } catch (error) {
      if (error instanceof BaseError && error.walk((e) => e instanceof ContractFunctionZeroDataError)) throw noHistory(`no pair at block ${low}`);
      throw error;
    }
    if (state.reserve0 === 0n || state.reserve1 === 0n) throw noHistory(`no liquidity at block ${low}`);
    return { ...observationAt(state, await timestampOf(low)), blockNumber: low };
  }

  async function head(reader: HistoryReader): Promise<PairHead> {
    const latest = await reader.getBlock({ blockTag: "latest" });
    const blockNumber = latest.number!;
    return { state: await stateAt(reader, blockNumber), blockNumber, timestamp: latest.timestamp };
  }

  return {
    head,
    async read(reader) {
      const { state, blockNumber, timestamp } = await head(reader);
      const now = observationAt(state, timestamp);
      const target = timestamp - window;
      // Reuse the old observation while it covers the window and is at most half a window older than needed.
      if (!anchor || anchor.timestamp > target || anchor.timestamp < target - window / 2n) anchor = await findAnchor(reader, blockNumber, target);
      return { state, blockNumber, timestamp, average: averagePrices(anchor, now) };
    },
  };
}
