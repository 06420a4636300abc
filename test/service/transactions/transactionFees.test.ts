// The solver's fee policy: first attempt from the market, replacements bumped ≥ 12.5% (and to the
// market), everything under the per-transaction cap.
import { expect } from "chai";
import { parseGwei } from "viem";
import { bumpedFees, feeCost, initialFees, marketFees } from "../../../ts/service/transactions/transactionFees.ts";

const market = { baseFeePerGas: parseGwei("10"), priorityFeePerGas: parseGwei("1") };
const GAS = 100_000n;
const CAP = 10n ** 17n;

describe("transactionFees", () => {
  it("initialFees_twiceTheBaseFeePlusTheTip_underTheCap", () => {
    const result = initialFees(market, GAS, CAP);
    expect(result).to.deep.equal({ ok: true, fees: { maxFeePerGas: parseGwei("21"), maxPriorityFeePerGas: parseGwei("1") } });
  });

  it("initialFees_overTheCap_isRefusedWithItsCost", () => {
    const result = initialFees(market, GAS, parseGwei("21") * GAS - 1n);
    expect(result.ok).to.equal(false);
    expect(result.ok === false && result.cost).to.equal(parseGwei("21") * GAS);
  });

  it("bumpedFees_bothFieldsRiseByAtLeast12Point5Percent_roundedUp", () => {
    const previous = { maxFeePerGas: 1001n, maxPriorityFeePerGas: 3n };
    const next = bumpedFees(previous, { baseFeePerGas: 1n, priorityFeePerGas: 1n }, GAS, CAP)!;
    expect(next.maxFeePerGas).to.equal(1127n); // ceil(1001 × 1.125)
    expect(next.maxPriorityFeePerGas).to.equal(4n); // ceil(3 × 1.125)
  });

  it("bumpedFees_followTheMarketWhenItRoseFurther", () => {
    const previous = marketFees(market);
    const risen = { baseFeePerGas: parseGwei("100"), priorityFeePerGas: parseGwei("2") };
    expect(bumpedFees(previous, risen, GAS, CAP)).to.deep.equal({ maxFeePerGas: parseGwei("202"), maxPriorityFeePerGas: parseGwei("2") });
  });

  it("bumpedFees_areCappedAtTheCap_andNullWhenTheCapLeavesNoValidBump", () => {
    const previous = marketFees(market);
    const risen = { baseFeePerGas: parseGwei("100"), priorityFeePerGas: parseGwei("2") };
    const capped = bumpedFees(previous, risen, GAS, parseGwei("50") * GAS)!;
    expect(capped.maxFeePerGas).to.equal(parseGwei("50"));
    expect(feeCost(capped, GAS) <= parseGwei("50") * GAS).to.equal(true);
    // The cap sits below a 12.5% bump of the previous attempt: no replacement the nodes would take.
    expect(bumpedFees(previous, risen, GAS, parseGwei("22") * GAS)).to.equal(null);
  });
});
