/** A readiness check that a chain's RPC answers and serves the configured chain id (through the process's client). */
import type { PublicClient } from "viem";
import type { ChainConfig } from "../config/configSchema.ts";
import { ServiceError } from "../errors/serviceError.ts";
import type { ReadinessCheck } from "./routes/ready.ts";

export function rpcReadinessCheck(client: { config: Pick<ChainConfig, "id" | "name">; publicClient: PublicClient }): ReadinessCheck {
  const { config, publicClient } = client;
  return {
    name: `rpc:${config.name}`,
    check: async () => {
      const chainId = await publicClient.getChainId();
      if (chainId !== config.id) throw new ServiceError("CHAIN_UNAVAILABLE", `RPC serves chain ${chainId}, expected ${config.id}`);
    },
  };
}
