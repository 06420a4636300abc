/** A readiness check that a chain's RPC answers and serves the configured chain id. */
import { createPublicClient, http } from "viem";
import type { ChainConfig } from "../config/configSchema.ts";
import type { ReadinessCheck } from "./routes/ready.ts";

export function rpcReadinessCheck(chain: Pick<ChainConfig, "id" | "name" | "rpcUrl">): ReadinessCheck {
  const client = createPublicClient({ transport: http(chain.rpcUrl, { retryCount: 0, timeout: 1_500 }) });
  return {
    name: `rpc:${chain.name}`,
    check: async () => {
      const chainId = await client.getChainId();
      if (chainId !== chain.id) throw new Error(`RPC serves chain ${chainId}, expected ${chain.id}`);
    },
  };
}
