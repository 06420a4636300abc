// The value a fast fill holds: the destination amount at the configured USD price, in USD micro-units,
// rounded up; refused without a price.
import { expect } from "chai";
import type { ChainConfig } from "../../../../ts/service/config/configSchema.ts";
import { isFerryError } from "../../../../ts/core/errors.ts";
import { fastFillValueUsd } from "../../../../ts/service/solver/fill/fastFillValue.ts";
import { ZERO_ADDRESS } from "../../../../ts/service/model/values.ts";

const TOKEN = "0x" + "ab".repeat(20);
const chains = [
  {
    id: 2,
    nativeCurrency: { symbol: "ETH", name: "Ether", decimals: 18, logoURI: "", usdPrice: "3000" },
    erc20Currencies: [
      { address: TOKEN, symbol: "USDC", name: "USD Coin", decimals: 6, logoURI: "", usdPrice: "1" },
      { address: "0x" + "cd".repeat(20), symbol: "X", name: "X", decimals: 6, logoURI: "" },
    ],
  },
] as unknown as ChainConfig[];

const intent = (destinationCurrency: string, destinationAmount: bigint) => ({ destinationChainId: 2, destinationCurrency: destinationCurrency as `0x${Lowercase<string>}`, destinationAmount });

describe("fastFillValueUsd", () => {
  it("fastFillValueUsd_isTheDestinationAmountAtTheConfiguredPrice_roundedUp", () => {
    expect(fastFillValueUsd(intent(ZERO_ADDRESS, 9_900_000_000_000_000n), chains)).to.equal(29_700_000n);
    expect(fastFillValueUsd(intent(TOKEN, 25_000_000n), chains)).to.equal(25_000_000n);
    // 1 wei of ETH is worth 3e-15 USD: still held as one micro-unit (never zero, never rounded down).
    expect(fastFillValueUsd(intent(ZERO_ADDRESS, 1n), chains)).to.equal(1n);
    expect(fastFillValueUsd(intent(ZERO_ADDRESS, 333_333_333_333_334n), chains)).to.equal(1_000_001n);
  });

  it("fastFillValueUsd_withoutAPrice_isFastFillPriceUnavailable", () => {
    for (const [currency, chainId] of [["0x" + "cd".repeat(20), 2], [ZERO_ADDRESS, 9]] as const) {
      try {
        fastFillValueUsd({ ...intent(currency, 1n), destinationChainId: chainId }, chains);
        expect.fail("priced");
      } catch (error) {
        expect(isFerryError(error) && error.code).to.equal("FAST_FILL_PRICE_UNAVAILABLE");
      }
    }
  });
});
