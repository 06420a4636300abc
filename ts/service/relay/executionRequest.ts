/**
 * The request record of an execution relayed without a quote (smart-account use: POST /execute with no
 * `requestId`), so it is followed like any request — status, GET /requests/v2, websocket, webhooks (the
 * outbox) — from the moment /execute answers:
 *
 * - created in the relayer's nonce store transaction (./relayExecution.ts), with the transaction it
 *   names: `depositing`, the relayed hash in `inTxHashes`;
 * - ended by the relay follower (./relayer.ts) from what became of that transaction: mined and
 *   succeeded → `success`; reverted → `failure`; its nonce taken by another transaction → `failure`.
 *   `data.inTxs` then holds the mined transaction (fee, block, status). Under the request's lock and
 *   only from `depositing`, so a follower pass repeated after a crash ends it once.
 *
 * It has no solver state (no intent): the solver's work list never takes it, and a `failure` shows as
 * such (there is no deposit, so no refund is coming: ../model/publicStatus.ts).
 */
import type { ChainClient } from "../chains/chainClients.ts";
import type { NewRequest } from "../model/storedRequest.ts";
import type { Address, Bytes32 } from "../model/values.ts";
import { onchainTxOf } from "../solver/chainReads.ts";
import type { Store } from "../store/createStore.ts";
import type { FollowResult } from "../transactions/nonceManager.ts";

/**
 * The new request: on the call's chain (origin = destination), the call's target as user and recipient
 * (the smart account, the EIP-7702 EOA, or the EntryPoint it is sent to), the app's key, no solver state.
 */
export function executionRequest(requestId: Bytes32, submission: { chainId: number; to: Address; apiKeyId: string }, txHash: Bytes32): NewRequest {
  return {
    id: requestId,
    // No order: the requestId stands in (a keccak of the call, it names no order a Depository emits).
    orderId: requestId,
    status: "depositing",
    user: submission.to,
    recipient: submission.to,
    originChainId: submission.chainId,
    destinationChainId: submission.chainId,
    inTxHashes: [txHash],
    data: {},
    solver: null,
    apiKeyId: submission.apiKeyId,
    originBlock: null,
  };
}

/** Ends the execution's request from its transaction's end; false when there is none to end (a quote's request, or already ended). */
export async function endExecutionRequest(store: Store, client: ChainClient, requestId: Bytes32, result: Exclude<FollowResult, { state: "pending" }>): Promise<boolean> {
  const inTx = result.state === "mined" ? await onchainTxOf(client, result.receipt, result.transaction) : null;
  return store.transaction(async (tx) => {
    const request = await tx.lockRequest(requestId);
    if (!request || request.solver !== null || request.status !== "depositing") return false;
    if (inTx && inTx.status === "success") {
      await tx.transitionRequest(requestId, "success", { inTxHashes: [inTx.hash], data: { inTxs: [inTx] } });
    } else {
      await tx.transitionRequest(requestId, "failure", {
        ...(inTx && { inTxHashes: [inTx.hash], data: { inTxs: [inTx], failedTxHash: inTx.hash, failedTxBlockNumber: inTx.block } }),
        details: inTx ? { reason: "the relayed transaction reverted" } : { reason: "the relayed transaction's nonce was taken by another transaction: it never ran" },
      });
    }
    return true;
  });
}
