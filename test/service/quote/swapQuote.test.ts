/**
 * buildQuote for the three use cases beyond a bridge: swaps (a fixed price source, all trade types,
 * the slippage tolerance), destination calls (bound into the order and the requestId) and the gas
 * top-up. The Uniswap V2 source against a real pool is exercised end to end (test/e2e/swap.test.ts).
 */
import { expect } from "chai";
import { encodeFunctionData, erc20Abi, zeroAddress } from "viem";
import { callsRequestId, encodeOrderCall } from "../../../ts/core/destinationCalls.ts";
import { getOrderId } from "../../../ts/core/orderId.ts";
import { isFerryError } from "../../../ts/core/errors.ts";
import { buildQuote, type QuoteRequest } from "../../../ts/service/quote/buildQuote.ts";
import type { TransactionData } from "../../../ts/service/quote/quoteSteps.ts";
import { createPriceSources } from "../../../ts/service/prices/priceSources.ts";
import { resolveRoute } from "../../../ts/service/quote/quoteRoute.ts";
import { ADDR, DESTINATION, environment, nativeRequest, ORIGIN, quoteConfig, type TestEnvironment } from "./quoteFixture.ts";
import { canonicalHex } from "../../../ts/service/model/values.ts";

const config = quoteConfig({
  quotes: {
    priceSources: [
      { type: "fixed", chainId: DESTINATION, base: "ETH", quote: "USDC", price: "3000" },
      { type: "fixed", chainId: ORIGIN, base: "ETH", quote: "USDC", price: "3000" },
    ],
    swapSlippageBps: 50,
  },
});
const sources = createPriceSources(config.quotes.priceSources, { get: () => undefined });

async function quote(request: QuoteRequest, env: TestEnvironment = environment(config)) {
  const route = resolveRoute(env.chains, request, sources);
  const prices = route.swap ? await route.swap.read(route.origin.currency, route.destination.currency) : undefined;
  return buildQuote(request, route, { ...env, ...(prices ? { prices } : {}) });
}

const ethToUsdc = (overrides: Partial<QuoteRequest> = {}) => nativeRequest({ destinationCurrency: ADDR.stablecoin, ...overrides });

describe("buildQuote: swaps, calls, gas top-up", () => {
  it("swapExactInput_pricesTheNetInput_andSetsTheMinimumBelowByTheTolerance", async () => {
    const { quote: q, intent } = await quote(ethToUsdc());
    const net = intent.swap!.netInput;
    expect(net).to.equal(intent.originAmount - intent.fees.relayerGas - intent.fees.relayerService - intent.fees.app);
    // 3000 USDC (6 decimals) per ETH (18): net wei × 3000e6 / 1e18.
    expect(intent.destinationAmount).to.equal((net * 3_000_000_000n) / 10n ** 18n);
    expect(intent.minimumAmount).to.equal((intent.destinationAmount * 9_950n) / 10_000n);
    expect(intent.swap).to.deep.include({ priceSource: `fixed:${DESTINATION}:ETH/USDC`, toleranceBps: "50", floorAmount: intent.minimumAmount });
    expect(q.details).to.deep.include({ operation: "swap", isFixedRate: true });
    expect(q.details.currencyOut.minimumAmount).to.equal(intent.minimumAmount!.toString());
    expect(q.details.slippageTolerance.destination).to.deep.equal({
      usd: (Number(intent.destinationAmount - intent.minimumAmount!) / 1e6).toString(),
      value: (intent.destinationAmount - intent.minimumAmount!).toString(),
      percent: "0.5",
    });
    expect(q.details.route.destination.router).to.equal("fixed");
    expect(q.details.route.origin.outputCurrency.amount).to.equal(net.toString());
    // A fixed price has no swap impact; the total impact is the fees.
    expect(q.details.swapImpact).to.deep.equal({ usd: "0", percent: "0" });
    expect(Number(q.details.totalImpact.percent)).to.be.lessThan(0);
    const payment = q.protocol.v2.orderData.output.payments[0]!;
    expect(payment).to.deep.include({ minimumAmount: intent.minimumAmount!.toString(), expectedAmount: intent.destinationAmount.toString() });
    expect(getOrderId(q.protocol.v2.orderData)).to.equal(q.protocol.v2.orderId);
  });

  it("swapTolerance_comesFromTheBody_elseTheSetting", async () => {
    const { intent } = await quote(ethToUsdc({ slippageToleranceBps: 300n }));
    expect(intent.slippageToleranceBps).to.equal("300");
    expect(intent.minimumAmount).to.equal((intent.destinationAmount * 9_700n) / 10_000n);
  });

  it("expectedOutput_quotesTheAmountAsExpected_withTheToleranceBelow", async () => {
    const { quote: q, intent } = await quote(ethToUsdc({ tradeType: "EXPECTED_OUTPUT", amount: 1_500_000_000n }));
    expect(intent.destinationAmount).to.equal(1_500_000_000n);
    expect(intent.minimumAmount).to.equal(1_492_500_000n);
    // The deposit buys at least the expected amount after fees.
    expect((intent.swap!.netInput * 3_000_000_000n) / 10n ** 18n >= 1_500_000_000n).to.equal(true);
    expect(q.details.currencyOut.amount).to.equal("1500000000");
  });

  it("exactOutput_paysExactlyTheAmount_theToleranceOnlyBoundsTheFillTimePrice", async () => {
    const { quote: q, intent } = await quote(ethToUsdc({ tradeType: "EXACT_OUTPUT", amount: 1_500_000_000n }));
    expect(intent.minimumAmount).to.equal(1_500_000_000n);
    expect(intent.swap!.floorAmount).to.equal(1_492_500_000n);
    expect(q.details.slippageTolerance.destination.value).to.equal("0");
    expect(q.details.slippageTolerance.origin.percent).to.equal("0.5");
  });

  it("sameChainSwap_isPricedByTheSourceOfThatChain", async () => {
    const { quote: q, intent } = await quote(ethToUsdc({ destinationChainId: ORIGIN }));
    expect(intent.swap!.priceSource).to.equal(`fixed:${ORIGIN}:ETH/USDC`);
    expect(q.details.operation).to.equal("swap");
  });

  it("aSwapWithoutAPriceSource_isUnsupportedRoute", async () => {
    const bare = quoteConfig();
    try {
      resolveRoute(bare.chains, ethToUsdc(), createPriceSources([], { get: () => undefined }));
      expect.fail("resolved");
    } catch (error) {
      expect(isFerryError(error) && error.code).to.equal("UNSUPPORTED_ROUTE");
    }
  });

  it("calls_areBoundIntoTheOrderAndTheRequestId_andLeftoversGoToTheRefundRecipient", async () => {
    const approve = encodeFunctionData({ abi: erc20Abi, functionName: "approve", args: [ADDR.app, 10n] });
    const calls = [{ to: ADDR.stablecoin, data: canonicalHex(approve), value: 0n }];
    const request = nativeRequest({ originCurrency: ADDR.stablecoin, destinationCurrency: ADDR.stablecoin, amount: 100_000_000n, calls, refundTo: ADDR.app });
    const { quote: q, intent } = await quote(request);
    expect(intent.calls).to.deep.equal(calls);
    expect(intent.recipient).to.equal(ADDR.app);
    expect(intent.requestId).to.equal(callsRequestId(intent.orderId, calls, [ADDR.stablecoin]));
    expect(q.steps.every((step) => step.requestId === intent.requestId)).to.equal(true);
    expect(q.protocol.v2.orderData.output.calls).to.deep.equal([encodeOrderCall(calls[0]!)]);
    expect(q.protocol.v2.orderData.output.payments[0]!.recipient).to.equal(ADDR.app);
    const plain = await quote({ ...request, calls: [] });
    // fillWithCalls + the calls' default gas cost more than a plain fill.
    expect(intent.fees.relayerGas > plain.intent.fees.relayerGas).to.equal(true);
  });

  it("calls_withNativeValue_needANativeOutputThatCoversThem", async () => {
    const call = { to: ADDR.app, data: "0x" as const, value: 1n };
    const code = async (request: QuoteRequest) => {
      try {
        await quote(request);
      } catch (error) {
        return isFerryError(error) ? error.code : String(error);
      }
      return undefined;
    };
    expect(await code(nativeRequest({ originCurrency: ADDR.stablecoin, destinationCurrency: ADDR.stablecoin, amount: 100_000_000n, calls: [call] }))).to.equal("INVALID_REQUEST");
    expect(await code(nativeRequest({ calls: [{ ...call, value: 2n * 10n ** 18n }] }))).to.equal("INVALID_REQUEST");
    const { intent } = await quote(nativeRequest({ calls: [{ ...call, value: 10n ** 17n }] }));
    expect(intent.calls![0]!.value).to.equal(10n ** 17n);
  });

  it("topupGas_addsATransferToTheRecipient_pricedIntoRelayerGas", async () => {
    const request = nativeRequest({ originCurrency: ADDR.stablecoin, destinationCurrency: ADDR.stablecoin, amount: 100_000_000n, topupGas: true });
    const { quote: q, intent } = await quote(request);
    // Default: 2 USD of ETH at 3000 USD.
    const topup = (2n * 10n ** 18n + 2_999n) / 3_000n;
    expect(intent.topupGas).to.equal(topup);
    expect(intent.calls).to.deep.equal([{ to: ADDR.recipient, data: "0x", value: topup }]);
    // 2 USD in USDC, rounded up twice (USD → wei, wei → USDC).
    expect(intent.fees.topupGas).to.equal(2_000_001n);
    expect(BigInt(q.fees.relayerGas.amount)).to.equal(intent.fees.relayerGas + intent.fees.topupGas!);
    const explicit = await quote({ ...request, topupGasAmount: 5n * 10n ** 15n });
    expect(explicit.intent.topupGas).to.equal(5n * 10n ** 15n);
    // A native output is gas already: no top-up.
    expect((await quote(nativeRequest({ topupGas: true }))).intent.topupGas).to.equal(undefined);
  });

  it("depositItem_carriesTheGasEstimate", async () => {
    const { quote: q } = await quote(nativeRequest({ originGasOverhead: 1_000n }));
    expect((q.steps.at(-1)!.items[0]!.data as TransactionData).gas).to.equal(String(config.quotes.gas.depositNative + 1_000));
    expect(zeroAddress).to.equal(q.protocol.v2.paymentDetails.currency);
  });
});
