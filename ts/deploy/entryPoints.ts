/**
 * The compact entry points of a Ferry deployment — what the solver and the quote steps call — and
 * their probes for `ferry deploy --check`. Each probe is an `eth_call` with all-zero arguments (for the
 * fill, a packed fill of 277 zero bytes), which
 * the entry point refuses with its first check's custom error (a zero id, or an expired request): the
 * revert proves that the selector reaches that function on the deployed code. A deployment from before
 * the compact ABI (issue 14) answers every probe with an empty revert (no such function), so `--check`
 * names what it lacks instead of only reporting a different code hash. Pure.
 */
import { concat, encodeFunctionData, toFunctionSelector, zeroAddress, type Hex } from "viem";
import { DEPOSIT_ERC20_FUNCTION, DEPOSIT_NATIVE_FUNCTION, DEPOSITORY_DEPOSIT_ABI } from "../core/depositoryAbi.ts";
import { EXECUTE_ABI, EXECUTE_COMPACT_FUNCTION } from "../core/executeCalldata.ts";
import { FILL_ABI, FILL_SELECTOR, PACKED_FILL_LENGTH } from "../core/fillCalldata.ts";

export type EntryPointProbe = {
  contract: "AttestedReceiver" | "Depository";
  /** The function's signature, e.g. `depositNative_irOEa(bytes32)`. */
  signature: string;
  selector: Hex;
  /** What the probe sends (zero arguments). */
  data: Hex;
  /** The custom error the function's first check answers the probe with, and its selector. */
  expectedError: string;
  expectedErrorSelector: Hex;
};

const ZERO32 = `0x${"00".repeat(32)}` as const;
/** A packed fill of zeros: the right length, requestId 0. */
const ZERO_FILL = `0x${"00".repeat(PACKED_FILL_LENGTH)}` as const;
const ZERO_SIGNATURE = { r: ZERO32, vs: ZERO32 } as const;

function probe(contract: EntryPointProbe["contract"], abiItem: (typeof FILL_ABI | typeof DEPOSITORY_DEPOSIT_ABI | typeof EXECUTE_ABI)[number], data: Hex, expectedError: string): EntryPointProbe {
  const signature = `${abiItem.name}(${(abiItem as { inputs: readonly { type: string; components?: unknown }[] }).inputs.map((input) => typeText(input)).join(",")})`;
  return {
    contract,
    signature,
    selector: toFunctionSelector(signature),
    data,
    expectedError,
    expectedErrorSelector: toFunctionSelector(expectedError),
  };
}

function typeText(param: { type: string; components?: unknown }): string {
  if (!param.type.startsWith("tuple")) return param.type;
  const components = param.components as { type: string; components?: unknown }[];
  return `(${components.map(typeText).join(",")})${param.type.slice("tuple".length)}`;
}

/** The entry points every deployment of this build must answer, in the order `--check` lists them. */
export const ENTRY_POINT_PROBES: readonly EntryPointProbe[] = [
  probe("AttestedReceiver", FILL_ABI[0], concat([FILL_SELECTOR, ZERO_FILL]), "ZeroRequestId()"),
  probe("AttestedReceiver", FILL_ABI[1], encodeFunctionData({ abi: FILL_ABI, functionName: "fillAndCall", args: [ZERO_FILL, [], []] }), "ZeroRequestId()"),
  probe("Depository", DEPOSITORY_DEPOSIT_ABI[0], encodeFunctionData({ abi: DEPOSITORY_DEPOSIT_ABI, functionName: DEPOSIT_NATIVE_FUNCTION, args: [ZERO32] }), "ZeroOrderId()"),
  probe(
    "Depository",
    DEPOSITORY_DEPOSIT_ABI[1],
    encodeFunctionData({ abi: DEPOSITORY_DEPOSIT_ABI, functionName: DEPOSIT_ERC20_FUNCTION, args: [zeroAddress, 0n, ZERO32] }),
    "ZeroOrderId()",
  ),
  probe(
    "Depository",
    EXECUTE_ABI[0],
    encodeFunctionData({ abi: EXECUTE_ABI, functionName: EXECUTE_COMPACT_FUNCTION, args: [{ calls: [], nonce: 0n, expiration: 0n }, ZERO_SIGNATURE] }),
    "RequestExpired(uint256)",
  ),
];

/** The record's `entryPoints`: each probed function's signature by selector. */
export function entryPointRecord(): Record<string, Hex> {
  return Object.fromEntries(ENTRY_POINT_PROBES.map((p) => [p.signature, p.selector]));
}

/** What a probe's revert says: the expected error's name, "no revert", "empty revert", or the selector seen. */
export function entryPointVerdict(probe: EntryPointProbe, revertData: Hex | null | undefined, reverted: boolean): string {
  if (!reverted) return "no revert";
  if (!revertData || revertData === "0x") return "empty revert";
  const selector = revertData.slice(0, 10).toLowerCase();
  return selector === probe.expectedErrorSelector ? probe.expectedError.split("(")[0]! : `error ${selector}`;
}
