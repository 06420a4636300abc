/**
 * Watches every configured Depository's allocator — the key whose signature releases every payout.
 * The owner can replace it only after a 2-day delay (`proposeAllocator` → `AllocatorChangeProposed`
 * → `applyAllocator`, or `cancelAllocatorChange`), a window meant for exactly this: noticing a change
 * the operator did not make (a leaked owner key) and refunding open deposits with the current
 * allocator before it takes effect (docs/security.md).
 *
 * Each check reads the Depository's state — `allocator()` and `pendingAllocatorChange()` — rather than
 * scanning for the three events: the state is what the events announce, one read per chain cannot
 * miss a change across restarts, reorgs or a log-range limit, and it shows a change made before the
 * service started. Per chain:
 * - a pending change → `ferry_depository_allocator_change_eta_seconds{…, new_allocator, expected}` = its
 *   eta, and an alert once per proposal: error level when the proposed allocator is not the service's
 *   configured one (`expected="false"`), warn level when it is; cleared when cancelled or applied;
 * - the allocator in force is not the service's → `ferry_depository_allocator_mismatch` = 1 and an
 *   error-level alert once per allocator: every payout the service signs reverts (SignerNotAllocator)
 *   until the configuration or the Depository is fixed.
 */
import type { Address } from "viem";
import { depositoryAbi } from "../../abi/Depository.ts";
import type { ChainClient } from "../chains/chainClients.ts";
import { errorFields } from "../logging/logger.ts";
import { canonicalFields, ZERO_ADDRESS } from "../model/values.ts";
import type { SolverContext } from "./solverContext.ts";

export type AllocatorWatch = { check(): Promise<void> };

export function createAllocatorWatch(ctx: SolverContext): AllocatorWatch {
  const expected = ctx.allocator.address;
  // What was last seen and reported per chain: alerts fire on changes, gauges follow the state.
  const pending = new Map<number, { newAllocator: Address; eta: number; labels: Record<string, string> }>();
  const mismatched = new Map<number, Address>();

  const checkChain = async (client: ChainClient) => {
    const chainId = client.config.id;
    const depository = client.config.contracts.depository;
    const [allocator, [proposed, etaRaw]] = await Promise.all([
      client.publicClient.readContract({ address: depository, abi: depositoryAbi, functionName: "allocator" }),
      client.publicClient.readContract({ address: depository, abi: depositoryAbi, functionName: "pendingAllocatorChange" }),
    ]);
    const base = { chain_id: String(chainId), depository };
    const read = canonicalFields({ allocator, proposed });
    const newAllocator = read.proposed;
    const eta = Number(etaRaw);

    const previous = pending.get(chainId);
    if (previous && (previous.newAllocator !== newAllocator || previous.eta !== eta)) {
      ctx.metrics.allocatorChangeEta.remove(previous.labels);
      pending.delete(chainId);
      ctx.log.warn({ chainId, depository, newAllocator: previous.newAllocator }, "the Depository's pending allocator change is gone (applied or cancelled)");
    }
    if (newAllocator !== ZERO_ADDRESS && !pending.has(chainId)) {
      const ours = newAllocator === expected;
      const labels = { ...base, new_allocator: newAllocator, expected: String(ours) };
      ctx.metrics.allocatorChangeEta.set(labels, eta);
      pending.set(chainId, { newAllocator, eta, labels });
      const fields = { ...base, chainId, newAllocator, eta, expected: ours, allocator: expected };
      if (ours) ctx.log.warn(fields, "allocator change proposed on the Depository (to the service's configured allocator)");
      else ctx.log.error(fields, "ALLOCATOR CHANGE PROPOSED to an allocator that is not the service's: if the operator did not propose it, follow the incident playbook (refund open deposits before the eta)");
    }

    const onchain = read.allocator;
    ctx.metrics.allocatorMismatch.set(base, onchain === expected ? 0 : 1);
    if (onchain !== expected && mismatched.get(chainId) !== onchain) {
      ctx.log.error({ ...base, chainId, onchainAllocator: onchain, allocator: expected }, "the Depository's allocator is not the service's configured allocator: payouts it signs will revert");
    }
    if (onchain === expected) mismatched.delete(chainId);
    else mismatched.set(chainId, onchain);
  };

  return {
    async check() {
      for (const client of ctx.clients.all()) {
        try {
          await checkChain(client);
        } catch (error) {
          ctx.log.warn({ chainId: client.config.id, err: errorFields(error) }, "reading the Depository's allocator failed; retrying next check");
        }
      }
    },
  };
}
