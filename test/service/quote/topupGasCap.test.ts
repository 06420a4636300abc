/**
 * The gas top-up (`topupGas`, `topupGasAmount`): bounded by `quotes.topupGasMaxUsd`, priced from the
 * price sources (the destination's ETH/USDC source, here a fixed 2,000 while the configured usdPrice
 * of ETH says 3,000), and part of the quote's capacity check (the solver pays it in destination
 * native). Through the quote service against real EDR chains (31337, 31338) and an in-memory store.
 */
import { expect } from "chai";
import { parseEther, zeroAddress, } from "viem";
import type { InventoryLine } from "../../../ts/service/chains/solverInventory.ts";
import { createQuoteService, type QuoteServiceDeps } from "../../../ts/service/quote/quoteService.ts";
import { createStore, type Store } from "../../../ts/service/store/createStore.ts";
import { ADDR, codeOf, DESTINATION, nativeRequest, quoteConfig } from "./quoteFixture.ts";
import { QUOTE_SOLVER, quoteChains } from "./quoteChains.ts";
import { canonicalAddress, canonicalHex } from "../../../ts/service/model/values.ts";

const SOLVER = QUOTE_SOLVER;
const { clients } = await quoteChains();
const config = quoteConfig({ quotes: { priceSources: [{ type: "fixed", chainId: DESTINATION, base: "ETH", quote: "USDC", price: "2000" }] } });

describe("gas top-up: capped in USD, priced from the price sources, in the capacity check", function () {
  let store: Store;
  before(async () => {
    store = await createStore();
  });
  after(async () => store?.close());

  const service = (overrides: Partial<QuoteServiceDeps> = {}) =>
    createQuoteService({ chains: config.chains, settings: config.quotes, clients, solver: SOLVER, store, ...overrides });
  // ETH on 31337 → USDC on 31338 (priced by the fixed source), with destination gas for the recipient.
  const request = (topupGasAmount?: bigint) =>
    nativeRequest({ destinationCurrency: ADDR.stablecoin, amount: parseEther("10"), topupGas: true, ...(topupGasAmount !== undefined && { topupGasAmount }) });
  const options = { includeOrderSignature: false, apiKeyId: null };

  it("a topupGasAmount worth more than topupGasMaxUsd ($50) is refused TOPUP_GAS_TOO_HIGH", async () => {
    expect(await codeOf(() => service().quote(request(parseEther("0.5")), options))).to.equal("TOPUP_GAS_TOO_HIGH");
    // $50 at the source's 2,000 per ETH is 0.025 ETH: that much is still quoted.
    const quote = await service().quote(request(parseEther("0.025")), options);
    expect(quote.protocol.v2.orderData.output.calls.length).to.equal(1);
  });

  it("the default top-up ($2) is priced from the destination's price source, not the static usdPrice", async () => {
    const quote = await service().quote(request(), options);
    const stored = await store.getQuote(canonicalHex(quote.steps.at(-1)!.requestId));
    // $2 at 2,000 USD per ETH (the fixed source × USDC's $1): 0.001 ETH; the static 3,000 would give 0.000667.
    expect(stored!.intent.topupGas).to.equal(parseEther("0.001"));
  });

  it("a top-up the solver's native balance cannot pay is refused by the capacity check", async () => {
    const line = (currency: `0x${string}`, balance: bigint): InventoryLine => ({
      chainId: DESTINATION,
      currency: canonicalAddress(currency),
      symbol: currency === zeroAddress ? "ETH" : "USDC",
      decimals: currency === zeroAddress ? 18 : 6,
      balance,
      reserved: 0n,
      available: balance,
    });
    const inventory = { line: async (_chainId: number, currency: `0x${string}`) => line(currency, currency === zeroAddress ? parseEther("0.0005") : 10n ** 12n) };
    expect(await codeOf(() => service({ inventory }).quote(request(parseEther("0.001")), options))).to.equal("SOLVER_BALANCE_TOO_LOW");
    const enough = { line: async (_chainId: number, currency: `0x${string}`) => line(currency, currency === zeroAddress ? parseEther("1") : 10n ** 12n) };
    expect(await codeOf(() => service({ inventory: enough }).quote(request(parseEther("0.001")), options))).to.equal(undefined);
  });
});
