// Every custom error the receiver, the Depository and the tokens they call can revert with maps to
// one spec failReason: one case per error, encoded from the contracts' own ABIs.
import { expect } from "chai";
import { encodeErrorResult, zeroAddress, type Abi, type Hex } from "viem";
import { attestedReceiverAbi } from "../../../ts/abi/AttestedReceiver.ts";
import { depositoryAbi } from "../../../ts/abi/Depository.ts";
import { mockStablecoinAbi } from "../../../ts/abi/MockStablecoin.ts";
import { decodeRevert, FAIL_REASON_BY_ERROR } from "../../../ts/service/transactions/revertReason.ts";

const ID = `0x${"11".repeat(32)}` as Hex;
const WHO = `0x${"22".repeat(20)}` as const;

/** [abi, error, args, failReason]. */
const CASES: [Abi, string, readonly unknown[], string][] = [
  // AttestedReceiver.fill, in its check order.
  [attestedReceiverAbi, "ZeroRequestId", [], "TRANSACTION_REVERTED"],
  [attestedReceiverAbi, "ZeroOrderId", [], "TRANSACTION_REVERTED"],
  [attestedReceiverAbi, "AttestationExpired", [5n], "ORDER_EXPIRED"],
  [attestedReceiverAbi, "WrongDestinationChain", [5n], "INVALID_SIGNATURE"],
  [attestedReceiverAbi, "WrongReceiver", [WHO], "INVALID_SIGNATURE"],
  [attestedReceiverAbi, "InvalidSignatureLength", [64n], "INVALID_SIGNATURE"],
  [attestedReceiverAbi, "SignatureMalleable", [ID], "INVALID_SIGNATURE"],
  [attestedReceiverAbi, "InvalidSignature", [], "INVALID_SIGNATURE"],
  [attestedReceiverAbi, "SignerNotAllowed", [WHO], "INVALID_SIGNER"],
  [attestedReceiverAbi, "NotAnEvmAddress", [ID], "TRANSACTION_REVERTED"],
  [attestedReceiverAbi, "RecipientNotAllowed", [WHO], "TRANSACTION_REVERTED"],
  [attestedReceiverAbi, "RequestCancelled", [ID], "ORDER_IS_CANCELLED"],
  [attestedReceiverAbi, "AlreadyFilled", [ID], "ORDER_ALREADY_FILLED"],
  [attestedReceiverAbi, "CurrencyNotAllowed", [WHO], "TOKEN_NOT_TRANSFERABLE"],
  [attestedReceiverAbi, "IncorrectNativeAmount", [1n, 2n], "INSUFFICIENT_NATIVE_TOKENS_SUPPLIED"],
  [attestedReceiverAbi, "NativeTransferFailed", [WHO], "TRANSFER_FAILED"],
  // Depository.execute, in its check order.
  [depositoryAbi, "RequestExpired", [5n], "SIGNATURE_EXPIRED"],
  [depositoryAbi, "SignerNotAllocator", [WHO], "INVALID_SIGNER"],
  [depositoryAbi, "NonceAlreadyUsed", [7n], "INVALID_NONCE"],
  [depositoryAbi, "InsufficientBalance", [0n, zeroAddress, 1n, 2n], "TRANSFER_AMOUNT_EXCEEDS_BALANCE"],
  [depositoryAbi, "SafeERC20FailedOperation", [WHO], "TRANSFER_FAILED"],
  // Depository.release: the reclaimable deposit is gone (reclaimed or released).
  [depositoryAbi, "NoReclaimCommitment", [ID], "DOUBLE_SPEND"],
  // ERC-20 (OpenZeppelin) errors bubbling up from a fill's transferFrom.
  [mockStablecoinAbi, "ERC20InsufficientBalance", [WHO, 1n, 2n], "TRANSFER_AMOUNT_EXCEEDS_BALANCE"],
  [mockStablecoinAbi, "ERC20InsufficientAllowance", [WHO, 1n, 2n], "TRANSFER_AMOUNT_EXCEEDS_ALLOWANCE"],
];

describe("revertReason", () => {
  for (const [abi, errorName, args, failReason] of CASES) {
    it(`decodeRevert_${errorName}_is${failReason}`, () => {
      const data = encodeErrorResult({ abi, errorName, args } as Parameters<typeof encodeErrorResult>[0]);
      expect(decodeRevert(data)).to.deep.equal({ failReason, errorName, data });
    });
  }

  it("decodeRevert_everyErrorTheReceiverAndTheDepositoryRaiseInAFillOrPayout_hasAnExplicitFailReason", () => {
    // Errors of admin, deposit and claim functions are not the solver's fills or payouts (a permit
    // deposit's revert is POST /execute/permits' PERMIT_DEPOSIT_REVERTED).
    const notTheSolvers = new Set([
      "OwnableInvalidOwner", "OwnableUnauthorizedAccount", "RenounceOwnershipDisabled", "ZeroSigner", "AllocatorAlreadySet", "AllocatorChangeNotReady", "AllocatorChangeExpired",
      "NoPendingAllocatorChange", "ZeroAllocator", "ClaimFailed", "NothingToClaim", "ZeroClaimRecipient", "ZeroDeposit", "ZeroDepositor", "PermitDepositExpired", "PermitDepositReplayed", "PermitNotUsable", "InvalidShortString", "StringTooLong", "Reentrancy",
      // The depositor's own reclaimable deposit and reclaim.
      "ReclaimAlreadyCommitted", "ReclaimCommitmentMismatch", "ReclaimNotYet",
    ]);
    const names = [...attestedReceiverAbi, ...depositoryAbi].filter((item) => item.type === "error").map((item) => (item as { name: string }).name);
    const unmapped = [...new Set(names)].filter((name) => !notTheSolvers.has(name) && !(name in FAIL_REASON_BY_ERROR));
    expect(unmapped).to.deep.equal([]);
  });

  it("decodeRevert_unknownSelectorOrNoData_isTransactionReverted", () => {
    expect(decodeRevert("0xdeadbeef")).to.deep.equal({ failReason: "TRANSACTION_REVERTED", errorName: "UNKNOWN_CUSTOM_ERROR_0xdeadbeef", data: "0xdeadbeef" });
    expect(decodeRevert(null)).to.deep.equal({ failReason: "TRANSACTION_REVERTED", errorName: null, data: null });
  });
});
