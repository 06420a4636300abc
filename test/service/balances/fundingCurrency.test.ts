import { expect } from "chai";
import { isFerryError } from "../../../ts/core/errors.ts";
import { fundingCreditUsd, fundingCurrencies, requireFundingCurrency, type FundingChain } from "../../../ts/service/balances/fundingCurrency.ts";
import type { Address } from "../../../ts/service/model/values.ts";

const NATIVE = "0x0000000000000000000000000000000000000000" as Address;
const USDC = ("0x" + "11".repeat(20)) as Address;
const WETH = ("0x" + "22".repeat(20)) as Address;
const UNPRICED = ("0x" + "33".repeat(20)) as Address;
const chain: FundingChain = {
  id: 1,
  nativeCurrency: { symbol: "ETH", decimals: 18, usdPrice: "3000" },
  erc20Currencies: [
    { address: USDC, symbol: "USDC", decimals: 6, usdPrice: "1" },
    { address: WETH, symbol: "WETH", decimals: 18, usdPrice: "3000" },
    { address: UNPRICED, symbol: "X", decimals: 18 },
  ],
};

describe("fundingCurrency", () => {
  it("fundingCurrencies_defaultIsNativeAndTheOneDollarTokens_listedOnesOtherwise_pricedOnly", () => {
    expect(fundingCurrencies(chain, undefined).map((c) => c.symbol)).to.deep.equal(["ETH", "USDC"]);
    expect(fundingCurrencies(chain, [WETH, UNPRICED]).map((c) => c.symbol)).to.deep.equal(["WETH"]);
    expect(fundingCurrencies({ ...chain, nativeCurrency: { symbol: "ETH", decimals: 18 } }, undefined).map((c) => c.symbol)).to.deep.equal(["USDC"]);
  });

  it("requireFundingCurrency_refusesOthers_andTheCreditIsAtThePriceRoundedDown", () => {
    const usdc = requireFundingCurrency(chain, undefined, USDC);
    expect(fundingCreditUsd(usdc, 25_000_000n)).to.equal(25_000_000n);
    const eth = requireFundingCurrency(chain, undefined, NATIVE);
    expect(fundingCreditUsd(eth, 10n ** 16n)).to.equal(30_000_000n);
    expect(fundingCreditUsd(eth, 1n)).to.equal(0n);
    try {
      requireFundingCurrency(chain, undefined, WETH);
      expect.fail("WETH is not a default funding currency");
    } catch (error) {
      expect(isFerryError(error) && error.code).to.equal("UNSUPPORTED_CURRENCY");
    }
  });
});
