// The stray-deposit refund plan, pure: the nonce's own domain, the policy, the planned struct.
import { expect } from "chai";
import { zeroAddress, type Address, type Hex } from "viem";
import { payoutRequestHash } from "../../../../ts/core/payoutRequest.ts";
import type { ChainConfig } from "../../../../ts/service/config/configSchema.ts";
import { PAYOUT_TTL_SECONDS, payoutNonce } from "../../../../ts/service/solver/payout/payoutPlan.ts";
import { planStrayRefund, strayBelowRefundGas, strayIgnoredReason, strayRefundNonce, type StrayDepositFacts } from "../../../../ts/service/solver/payout/strayRefundPlan.ts";
import { canonicalHex, canonicalAddress } from "../../../../ts/service/model/values.ts";

const txHash = canonicalHex(`0x${"ab".repeat(32)}`);
// Stray records and the config are decoded canonical (lowercase): the configured token, written in
// another case in the file, is the same canonical address.
const stablecoin = canonicalAddress(`0x${"5c".repeat(20)}`);
const chain = { id: 31337, nativeCurrency: { decimals: 18 }, erc20Currencies: [{ address: canonicalAddress(`0x${"5C".repeat(20)}`), decimals: 6 }] } as unknown as ChainConfig;
const stray: StrayDepositFacts = {
  chainId: 31337,
  txHash,
  logIndex: 3,
  depository: canonicalAddress(`0x${"dd".repeat(20)}`),
  depositor: canonicalAddress(`0x${"aa".repeat(20)}`),
  token: zeroAddress,
  amount: 1000n,
};

describe("strayRefundPlan", () => {
  it("strayRefundNonce_isDeterministic_andDistinctPerLogChainAndFromRequestNonces", () => {
    const nonce = strayRefundNonce(31337, txHash, 3);
    expect(strayRefundNonce(31337, txHash, 3)).to.equal(nonce);
    expect(strayRefundNonce(31337, txHash, 4)).to.not.equal(nonce);
    expect(strayRefundNonce(31338, txHash, 3)).to.not.equal(nonce);
    // A request whose id equals the transaction hash still gets other nonces.
    expect(payoutNonce("refund", txHash)).to.not.equal(nonce);
    expect(payoutNonce("repayment", txHash)).to.not.equal(nonce);
  });

  it("strayIgnoredReason_refundsNativeAndConfiguredErc20s_only", () => {
    expect(strayIgnoredReason(stray, chain, "1")).to.equal(null);
    expect(strayIgnoredReason({ ...stray, token: stablecoin }, chain, "1")).to.equal(null);
    expect(strayIgnoredReason({ ...stray, token: canonicalAddress(`0x${"11".repeat(20)}`) }, chain, "1")).to.equal("UNSUPPORTED_CURRENCY");
    expect(strayIgnoredReason({ ...stray, amount: 0n }, chain, "1")).to.equal("AMOUNT_TOO_LOW_TO_REFUND");
    // Without a usdPrice or a strayRefundMinimum of its own, a currency has no dust threshold.
    expect(strayIgnoredReason({ ...stray, amount: 1n }, chain, "1")).to.equal(null);
  });

  it("strayIgnoredReason_belowTheCurrencysDustThreshold_isAmountTooLowToRefund_atItAndAbove_isRefunded", () => {
    const priced = {
      ...chain,
      nativeCurrency: { decimals: 18, usdPrice: "3000" },
      erc20Currencies: [{ address: stablecoin, decimals: 6, usdPrice: "1", strayRefundMinimum: "250000" }],
    } as unknown as ChainConfig;
    // $1 of ETH at $3000: ceil(1e18 / 3000) wei.
    const ethMinimum = (10n ** 18n + 2999n) / 3000n;
    expect(strayIgnoredReason({ ...stray, amount: 1n }, priced, "1")).to.equal("AMOUNT_TOO_LOW_TO_REFUND");
    expect(strayIgnoredReason({ ...stray, amount: ethMinimum - 1n }, priced, "1")).to.equal("AMOUNT_TOO_LOW_TO_REFUND");
    expect(strayIgnoredReason({ ...stray, amount: ethMinimum }, priced, "1")).to.equal(null);
    expect(strayIgnoredReason({ ...stray, amount: ethMinimum - 1n }, priced, "0.5")).to.equal(null);
    // The currency's own threshold wins over the USD default.
    expect(strayIgnoredReason({ ...stray, token: stablecoin, amount: 249_999n }, priced, "1")).to.equal("AMOUNT_TOO_LOW_TO_REFUND");
    expect(strayIgnoredReason({ ...stray, token: stablecoin, amount: 250_000n }, priced, "1")).to.equal(null);
  });

  it("strayBelowRefundGas_comparesTheAmountWithFactorTimesTheRefundsGasCost_convertedIntoTheToken", () => {
    const priced = {
      ...chain,
      nativeCurrency: { symbol: "ETH", decimals: 18, usdPrice: "3000" },
      erc20Currencies: [{ address: stablecoin, symbol: "fUSD", decimals: 6, usdPrice: "1" }],
    } as unknown as ChainConfig;
    const cost = 10n ** 15n; // 0.001 ETH of gas = $3
    expect(strayBelowRefundGas({ token: zeroAddress, amount: 2n * cost - 1n }, priced, cost, 2)).to.equal(true);
    expect(strayBelowRefundGas({ token: zeroAddress, amount: 2n * cost }, priced, cost, 2)).to.equal(false);
    expect(strayBelowRefundGas({ token: zeroAddress, amount: (3n * cost) / 2n }, priced, cost, 1.5)).to.equal(false);
    // $3 of gas × 2 = 6 fUSD.
    expect(strayBelowRefundGas({ token: stablecoin, amount: 5_999_999n }, priced, cost, 2)).to.equal(true);
    expect(strayBelowRefundGas({ token: stablecoin, amount: 6_000_000n }, priced, cost, 2)).to.equal(false);
    // Unpriced ERC-20: below unless the operator set its own threshold; native needs no price.
    const unpriced = { ...chain, nativeCurrency: { symbol: "ETH", decimals: 18 }, erc20Currencies: [{ address: stablecoin, symbol: "fUSD", decimals: 6 }] } as unknown as ChainConfig;
    expect(strayBelowRefundGas({ token: stablecoin, amount: 10n ** 12n }, unpriced, cost, 2)).to.equal(true);
    const explicit = { ...unpriced, erc20Currencies: [{ address: stablecoin, symbol: "fUSD", decimals: 6, strayRefundMinimum: "5" }] } as unknown as ChainConfig;
    expect(strayBelowRefundGas({ token: stablecoin, amount: 5n }, explicit, cost, 2)).to.equal(false);
    expect(strayBelowRefundGas({ token: zeroAddress, amount: 2n * cost }, unpriced, cost, 2)).to.equal(false);
  });

  it("planStrayRefund_returnsTheWholeAmountToTheDepositor_withAStoredExpiration", () => {
    const plan = planStrayRefund({ ...stray, token: stablecoin }, 1_000);
    expect(plan).to.deep.include({
      chainId: 31337,
      depository: stray.depository,
      nonce: strayRefundNonce(31337, txHash, 3),
      expiration: 1_000 + PAYOUT_TTL_SECONDS,
      calls: [{ to: stray.depositor, token: stablecoin, amount: 1000n }],
      status: "prepared",
    });
    expect(plan.requestHash).to.equal(payoutRequestHash({ calls: plan.calls, nonce: plan.nonce, expiration: BigInt(plan.expiration) }));
  });
});
