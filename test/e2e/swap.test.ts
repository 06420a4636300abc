/**
 * End to end: swaps on the devnet. The destination chain's ETH/fUSD price comes from a real Uniswap V2
 * pair deployed there (ts/devnet/devnetMarket.ts; Ferry reads its reserves at quote and fill time),
 * the origin chain's from the devnet's labelled fixed price. The solver delivers from its inventory:
 * - native (31337) → fUSD (31338): the recipient gets currencyOut.amount ≥ the quoted minimum;
 * - a same-chain swap (fUSD → ETH on 31337, fixed price);
 * - EXPECTED_OUTPUT and EXACT_OUTPUT deliver exactly the asked amount;
 * - a real swap on the pool between the quote and the fill, held over the pool's TWAP window (the
 *   fill-time check re-prices against the TWAP, not the spot), moves the price past the tolerance:
 *   the request ends in `refund` with failReason SLIPPAGE, and the user has the deposit back.
 */
import { expect } from "chai";
import { erc20Abi, parseEther, type Address } from "viem";
import type { Quote, QuoteRequest } from "../../ts/client/apiTypes.ts";
import { RequestFailedError } from "../../ts/client/clientErrors.ts";
import { waitForRequest } from "../../ts/client/waitForRequest.ts";
import { UNISWAP_V2_PAIR_ABI } from "../../ts/service/prices/uniswapV2PriceSource.ts";
import { DEVNET_TWAP_WINDOW_SECONDS, WRAPPED_NATIVE_ABI } from "../../ts/devnet/devnetMarket.ts";
import { DESTINATION, NATIVE, ORIGIN, freshRecipient, gasCost, startE2eDevnet, type E2eDevnet } from "./e2eDevnet.ts";

describe("e2e: swaps (Uniswap V2 pool on 31338, fixed price on 31337)", function () {
  this.timeout(240_000);
  let devnet: E2eDevnet;
  let fusd: Address;

  before(async function () {
    this.timeout(420_000);
    devnet = await startE2eDevnet();
    fusd = devnet.destination.file.contracts.stablecoin!;
  });
  after(async () => devnet?.close());

  const fusdOf = (chain: "origin" | "destination", address: Address) =>
    devnet[chain].publicClient.readContract({ address: fusd, abi: erc20Abi, functionName: "balanceOf", args: [address] });

  const ethToFusd = (user: Address, recipient: Address, overrides: Partial<QuoteRequest> = {}): Promise<Quote> =>
    devnet.client.getQuote({
      user,
      recipient,
      originChainId: ORIGIN,
      destinationChainId: DESTINATION,
      originCurrency: NATIVE,
      destinationCurrency: fusd,
      amount: parseEther("1").toString(),
      tradeType: "EXACT_INPUT",
      ...overrides,
    });

  it("native → fUSD across chains: priced by the pool, the recipient gets at least the quoted minimum", async () => {
    const user = devnet.users[0]!;
    const recipient = freshRecipient();
    const quote = await ethToFusd(user.address, recipient, { slippageTolerance: "100" });
    const pair = devnet.destination.file.contracts.uniswapV2Pair!;
    expect(quote.details).to.deep.include({ operation: "swap", isFixedRate: false });
    expect(quote.details.route!.destination.router).to.equal(`uniswap-v2:${pair.toLowerCase()}`);
    expect(quote.details.route!.destination.pricing).to.deep.equal({ source: `uniswap-v2:${DESTINATION}:${pair.toLowerCase()}`, reference: "twap:60s", pricedBy: "reference" });
    // 100 ETH / 300,000 fUSD: 1 ETH buys < 3000 fUSD (0.3% fee and ~1% impact), the swap impact shows it.
    const out = BigInt(quote.details.currencyOut.amount);
    const minimum = BigInt(quote.details.currencyOut.minimumAmount);
    expect(out < 3_000n * 10n ** 6n).to.equal(true);
    expect(out > 2_900n * 10n ** 6n).to.equal(true);
    expect(minimum).to.equal((out * 9_900n) / 10_000n);
    expect(Number(quote.details.swapImpact!.percent)).to.be.lessThan(-1);
    expect(quote.details.slippageTolerance!.destination.percent).to.equal("1");

    const result = await devnet.client.executeQuote({ quote, walletClient: devnet.origin.wallet(user), pollIntervalMs: 200, timeoutMs: 120_000 });
    expect(result.status.status).to.equal("success");
    const received = await fusdOf("destination", recipient);
    expect(received >= minimum).to.equal(true);
    expect(received).to.equal(out);
  });

  it("same-chain swap fUSD → ETH on 31337 at the devnet's fixed price", async () => {
    const user = devnet.users[1]!;
    const recipient = freshRecipient();
    const quote = await devnet.client.getQuote({
      user: user.address,
      recipient,
      originChainId: ORIGIN,
      destinationChainId: ORIGIN,
      originCurrency: fusd,
      destinationCurrency: NATIVE,
      amount: (300n * 10n ** 6n).toString(),
      tradeType: "EXACT_INPUT",
    });
    expect(quote.details).to.deep.include({ operation: "swap", isFixedRate: true });
    expect(quote.details.route!.destination.router).to.equal("fixed");
    const result = await devnet.client.executeQuote({ quote, walletClient: devnet.origin.wallet(user), pollIntervalMs: 200, timeoutMs: 120_000 });
    expect(result.status.status).to.equal("success");
    const received = await devnet.origin.publicClient.getBalance({ address: recipient });
    expect(received).to.equal(BigInt(quote.details.currencyOut.amount));
    // 300 fUSD less fees at 3000 fUSD/ETH: just under 0.1 ETH.
    expect(received > parseEther("0.099")).to.equal(true);
    expect(received >= BigInt(quote.details.currencyOut.minimumAmount)).to.equal(true);
  });

  for (const tradeType of ["EXPECTED_OUTPUT", "EXACT_OUTPUT"] as const) {
    it(`${tradeType}: native → fUSD delivers exactly the asked amount`, async () => {
      const user = devnet.users[2]!;
      const recipient = freshRecipient();
      const amount = 1_234_000_000n; // 1,234 fUSD
      const quote = await ethToFusd(user.address, recipient, { tradeType, amount: amount.toString() });
      expect(quote.details.currencyOut.amount).to.equal(amount.toString());
      const minimum = BigInt(quote.details.currencyOut.minimumAmount);
      expect(minimum).to.equal(tradeType === "EXACT_OUTPUT" ? amount : (amount * 9_950n) / 10_000n);
      const result = await devnet.client.executeQuote({ quote, walletClient: devnet.origin.wallet(user), pollIntervalMs: 200, timeoutMs: 120_000 });
      expect(result.status.status).to.equal("success");
      expect(await fusdOf("destination", recipient)).to.equal(amount);
    });
  }

  it("a real swap on the pool between quote and fill moves the price past the tolerance: refund with SLIPPAGE", async () => {
    const user = devnet.users[3]!;
    const recipient = freshRecipient();
    const quote = await ethToFusd(user.address, recipient, { slippageTolerance: "50" });
    const requestId = quote.steps.at(-1)!.requestId;

    // Someone dumps 20 WETH into the pool on the destination chain: ETH gets ~30% cheaper in fUSD.
    const trader = devnet.users[4]!;
    const wallet = devnet.destination.wallet(trader);
    const { wrappedNative, uniswapV2Pair } = devnet.destination.file.contracts;
    const pc = devnet.destination.publicClient;
    const mined = async (hash: `0x${string}`) => expect((await pc.waitForTransactionReceipt({ hash })).status).to.equal("success");
    const dump = parseEther("20");
    await mined(await wallet.writeContract({ address: wrappedNative!, abi: WRAPPED_NATIVE_ABI, functionName: "deposit", value: dump }));
    await mined(await wallet.writeContract({ address: wrappedNative!, abi: WRAPPED_NATIVE_ABI, functionName: "transfer", args: [uniswapV2Pair!, dump] }));
    const [reserve0, reserve1] = await pc.readContract({ address: uniswapV2Pair!, abi: UNISWAP_V2_PAIR_ABI, functionName: "getReserves" });
    const token0 = (await pc.readContract({ address: uniswapV2Pair!, abi: UNISWAP_V2_PAIR_ABI, functionName: "token0" })).toLowerCase();
    const wethIs0 = token0 === wrappedNative!.toLowerCase();
    const [reserveWeth, reserveUsd] = wethIs0 ? [reserve0, reserve1] : [reserve1, reserve0];
    const usdOut = ((dump * 997n) * reserveUsd) / (reserveWeth * 1000n + dump * 997n);
    await mined(await wallet.writeContract({ address: uniswapV2Pair!, abi: UNISWAP_V2_PAIR_ABI, functionName: "swap", args: wethIs0 ? [0n, usdOut, trader.address, "0x"] : [usdOut, 0n, trader.address, "0x"] }));
    // The market stays there: the new price holds over the pool's TWAP window, so the reference the fill
    // is checked against moves too (a price held for one block would move the spot only).
    await devnet.destination.testClient.increaseTime({ seconds: DEVNET_TWAP_WINDOW_SECONDS + 1 });
    await devnet.destination.testClient.mine({ blocks: 1 });

    const before = await devnet.origin.publicClient.getBalance({ address: user.address });
    let failed: unknown;
    let depositHash: `0x${string}` | undefined;
    try {
      await devnet.client.executeQuote({
        quote,
        walletClient: devnet.origin.wallet(user),
        pollIntervalMs: 200,
        timeoutMs: 120_000,
        onProgress: (p) => (depositHash = p.txHashes.find((t) => t.stepId === "deposit")?.txHash ?? depositHash),
      });
    } catch (error) {
      failed = error;
    }
    expect(failed).to.be.instanceOf(RequestFailedError);
    const status = await waitForRequest({ client: devnet.client, requestId, pollIntervalMs: 200, timeoutMs: 60_000, until: (s) => s.status === "refund" });
    expect(status).to.include({ status: "refund", failReason: "SLIPPAGE" });
    expect(status.details).to.include({ floorAmount: quote.details.currencyOut.minimumAmount });
    expect(BigInt(status.details!.currentAmount as string) < BigInt(quote.details.currencyOut.minimumAmount)).to.equal(true);
    expect(await fusdOf("destination", recipient)).to.equal(0n);
    const after = await devnet.origin.publicClient.getBalance({ address: user.address });
    expect(after).to.equal(before - (await gasCost(devnet.origin.publicClient, depositHash!)));
  });
});
