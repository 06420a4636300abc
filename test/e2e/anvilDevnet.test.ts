/**
 * The devnet on Anvil (FERRY_DEVNET_NODE=anvil) mining a block every second
 * (FERRY_DEVNET_BLOCK_TIME=1) — chains that mine like real ones, not a block per transaction: the
 * whole devnet deploys on Anvil, and a native bridge 31337 → 31338 quoted and executed by the client
 * from a user's wallet reaches `success` with the exact amount delivered, its deposit and fill each in
 * an interval-mined block. Prints the latency in blocks (origin blocks from the deposit's to the one
 * current at `success`).
 */
import { expect } from "chai";
import { parseEther } from "viem";
import type { QuoteRequest } from "../../ts/client/apiTypes.ts";
import { DESTINATION, NATIVE, ORIGIN, freshRecipient, startE2eDevnet, type E2eDevnet } from "./e2eDevnet.ts";

const BLOCK_TIME_SECONDS = 1;

/**
 * Block `n` of `chain` came from its interval miner: the node mines every BLOCK_TIME_SECONDS with automine
 * off (so no transaction is mined on demand, and nothing else here mines), and its timestamps do not go
 * back. Not "a block time after the block before": on a loaded machine Anvil's interval timer fires the
 * ticks it missed in a burst, and two interval blocks can then share a second.
 */
async function expectIntervalMined(chain: E2eDevnet["origin"], n: bigint): Promise<void> {
  const [automine, interval] = await Promise.all([
    chain.publicClient.request({ method: "anvil_getAutomine" } as never) as Promise<boolean>,
    chain.publicClient.request({ method: "anvil_getIntervalMining" } as never) as Promise<number>,
  ]);
  expect({ automine, interval }, `chain ${chain.id}`).to.deep.equal({ automine: false, interval: BLOCK_TIME_SECONDS });
  const [block, previous] = [await chain.publicClient.getBlock({ blockNumber: n }), await chain.publicClient.getBlock({ blockNumber: n - 1n })];
  expect(block.timestamp >= previous.timestamp, `chain ${chain.id}: block ${n}'s timestamp`).to.equal(true);
}

describe("e2e: the devnet on Anvil, a block every second", function () {
  this.timeout(240_000);
  let devnet: E2eDevnet;

  before(async function () {
    this.timeout(180_000);
    devnet = await startE2eDevnet({ node: { kind: "anvil", blockTimeSeconds: BLOCK_TIME_SECONDS } });
  });
  after(async () => devnet?.close());

  it("both chains are Anvil nodes that mine on their own, a block a second, and answer the finality tags", async () => {
    for (const chain of [devnet.origin, devnet.destination]) {
      const version = await chain.publicClient.request({ method: "web3_clientVersion" });
      expect(version, `chain ${chain.id}`).to.match(/^anvil\//);
      const start = await chain.publicClient.getBlockNumber({ cacheTime: 0 });
      await new Promise((resolve) => setTimeout(resolve, 3_500));
      const later = await chain.publicClient.getBlockNumber({ cacheTime: 0 });
      // No transaction was sent: the blocks came from the interval (3.5 s at 1 s: 2 to 4 of them).
      expect(Number(later - start), `chain ${chain.id}`).to.be.within(2, 5);
      await expectIntervalMined(chain, later);
      const finalized = await chain.publicClient.getBlock({ blockTag: "finalized" });
      const safe = await chain.publicClient.getBlock({ blockTag: "safe" });
      expect(finalized.number <= safe.number && safe.number <= later, `chain ${chain.id}`).to.equal(true);
    }
  });

  it("a native bridge reaches success with the exact amount; deposit and fill land in interval blocks", async () => {
    const user = devnet.users[0]!;
    const recipient = freshRecipient();
    const body: QuoteRequest = {
      user: user.address,
      originChainId: ORIGIN,
      destinationChainId: DESTINATION,
      originCurrency: NATIVE,
      destinationCurrency: NATIVE,
      recipient,
      amount: parseEther("0.5").toString(),
      tradeType: "EXACT_INPUT",
    };
    const quote = await devnet.client.getQuote(body);
    const result = await devnet.client.executeQuote({
      quote,
      walletClient: devnet.origin.wallet(user),
      publicClients: { [ORIGIN]: devnet.origin.publicClient, [DESTINATION]: devnet.destination.publicClient },
      pollIntervalMs: 250,
      timeoutMs: 120_000,
    });
    expect(result.status.status).to.equal("success");
    expect(await devnet.destination.publicClient.getBalance({ address: recipient })).to.equal(BigInt(quote.details.currencyOut.amount));

    const record = (await devnet.client.getRequests({ id: result.requestId })).requests[0]!;
    const depositHash = record.data.inTxs![0]!.hash as `0x${string}`;
    const fillHash = record.data.outTxs![0]!.hash as `0x${string}`;
    const deposit = await devnet.origin.publicClient.getTransactionReceipt({ hash: depositHash });
    const fill = await devnet.destination.publicClient.getTransactionReceipt({ hash: fillHash });
    // Each in a block of its own chain's interval, not mined on demand.
    for (const [chain, receipt] of [[devnet.origin, deposit], [devnet.destination, fill]] as const) await expectIntervalMined(chain, receipt.blockNumber);
    const headAtSuccess = await devnet.origin.publicClient.getBlockNumber({ cacheTime: 0 });
    console.log(`      latency: ${headAtSuccess - deposit.blockNumber} origin blocks from the deposit's block to success (block time ${BLOCK_TIME_SECONDS} s)`);
    expect(fill.status).to.equal("success");
  });
});
