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

/**
 * `store` with every method call recorded by name in `calls` (what the idle-loop tests count). A work
 * list read with its leases adds one "claimedWork" per request the loop got, and a step that starts from
 * the listing's read of its request (instead of `getStepRequest`) adds "listedRead".
 */
export function countingStore(store: Store): { store: Store; calls: string[] } {
  const calls: string[] = [];
  const counted = new Proxy(store, {
    get(target, key, receiver) {
      const value = Reflect.get(target, key, receiver);
      if (typeof value !== "function") return value;
      return (...args: unknown[]) => {
        calls.push(String(key));
        const result = value.apply(target, args);
        if (key === "claimSolverWork") {
          return (result as ReturnType<Store["claimSolverWork"]>).then((items) => {
            calls.push(...items.map(() => "claimedWork"));
            return onListedReads(items, () => calls.push("listedRead"));
          });
        }
        return result;
      };
    },
  });
  return { store: counted, calls };
}

/** `store` calling `onRead(requestId)` for each solver step's first read: `getStepRequest`, or the listing's read the step started from. */
export function stepReadsOf(store: Store, onRead: (requestId: string) => void): Store {
  return {
    ...store,
    getStepRequest: (id) => (onRead(String(id)), store.getStepRequest(id)),
    claimSolverWork: async (...args) => onListedReads(await store.claimSolverWork(...args), onRead),
  };
}

/** Listed work items whose step's first read (`read()`) calls `onRead(requestId)` first. */
function onListedReads<T extends { id: string; read(): unknown }>(items: T[], onRead: (requestId: string) => void): T[] {
  return items.map((item) => ({ ...item, read: () => (onRead(item.id), item.read()) }));
}
