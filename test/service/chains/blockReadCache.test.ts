/**
 * ts/service/chains/blockReadCache.ts on a real chain (Hardhat EDR 31337): a balance read at the head's
 * block is reused while the head stays, never once the head has moved (up, or back), nor past its
 * maximum age; concurrent callers share one read; a failed read is not kept; without a head every call
 * reads the latest block; a flood of keys is read but not kept past the bound.
 */
import { expect } from "chai";
import { network } from "hardhat";
import { parseEther, type Address, type PublicClient } from "viem";
import { createBlockReadCache } from "../../../ts/service/chains/blockReadCache.ts";
import { ORIGIN } from "../quote/quoteFixture.ts";

const chain = await network.create("origin");
const client = (await chain.viem.getPublicClient()) as unknown as PublicClient;
const [sender] = await chain.viem.getWalletClients();
const USER: Address = "0x00000000000000000000000000000000000b10c4";

describe("blockReadCache", function () {
  /** The head as the chain watch would give it: set by the test from the chain's real head. */
  let head: bigint | undefined;
  let clock = 0;
  let loads: Array<bigint | undefined>;
  const cache = (options: { maxAgeMs?: number; maxEntries?: number } = {}) => createBlockReadCache({ head: () => head, now: () => clock, ...options });
  const balance = (at: bigint | undefined) => {
    loads.push(at);
    return client.getBalance({ address: USER, ...(at === undefined ? {} : { blockNumber: at }) });
  };
  const pay = async (wei: bigint) => {
    const hash = await sender!.sendTransaction({ to: USER, value: wei });
    await client.waitForTransactionReceipt({ hash });
  };
  const watchTick = async () => {
    head = await client.getBlockNumber({ cacheTime: 0 });
  };

  beforeEach(async () => {
    loads = [];
    clock = 0;
    await watchTick();
  });

  it("read_reusesTheValueReadAtTheHead_untilTheHeadMoves", async () => {
    const reads = cache();
    const first = await reads.read(ORIGIN, "balance", balance);
    const atHead = head!;
    await pay(parseEther("1"));
    // The chain has a new block, but the watch has not seen it yet: the value is the one of block atHead.
    expect(await reads.read(ORIGIN, "balance", balance)).to.equal(first);
    expect(loads).to.deep.equal([atHead]);
    await watchTick();
    expect(head).to.equal(atHead + 1n);
    expect(await reads.read(ORIGIN, "balance", balance), "the new head: read again").to.equal(first + parseEther("1"));
    expect(loads).to.deep.equal([atHead, atHead + 1n]);
  });

  it("read_neverReturnsAValueOfAnotherBlock_evenWhenTheHeadGoesBack", async () => {
    const reads = cache();
    const atHead = head!;
    const before = await reads.read(ORIGIN, "balance", balance);
    await pay(parseEther("2"));
    await watchTick();
    const after = await reads.read(ORIGIN, "balance", balance);
    expect(after).to.equal(before + parseEther("2"));
    // A reorg back to the old height (as a watch would report it): the value of the newer block is not served.
    head = atHead;
    expect(await reads.read(ORIGIN, "balance", balance)).to.equal(before);
    expect(loads).to.deep.equal([atHead, atHead + 1n, atHead]);
  });

  it("read_endsAGenerationAfterItsMaximumAge_evenOnTheSameHead", async () => {
    const reads = cache({ maxAgeMs: 1_000 });
    await reads.read(ORIGIN, "balance", balance);
    clock = 999;
    await reads.read(ORIGIN, "balance", balance);
    expect(loads.length).to.equal(1);
    clock = 1_000;
    await reads.read(ORIGIN, "balance", balance);
    expect(loads, "read again at the same head once the generation is too old").to.deep.equal([head, head]);
  });

  it("read_sharesOneReadBetweenConcurrentCallers_andKeysAreApart", async () => {
    const reads = cache();
    const values = await Promise.all([1, 2, 3].map(() => reads.read(ORIGIN, "balance", balance)));
    expect(new Set(values).size).to.equal(1);
    expect(loads.length).to.equal(1);
    await reads.read(ORIGIN, "other", balance);
    await reads.read(ORIGIN + 1, "balance", balance);
    expect(loads.length, "another key, another chain: their own reads").to.equal(3);
  });

  it("read_dropsAFailedRead_soTheNextCallReadsAgain", async () => {
    const reads = cache();
    let fail = true;
    const flaky = (at: bigint | undefined) => (fail ? Promise.reject(new Error("node busy")) : balance(at));
    await reads.read(ORIGIN, "balance", flaky).then(
      () => expect.fail("the read failed"),
      (error: Error) => expect(error.message).to.equal("node busy"),
    );
    fail = false;
    expect(await reads.read(ORIGIN, "balance", flaky)).to.equal(await client.getBalance({ address: USER }));
    expect(loads).to.deep.equal([head]);
  });

  it("read_readsTheLatestBlockEveryCall_withoutAHead", async () => {
    head = undefined;
    const reads = cache();
    await reads.read(ORIGIN, "balance", balance);
    await pay(parseEther("1"));
    expect(await reads.read(ORIGIN, "balance", balance)).to.equal(await client.getBalance({ address: USER }));
    expect(loads).to.deep.equal([undefined, undefined]);
  });

  it("read_keepsAtMostMaxEntriesKeys_andStillAnswersThePast", async () => {
    const reads = cache({ maxEntries: 2 });
    for (const key of ["a", "b", "c", "c"]) await reads.read(ORIGIN, key, balance);
    expect(loads.length, "a and b kept; c read each time").to.equal(4);
    await reads.read(ORIGIN, "a", balance);
    expect(loads.length).to.equal(4);
  });
});
