/**
 * Prometheus metrics of chain reading, on the process's registry (GET /metrics): per RPC URL (labelled
 * by its index and redacted URL — never a path or query, where API keys live), per chain for the
 * indexer. Created once per process (server.ts) and handed to the chain clients and the solver; a
 * process without metrics passes none and nothing is recorded.
 *
 *   ferry_rpc_requests_total{chain_id, rpc, outcome}   calls per URL: ok | error (the URL failed) | answered_error (the node refused the request itself)
 *   ferry_rpc_errors_total{chain_id, rpc, kind}        URL failures: timeout | http | rpc | malformed (an answer no node gives) | stale (answered with a head or "not found" far behind the others)
 *   ferry_rpc_head_block{chain_id, rpc}                each URL's last reported head
 *   ferry_rpc_up{chain_id, rpc}                        1 while a URL is neither cooling down after failures nor stale
 *   ferry_indexer_head_block{chain_id}                 the chain's head as last read
 *   ferry_indexer_final_block{chain_id}                the newest block treated as final (confirmations / finality tag)
 *   ferry_indexer_checkpoint_block{chain_id}           the last block the deposit indexer has processed
 *   ferry_indexer_lag_blocks{chain_id}                 head − checkpoint
 *   ferry_chain_reorgs_total{chain_id, kind}           reorgs seen: shallow (above the final block) | deep (a final block changed)
 *   ferry_chain_reorg_depth_blocks{chain_id}           histogram of reorg depths (blocks dropped)
 *   ferry_chain_deep_reorg_alert{chain_id}             1 while the chain's indexing is halted after a deep reorg (an operator must act)
 */
import { Counter, Gauge, Histogram, type Registry } from "prom-client";

export type ChainMetrics = {
  rpcRequests: Counter<"chain_id" | "rpc" | "outcome">;
  rpcErrors: Counter<"chain_id" | "rpc" | "kind">;
  rpcHead: Gauge<"chain_id" | "rpc">;
  rpcUp: Gauge<"chain_id" | "rpc">;
  indexerHead: Gauge<"chain_id">;
  indexerFinal: Gauge<"chain_id">;
  indexerCheckpoint: Gauge<"chain_id">;
  indexerLag: Gauge<"chain_id">;
  reorgs: Counter<"chain_id" | "kind">;
  reorgDepth: Histogram<"chain_id">;
  deepReorgAlert: Gauge<"chain_id">;
};

export function createChainMetrics(registry: Registry): ChainMetrics {
  const registers = [registry];
  return {
    rpcRequests: new Counter({ name: "ferry_rpc_requests_total", help: "RPC calls per URL and outcome", labelNames: ["chain_id", "rpc", "outcome"], registers }),
    rpcErrors: new Counter({ name: "ferry_rpc_errors_total", help: "RPC URL failures (timeout, http, rpc, malformed, stale)", labelNames: ["chain_id", "rpc", "kind"], registers }),
    rpcHead: new Gauge({ name: "ferry_rpc_head_block", help: "Each RPC URL's last reported head", labelNames: ["chain_id", "rpc"], registers }),
    rpcUp: new Gauge({ name: "ferry_rpc_up", help: "1 while an RPC URL is neither cooling down nor stale", labelNames: ["chain_id", "rpc"], registers }),
    indexerHead: new Gauge({ name: "ferry_indexer_head_block", help: "The chain's head as last read by the indexer", labelNames: ["chain_id"], registers }),
    indexerFinal: new Gauge({ name: "ferry_indexer_final_block", help: "The newest block treated as final", labelNames: ["chain_id"], registers }),
    indexerCheckpoint: new Gauge({ name: "ferry_indexer_checkpoint_block", help: "The last block the deposit indexer processed", labelNames: ["chain_id"], registers }),
    indexerLag: new Gauge({ name: "ferry_indexer_lag_blocks", help: "Head minus the indexer's checkpoint", labelNames: ["chain_id"], registers }),
    reorgs: new Counter({ name: "ferry_chain_reorgs_total", help: "Reorgs seen: shallow (above the final block) or deep (a final block changed)", labelNames: ["chain_id", "kind"], registers }),
    reorgDepth: new Histogram({
      name: "ferry_chain_reorg_depth_blocks",
      help: "Blocks dropped by each reorg seen",
      labelNames: ["chain_id"],
      buckets: [1, 2, 3, 5, 8, 13, 21, 34, 64, 128],
      registers,
    }),
    deepReorgAlert: new Gauge({
      name: "ferry_chain_deep_reorg_alert",
      help: "1 while the chain's indexing is halted after a reorg deeper than its confirmation depth",
      labelNames: ["chain_id"],
      registers,
    }),
  };
}
