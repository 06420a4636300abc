/** Requests with their outbox events, for the webhook tests. */
import type { Store } from "../../../ts/service/store/createStore.ts";
import { withIntent } from "../fixtures/testRequest.ts";
import { canonicalAddress, canonicalHex } from "../../../ts/service/model/values.ts";

const hex = (n: number, bytes = 32) => canonicalHex(`0x${n.toString(16).padStart(bytes * 2, "0")}`);

export type Lifecycle = Array<"pending" | "submitted" | "success" | "failure" | "refund">;

/** Request `n` (id = n as bytes32) of `keyId`, created `waiting` then moved through `statuses`. Even n: same-chain. */
export async function seedRequest(store: Store, n: number, keyId: string | null, statuses: Lifecycle = []): Promise<string> {
  const id = hex(n);
  await store.createRequest(withIntent({
    id,
    orderId: hex(100_000 + n),
    user: canonicalAddress(`0x${"aa".repeat(20)}`),
    recipient: canonicalAddress(`0x${"bb".repeat(20)}`),
    originChainId: 31337,
    destinationChainId: n % 2 === 0 ? 31337 : 31338,
    apiKeyId: keyId,
  }));
  for (const status of statuses) {
    const patch = status === "failure" ? { failReason: "SOLVER_CAPACITY_EXCEEDED" } : status === "submitted" ? { txHashes: [canonicalHex(`0x${"5f".repeat(32)}`)] } : {};
    await store.transitionRequest(id, status, patch);
  }
  return id;
}

