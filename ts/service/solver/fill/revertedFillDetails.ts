/**
 * A reverted fill's status `details` — its simulation before sending (./sendFill.ts) or its mined
 * transaction (./fillOutcome.ts). Pure. The flat fields stay as clients already read them: `error`
 * (the custom error's name), `revertData`, and for a destination call's revert `callIndex` and
 * `revert` (that call's own revert). To them come the failing call's frames
 * (../../transactions/callFrames.ts): `topLevel`, and with a call trace `innermost` and `path`; and
 * `revert`, when the flat fields have none, the innermost frame's revert decoded.
 */
import type { Details } from "../../model/solverState.ts";
import type { FailureFrames } from "../../transactions/callFrames.ts";
import type { DecodedRevert } from "../../transactions/revertReason.ts";

export function revertedFillDetails(decoded: DecodedRevert, frames: FailureFrames | undefined): Details {
  const flat: Details = { error: decoded.errorName, revertData: decoded.data, ...decoded.details };
  if (!frames) return flat;
  return {
    ...flat,
    topLevel: frames.topLevel,
    ...(frames.innermost && { innermost: frames.innermost }),
    ...(frames.path && { path: frames.path }),
    revert: flat.revert ?? frames.revert,
  };
}
