/**
 * One log decoded as one event, the way the solver reads the logs of a receipt (a fill's `Filled`,
 * a payout's `PayoutClaimable`): strictly (a log of another event, or malformed, is `undefined`), its
 * arguments canonical and the contract that emitted it as `emitter` — the one step that makes a
 * decoded log's addresses and ids canonical, so the caller compares them with `===`. Pure.
 */
import { decodeEventLog, type Abi, type DecodeEventLogReturnType, type Hex } from "viem";
import { canonicalFields, type CanonicalFields } from "../model/values.ts";

/** What a log needs to be decoded (a viem `Log` of a receipt or of `getLogs` has it). */
export type RawLog = { address: Hex; data: Hex; topics: [] | [Hex, ...Hex[]] };

/** The arguments of `abi`'s event, canonical, with the emitting contract as `emitter`. */
export type DecodedLog<A extends Abi> = CanonicalFields<DecodeEventLogReturnType<A>["args"] & { emitter: Hex }>;

/** `log` decoded as the event of `abi` (e.g. `[FILLED_EVENT]`), or undefined when it is another event or malformed. */
export function decodeLog<const A extends Abi>(abi: A, log: RawLog): DecodedLog<A> | undefined {
  let args: object;
  try {
    args = decodeEventLog({ abi, data: log.data, topics: log.topics, strict: true }).args as object;
  } catch {
    return undefined;
  }
  return canonicalFields({ ...args, emitter: log.address }) as DecodedLog<A>;
}
