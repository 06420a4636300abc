import { expect } from "chai";
import { isFerryError } from "../../../ts/core/errors.ts";
import { parseUsdMicros, requireUsdMicros, unitsOfUsdMicros, usdMicrosOf } from "../../../ts/service/balances/usdMicros.ts";

function codeOf(fn: () => unknown): string {
  try {
    fn();
  } catch (error) {
    if (isFerryError(error)) return error.code;
    throw error;
  }
  throw new Error("nothing thrown");
}

describe("usdMicros", () => {
  it("usdMicrosOf_stablecoinIsOneToOne_andNativeRoundsDown", () => {
    // 6-decimal stablecoin at 1 USD (1e8 E8): one unit is one micro-unit.
    expect(usdMicrosOf(25_000_000n, 6, 100_000_000n)).to.equal(25_000_000n);
    // 1 wei of an 18-decimal native at 3000 USD is worth less than a micro-unit.
    expect(usdMicrosOf(1n, 18, 300_000_000_000n)).to.equal(0n);
    expect(usdMicrosOf(10n ** 18n, 18, 300_000_000_000n)).to.equal(3_000_000_000n);
    expect(usdMicrosOf(10n ** 18n + 1n, 18, 300_000_000_000n)).to.equal(3_000_000_000n);
  });

  it("unitsOfUsdMicros_roundsDown_andNeedsAPrice", () => {
    expect(unitsOfUsdMicros(3_000_000_000n, 18, 300_000_000_000n)).to.equal(10n ** 18n);
    expect(unitsOfUsdMicros(1n, 18, 300_000_000_000n)).to.equal(333_333_333n);
    expect(unitsOfUsdMicros(7n, 6, 100_000_000n)).to.equal(7n);
    // The round trip never gives more than was held.
    const units = unitsOfUsdMicros(1_234_567n, 18, 299_999_999_999n);
    expect(usdMicrosOf(units, 18, 299_999_999_999n) <= 1_234_567n).to.equal(true);
    expect(codeOf(() => unitsOfUsdMicros(1n, 18, 0n))).to.equal("PRICE_UNAVAILABLE");
  });

  it("requireUsdMicros_andParse_refuseWhatIsNotAPositiveInteger", () => {
    expect(requireUsdMicros(1n, "x")).to.equal(1n);
    expect(requireUsdMicros(0n, "x", { allowZero: true })).to.equal(0n);
    expect(codeOf(() => requireUsdMicros(0n, "x"))).to.equal("INVALID_INPUT");
    expect(codeOf(() => requireUsdMicros(-1n, "x", { allowZero: true }))).to.equal("INVALID_INPUT");
    expect(codeOf(() => requireUsdMicros(10n ** 38n, "x"))).to.equal("INVALID_INPUT");
    expect(codeOf(() => requireUsdMicros(5 as unknown as bigint, "x"))).to.equal("INVALID_INPUT");
    expect(parseUsdMicros("1500000", "amountUsd")).to.equal(1_500_000n);
    for (const bad of ["", "01", "1.5", "-1", "1e6", " 1"]) expect(codeOf(() => parseUsdMicros(bad, "amountUsd")), bad).to.equal("INVALID_INPUT");
  });
});
