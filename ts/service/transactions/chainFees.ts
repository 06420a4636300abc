/**
 * The fee market of each chain (base fee of the latest block, the node's priority fee), read at most
 * once per `ttlMs` per chain and shared by every transaction sent meanwhile — at saturation a read per
 * transaction would double the solver's RPC round trips for no gain (the base fee moves once a block).
 * Concurrent callers share one read. The base fee comes from the chain's shared head
 * (../chains/chainHead.ts) — no call of its own while the head is fresh — and the priority fee is read
 * again only when the head has moved. EIP-1559 only: Ferry's contracts need Cancun opcodes, so every
 * chain it runs on has a base fee; a chain without one falls back to its gas price as the base fee.
 */
import type { ChainClients } from "../chains/chainClients.ts";
import type { MarketFees } from "./transactionFees.ts";

export type FeeOracle = { market(chainId: number): Promise<MarketFees> };

export const DEFAULT_FEE_TTL_MS = 1000;

export function createFeeOracle(clients: ChainClients, options: { ttlMs?: number; now?: () => number } = {}): FeeOracle {
  const ttlMs = options.ttlMs ?? DEFAULT_FEE_TTL_MS;
  const now = options.now ?? Date.now;
  const cache = new Map<number, { at: number; fees: Promise<MarketFees> }>();
  const priorities = new Map<number, { block: bigint; fee: Promise<bigint> }>();
  const priorityAt = (chainId: number, block: bigint): Promise<bigint> => {
    const known = priorities.get(chainId);
    if (known && known.block === block) return known.fee;
    const fee = clients.get(chainId).publicClient.request({ method: "eth_maxPriorityFeePerGas" }).then(BigInt, () => 0n);
    priorities.set(chainId, { block, fee });
    return fee;
  };
  const read = async (chainId: number): Promise<MarketFees> => {
    const { publicClient, head } = clients.get(chainId);
    const block = await head.latest();
    const priority = await priorityAt(chainId, block.number);
    return { baseFeePerGas: block.baseFeePerGas ?? (await publicClient.getGasPrice()), priorityFeePerGas: priority };
  };
  return {
    market(chainId) {
      const cached = cache.get(chainId);
      if (cached && now() - cached.at < ttlMs) return cached.fees;
      const fees = read(chainId);
      cache.set(chainId, { at: now(), fees });
      // A failed read is not cached.
      fees.catch(() => {
        if (cache.get(chainId)?.fees === fees) cache.delete(chainId);
      });
      return fees;
    },
  };
}
