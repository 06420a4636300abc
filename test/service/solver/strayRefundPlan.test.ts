// The stray-deposit refund plan, pure: the nonce's own domain, the policy, the planned struct.
import { expect } from "chai";
import { zeroAddress, type Address, type Hex } from "viem";
import { payoutRequestHash } from "../../../ts/core/payoutRequest.ts";
import type { ChainConfig } from "../../../ts/service/config/configSchema.ts";
import { PAYOUT_TTL_SECONDS, payoutNonce } from "../../../ts/service/solver/payoutPlan.ts";
import { planStrayRefund, strayIgnoredReason, strayRefundNonce } from "../../../ts/service/solver/strayRefundPlan.ts";

const txHash = `0x${"ab".repeat(32)}` as Hex;
const stablecoin = `0x${"5C".repeat(20)}` as Address;
const chain = { id: 31337, erc20Currencies: [{ address: stablecoin }] } as unknown as ChainConfig;
const stray = { chainId: 31337, txHash, logIndex: 3, depository: `0x${"DD".repeat(20)}`, depositor: `0x${"AA".repeat(20)}`, token: zeroAddress, amount: "1000" };

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
    expect(strayIgnoredReason(stray, chain)).to.equal(null);
    expect(strayIgnoredReason({ ...stray, token: stablecoin.toLowerCase() }, chain)).to.equal(null);
    expect(strayIgnoredReason({ ...stray, token: `0x${"11".repeat(20)}` }, chain)).to.equal("UNSUPPORTED_CURRENCY");
    expect(strayIgnoredReason({ ...stray, amount: "0" }, chain)).to.equal("AMOUNT_TOO_LOW_TO_REFUND");
    expect(strayIgnoredReason({ ...stray, amount: "1" }, chain)).to.equal(null); // no minimum (documented)
  });

  it("planStrayRefund_returnsTheWholeAmountToTheDepositor_withAStoredExpiration", () => {
    const plan = planStrayRefund({ ...stray, token: stablecoin }, 1_000);
    expect(plan).to.deep.include({
      chainId: 31337,
      depository: stray.depository.toLowerCase(),
      nonce: strayRefundNonce(31337, txHash, 3).toString(),
      expiration: 1_000 + PAYOUT_TTL_SECONDS,
      calls: [{ to: stray.depositor.toLowerCase(), token: stablecoin.toLowerCase(), amount: "1000" }],
      status: "prepared",
    });
    expect(plan.requestHash).to.equal(payoutRequestHash({ calls: plan.calls, nonce: plan.nonce, expiration: plan.expiration }));
  });
});
