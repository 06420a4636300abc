/**
 * A failed simulation of POST /execute, in the spec's shape: `{error, message, requestId, details:
 * {topLevel, innermost, path, revert}}`. Pure.
 *
 * - The frames come from `debug_traceCall`'s `callTracer` output: `topLevel` is the call the relayer
 *   would send, `path` the chain of failing frames from it down to `innermost`, the deepest frame that
 *   failed (at each level the last child with an error: the one whose failure bubbled up).
 * - `revert` is the innermost frame's revert data decoded as the status `details` are
 *   (../transactions/callRevert.ts: errorString, panic, customError, unknownCustomError with
 *   `UNKNOWN_CUSTOM_ERROR_<selector>` and rawArgsHex, empty); without a trace it is the top-level
 *   revert data the estimate returned.
 * - `error` is the spec's failReason when the custom error has one (../transactions/revertReason.ts:
 *   e.g. `ERC20InsufficientBalance` → TRANSFER_AMOUNT_EXCEEDS_BALANCE), else the decoded label.
 */
import { decodeFunctionData, type Abi, type Hex } from "viem";
import type { RevertDetails } from "../model/solverState.ts";
import { decodeCallRevert } from "../transactions/callRevert.ts";
import { FAIL_REASON_BY_ERROR } from "../transactions/revertReason.ts";

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

/** The spec's frame: type, and optionally address, contract, function, selector, error, revertReason, gasUsed (strings). */
export type SimulationFrame = {
  type: string;
  address?: string;
  contract?: string;
  function?: string;
  selector?: string;
  error?: string;
  revertReason?: string;
  gasUsed?: string;
};

export type SimulationDetails = { topLevel?: SimulationFrame; innermost?: SimulationFrame; path?: SimulationFrame[]; revert: RevertDetails };

export type SimulationFailureBody = { error: string; message: string; requestId: string; details: SimulationDetails };

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

export function simulationFrame(frame: TracedFrame, names: FrameNames): SimulationFrame {
  const address = frame.to?.toLowerCase();
  const input = (frame.input ?? "0x") as Hex;
  const selector = input.length >= 10 ? input.slice(0, 10).toLowerCase() : undefined;
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
 * The body of a failed simulation. `trace`: the callTracer output (absent when the node has no
 * tracer); `revertData`: the top-level revert data the estimate returned.
 */
export function simulationFailure(args: { requestId: string; trace: TracedFrame | undefined; revertData: Hex | undefined; names: FrameNames }): SimulationFailureBody {
  const path = args.trace ? failingPath(args.trace) : [];
  const innermost = path.at(-1);
  const innermostData = innermost?.output && innermost.output !== "0x" ? (innermost.output as Hex) : undefined;
  const revert = decodeCallRevert(innermostData ?? args.revertData);
  const failReason = revert.name ? (FAIL_REASON_BY_ERROR as Record<string, string>)[revert.name] : undefined;
  const error = failReason ?? revert.label;
  const frames = path.map((f) => simulationFrame(f, args.names));
  const where = frames.at(-1);
  const at = where ? ` in ${where.contract ?? where.address ?? "the call"}${where.function ? `.${where.function}` : where.selector ? ` (${where.selector})` : ""}` : "";
  return {
    error,
    message: `the execution would revert${at}: ${revert.message}`.slice(0, 2000),
    requestId: args.requestId,
    details: { ...(frames.length > 0 && { topLevel: frames[0]!, innermost: frames.at(-1)!, path: frames }), revert },
  };
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
