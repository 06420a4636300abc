// The solver's pure parts: block ranges, payout plans (nonce derivation, calls), revert decoding,
// the stored intent reader, deposit call decoding.
import { expect } from "chai";
import { encodeErrorResult, encodeFunctionData, zeroAddress, type Address, type Hex } from "viem";
import { attestedReceiverAbi } from "../../../ts/abi/AttestedReceiver.ts";
import { depositoryAbi } from "../../../ts/abi/Depository.ts";
import { DEPOSITORY_DEPOSIT_ABI } from "../../../ts/core/depositoryAbi.ts";
import { payoutRequestHash } from "../../../ts/core/payoutRequest.ts";
import { finalBlock } from "../../../ts/service/chains/chainFinality.ts";
import { firstPiece, halvedSpan, isConfirmed, nextBlockRange } from "../../../ts/service/solver/indexer/blockRange.ts";
import { decodeDepositCall } from "../../../ts/service/solver/indexer/depositEvent.ts";
import { formatAmount } from "../../../ts/service/solver/indexer/depositRequest.ts";
import { payoutNonce, payoutRequestOf, planPayout, PAYOUT_TTL_SECONDS } from "../../../ts/service/solver/payout/payoutPlan.ts";
import { decodeRevert } from "../../../ts/service/transactions/revertReason.ts";
import { canonicalHex, canonicalAddress } from "../../../ts/service/model/values.ts";

const ID = canonicalHex(`0x${"11".repeat(32)}`);
const SOLVER = canonicalAddress(`0x${"22".repeat(20)}`);
const REFUND_TO = canonicalAddress(`0x${"33".repeat(20)}`);
const DEPOSIT = { chainId: 1, depository: canonicalAddress(`0x${"44".repeat(20)}`), txHash: ID, logIndex: 0, block: 5, blockTimestamp: 100, depositor: REFUND_TO, token: zeroAddress, amount: 150n };

describe("solver pure parts", () => {
  it("nextBlockRange_startsAtTheDeploymentBlock_resumesAfterTheCheckpoint_andStopsAtTheFinalBlock", () => {
    expect(nextBlockRange({ checkpoint: null, deploymentBlock: 10, final: 20n, maxBlocks: 100 })).to.deep.equal({ fromBlock: 10n, toBlock: 20n });
    expect(nextBlockRange({ checkpoint: 15, deploymentBlock: 10, final: finalBlock(20n, 3, null), maxBlocks: 100 })).to.deep.equal({ fromBlock: 16n, toBlock: 18n });
    expect(nextBlockRange({ checkpoint: 18, deploymentBlock: 10, final: finalBlock(20n, 3, null), maxBlocks: 100 })).to.equal(null);
    expect(nextBlockRange({ checkpoint: null, deploymentBlock: 0, final: 5000n, maxBlocks: 2000 })).to.deep.equal({ fromBlock: 0n, toBlock: 1999n });
    expect(nextBlockRange({ checkpoint: 4, deploymentBlock: 0, final: finalBlock(5n, 0, null), maxBlocks: 10 })).to.deep.equal({ fromBlock: 5n, toBlock: 5n });
    expect(isConfirmed(18n, 20n, 3)).to.equal(true);
    expect(isConfirmed(19n, 20n, 3)).to.equal(false);
  });

  it("finalBlock_isTheDeeperOfTheConfirmationDepthAndTheFinalityTag", () => {
    expect(finalBlock(100n, 12, null)).to.equal(89n);
    expect(finalBlock(100n, 1, null)).to.equal(100n);
    expect(finalBlock(100n, 0, null)).to.equal(100n);
    expect(finalBlock(100n, 12, 60n)).to.equal(60n);
    expect(finalBlock(100n, 12, 95n)).to.equal(89n);
  });

  it("logScanPieces_splitASpan_andHalveOnARefusal_downToOneBlock", () => {
    expect(firstPiece(10n, 5000n, 2000)).to.deep.equal({ fromBlock: 10n, toBlock: 2009n });
    expect(firstPiece(10n, 20n, 2000)).to.deep.equal({ fromBlock: 10n, toBlock: 20n });
    expect(halvedSpan(2000, { fromBlock: 10n, toBlock: 2009n })).to.equal(1000);
    // A short last piece refused: half of what was actually tried.
    expect(halvedSpan(2000, { fromBlock: 10n, toBlock: 109n })).to.equal(50);
    expect(halvedSpan(1, { fromBlock: 10n, toBlock: 10n })).to.equal(1);
  });

  it("planPayout_repayment_paysTheQuotedAmountToTheSolverAndTheExcessBack", () => {
    const payout = planPayout({ kind: "repayment", requestId: ID, orderId: ID, deposit: DEPOSIT, originAmount: 100n, solver: SOLVER, refundTo: REFUND_TO, nowSeconds: 1000 });
    expect(payout.calls).to.deep.equal([
      { to: SOLVER, token: zeroAddress, amount: 100n },
      { to: REFUND_TO, token: zeroAddress, amount: 50n },
    ]);
    expect(payout.expiration).to.equal(1000 + PAYOUT_TTL_SECONDS);
    expect(payout.nonce).to.equal(payoutNonce("repayment", ID));
    expect(payout.requestHash).to.equal(payoutRequestHash(payoutRequestOf(payout)));
  });

  it("planPayout_refund_returnsTheWholeDeposit_underADifferentNonce", () => {
    const refund = planPayout({ kind: "refund", requestId: ID, orderId: ID, deposit: DEPOSIT, originAmount: 100n, solver: SOLVER, refundTo: REFUND_TO, nowSeconds: 1000 });
    expect(refund.calls).to.deep.equal([{ to: REFUND_TO, token: zeroAddress, amount: 150n }]);
    expect(payoutNonce("refund", ID)).to.not.equal(payoutNonce("repayment", ID));
    expect(payoutNonce("refund", ID)).to.not.equal(payoutNonce("refund", `0x${"12".repeat(32)}`));
  });

  it("decodeRevert_mapsKnownCustomErrors_andLabelsUnknownSelectors", () => {
    const expired = encodeErrorResult({ abi: attestedReceiverAbi, errorName: "AttestationExpired", args: [5n] });
    expect(decodeRevert(expired)).to.deep.include({ failReason: "ORDER_EXPIRED", errorName: "AttestationExpired" });
    const filled = encodeErrorResult({ abi: attestedReceiverAbi, errorName: "AlreadyFilled", args: [ID] });
    expect(decodeRevert(filled).failReason).to.equal("ORDER_ALREADY_FILLED");
    expect(decodeRevert("0xdeadbeef")).to.deep.include({ failReason: "TRANSACTION_REVERTED", errorName: "UNKNOWN_CUSTOM_ERROR_0xdeadbeef" });
    expect(decodeRevert(null).failReason).to.equal("TRANSACTION_REVERTED");
  });

  it("decodeDepositCall_readsEachDepositForm_andNothingElse", () => {
    const token = `0x${"55".repeat(20)}` as Address;
    const native = encodeFunctionData({ abi: DEPOSITORY_DEPOSIT_ABI, functionName: "depositNative", args: [zeroAddress, ID] });
    expect(decodeDepositCall(native, 7n)).to.deep.equal({ orderId: ID, token: zeroAddress, amount: 7n, relayed: false });
    const amountForm = encodeFunctionData({ abi: DEPOSITORY_DEPOSIT_ABI, functionName: "depositErc20", args: [zeroAddress, token, 9n, ID] });
    expect(decodeDepositCall(amountForm, 0n)).to.deep.equal({ orderId: ID, token, amount: 9n, relayed: false });
    const allowanceForm = encodeFunctionData({ abi: DEPOSITORY_DEPOSIT_ABI, functionName: "depositErc20", args: [zeroAddress, token, ID] });
    expect(decodeDepositCall(allowanceForm, 0n)).to.deep.equal({ orderId: ID, token, amount: null, relayed: false });
    const permitForm = encodeFunctionData({
      abi: depositoryAbi,
      functionName: "depositErc20Permit",
      args: [{ depositor: SOLVER, token, amount: 11n, id: ID, deadline: 99n }, 27, ID, ID, "0x1234"],
    });
    expect(decodeDepositCall(permitForm, 0n)).to.deep.equal({ orderId: ID, token, amount: 11n, relayed: true });
    const permit2Form = encodeFunctionData({ abi: depositoryAbi, functionName: "depositPermit2", args: [SOLVER, token, 12n, ID, 1n, 99n, "0x1234"] });
    expect(decodeDepositCall(permit2Form, 0n)).to.deep.equal({ orderId: ID, token, amount: 12n, relayed: true });
    expect(decodeDepositCall("0x", 0n)).to.equal(null);
    expect(decodeDepositCall("0xa9059cbb", 0n)).to.equal(null);
  });

  it("formatAmount_formatsBaseUnits", () => {
    expect(formatAmount(1_500_000n, 6)).to.equal("1.5");
    expect(formatAmount(5n, 6)).to.equal("0.000005");
    expect(formatAmount(2_000_000n, 6)).to.equal("2");
    expect(formatAmount(7n, 0)).to.equal("7");
  });
});
