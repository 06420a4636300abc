/**
 * A failed simulation of POST /execute, in the spec's shape: `{error, message, requestId, details:
 * {topLevel, innermost, path, revert}}`. Pure.
 *
 * - `details` are the failing call's frames (../transactions/callFrames.ts, shared with a failed
 *   fill's status details): from a `debug_traceCall` callTracer trace `topLevel`, `path` and
 *   `innermost`; without a trace `topLevel` only (built from the call) and `revert` the top-level
 *   revert data the estimate returned.
 * - `error` is the spec's failReason when the custom error has one (../transactions/revertReason.ts:
 *   e.g. `ERC20InsufficientBalance` → TRANSFER_AMOUNT_EXCEEDS_BALANCE), else the decoded label.
 */
import type { Hex } from "viem";
import { failureFrames, type FailureFrames, type FrameNames, type TracedFrame } from "../transactions/callFrames.ts";
import { FAIL_REASON_BY_ERROR } from "../transactions/revertReason.ts";

export type SimulationFailureBody = { error: string; message: string; requestId: string; details: FailureFrames };

/**
 * The body of a failed simulation. `trace`: the callTracer output (absent when the node has no
 * tracer); `call`: the call simulated; `revertData`: the top-level revert data the estimate returned.
 */
export function simulationFailure(args: { requestId: string; trace: TracedFrame | undefined; call: { to: string; data: Hex }; revertData: Hex | undefined; names: FrameNames }): SimulationFailureBody {
  const details = failureFrames(args);
  const { revert } = details;
  const failReason = revert.name ? (FAIL_REASON_BY_ERROR as Record<string, string>)[revert.name] : undefined;
  const where = details.innermost ?? details.topLevel;
  const at = ` in ${where.contract ?? where.address ?? "the call"}${where.function ? `.${where.function}` : where.selector ? ` (${where.selector})` : ""}`;
  return {
    error: failReason ?? revert.label,
    message: `the execution would revert${at}: ${revert.message}`.slice(0, 2000),
    requestId: args.requestId,
    details,
  };
}
