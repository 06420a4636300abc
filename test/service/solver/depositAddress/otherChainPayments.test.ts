/**
 * The planning of payments into a deposit address on a chain other than its quote's
 * (ts/service/solver/depositAddress/otherChainPayments.ts, ./misroutePlan.ts `planSweepRefunds`), pure:
 * - what exceeds what is known to be left at the address is new; the whole balance goes back when it
 *   reaches the currency's threshold (sweeping earlier dust), else only the new part is recorded
 *   `ignored` (AMOUNT_TOO_LOW_TO_REFUND) and nothing is sent;
 * - nothing new (the balance is the dust already recorded): nothing planned;
 * - every entry's instruction id is fresh: per address, currency and count of entries, never another
 *   chain-mismatch refund's, a later refund's or a strict refund's.
 */
import { expect } from "chai";
import { getAddress, parseEther } from "viem";
import type { DepositAddressPayment } from "../../../../ts/service/model/depositAddressPayment.ts";
import type { DepositAddressRefund } from "../../../../ts/service/model/depositAddressRefund.ts";
import { canonicalHex, ZERO_ADDRESS, type Address } from "../../../../ts/service/model/values.ts";
import { laterRefundInstructionId } from "../../../../ts/service/solver/depositAddress/laterPayments.ts";
import { planSweepRefunds, strictRefundInstructionId } from "../../../../ts/service/solver/depositAddress/misroutePlan.ts";
import { otherChainRefundInstructionId } from "../../../../ts/service/solver/depositAddress/otherChainPayments.ts";

const ADDRESS = canonicalHex(getAddress("0x00000000000000000000000000000000000a11ce")) as Address;
const TOKEN = canonicalHex(getAddress("0x00000000000000000000000000000000000f05d0")) as Address;
const ORDER = canonicalHex(`0x${"ab".repeat(32)}`);
// $1 thresholds: 0.0005 ETH at $2,000, 1 fUSD.
const CHAIN = {
  nativeCurrency: { symbol: "ETH", name: "Ether", decimals: 18, logoURI: "", usdPrice: "2000" },
  erc20Currencies: [{ address: TOKEN, symbol: "fUSD", name: "fUSD", decimals: 6, logoURI: "", usdPrice: "1" }],
} as unknown as Parameters<typeof planSweepRefunds>[0]["chain"];
const THRESHOLD = { [ZERO_ADDRESS]: parseEther("0.0005"), [TOKEN]: 1_000_000n };

function payment(token: Address, amount: bigint, block: number): DepositAddressPayment {
  return { chainId: 31338, address: ADDRESS, token, amount, depositor: ADDRESS, txHash: canonicalHex(`0x${block.toString(16).padStart(64, "0")}`), blockNumber: block, blockTimestamp: 1_700_000_000 + block };
}

function plan(refunds: DepositAddressRefund[], balances: Array<{ token: Address; balance: bigint }>, finalBlock = 100) {
  return planSweepRefunds({
    refunds,
    balances: balances.map((b) => ({ ...b, payment: payment(b.token, b.balance, finalBlock - 1) })),
    chain: CHAIN,
    strayRefundMinimumUsd: "1",
    finalBlock,
    reason: () => "DEPOSIT_CHAIN_MISMATCH",
    instructionId: (token, n) => otherChainRefundInstructionId(ADDRESS, token, n),
  });
}

describe("deposit addresses paid on another chain: the refund plan", () => {
  it("refunds a payment at or above the threshold whole, with DEPOSIT_CHAIN_MISMATCH", () => {
    const planned = plan([], [
      { token: ZERO_ADDRESS, balance: parseEther("0.05") },
      { token: TOKEN, balance: THRESHOLD[TOKEN] },
    ]);
    expect(planned.map((r) => [r.token, r.amount, r.state, r.reason])).to.deep.equal([
      [ZERO_ADDRESS, parseEther("0.05"), "planned", "DEPOSIT_CHAIN_MISMATCH"],
      [TOKEN, THRESHOLD[TOKEN], "planned", "DEPOSIT_CHAIN_MISMATCH"],
    ]);
    expect(planned.every((r) => r.plannedAtBlock === 100 && r.txHash === null && r.ignoredReason === undefined)).to.equal(true);
  });

  it("records a payment below the threshold as ignored and sends nothing; the same dust again is not new", () => {
    const dust = plan([], [{ token: ZERO_ADDRESS, balance: THRESHOLD[ZERO_ADDRESS] - 1n }]);
    expect(dust.map((r) => [r.amount, r.state, r.ignoredReason])).to.deep.equal([[THRESHOLD[ZERO_ADDRESS] - 1n, "ignored", "AMOUNT_TOO_LOW_TO_REFUND"]]);
    expect(plan(dust, [{ token: ZERO_ADDRESS, balance: THRESHOLD[ZERO_ADDRESS] - 1n }])).to.deep.equal([]);
  });

  it("sweeps earlier dust with the payment that brings the balance over the threshold", () => {
    const dust = plan([], [{ token: TOKEN, balance: 400_000n }]);
    const more = plan(dust, [{ token: TOKEN, balance: 700_000n }], 110);
    expect(more.map((r) => [r.amount, r.state])).to.deep.equal([[300_000n, "ignored"]]);
    const swept = plan([...dust, ...more], [{ token: TOKEN, balance: 1_200_000n }], 120);
    expect(swept.map((r) => [r.amount, r.state])).to.deep.equal([[1_200_000n, "planned"]]);
    // After a confirmed sweep nothing is known to be left: a new payment is new from zero.
    const confirmed = [...dust, ...more, { ...swept[0]!, state: "confirmed" as const }];
    expect(plan(confirmed, [{ token: TOKEN, balance: 5_000_000n }], 130).map((r) => [r.amount, r.state])).to.deep.equal([[5_000_000n, "planned"]]);
  });

  it("gives every refund a fresh instruction id, distinct from the address's other refunds", () => {
    const ids = new Set<string>();
    let refunds: DepositAddressRefund[] = [];
    for (const balance of [2_000_000n, 3_000_000n, 4_000_000n]) {
      const [next] = plan(refunds, [{ token: TOKEN, balance }]);
      ids.add(next!.instructionId);
      refunds = [...refunds, { ...next!, state: "confirmed" }];
    }
    ids.add(otherChainRefundInstructionId(ADDRESS, ZERO_ADDRESS, 0));
    ids.add(laterRefundInstructionId(ORDER, TOKEN, 0));
    ids.add(strictRefundInstructionId(ORDER, TOKEN));
    expect(ids.size).to.equal(6);
  });
});
