/** ts/service/quote/quoteAmounts.ts: fee math for both trade types, rounding in the service's favour, decimals. */
import { expect } from "chai";
import { isFerryError } from "../../../ts/core/errors.ts";
import { quoteAmounts as quoteAmountsWith, sameCurrency, type AmountInputs } from "../../../ts/service/quote/quoteAmounts.ts";

/** A currency to itself between `inputDecimals` and `outputDecimals` (the conversion of a bridge). */
type BridgeInputs = Omit<AmountInputs, "convert"> & { inputDecimals: number; outputDecimals: number };
const quoteAmounts = ({ inputDecimals, outputDecimals, ...rest }: BridgeInputs) =>
  quoteAmountsWith({ ...rest, convert: sameCurrency(inputDecimals, outputDecimals) });

const base: BridgeInputs = {
  tradeType: "EXACT_INPUT",
  amount: 1_000_000n,
  inputDecimals: 6,
  outputDecimals: 6,
  relayerGas: 1_000n,
  fixedFee: 0n,
  serviceFeeBps: 10n,
  appFeeBps: [],
};

function code(fn: () => unknown): string | undefined {
  try {
    fn();
  } catch (error) {
    return isFerryError(error) ? error.code : String(error);
  }
  return undefined;
}

describe("quoteAmounts", function () {
  it("exactInput_takesEveryFeeFromTheDeposit", function () {
    const a = quoteAmounts({ ...base, fixedFee: 50n, appFeeBps: [25n, 5n] });
    // service: 1_000_000 × 10 / 10000 = 1000 (+50 fixed); app: 2500 + 500.
    expect(a).to.deep.equal({
      originAmount: 1_000_000n,
      destinationAmount: 1_000_000n - 1_000n - 1_050n - 3_000n,
      netInput: 1_000_000n - 1_000n - 1_050n - 3_000n,
      relayerGas: 1_000n,
      relayerService: 1_050n,
      app: 3_000n,
      appFees: [2_500n, 500n],
    });
  });

  it("exactInput_roundsEveryBpsFeeUp", function () {
    // 12_345 × 10 / 10000 = 12.345 → 13; × 1 bps = 1.2345 → 2 each.
    const a = quoteAmounts({ ...base, amount: 12_345n, relayerGas: 0n, appFeeBps: [1n, 1n] });
    expect(a.relayerService).to.equal(13n);
    expect(a.appFees).to.deep.equal([2n, 2n]);
    expect(a.destinationAmount).to.equal(12_345n - 13n - 4n);
  });

  it("exactInput_roundsTheOutputDownWhenTheOutputHasFewerDecimals", function () {
    const a = quoteAmounts({ ...base, amount: 10n ** 18n + 999_999_999_999n, inputDecimals: 18, outputDecimals: 6, relayerGas: 0n, serviceFeeBps: 0n });
    expect(a.destinationAmount).to.equal(1_000_000n); // the sub-unit dust stays with the service
  });

  it("exactInput_scalesUpExactlyWhenTheOutputHasMoreDecimals", function () {
    const a = quoteAmounts({ ...base, outputDecimals: 18, relayerGas: 0n, serviceFeeBps: 0n });
    expect(a.destinationAmount).to.equal(10n ** 18n);
  });

  it("exactInput_revertsAmountTooLowWhenFeesTakeEverything", function () {
    expect(code(() => quoteAmounts({ ...base, amount: 1_000n }))).to.equal("AMOUNT_TOO_LOW");
    expect(code(() => quoteAmounts({ ...base, amount: 1_001n, relayerGas: 999n }))).to.equal("AMOUNT_TOO_LOW"); // 1001 − 999 − 2 = 0
    // Something is left, but less than one output unit.
    expect(code(() => quoteAmounts({ ...base, amount: 10n ** 12n, inputDecimals: 18, relayerGas: 1n, serviceFeeBps: 0n }))).to.equal("AMOUNT_TOO_LOW");
  });

  it("rejectsFeesOf10000BpsOrMore_andNonPositiveAmounts", function () {
    expect(code(() => quoteAmounts({ ...base, appFeeBps: [9_990n] }))).to.equal("INVALID_APP_FEES");
    expect(code(() => quoteAmounts({ ...base, tradeType: "EXACT_OUTPUT", appFeeBps: [5_000n, 4_990n] }))).to.equal("INVALID_APP_FEES");
    expect(code(() => quoteAmounts({ ...base, amount: 0n }))).to.equal("AMOUNT_TOO_LOW");
  });

  it("exactOutput_paysExactlyTheAmount_fromTheSmallestSufficientDeposit", function () {
    const inputs = { ...base, tradeType: "EXACT_OUTPUT" as const, amount: 996_000n, fixedFee: 7n, appFeeBps: [30n, 3n] };
    const a = quoteAmounts(inputs);
    expect(a.destinationAmount).to.equal(996_000n);
    const fees = a.relayerGas + a.relayerService + a.app;
    expect(a.originAmount - fees >= 996_000n).to.equal(true);
    // One unit less would not cover the output.
    const less = a.originAmount - 1n;
    const feesLess = 1_000n + (less * 10n + 9_999n) / 10_000n + 7n + (less * 30n + 9_999n) / 10_000n + (less * 3n + 9_999n) / 10_000n;
    expect(less - feesLess < 996_000n).to.equal(true);
    // And the buckets are the EXACT_INPUT buckets of that deposit.
    const asInput = quoteAmounts({ ...inputs, tradeType: "EXACT_INPUT", amount: a.originAmount });
    expect({ ...asInput, destinationAmount: 0n }).to.deep.equal({ ...a, destinationAmount: 0n });
    expect(asInput.destinationAmount >= 996_000n).to.equal(true);
  });

  it("exactOutput_roundsTheInputUpAcrossDecimals", function () {
    // 1 unit of an 18-decimal output needs ceil(1e-12) = 1 unit of a 6-decimal input.
    const a = quoteAmounts({ ...base, tradeType: "EXACT_OUTPUT", amount: 1n, outputDecimals: 18, relayerGas: 0n, serviceFeeBps: 0n });
    expect(a.originAmount).to.equal(1n);
    expect(a.destinationAmount).to.equal(1n);
    const b = quoteAmounts({ ...base, tradeType: "EXACT_OUTPUT", amount: 10n ** 18n + 1n, outputDecimals: 18, relayerGas: 0n, serviceFeeBps: 0n });
    expect(b.originAmount).to.equal(1_000_001n);
    // 18 → 6: exact.
    const c = quoteAmounts({ ...base, tradeType: "EXACT_OUTPUT", amount: 5n, inputDecimals: 18, relayerGas: 0n, serviceFeeBps: 0n });
    expect(c.originAmount).to.equal(5n * 10n ** 12n);
  });

  it("swap_convertsTheNetInputThroughTheConversion_andBackRoundingUp", function () {
    // A conversion at 3 output units per input unit, rounding in the service's favour both ways.
    const convert = { out: (net: bigint) => net * 3n, in: (out: bigint) => (out + 2n) / 3n };
    const input = quoteAmountsWith({ ...base, relayerGas: 100n, serviceFeeBps: 0n, convert });
    expect(input.netInput).to.equal(999_900n);
    expect(input.destinationAmount).to.equal(2_999_700n);
    for (const tradeType of ["EXACT_OUTPUT", "EXPECTED_OUTPUT"] as const) {
      const output = quoteAmountsWith({ ...base, tradeType, amount: 3_000_001n, relayerGas: 100n, serviceFeeBps: 0n, convert });
      expect(output.destinationAmount, tradeType).to.equal(3_000_001n);
      expect(output.netInput, tradeType).to.equal(1_000_001n); // ceil(3_000_001 / 3)
      expect(output.originAmount, tradeType).to.equal(1_000_101n);
    }
  });
});
