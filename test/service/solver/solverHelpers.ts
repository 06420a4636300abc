/** Helpers of the solver tests: tick until a status, count Filled logs, read the stored payout, count store calls. */
import type { Hex } from "viem";
import { attestedReceiverAbi } from "../../../ts/abi/AttestedReceiver.ts";
import type { DevnetChain } from "../../../ts/devnet/devnetChain.ts";
import type { Store } from "../../../ts/service/store/createStore.ts";
import type { StoredRequest } from "../../../ts/service/model/storedRequest.ts";
import type { TwoChains } from "./twoChains.ts";
import { canonicalAddress } from "../../../ts/service/model/values.ts";

export async function tickUntil(
  solver: { tick(): Promise<void> },
  store: Store,
  requestId: string,
  done: (r: StoredRequest) => boolean,
  maxTicks = 20,
): Promise<StoredRequest> {
  let request: StoredRequest | null = null;
  for (let i = 0; i < maxTicks; i++) {
    await solver.tick();
    request = await store.getRequest(canonicalAddress(requestId.toLowerCase()));
    if (request && done(request)) return request;
  }
  throw new Error(`request ${requestId} never got there: ${JSON.stringify(request && { status: request.status, failReason: request.failReason, data: request.data })}`);
}

export async function waitFor<T>(read: () => Promise<T | undefined | null | false>, timeoutMs: number, what: string): Promise<T> {
  const start = Date.now();
  for (;;) {
    const value = await read().catch(() => undefined);
    if (value) return value;
    if (Date.now() - start > timeoutMs) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

/** The receiver's Filled logs for `requestId` on the destination chain. */
export async function filledLogs(env: TwoChains, requestId: Hex) {
  const receiver = env.config.chains.find((c) => c.id === env.destination.chainId)!.contracts.attestedReceiver;
  return env.destination.publicClient.getLogs({
    address: receiver,
    event: attestedReceiverAbi.find((i) => i.type === "event" && i.name === "Filled")!,
    args: { requestId },
    fromBlock: 0n,
    toBlock: "latest",
  });
}

export function depository(env: TwoChains, chain: DevnetChain) {
  return env.config.chains.find((c) => c.id === chain.chainId)!.contracts.depository;
}

/** `store` with every method call recorded by name in `calls` (what the idle-loop tests count). */
export function countingStore(store: Store): { store: Store; calls: string[] } {
  const calls: string[] = [];
  const counted = new Proxy(store, {
    get(target, key, receiver) {
      const value = Reflect.get(target, key, receiver);
      if (typeof value !== "function") return value;
      return (...args: unknown[]) => {
        calls.push(String(key));
        const result = value.apply(target, args);
        // A work list read with its leases: one "claimedWork" per request the loop got (and steps).
        if (key === "claimSolverWork") return (result as Promise<unknown[]>).then((items) => (calls.push(...items.map(() => "claimedWork")), items));
        return result;
      };
    },
  });
  return { store: counted, calls };
}
