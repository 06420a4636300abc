/**
 * The frames of a failing call, in the spec's shape `{topLevel, innermost, path, revert}`: the one
 * builder POST /execute's simulation error (../relay/simulationFailure.ts) and a failed fill's status
 * `details` (../solver/fill/revertedFillDetails.ts) share.
 *
 * - With a `callTracer` trace (`debug_traceCall` for a call that was only simulated,
 *   `debug_traceTransaction` for one that reverted onchain): `topLevel` is the call itself, `path` the
 *   chain of failing frames from it down to `innermost`, the deepest frame that failed (at each level
 *   the last child with an error: the one whose failure bubbled up).
 * - Without one (the node has no tracer, or refused): `topLevel` only, built from the call's own
 *   target and calldata; no `innermost`, no `path`.
 * - `revert` is the innermost frame's revert data decoded (./callRevert.ts: errorString, panic,
 *   customError, unknownCustomError with `UNKNOWN_CUSTOM_ERROR_<selector>` and rawArgsHex, empty);
 *   without a trace (or an innermost frame with no output) the top-level revert data given.
 *
 * `failureFrames` is pure; `traceCall` / `traceTransaction` are the two node reads, each returning
 * undefined when the node cannot trace.
 */
import { decodeFunctionData, type Abi, type Address, type Hex } from "viem";
import { attestedReceiverAbi } from "../../abi/AttestedReceiver.ts";
import { depositoryAbi } from "../../abi/Depository.ts";
import { multicallerAbi } from "../../abi/Multicaller.ts";
import type { ChainConfig } from "../config/configSchema.ts";
import type { CallFrame, RevertDetails } from "../model/solverState.ts";
import { decodeCallRevert, selectorOf } from "./callRevert.ts";

/** One frame of the `callTracer` output (the fields read here). */
export type TracedFrame = {
  type?: string;
  from?: string;
  to?: string;
  input?: string;
  output?: string;
  error?: string;
  revertReason?: string;
  gasUsed?: string;
  calls?: readonly TracedFrame[];
};

export type FailureFrames = { topLevel: CallFrame; innermost?: CallFrame; path?: CallFrame[]; revert: RevertDetails };

/** What frames are named with: a contract name per (lowercase) address, and ABIs to name functions from. */
export type FrameNames = { contracts: ReadonlyMap<string, string>; abis: readonly Abi[] };

/** The failing path from `top` down: at each level the last child that failed. */
export function failingPath(top: TracedFrame): TracedFrame[] {
  const path = [top];
  for (let frame = top; ; ) {
    const failed = [...(frame.calls ?? [])].reverse().find((c) => c.error !== undefined);
    if (!failed) return path;
    path.push(failed);
    frame = failed;
  }
}

export function callFrame(frame: TracedFrame, names: FrameNames): CallFrame {
  const address = frame.to?.toLowerCase();
  const input = (frame.input ?? "0x") as Hex;
  const selector = input.length >= 10 ? selectorOf(input) : undefined;
  const contract = address ? names.contracts.get(address) : undefined;
  const fn = selector ? functionName(input, names.abis) : undefined;
  return {
    type: frame.type ?? "CALL",
    ...(address && { address }),
    ...(contract && { contract }),
    ...(fn && { function: fn }),
    ...(selector && { selector }),
    ...(frame.error !== undefined && { error: frame.error.slice(0, 500) }),
    ...(frame.revertReason !== undefined && { revertReason: frame.revertReason.slice(0, 2000) }),
    ...(frame.gasUsed !== undefined && { gasUsed: BigInt(frame.gasUsed).toString() }),
  };
}

/**
 * The frames of a failing call. `trace`: the callTracer output (undefined when the node has none);
 * `call`: what was called (the top-level frame without a trace); `revertData`: the top-level revert
 * data the node returned.
 */
export function failureFrames(args: { trace: TracedFrame | undefined; call: { to: string; data: Hex }; revertData: Hex | null | undefined; names: FrameNames }): FailureFrames {
  if (!args.trace) {
    return { topLevel: callFrame({ type: "CALL", to: args.call.to, input: args.call.data }, args.names), revert: decodeCallRevert(args.revertData ?? undefined) };
  }
  const traced = failingPath(args.trace);
  const innermostData = traced.at(-1)!.output;
  const path = traced.map((f) => callFrame(f, args.names));
  const revert = decodeCallRevert(innermostData && innermostData !== "0x" ? (innermostData as Hex) : (args.revertData ?? undefined));
  return { topLevel: path[0]!, innermost: path.at(-1)!, path, revert };
}

/** Ferry's contracts on `chain` by name, and their ABIs plus `abis` to name functions from. */
export function frameNames(chain: Pick<ChainConfig, "contracts">, abis: readonly Abi[] = []): FrameNames {
  const contracts = new Map<string, string>(Object.entries(chain.contracts).flatMap(([name, address]) => (address === undefined ? [] : [[address, name] as const])));
  return { contracts, abis: [depositoryAbi, attestedReceiverAbi, multicallerAbi, ...abis] };
}

/** A client that can send the `debug_trace*` methods (viem's `request`, untyped for these non-standard methods). */
export type TraceClient = { request(args: { method: string; params: readonly unknown[] }): Promise<unknown> };

/** A call as `debug_traceCall` takes it (hex quantities). */
export type TracedCall = { from: Address; to: Address; data: Hex; value: bigint; authorizationList?: readonly Record<string, string>[] };

/** The callTracer trace of a call simulated at the latest block, or undefined when the node cannot trace it. */
export async function traceCall(client: TraceClient, call: TracedCall): Promise<TracedFrame | undefined> {
  const tx = { from: call.from, to: call.to, data: call.data, value: `0x${call.value.toString(16)}`, ...(call.authorizationList && { authorizationList: call.authorizationList }) };
  return traced(client, "debug_traceCall", [tx, "latest", { tracer: "callTracer" }]);
}

/** The callTracer trace of a mined transaction, or undefined when the node cannot trace it. */
export async function traceTransaction(client: TraceClient, hash: Hex): Promise<TracedFrame | undefined> {
  return traced(client, "debug_traceTransaction", [hash, { tracer: "callTracer" }]);
}

async function traced(client: TraceClient, method: string, params: readonly unknown[]): Promise<TracedFrame | undefined> {
  try {
    const frame = await client.request({ method, params });
    return frame && typeof frame === "object" ? (frame as TracedFrame) : undefined;
  } catch {
    return undefined;
  }
}

function functionName(input: Hex, abis: readonly Abi[]): string | undefined {
  for (const abi of abis) {
    try {
      return decodeFunctionData({ abi, data: input }).functionName;
    } catch {
      // not this ABI
    }
  }
  return undefined;
}
