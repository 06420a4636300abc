/**
 * A destination call's revert, decoded into the spec's revert shape (../model/solverState.ts
 * `RevertDetails`). Pure. The fill through `fillWithCalls` reverts with the Multicaller's
 * `CallReverted(index, returnData)`; `returnData` is the call's own revert:
 * - `Error(string)` → errorString, label and message the string;
 * - `Panic(uint256)` → panic, label `PANIC_0x11` and the reason (arithmetic overflow, …);
 * - a custom error of a known ABI (Ferry's contracts, OpenZeppelin's ERC-20 / ERC-4626 / SafeERC20 /
 *   Ownable / Address errors) → customError with its name and arguments;
 * - any other selector → unknownCustomError, label `UNKNOWN_CUSTOM_ERROR_<selector>`, `rawArgsHex`;
 * - no data → empty.
 */
import { decodeErrorResult, parseAbi, type Abi, type Hex } from "viem";
import { attestedReceiverAbi } from "../../abi/AttestedReceiver.ts";
import { depositoryAbi } from "../../abi/Depository.ts";
import { mockStablecoinAbi } from "../../abi/MockStablecoin.ts";
import { multicallerAbi } from "../../abi/Multicaller.ts";
import type { RevertDetails } from "../model/solverState.ts";

/** OpenZeppelin 5 errors a destination call commonly reverts with (besides the ERC-20 ones in mockStablecoinAbi). */
const OPENZEPPELIN_ERRORS = parseAbi([
  "error ERC4626ExceededMaxDeposit(address receiver, uint256 assets, uint256 max)",
  "error ERC4626ExceededMaxMint(address receiver, uint256 shares, uint256 max)",
  "error ERC4626ExceededMaxWithdraw(address owner, uint256 assets, uint256 max)",
  "error ERC4626ExceededMaxRedeem(address owner, uint256 shares, uint256 max)",
  "error SafeERC20FailedOperation(address token)",
  "error OwnableUnauthorizedAccount(address account)",
  "error AddressEmptyCode(address target)",
  "error FailedCall()",
  "error ReentrancyGuardReentrantCall()",
  "error EnforcedPause()",
]);

const KNOWN_ERRORS: Abi = dedupe([...attestedReceiverAbi, ...depositoryAbi, ...mockStablecoinAbi, ...multicallerAbi, ...OPENZEPPELIN_ERRORS]);

const PANIC_REASONS: Record<number, string> = {
  0x01: "assertion failed",
  0x11: "arithmetic overflow or underflow",
  0x12: "division or modulo by zero",
  0x21: "invalid enum value",
  0x22: "invalid storage byte array",
  0x31: "pop on an empty array",
  0x32: "array index out of bounds",
  0x41: "out of memory",
  0x51: "call to an invalid internal function",
};

/** The 4-byte selector that starts `data`, lowercase (calldata and revert data alike). */
export const selectorOf = (data: string): string => data.slice(0, 10).toLowerCase();

export function decodeCallRevert(data: Hex | null | undefined): RevertDetails {
  if (!data || data === "0x") return { type: "empty", label: "EMPTY_REVERT", message: "the call reverted without data" };
  const selector = selectorOf(data);
  if (data.length < 10) return { type: "unknownCustomError", label: "UNKNOWN_REVERT", message: "revert data shorter than a selector", rawArgsHex: data };
  try {
    const { errorName, args, abiItem } = decodeErrorResult({ abi: KNOWN_ERRORS, data });
    const values = (args ?? []) as readonly unknown[];
    if (errorName === "Error") {
      const reason = String(values[0] ?? "");
      return { type: "errorString", label: reason.slice(0, 200), message: reason.slice(0, 2000), selector };
    }
    if (errorName === "Panic") {
      const code = Number(values[0] ?? 0n);
      const hex = `0x${code.toString(16).padStart(2, "0")}`;
      return { type: "panic", label: `PANIC_${hex}`, message: PANIC_REASONS[code] ?? `panic ${hex}`, selector };
    }
    const inputs = abiItem && "inputs" in abiItem ? abiItem.inputs : [];
    const named: Record<string, string> = {};
    values.forEach((value, i) => (named[inputs[i]?.name || String(i)] = String(value).slice(0, 2000)));
    return {
      type: "customError",
      label: errorName,
      message: `${errorName}(${values.map((v) => String(v)).join(", ")})`.slice(0, 2000),
      selector,
      name: errorName,
      args: named,
    };
  } catch {
    const rawArgsHex = data.length > 10 ? (`0x${data.slice(10)}` as Hex) : undefined;
    return {
      type: "unknownCustomError",
      label: `UNKNOWN_CUSTOM_ERROR_${selector}`,
      message: `a custom error no known ABI declares (${selector})`,
      selector,
      ...(rawArgsHex ? { rawArgsHex: rawArgsHex.slice(0, 20_000) } : {}),
    };
  }
}

function dedupe(items: readonly Abi[number][]): Abi {
  const seen = new Set<string>();
  return items.filter((item) => {
    if (item.type !== "error") return false;
    const key = `${item.name}(${item.inputs.map((i) => i.type).join(",")})`;
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}
