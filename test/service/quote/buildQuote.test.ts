/**
 * ts/service/quote/buildQuote.ts: the whole quote from a request, its route and an environment. The orderId is
 * recomputed with ts/core getOrderId, and ts/core verifyQuote checks the deposit step against it.
 */
import type { TransactionData } from "../../../ts/service/quote/quoteSteps.ts";
import { expect } from "chai";
import { decodeFunctionData, encodeAbiParameters, erc20Abi, maxUint256, zeroAddress } from "viem";
import { isFerryError } from "../../../ts/core/errors.ts";
import { getOrderId } from "../../../ts/core/orderId.ts";
import { verifyQuote } from "../../../ts/core/verifyQuote.ts";
import type { QuoteRequest } from "../../../ts/service/quote/buildQuote.ts";
import { ADDR, DESTINATION, environment, nativeRequest, NOW, ORIGIN, quoteConfig, quoteOf, stableRequest } from "./quoteFixture.ts";
import { QuotedIntent } from "../../../ts/service/model/quotedIntent.ts";
import { encodeStored } from "../../../ts/service/model/storedValue.ts";

const config = quoteConfig();
const chainIdOf = (name: string) => ({ "ferry-origin": ORIGIN, "ferry-destination": DESTINATION })[name];

function quoteError(request: QuoteRequest, cfg = config): string | undefined {
  try {
    quoteOf(request, environment(cfg));
  } catch (error) {
    return isFerryError(error) ? error.code : String(error);
  }
  return undefined;
}

describe("buildQuote", function () {
  it("nativeExactInput_chargesRelayerGasServiceAndGas_andPaysTheRest", function () {
    const { quote, intent } = quoteOf(nativeRequest({ appFees: [{ recipient: ADDR.app, bps: 25n }] }), environment(config));
    const gas = config.quotes.gas;
    const relayerGas = BigInt(gas.fillNative) * 1_000_000_000n; // destination gas price, ETH → ETH 1:1
    const service = 10n ** 18n / 1_000n; // 10 bps
    const app = (10n ** 18n * 25n) / 10_000n;
    expect(quote.fees.relayerGas.amount).to.equal(relayerGas.toString());
    expect(quote.fees.relayerService.amount).to.equal(service.toString());
    expect(quote.fees.relayer.amount).to.equal((relayerGas + service).toString());
    expect(quote.fees.app.amount).to.equal(app.toString());
    expect(quote.fees.subsidized.amount).to.equal("0");
    expect(quote.fees.gas.amount).to.equal((BigInt(gas.depositNative) * 2_000_000_000n).toString());
    expect(quote.fees.gas.currency).to.deep.include({ chainId: ORIGIN, address: zeroAddress, symbol: "ETH" });
    const out = 10n ** 18n - relayerGas - service - app;
    expect(quote.details.currencyOut.amount).to.equal(out.toString());
    expect(quote.details.currencyIn).to.deep.equal({
      currency: { chainId: ORIGIN, address: zeroAddress, symbol: "ETH", name: "Ether", decimals: 18, metadata: { logoURI: "", verified: true, isNative: true } },
      amount: "1000000000000000000",
      amountFormatted: "1",
      amountUsd: "3000",
      minimumAmount: "1000000000000000000",
    });
    expect(quote.details.currencyOut.minimumAmount).to.equal(out.toString());
    expect(encodeStored(QuotedIntent, intent)).to.deep.equal({
      requestId: `0x${"7e".repeat(32)}`,
      orderId: quote.protocol.v2.orderId,
      tradeType: "EXACT_INPUT",
      user: ADDR.user,
      recipient: ADDR.recipient,
      refundTo: ADDR.user,
      originChainId: ORIGIN,
      originCurrency: zeroAddress,
      originAmount: "1000000000000000000",
      destinationChainId: DESTINATION,
      destinationCurrency: zeroAddress,
      destinationAmount: out.toString(),
      minimumAmount: out.toString(),
      expiresAt: NOW + 300,
      fillDeadline: NOW + 300 + 600,
      fees: { relayerGas: relayerGas.toString(), relayerService: service.toString(), app: app.toString() },
      appFees: [{ recipient: ADDR.app, bps: "25", amount: app.toString() }],
      // The configured ETH price the quote priced with ($3000), kept for the request record's USD figures.
      originUsdPriceE8: "300000000000",
      slippageToleranceBps: "0",
      referrer: null,
    });
    expect(quote.expiresAt).to.equal(NOW + 300);
    expect(quote.fillDeadline).to.equal(NOW + 900);
  });

  it("stablecoin_convertsTheDestinationGasIntoTheInputCurrencyViaUsd_roundingUp", function () {
    const { quote } = quoteOf(stableRequest(), environment(config));
    // 110_000 gas × 1 gwei = 1.1e14 wei = 0.33 USD = 330_000 units.
    expect(quote.fees.relayerGas.amount).to.equal("330000");
    expect(quote.fees.relayerGas.amountUsd).to.equal("0.33");
    expect(quote.fees.relayerService.amount).to.equal("100000");
    expect(quote.details.currencyOut.amount).to.equal((100_000_000n - 330_000n - 100_000n).toString());
    expect(quote.fees.gas.amount).to.equal((BigInt(config.quotes.gas.depositErc20) * 2_000_000_000n).toString());
    const odd = quoteOf(stableRequest(), environment(config, { destinationGasPrice: 1_000_000_001n }));
    expect(odd.quote.fees.relayerGas.amount).to.equal("330001");
  });

  it("addsTheFixedFeeInUsd_andOriginGasOverheadToTheGasEstimate", function () {
    const cfg = quoteConfig({ quotes: { fixedFeeUsd: "0.25", serviceFeeBps: 0 } });
    const { quote } = quoteOf(stableRequest({ originGasOverhead: 100_000n }), environment(cfg));
    expect(quote.fees.relayerService.amount).to.equal("250000");
    expect(quote.fees.gas.amount).to.equal((BigInt(cfg.quotes.gas.depositErc20 + 100_000) * 2_000_000_000n).toString());
  });

  it("exactOutput_paysExactlyTheAmount", function () {
    const { quote, intent } = quoteOf(stableRequest({ tradeType: "EXACT_OUTPUT", amount: 50_000_000n, appFees: [{ recipient: ADDR.app, bps: 100n }] }), environment(config));
    expect(intent.destinationAmount).to.equal(50000000n);
    const deposit = BigInt(intent.originAmount);
    const fees = BigInt(intent.fees.relayerGas) + BigInt(intent.fees.relayerService) + BigInt(intent.fees.app);
    expect(deposit - fees >= 50_000_000n).to.equal(true);
    expect(quote.protocol.v2.paymentDetails.amount).to.equal(intent.originAmount.toString());
    expect(intent.tradeType).to.equal("EXACT_OUTPUT");
  });

  it("protocolV2_isTheOrderOfDesign_andItsIdIsRecomputedByGetOrderId", function () {
    const { quote, intent } = quoteOf(nativeRequest({ refundTo: ADDR.app, appFees: [{ recipient: ADDR.app, bps: 5n }] }), environment(config));
    const { orderData, orderId, paymentDetails } = quote.protocol.v2;
    expect(getOrderId(orderData)).to.equal(orderId);
    expect(orderData).to.deep.equal({
      version: "v1",
      solverChainId: "ferry-origin",
      solver: ADDR.solver,
      salt: `0x${"5a".repeat(32)}`,
      inputs: [
        {
          payment: { chainId: "ferry-origin", currency: zeroAddress, amount: intent.originAmount.toString(), weight: "1" },
          refunds: [{ chainId: "ferry-origin", recipient: ADDR.app, currency: zeroAddress, minimumAmount: intent.originAmount.toString(), deadline: intent.fillDeadline, extraData: "0x" }],
        },
      ],
      output: {
        chainId: "ferry-destination",
        payments: [{ recipient: ADDR.recipient, currency: zeroAddress, minimumAmount: intent.destinationAmount.toString(), expectedAmount: intent.destinationAmount.toString() }],
        calls: [],
        deadline: intent.fillDeadline,
        extraData: encodeAbiParameters([{ type: "address" }], [ADDR.attestedReceiver]),
      },
      fees: [{ recipientChainId: "ferry-origin", recipient: ADDR.app, currencyChainId: "ferry-origin", currency: zeroAddress, amount: intent.appFees[0]!.amount.toString() }],
    });
    expect(paymentDetails).to.deep.equal({ chainId: "ferry-origin", depository: ADDR.depository, currency: zeroAddress, amount: intent.originAmount.toString() });
    // A different salt is a different order.
    const other = quoteOf(nativeRequest(), environment(config, { salt: BigInt(`0x${"5b".repeat(32)}`) }));
    expect(other.quote.protocol.v2.orderId).to.not.equal(quoteOf(nativeRequest(), environment(config)).quote.protocol.v2.orderId);
  });

  it("nativeDeposit_isVerifiedByVerifyQuote_withoutAnApproveStep", function () {
    const { quote, intent } = quoteOf(nativeRequest(), environment(config));
    expect(quote.steps.map((s) => s.id)).to.deep.equal(["deposit"]);
    const result = verifyQuote(quote, { chainIdOf });
    expect(result.valid, result.valid ? "" : result.error.message).to.equal(true);
    if (!result.valid) return;
    expect(result.deposit).to.deep.include({ kind: "native", depositor: zeroAddress, amount: BigInt(intent.originAmount), id: intent.orderId });
    const [step] = quote.steps;
    expect(step).to.deep.include({ kind: "transaction", requestId: intent.requestId, depositAddress: "" });
    expect(step!.items[0]).to.deep.include({
      status: "incomplete",
      check: { endpoint: `/intents/status/v3?requestId=${intent.requestId}`, method: "GET" },
    });
    expect(step!.items[0]!.data).to.deep.include({ from: ADDR.user, to: ADDR.depository, value: intent.originAmount.toString(), chainId: ORIGIN });
  });

  it("reclaimable_depositsWithTheReclaimableForm_reclaimAtTheWindowAfterTheFillDeadline_andVerifies", function () {
    const gas = config.quotes.gas;
    for (const [request, kind, depositGas] of [
      [nativeRequest({ reclaimable: true }), "native", gas.depositNativeReclaimable],
      [stableRequest({ reclaimable: true }), "erc20", gas.depositErc20Reclaimable],
    ] as const) {
      const { quote, intent } = quoteOf(request, environment(config, { allowance: maxUint256 }));
      expect(quote.reclaimAt).to.equal(quote.fillDeadline + config.quotes.reclaimWindowSeconds);
      expect(intent.reclaimAt).to.equal(quote.reclaimAt);
      const item = quote.steps.at(-1)!.items[0]!.data as TransactionData;
      expect(item.gas).to.equal(String(depositGas));
      const result = verifyQuote(quote, { chainIdOf });
      expect(result.valid, result.valid ? "" : result.error.message).to.equal(true);
      if (result.valid) expect(result.deposit).to.deep.include({ kind, id: intent.orderId, reclaimAt: BigInt(quote.reclaimAt!) });
      // A deposit step whose reclaim time is not the quote's does not verify.
      const tampered = verifyQuote({ ...quote, reclaimAt: quote.reclaimAt! - 1 }, { chainIdOf });
      expect(tampered.valid).to.equal(false);
      if (!tampered.valid) expect(tampered.error).to.include({ code: "DEPOSIT_MISMATCH", field: "reclaimAt" });
    }
    // A plain quote has no reclaim time and its deposit is the plain form.
    const plain = quoteOf(nativeRequest(), environment(config));
    expect(plain.quote.reclaimAt).to.equal(undefined);
    expect(plain.intent.reclaimAt).to.equal(undefined);
    const verified = verifyQuote(plain.quote, { chainIdOf });
    expect(verified.valid && verified.deposit.reclaimAt).to.equal(undefined);
  });

  it("erc20Deposit_hasAnApproveStepOnlyWhenTheAllowanceIsShort", function () {
    const short = quoteOf(stableRequest(), environment(config, { allowance: 99_999_999n }));
    expect(short.quote.steps.map((s) => s.id)).to.deep.equal(["approve", "deposit"]);
    const approve = short.quote.steps[0]!.items[0]!;
    expect(approve.check, "the approve item has no status check").to.equal(undefined);
    expect(approve.data).to.deep.include({ from: ADDR.user, to: ADDR.stablecoin, value: "0", chainId: ORIGIN });
    const call = decodeFunctionData({ abi: erc20Abi, data: (approve.data as TransactionData).data });
    expect(call.functionName).to.equal("approve");
    expect(call.args[1]).to.equal(100_000_000n);
    expect(String(call.args[0]).toLowerCase()).to.equal(ADDR.depository);
    const result = verifyQuote(short.quote, { chainIdOf });
    expect(result.valid, result.valid ? "" : result.error.message).to.equal(true);
    if (result.valid) expect(result.deposit).to.deep.include({ kind: "erc20", amount: 100_000_000n, id: short.intent.orderId });
    expect((short.quote.steps[1]!.items[0]!.data as TransactionData).value).to.equal("0");

    const enough = quoteOf(stableRequest(), environment(config, { allowance: 100_000_000n }));
    expect(enough.quote.steps.map((s) => s.id)).to.deep.equal(["deposit"]);
  });

  it("details_coverEveryFieldOfTheSpec", function () {
    const { quote } = quoteOf(stableRequest(), environment(config, { userBalance: 123n }));
    const d = quote.details;
    expect(d.operation).to.equal("bridge");
    expect(d.sender).to.equal(ADDR.user);
    expect(d.recipient).to.equal(ADDR.recipient);
    expect(d.timeEstimate).to.equal(30);
    expect(d.refundCurrency).to.deep.equal(d.currencyIn);
    expect(d.userBalance).to.equal("123");
    expect(d.isFixedRate).to.equal(true);
    expect(d.swapImpact).to.deep.equal({ usd: "0", percent: "0" });
    expect(d.totalImpact).to.deep.equal({ usd: "-0.43", percent: "-0.43" });
    expect(d.expandedPriceImpact).to.deep.equal({ swap: { usd: "0" }, execution: { usd: "-0.33" }, relay: { usd: "-0.1" }, app: { usd: "0" } });
    expect(d.rate).to.equal("0.9957");
    expect(d.slippageTolerance.origin).to.deep.equal({ usd: "0", value: "0", percent: "0" });
    expect(d.route.origin).to.deep.equal({ inputCurrency: d.currencyIn, outputCurrency: d.currencyIn, router: "ferry" });
    expect(d.route.destination).to.deep.equal({ inputCurrency: d.currencyOut, outputCurrency: d.currencyOut, router: "ferry" });
  });

  it("sameChainTransfer_isASend", function () {
    const { quote, intent } = quoteOf(nativeRequest({ destinationChainId: ORIGIN }), environment(config));
    // The spec's operation values are bridge and swap: a same-currency transfer on one chain is a bridge.
    expect(quote.details.operation).to.equal("bridge");
    expect(intent.destinationChainId).to.equal(ORIGIN);
    expect(quote.protocol.v2.orderData.output.chainId).to.equal("ferry-origin");
  });

  it("ttl_shortensTheDepositWindowButNeverLengthensIt", function () {
    expect(quoteOf(nativeRequest({ ttlSeconds: 60 }), environment(config)).intent.expiresAt).to.equal(NOW + 60);
    expect(quoteOf(nativeRequest({ ttlSeconds: 10_000 }), environment(config)).intent.expiresAt).to.equal(NOW + 300);
    const cfg = quoteConfig({ quotes: { ttlSeconds: 120, fillWindowSeconds: 60 } });
    const { intent } = quoteOf(nativeRequest(), environment(cfg));
    expect([intent.expiresAt, intent.fillDeadline]).to.deep.equal([NOW + 120, NOW + 180]);
  });

  it("errors_nameTheUnsupportedPart", function () {
    expect(quoteError(nativeRequest({ originChainId: 1 }))).to.equal("UNSUPPORTED_CHAIN");
    expect(quoteError(nativeRequest({ destinationChainId: 1 }))).to.equal("UNSUPPORTED_CHAIN");
    expect(quoteError(nativeRequest({ originCurrency: ADDR.app }))).to.equal("UNSUPPORTED_CURRENCY");
    expect(quoteError(nativeRequest({ destinationCurrency: ADDR.app }))).to.equal("UNSUPPORTED_CURRENCY");
    expect(quoteError(nativeRequest({ destinationCurrency: ADDR.stablecoin }))).to.equal("UNSUPPORTED_ROUTE");
    expect(quoteError(stableRequest({ destinationCurrency: zeroAddress, destinationChainId: ORIGIN }))).to.equal("UNSUPPORTED_ROUTE");
    expect(quoteError(nativeRequest({ amount: 1_000n }))).to.equal("AMOUNT_TOO_LOW");
    expect(quoteError(stableRequest({ amount: 330_300n }))).to.equal("AMOUNT_TOO_LOW");
    expect(quoteError(nativeRequest({ appFees: [{ recipient: ADDR.app, bps: 10_000n }] }))).to.equal("INVALID_APP_FEES");
    // Amounts the order cannot carry (uint256): the deposit itself, or an output scaled up to 18 decimals.
    expect(quoteError(nativeRequest({ amount: maxUint256 + 1n }))).to.equal("INVALID_REQUEST");
    expect(quoteError(nativeRequest({ amount: maxUint256 }))).to.equal(undefined);
    const scaled = quoteConfig({
      chain: (id) => (id === DESTINATION ? { erc20Currencies: [{ address: ADDR.stablecoin, symbol: "USDC", name: "USD Coin", decimals: 18, usdPrice: "1" }] } : {}),
    });
    expect(quoteError(stableRequest({ amount: maxUint256 / 10n ** 6n }), scaled)).to.equal("INVALID_REQUEST");
    const disabled = quoteConfig({ chain: (id) => (id === DESTINATION ? { disabled: true } : {}) });
    expect(quoteError(nativeRequest(), disabled)).to.equal("UNSUPPORTED_CHAIN");
    const noDeposits = quoteConfig({ chain: (id) => (id === ORIGIN ? { depositEnabled: false } : {}) });
    expect(quoteError(nativeRequest(), noDeposits)).to.equal("UNSUPPORTED_CHAIN");
    const unpriced = quoteConfig({
      chain: () => ({ erc20Currencies: [{ address: ADDR.stablecoin, symbol: "USDC", name: "USD Coin", decimals: 6 }] }),
    });
    expect(quoteError(stableRequest(), unpriced)).to.equal("PRICE_UNAVAILABLE");
    // ETH → ETH needs no price.
    const noPrices = quoteConfig({ chain: () => ({ nativeCurrency: { symbol: "ETH", name: "Ether", decimals: 18 } }) });
    expect(quoteError(nativeRequest(), noPrices)).to.equal(undefined);
    expect(quoteOf(nativeRequest(), environment(noPrices)).quote.details.currencyIn.amountUsd).to.equal("0");
  });

  it("decimals_differingAcrossChains_scaleTheOutput", function () {
    // The same stablecoin with 18 decimals on the destination (as on some chains).
    const cfg = quoteConfig({
      chain: (id) => (id === DESTINATION ? { erc20Currencies: [{ address: ADDR.stablecoin, symbol: "USDC", name: "USD Coin", decimals: 18, usdPrice: "1" }] } : {}),
    });
    const { intent } = quoteOf(stableRequest(), environment(cfg));
    expect(intent.destinationAmount).to.equal((100_000_000n - 330_000n - 100_000n) * 10n ** 12n);
    const back = quoteOf(stableRequest({ originChainId: DESTINATION, destinationChainId: ORIGIN, amount: 10n ** 20n + 123n }), environment(cfg));
    // 100 USDC (18 decimals) − fees rounded up, then down to 6 decimals.
    expect(BigInt(back.intent.destinationAmount)).to.equal((10n ** 20n + 123n - BigInt(back.intent.fees.relayerGas) - BigInt(back.intent.fees.relayerService)) / 10n ** 12n);
  });
});
