/**
 * ts/service/quote/feeSponsorship.ts and its use in buildQuote: who pays what, the cap, rounding, and
 * the amounts of both trade types (the user deposits less or receives more; buckets keep the full cost).
 */
import { expect } from "chai";
import { isFerryError } from "../../../ts/core/errors.ts";
import { sponsorFees, sponsorshipRequest, unitsToUsdMicroCeil, usdMicroToUnitsFloor } from "../../../ts/service/quote/feeSponsorship.ts";
import { ADDR, environment, quoteConfig, quoteOf, stableRequest } from "./quoteFixture.ts";

const USDC = { symbol: "USDC", decimals: 6, usdPrice: "1" };
const ETH = { symbol: "ETH", decimals: 18, usdPrice: "3000" };
const ALL = sponsorshipRequest(undefined, undefined);
const codeOf = (fn: () => unknown) => {
  try {
    fn();
  } catch (error) {
    return isFerryError(error) ? error.code : String(error);
  }
  return undefined;
};

describe("feeSponsorship", function () {
  it("request_defaultsToAllFourComponents_andRefusesUnknownOrRepeatedOnes", function () {
    expect(ALL.components).to.deep.equal(["execution", "swap", "relay", "app"]);
    expect(sponsorshipRequest(["app", "execution"], "5").components).to.deep.equal(["execution", "app"]);
    expect(sponsorshipRequest(["app"], "5").maxUsdMicro).to.equal(5n);
    expect(codeOf(() => sponsorshipRequest(["gas"], undefined))).to.equal("INVALID_REQUEST");
    expect(codeOf(() => sponsorshipRequest(["app", "app"], undefined))).to.equal("INVALID_REQUEST");
    expect(codeOf(() => sponsorshipRequest(undefined, "-1"))).to.equal("INVALID_REQUEST");
    expect(codeOf(() => sponsorshipRequest(undefined, "1.5"))).to.equal("INVALID_REQUEST");
  });

  it("usdConversions_roundTheCapDown_andTheChargeUp", function () {
    // $1 = 1e6 micro; at $3000/ETH that is 1e18/3000 wei, rounded down.
    expect(usdMicroToUnitsFloor(1_000_000n, ETH)).to.equal(333_333_333_333_333n);
    // 1 wei is worth 3e-15 USD: charged one micro-unit.
    expect(unitsToUsdMicroCeil(1n, ETH)).to.equal(1n);
    expect(unitsToUsdMicroCeil(2_500_000n, USDC)).to.equal(2_500_000n);
    expect(codeOf(() => unitsToUsdMicroCeil(1n, { symbol: "X", decimals: 6 }))).to.equal("PRICE_UNAVAILABLE");
  });

  it("withoutACap_sponsorsEverySelectedComponent_andNothingElse", function () {
    const s = sponsorFees(sponsorshipRequest(["execution", "relay"], undefined), { execution: 300n, swap: 50n, relay: 200n, app: 100n }, USDC);
    expect(s.amount).to.equal(500n);
    expect(s.capHit).to.equal(false);
    expect(s.components.execution).to.deep.equal({ selected: true, total: 300n, sponsored: 300n, userPays: 0n });
    expect(s.components.swap).to.deep.equal({ selected: false, total: 50n, sponsored: 0n, userPays: 50n });
    expect(s.components.app).to.deep.equal({ selected: false, total: 100n, sponsored: 0n, userPays: 100n });
    expect(s.amountUsdMicro).to.equal(500n);
  });

  it("overTheCap_sponsorsTheCapInComponentOrder_andTheUserPaysTheRest", function () {
    const s = sponsorFees(sponsorshipRequest(undefined, "450"), { execution: 300n, swap: 0n, relay: 200n, app: 100n }, USDC);
    expect(s.amount).to.equal(450n);
    expect(s.capHit).to.equal(true);
    expect(s.maxUsdMicro).to.equal(450n);
    expect(s.components.execution.sponsored).to.equal(300n);
    expect(s.components.relay).to.deep.equal({ selected: true, total: 200n, sponsored: 150n, userPays: 50n });
    expect(s.components.app).to.deep.equal({ selected: true, total: 100n, sponsored: 0n, userPays: 100n });
  });

  it("aCapExactlyTheTotal_isNotHit", function () {
    const s = sponsorFees(sponsorshipRequest(undefined, "600"), { execution: 300n, swap: 0n, relay: 200n, app: 100n }, USDC);
    expect(s.capHit).to.equal(false);
    expect(s.amount).to.equal(600n);
  });

  it("exactInput_keepsTheDeposit_deliversTheSponsoredAmountMore_andBucketsShowTheFullCost", function () {
    const config = quoteConfig();
    const plain = quoteOf(stableRequest({ appFees: [{ recipient: ADDR.app, bps: 25n }] }), environment(config));
    const sponsored = quoteOf(stableRequest({ appFees: [{ recipient: ADDR.app, bps: 25n }], sponsorship: ALL }), environment(config));
    const fees = plain.quote.fees;
    const all = BigInt(fees.relayerGas.amount) + BigInt(fees.relayerService.amount) + BigInt(fees.app.amount);
    expect(sponsored.quote.details.currencyIn.amount).to.equal(plain.quote.details.currencyIn.amount);
    expect(BigInt(sponsored.quote.details.currencyOut.amount)).to.equal(BigInt(plain.quote.details.currencyOut.amount) + all);
    expect(sponsored.quote.details.currencyOut.amount).to.equal(sponsored.quote.details.currencyIn.amount);
    for (const bucket of ["relayerGas", "relayerService", "app", "relayer", "gas"] as const) expect(sponsored.quote.fees[bucket]).to.deep.equal(fees[bucket]);
    expect(sponsored.quote.fees.subsidized.amount).to.equal(all.toString());
    expect(sponsored.quote.feeSponsorship!.capHit).to.equal(false);
    expect(sponsored.quote.feeSponsorship!.components.app.sponsored.amount).to.equal(fees.app.amount);
    expect(sponsored.intent.sponsorship).to.deep.include({ amount: all, amountUsdMicro: all, capHit: false });
    expect(plain.quote.feeSponsorship).to.equal(undefined);
    expect(plain.intent.sponsorship).to.equal(undefined);
  });

  it("exactOutput_keepsTheOutput_andAsksTheSponsoredAmountLessOfTheDeposit", function () {
    const config = quoteConfig();
    const request = stableRequest({ tradeType: "EXACT_OUTPUT", amount: 50_000_000n });
    const plain = quoteOf(request, environment(config));
    const sponsored = quoteOf({ ...request, sponsorship: sponsorshipRequest(["execution"], undefined) }, environment(config));
    expect(sponsored.quote.details.currencyOut.amount).to.equal("50000000");
    const gas = BigInt(plain.quote.fees.relayerGas.amount);
    expect(BigInt(sponsored.quote.details.currencyIn.amount)).to.equal(BigInt(plain.quote.details.currencyIn.amount) - gas);
    expect(sponsored.intent.originAmount).to.equal(plain.intent.originAmount - gas);
    expect(sponsored.quote.protocol.v2.orderData.inputs[0]!.payment.amount).to.equal(sponsored.intent.originAmount.toString());
    expect(sponsored.quote.fees.relayerService).to.deep.equal(plain.quote.fees.relayerService);
  });

  it("capHit_sponsorsOnlyTheCap_inTheQuoteAndTheIntent", function () {
    const config = quoteConfig();
    // 0.10 USD cap, well below the ~0.43 USD of fees on 100 USDC.
    const sponsored = quoteOf(stableRequest({ sponsorship: sponsorshipRequest(undefined, "100000") }), environment(config));
    expect(sponsored.quote.fees.subsidized.amount).to.equal("100000");
    expect(sponsored.quote.feeSponsorship).to.deep.include({ capHit: true, maxSubsidizationAmount: "100000" });
    expect(sponsored.intent.sponsorship!.amountUsdMicro).to.equal(100_000n);
  });
});
