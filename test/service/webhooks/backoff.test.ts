import { expect } from "chai";
import { isFerryError } from "../../../ts/core/errors.ts";
import { backoffDelayMs, backoffStepMs } from "../../../ts/service/webhooks/backoff.ts";
import { CONFIG_DEFAULTS } from "../../../ts/service/config/configSchema.ts";

describe("webhook backoff", () => {
  const settings = { baseDelayMs: 10_000, maxDelayMs: 3_600_000 };

  it("backoffStepMs_doublesFromTheBaseAndStopsAtTheCap", () => {
    expect(Array.from({ length: 10 }, (_, i) => backoffStepMs(i + 1, settings))).to.deep.equal([
      10_000, 20_000, 40_000, 80_000, 160_000, 320_000, 640_000, 1_280_000, 2_560_000, 3_600_000,
    ]);
    expect(backoffStepMs(1000, settings)).to.equal(3_600_000);
  });

  it("backoffDelayMs_staysWithinHalfAndAllOfTheStep", () => {
    for (let retry = 1; retry <= 12; retry++) {
      const step = backoffStepMs(retry, settings);
      expect(backoffDelayMs(retry, settings, () => 0)).to.equal(step / 2);
      expect(backoffDelayMs(retry, settings, () => 0.999999)).to.be.within(step / 2, step);
      for (let i = 0; i < 50; i++) expect(backoffDelayMs(retry, settings)).to.be.within(step / 2, step);
    }
  });

  it("backoffDelayMs_clampsAnOutOfRangeRandomSource", () => {
    expect(backoffDelayMs(1, settings, () => -5)).to.equal(5_000);
    expect(backoffDelayMs(1, settings, () => 7)).to.equal(10_000);
  });

  it("backoffStepMs_rejectsARetryNumberThatIsNotAPositiveInteger_withInvalidInput", () => {
    for (const retry of [0, 1.5, -1, Number.NaN]) {
      expect(() => backoffStepMs(retry, settings)).to.throw().that.satisfies((error: unknown) => isFerryError(error, "INVALID_INPUT"));
    }
  });

  it("theDefaultSchedule_spreadsTenRetriesOverOneToTwoAndAHalfHours", () => {
    const defaults = CONFIG_DEFAULTS.webhooks;
    const steps = Array.from({ length: defaults.maxRetries }, (_, i) => backoffStepMs(i + 1, defaults));
    const total = steps.reduce((a, b) => a + b, 0);
    expect(total).to.equal(8_710_000);
    expect(total / 2).to.be.greaterThan(3_600_000);
  });
});
