/**
 * A block's time, from the chain's shared head (./chainHead.ts `recent`) when the head saw that very
 * block — the same number and hash — and read from the chain otherwise. A subscribed head sees every
 * block, so the time of a fill's or a payout's block is usually known without a call; a block the head
 * did not see, or saw with another hash (a reorg since), is read.
 */
import type { Bytes32 } from "../model/values.ts";
import type { ChainClient } from "./chainClients.ts";

export async function blockTime(client: Pick<ChainClient, "head" | "publicClient">, number: bigint, hash: Bytes32): Promise<bigint> {
  const seen = client.head.recent(number);
  if (seen && seen.hash === hash) return seen.timestamp;
  return (await client.publicClient.getBlock({ blockNumber: number })).timestamp;
}
