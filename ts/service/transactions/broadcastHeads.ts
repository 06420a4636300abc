/**
 * The head each nonce's latest attempt was broadcast after, remembered by the nonce manager
 * (./nonceManager.ts) so that `follow` asks the chain nothing while no block newer than the broadcast
 * has been pushed: a transaction cannot be in a block the process already knew of before it sent it,
 * so until the chain's pushed head moves past that block its receipt cannot exist, and the nonce and
 * the mempool have nothing new to say. Before, each fill and payout was followed right after its send
 * (the step confirms at once when the receipt is already there: automine) and found nothing at the
 * cost of its receipt, the chain's nonce and the transaction (3 calls; issue 26: RPC calls per intent).
 *
 * And where heads are polled too, an attempt this process broadcast at most YOUNG_BLOCKS blocks ago
 * that has no receipt yet is `pending` after its receipt read alone: a healthy transaction lands within
 * them, so the chain's nonce (was it taken by another transaction?) and the mempool (was it dropped?)
 * are asked only once it is older — a fault is found a block or two later, at 1 call per look instead of 3.
 *
 * The skip without any read holds only where heads are pushed (`eth_subscribe("newHeads")`, ../chains/chainHead.ts): a polled head is
 * only as new as its last read, and on a chain that mines per transaction the receipt is there before
 * any read sees its block. A subscription that went silent falls back to polling in `latest()`, which
 * ends the skipping. Memory only, per process: after a restart, or in another replica, a nonce is
 * followed with reads as before. Bounded: past `max` entries the least recently used is forgotten (it is then read).
 */
import { LRUCache } from "lru-cache";
import type { Bytes32 } from "../model/values.ts";

/** A nonce's latest attempt: its hash, how many attempts it has, and the newest block known when it was sent. */
export type Broadcast = { hash: Bytes32; attempts: number; afterBlock: bigint };

export type BroadcastHeads = {
  note(key: string, broadcast: Broadcast): void;
  get(key: string): Broadcast | undefined;
  forget(key: string): void;
};

export const DEFAULT_BROADCAST_HEADS_MAX = 10_000;

export function createBroadcastHeads(max = DEFAULT_BROADCAST_HEADS_MAX): BroadcastHeads {
  const entries = new LRUCache<string, Broadcast>({ max });
  return {
    note: (key, broadcast) => void entries.set(key, broadcast),
    get: (key) => entries.get(key),
    forget: (key) => void entries.delete(key),
  };
}

/** Whether a nonce broadcast after `broadcast.afterBlock` can have news at a pushed head `head`: only above it. */
export function mayHaveNews(broadcast: Broadcast | undefined, head: bigint): boolean {
  return broadcast === undefined || head > broadcast.afterBlock;
}

/** Blocks after its broadcast during which a transaction without a receipt is not looked for elsewhere. */
export const YOUNG_BLOCKS = 2n;

/** Whether a transaction broadcast after `broadcast.afterBlock` is still within its first blocks at head `head`. */
export function stillYoung(broadcast: Broadcast, head: bigint): boolean {
  return head <= broadcast.afterBlock + YOUNG_BLOCKS;
}
