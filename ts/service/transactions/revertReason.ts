/**
 * A reverted (or simulated-and-reverting) fill or payout → the spec's `failReason`, from the custom
 * error decoded against the contracts' ABIs. Pure.
 */
import { BaseError, decodeErrorResult, type Hex } from "viem";
import { attestedReceiverAbi } from "../../abi/AttestedReceiver.ts";
import { depositoryAbi } from "../../abi/Depository.ts";
import { mockStablecoinAbi } from "../../abi/MockStablecoin.ts";
import { multicallerAbi } from "../../abi/Multicaller.ts";
import type { Details } from "../model/solverState.ts";
import { decodeCallRevert } from "./callRevert.ts";

const ERROR_ABI = [...attestedReceiverAbi, ...depositoryAbi, ...mockStablecoinAbi, ...multicallerAbi].filter((item) => item.type === "error");

/**
 * Custom error name → failReason, for every error a fill (AttestedReceiver, AttestationLib, the
 * token it pulls) or a payout (Depository) can revert with; anything else is TRANSACTION_REVERTED.
 * Where the spec's enum has no value for the condition (a zero id, a recipient off the allow-list, a
 * destination that is not an EVM address) the mapping says TRANSACTION_REVERTED on purpose, and
 * `details.error` names the error. A wrong chain or receiver means the attestation does not authorise
 * this fill here: INVALID_SIGNATURE for the full-ABI fill; the packed fill (chain and receiver derived
 * onchain) can only report it as SignerNotAllowed, INVALID_SIGNER (sendFill logs which field is off).
 */
export const FAIL_REASON_BY_ERROR = {
  // AttestedReceiver.fill, in its check order.
  ZeroRequestId: "TRANSACTION_REVERTED",
  ZeroOrderId: "TRANSACTION_REVERTED",
  AttestationExpired: "ORDER_EXPIRED",
  WrongDestinationChain: "INVALID_SIGNATURE",
  WrongReceiver: "INVALID_SIGNATURE",
  InvalidSignatureLength: "INVALID_SIGNATURE",
  SignatureMalleable: "INVALID_SIGNATURE",
  InvalidSignature: "INVALID_SIGNATURE",
  SignerNotAllowed: "INVALID_SIGNER",
  NotAnEvmAddress: "TRANSACTION_REVERTED",
  RecipientNotAllowed: "TRANSACTION_REVERTED",
  RequestCancelled: "ORDER_IS_CANCELLED",
  AlreadyFilled: "ORDER_ALREADY_FILLED",
  CurrencyNotAllowed: "TOKEN_NOT_TRANSFERABLE",
  IncorrectNativeAmount: "INSUFFICIENT_NATIVE_TOKENS_SUPPLIED",
  NativeTransferFailed: "TRANSFER_FAILED",
  // Depository.execute, in its check order.
  RequestExpired: "SIGNATURE_EXPIRED",
  SignerNotAllocator: "INVALID_SIGNER",
  NonceAlreadyUsed: "INVALID_NONCE",
  InsufficientBalance: "TRANSFER_AMOUNT_EXCEEDS_BALANCE",
  SafeERC20FailedOperation: "TRANSFER_FAILED",
  // OpenZeppelin ERC-20 errors bubbling up from a fill's transferFrom.
  ERC20InsufficientBalance: "TRANSFER_AMOUNT_EXCEEDS_BALANCE",
  ERC20InsufficientAllowance: "TRANSFER_AMOUNT_EXCEEDS_ALLOWANCE",
  // AttestedReceiver.fillWithCalls: the calls sent are not the ones the requestId commits to.
  CallsMismatch: "INVALID_SIGNATURE",
  // AttestedReceiver.fill_7hVe / fillAndCall: the packed fill is not 277 bytes (a malformed encoding).
  InvalidFillLength: "TRANSACTION_REVERTED",
  // Depository.settle: a credit the Depository's balance does not back.
  CreditNotBacked: "TRANSFER_AMOUNT_EXCEEDS_BALANCE",
  // Depository.depositErc20Permit, relayed by the solver (../solver/fill/submitPermitDeposit.ts).
  PermitDepositExpired: "SIGNATURE_EXPIRED",
  PermitDepositReplayed: "INVALID_NONCE",
  PermitNotUsable: "TRANSFER_AMOUNT_EXCEEDS_ALLOWANCE",
  ZeroDepositor: "TRANSACTION_REVERTED",
  // Depository.release (a reclaimable deposit's payout): the depositor already reclaimed it, or it was released.
  NoReclaimCommitment: "DOUBLE_SPEND",
  // Depository payouts: a failed payout made claimable would push the native claimable total past 96 bits.
  SafeCastOverflowedUintDowncast: "TRANSACTION_REVERTED",
} as const satisfies Record<string, string>;

type MappedError = keyof typeof FAIL_REASON_BY_ERROR;
const isMapped = (name: string): name is MappedError => Object.hasOwn(FAIL_REASON_BY_ERROR, name);

/** `details`: extra public fields of the failure — for a destination call, its index and decoded revert. */
export type DecodedRevert = { failReason: string; errorName: string | null; data: Hex | null; details?: Details };

/** Decodes revert `data` (selector + args). */
export function decodeRevert(data: Hex | null | undefined): DecodedRevert {
  if (!data || data.length < 10) return { failReason: "TRANSACTION_REVERTED", errorName: null, data: data ?? null };
  try {
    const { errorName, args } = decodeErrorResult({ abi: ERROR_ABI, data });
    // A destination call reverted inside fillWithCalls: EXECUTION_REVERTED with the call's own revert.
    if (errorName === "CallReverted") {
      const [index, returnData] = args as readonly [bigint, Hex];
      return { failReason: "EXECUTION_REVERTED", errorName, data, details: { callIndex: Number(index), revert: decodeCallRevert(returnData) } };
    }
    return { failReason: isMapped(errorName) ? FAIL_REASON_BY_ERROR[errorName] : "TRANSACTION_REVERTED", errorName, data };
  } catch {
    return { failReason: "TRANSACTION_REVERTED", errorName: `UNKNOWN_CUSTOM_ERROR_${data.slice(0, 10)}`, data };
  }
}

/** Hex of at least a 4-byte selector (`0x` and 8 or more hex digits). */
const isRevertData = (value: unknown): value is Hex => typeof value === "string" && /^0x[0-9a-fA-F]{8,}$/.test(value);

/** The revert data carried somewhere in a viem error's cause chain, or null. */
export function revertDataOf(error: unknown): Hex | null {
  let found: Hex | null = null;
  const visit = (e: unknown) => {
    const data = (e as { data?: unknown })?.data;
    if (isRevertData(data)) found = data;
    else if (typeof data === "object" && data !== null && typeof (data as { data?: unknown }).data === "string") {
      const inner = (data as { data: string }).data;
      if (isRevertData(inner)) found = inner;
    }
    return found !== null;
  };
  if (error instanceof BaseError) error.walk(visit);
  else visit(error);
  return found;
}

/** Whether a viem error is an execution revert (as opposed to a transport failure). */
export function isRevert(error: unknown): boolean {
  if (!(error instanceof BaseError)) return false;
  return (
    error.walk((e) => /revert/i.test(String((e as { shortMessage?: unknown }).shortMessage ?? "")) || (e as { name?: string }).name === "ContractFunctionRevertedError") !== null ||
    revertDataOf(error) !== null
  );
}
