/**
 * What a quote's destination calls may leave in the Multicaller, so the quote's sweep list covers it:
 * the Multicaller runs anyone's calls (it holds nothing between calls by design), so a token left
 * there after a fill — vault shares minted to the Multicaller, a swap's output sent to it — is swept
 * by the next caller who lists it, to itself. The sweep list of an intent with calls is therefore:
 * the destination currency (an ERC-20), then every ERC-20 the calls name — each call's target and each
 * address-shaped 32-byte word of its arguments (a router's path, a vault's `receiver`, a token to
 * approve) that answers `balanceOf` on the destination chain. Sweeping a token with a zero balance
 * costs one `balanceOf` and nothing else.
 *
 * A token a call can output without naming it anywhere in the calldata cannot be found this way: a
 * router taking packed, non-ABI calldata (no selector, addresses as 20-byte runs) sends its output to
 * the Multicaller and nothing in the calldata says which token. So calls whose calldata is not
 * ABI-shaped — empty, or a 4-byte selector and whole 32-byte words (length 4 + 32·k) — are refused
 * (`unlistableCall`): INVALID_REQUEST, 400, naming the call. Calls are refused too when their
 * candidates cannot all be checked (more than `MAX_CALL_TOKEN_CANDIDATES`) or would make the sweep
 * list too long (`MAX_SWEEP_TOKENS`). Pure parts here; the one chain read is `readCallOutputs`.
 */
import { erc20Abi, toHex, type Hex, type PublicClient } from "viem";
import { isUnsupportedMethod } from "../chains/rpcErrors.ts";
import { ServiceError } from "../errors/serviceError.ts";
import type { IntentCall } from "../model/quotedIntent.ts";
import { canonicalAddress, ZERO_ADDRESS, type Address } from "../model/values.ts";

/** The most tokens an intent sweeps (the destination currency included): each costs the fill a `balanceOf` (~2.6k gas) and a transfer when non-zero. */
export const MAX_SWEEP_TOKENS = 16;
/** The most distinct addresses the calls may name (targets and address-shaped words): each costs the quote one `eth_call`. */
export const MAX_CALL_TOKEN_CANDIDATES = 48;

/** Words below this are amounts, flags or offsets rather than addresses (an address is a 160-bit hash or a precompile-free deployment). */
const SMALLEST_ADDRESS = 1n << 64n;

/**
 * The addresses the calls name, canonical (lowercase), in first-seen order, without `exclude` (the
 * destination currency, the Multicaller, the zero address): each call's `to`, then each 32-byte word
 * of its arguments (after the 4-byte selector) whose upper 12 bytes are zero and whose value is at
 * least 2^64.
 */
export function callTokenCandidates(calls: readonly Pick<IntentCall, "to" | "data">[], exclude: readonly Address[]): Address[] {
  const skip = new Set<string>([ZERO_ADDRESS, ...exclude]);
  const seen = new Set<string>();
  const out: Address[] = [];
  const add = (address: string) => {
    if (skip.has(address) || seen.has(address)) return;
    seen.add(address);
    out.push(canonicalAddress(address));
  };
  for (const call of calls) {
    add(call.to);
    const args = call.data.slice(10);
    for (let i = 0; i + 64 <= args.length; i += 64) {
      const word = args.slice(i, i + 64);
      if (!word.startsWith("000000000000000000000000")) continue;
      const value = BigInt(`0x${word}`);
      if (value >= SMALLEST_ADDRESS) add(`0x${word.slice(24)}`);
    }
  }
  return out;
}

/**
 * The index of the first call whose calldata is not ABI-shaped (not empty, and not a 4-byte selector
 * followed by whole 32-byte words), or -1: what such a call outputs cannot be listed from its calldata.
 */
export function unlistableCall(calls: readonly Pick<IntentCall, "data">[]): number {
  return calls.findIndex((call) => {
    const bytes = (call.data.length - 2) / 2;
    return bytes !== 0 && (bytes < 4 || (bytes - 4) % 32 !== 0);
  });
}

/**
 * The sweep list of an intent with these calls: the destination currency (an ERC-20) first, then each
 * candidate the destination chain answers `balanceOf(multicaller)` for with a uint256 (an ERC-20 or an
 * ERC-4626 vault's shares; an account without code or a contract without that function is not a
 * token). INVALID_REQUEST when a call's calldata is not ABI-shaped, or the calls name too many
 * addresses or tokens; a read that fails for
 * another reason than "not a token" propagates (the caller answers CHAIN_UNAVAILABLE).
 */
export async function readCallOutputs(
  client: Pick<PublicClient, "readContract">,
  args: { calls: readonly Pick<IntentCall, "to" | "data">[]; destinationCurrency: Address; multicaller: Address },
): Promise<Address[]> {
  const packed = unlistableCall(args.calls);
  if (packed >= 0) {
    const bytes = (args.calls[packed]!.data.length - 2) / 2;
    throw new ServiceError(
      "INVALID_REQUEST",
      `body/txs/${packed}: the call's calldata is not ABI-encoded (${bytes} bytes, not a 4-byte selector and 32-byte words): a token it sends to the Multicaller could not be listed for the sweep to the refund recipient`,
    );
  }
  const base = args.destinationCurrency === ZERO_ADDRESS ? [] : [args.destinationCurrency];
  const candidates = callTokenCandidates(args.calls, [args.destinationCurrency, args.multicaller]);
  if (candidates.length > MAX_CALL_TOKEN_CANDIDATES) {
    throw new ServiceError("INVALID_REQUEST", `body/txs: the calls name ${candidates.length} addresses; at most ${MAX_CALL_TOKEN_CANDIDATES} can be checked for tokens the calls may leave behind`);
  }
  const isToken = await Promise.all(candidates.map((address) => answersBalanceOf(client, address, args.multicaller)));
  const tokens = [...base, ...candidates.filter((_, i) => isToken[i])];
  if (tokens.length > MAX_SWEEP_TOKENS) {
    throw new ServiceError("INVALID_REQUEST", `body/txs: the calls can leave ${tokens.length} different tokens behind; at most ${MAX_SWEEP_TOKENS} can be swept to the refund recipient`);
  }
  return tokens;
}

/** Whether `address` answers `balanceOf(holder)` with a uint256 (a revert or empty return data: no). */
async function answersBalanceOf(client: Pick<PublicClient, "readContract">, address: Address, holder: Address): Promise<boolean> {
  try {
    await client.readContract({ address, abi: erc20Abi, functionName: "balanceOf", args: [holder] });
    return true;
  } catch (error) {
    if (isNotAToken(error)) return false;
    throw error;
  }
}

/** viem's answer for a call that reverted or returned no/short data: the address is not a token. */
function isNotAToken(error: unknown): boolean {
  for (let e = error as { name?: string; cause?: unknown } | undefined; e; e = e.cause as typeof e) {
    if (e.name === "ContractFunctionRevertedError" || e.name === "ContractFunctionZeroDataError" || e.name === "AbiDecodingZeroDataError" || e.name === "AbiDecodingDataSizeTooSmallError") return true;
  }
  return false;
}

/** `Transfer(address indexed from, address indexed to, uint256 value)`: the ERC-20 (and ERC-4626 shares) transfer event. */
export const TRANSFER_TOPIC = "0xddf252ad1be2c89b69c2b068fc378daa952ba7f163c4a11628f55a4df523b3ef";

/** One frame of `debug_traceCall`'s `callTracer` output with `{ withLog: true }` (the fields read here). */
export type CallFrame = {
  error?: string;
  calls?: readonly CallFrame[];
  logs?: readonly { address: string; topics?: readonly string[]; data?: string }[];
};

/**
 * The tokens that emitted an ERC-20 `Transfer(from, to, value)` to `holder` anywhere in a traced call
 * (canonical, first-seen order, deduplicated), from frames that did not revert (a reverted frame's logs
 * never happened). An ERC-721 `Transfer` has a 4th topic (the indexed id) and is not counted.
 */
export function tokensTransferredTo(frame: CallFrame, holder: Address): Address[] {
  const to = `0x${"0".repeat(24)}${holder.slice(2)}`;
  const out: Address[] = [];
  const walk = (f: CallFrame) => {
    if (f.error) return;
    for (const log of f.logs ?? []) {
      const topics = log.topics ?? [];
      if (topics.length !== 3 || topics[0]?.toLowerCase() !== TRANSFER_TOPIC || topics[2]?.toLowerCase() !== to) continue;
      const token = canonicalAddress(log.address);
      if (!out.includes(token)) out.push(token);
    }
    for (const call of f.calls ?? []) walk(call);
  };
  walk(frame);
  return out;
}

/** The sweep list extended by `traced` (deduplicated, order kept); INVALID_REQUEST past `MAX_SWEEP_TOKENS`. */
export function withTracedOutputs(sweepTokens: readonly Address[], traced: readonly Address[]): Address[] {
  const tokens = [...sweepTokens];
  for (const token of traced) if (token !== ZERO_ADDRESS && !tokens.includes(token)) tokens.push(token);
  if (tokens.length > MAX_SWEEP_TOKENS) {
    throw new ServiceError("INVALID_REQUEST", `body/txs: the calls can leave ${tokens.length} different tokens behind; at most ${MAX_SWEEP_TOKENS} can be swept to the refund recipient`);
  }
  return tokens;
}

/** A client that can send `debug_traceCall` (viem's `request`, untyped for this non-standard method). */
export type TraceClient = { request(args: { method: string; params: readonly unknown[] }): Promise<unknown> };

/**
 * The tokens the fill transaction `tx` (sent by `from`) transfers to `multicaller`, from one
 * `debug_traceCall` with the `callTracer` and `{ withLog: true }` at the latest block. `"unsupported"`
 * when the node has no such method or tracer (the caller keeps the calldata scan); `"reverted"` when
 * the simulated fill reverts (the fill-time checks decide; the caller keeps the scan). Other errors
 * propagate.
 */
export async function traceCallOutputs(
  client: TraceClient,
  args: { from: Address; tx: { to: Address; data: Hex; value: bigint }; multicaller: Address },
): Promise<Address[] | "unsupported" | "reverted"> {
  let frame: CallFrame;
  try {
    frame = (await client.request({
      method: "debug_traceCall",
      params: [{ from: args.from, to: args.tx.to, data: args.tx.data, value: toHex(args.tx.value) }, "latest", { tracer: "callTracer", tracerConfig: { withLog: true } }],
    })) as CallFrame;
  } catch (error) {
    if (isUnsupportedMethod(error)) return "unsupported";
    throw error;
  }
  if (!frame || typeof frame !== "object") return "unsupported";
  if (frame.error) return "reverted";
  return tokensTransferredTo(frame, args.multicaller);
}

