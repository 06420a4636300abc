/**
 * Log reads over a block span that survive real providers: the span is read in pieces of at most the
 * chain's `maxLogRange` blocks, and a piece the provider refuses as too large or too many results
 * (../../chains/rpcErrors.ts isLogRangeError — Alchemy, Infura, QuickNode, geth … shapes) is halved and
 * read again, down to one block. The span learnt is kept per chain client for the process, so the
 * next scan starts at what the provider accepted; after 20 accepted pieces in a row it tries twice the
 * span again (never beyond `maxLogRange`: providers' limits change, and results per range vary).
 * Every scan in the solver goes through here: deposits, `Filled`, `RequestExecuted`.
 */
import type { AbiEvent, Address, Log } from "viem";
import type { ChainClient } from "../../chains/chainClients.ts";
import { decodeLog, type DecodedLog } from "../../chains/decodeLog.ts";
import { canonicalFields, type Bytes32 } from "../../model/values.ts";
import { isLogRangeError } from "../../chains/rpcErrors.ts";
import { firstPiece, halvedSpan } from "./blockRange.ts";

const learnt = new WeakMap<ChainClient, { span: number; accepted: number }>();
/** Accepted pieces in a row before the span is tried twice as large again. */
const GROW_AFTER = 20;

/** The span a scan on this chain starts with now. */
export function currentLogSpan(client: ChainClient): number {
  return learnt.get(client)?.span ?? client.config.maxLogRange;
}

/**
 * `address`: one emitter, or a set of them (one request for all: e.g. every watched token's Transfer);
 * `event`: one event, or several read in one request (e.g. both deposit events).
 */
export type LogQuery = { address: Address | readonly Address[]; event: AbiEvent | readonly AbiEvent[]; args?: Record<string, unknown> };

/** Every log of `query` in [fromBlock, toBlock], in block order. */
export async function scanLogs(client: ChainClient, query: LogQuery, fromBlock: bigint, toBlock: bigint): Promise<Log[]> {
  const logs: Log[] = [];
  let from = fromBlock;
  while (from <= toBlock) {
    const piece = await readPiece(client, query, from, toBlock);
    logs.push(...piece.logs);
    from = piece.toBlock + 1n;
  }
  return logs;
}

/** A mined log of a scan: its event's arguments decoded canonical (with `emitter`), its place, its transaction's hash canonical. */
export type ScannedEvent<E extends AbiEvent> = { args: DecodedLog<[E]>; transactionHash: Bytes32; blockNumber: bigint; logIndex: number };

/**
 * `scanLogs`, each log decoded as `query.event` by the chains room's decoder (../../chains/decodeLog.ts):
 * what a caller compares with `===` without normalising. A log that does not decode strictly is left out.
 */
export async function scanEvents<const E extends AbiEvent>(client: ChainClient, query: Omit<LogQuery, "event"> & { event: E }, fromBlock: bigint, toBlock: bigint): Promise<ScannedEvent<E>[]> {
  const events: ScannedEvent<E>[] = [];
  for (const log of await scanLogs(client, query, fromBlock, toBlock)) {
    const args = decodeLog([query.event] as [E], log);
    if (args === undefined || log.transactionHash === null || log.blockNumber === null || log.logIndex === null) continue;
    events.push({ args, ...canonicalFields({ transactionHash: log.transactionHash }), blockNumber: log.blockNumber, logIndex: log.logIndex });
  }
  return events;
}

/**
 * Reads backwards from `toBlock`, piece by piece, until `found` returns a log or the piece read starts
 * at or before `stopAt` (a block before which the log cannot be). Returns the first log found, newest piece first.
 */
export async function findLogBackwards(client: ChainClient, query: LogQuery, toBlock: bigint, stopAt: (pieceStart: bigint) => Promise<boolean>): Promise<Log | null> {
  let to = toBlock;
  while (to >= 0n) {
    const span = BigInt(currentLogSpan(client));
    const from = to - span + 1n > 0n ? to - span + 1n : 0n;
    const piece = await readPiece(client, query, from, to);
    // A refused piece was read in smaller pieces forward from `from`: all of [from, to] is covered only when it reached `to`.
    const logs = piece.toBlock >= to ? piece.logs : await scanLogs(client, query, from, to);
    if (logs.length > 0) return logs[0]!;
    if (from === 0n || (await stopAt(from))) return null;
    to = from - 1n;
  }
  return null;
}

async function readPiece(client: ChainClient, query: LogQuery, from: bigint, toBlock: bigint): Promise<{ logs: Log[]; toBlock: bigint }> {
  let span = currentLogSpan(client);
  for (;;) {
    const piece = firstPiece(from, toBlock, span);
    try {
      const logs = (await client.publicClient.getLogs({
        address: query.address,
        ...(Array.isArray(query.event) ? { events: query.event } : { event: query.event }),
        ...(query.args && { args: query.args }),
        fromBlock: piece.fromBlock,
        toBlock: piece.toBlock,
      } as Parameters<ChainClient["publicClient"]["getLogs"]>[0])) as Log[];
      const state = learnt.get(client);
      if (state) {
        state.accepted += 1;
        if (state.accepted >= GROW_AFTER) learnt.set(client, { span: Math.min(client.config.maxLogRange, state.span * 2), accepted: 0 });
      }
      return { logs, toBlock: piece.toBlock };
    } catch (error) {
      if (!isLogRangeError(error) || piece.fromBlock === piece.toBlock) throw error;
      span = halvedSpan(span, piece);
      learnt.set(client, { span, accepted: 0 });
    }
  }
}
