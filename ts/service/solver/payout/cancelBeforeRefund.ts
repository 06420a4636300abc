/**
 * Before a refund: make sure no fill of the request can still land, so `filled(requestId)` is
 * definitive before money leaves the Depository.
 *
 * The service's signed v2 attestation is not secret (GET /requests/{id}/signature hands it out, and a
 * fill of the solver's may sit in a mempool): until the fill deadline has passed on the destination,
 * anyone holding it can fill. So while the destination's latest block time is ≤ the deadline, the
 * attester calls `cancel(requestId)` on the receiver (`filledDigest` becomes bytes32(1): every later
 * fill reverts RequestCancelled) and the refund waits for that cancel to be mined. Once the deadline
 * has passed (latest block time > deadline, the receiver rejects time > deadline) no fill can land
 * and no cancel is needed.
 *
 * Sent from the attester's key, not the solver's: outside the nonce manager (../sendTransaction.ts
 * `sendRecordedFrom`), with the gas cap. Resumable like every step: the cancel's hash is stored (`solver.cancel`) before its broadcast; a
 * stored hash still in the mempool is waited for; a reverted or lost one is decided by the receiver's
 * state. A request already cancelled (by an operator) needs nothing. A request found filled is never
 * refunded: the caller checks the fill (./repayAndRefund.ts). An attester the receiver does not list
 * (SignerNotAllowed) cannot have signed a fill it accepts: nothing to cancel. The attester pays the
 * cancel's gas: it needs the destination's native currency (a few tens of thousands of gas per refund).
 */
import { encodeFunctionData, type Hex } from "viem";
import { attestedReceiverAbi } from "../../../abi/AttestedReceiver.ts";
import type { ChainClient } from "../../chains/chainClients.ts";
import { KeyNotConfiguredError } from "../../chains/serviceAccounts.ts";
import { requireSolverState, type StoredRequest } from "../../model/storedRequest.ts";
import type { Bytes32 } from "../../model/values.ts";
import { filledDigestOf, receiptOrNull, transactionKnown } from "../chainReads.ts";
import { decodeRevert, isRevert, revertDataOf } from "../../transactions/revertReason.ts";
import { sendRecordedFrom } from "../sendTransaction.ts";
import type { SolverContext } from "../solverContext.ts";

/** `filledDigest` of a requestId a signer cancelled. */
export const CANCELLED_DIGEST: Hex = `0x${"0".repeat(63)}1`;
const ZERO_DIGEST: Hex = `0x${"0".repeat(64)}`;

/**
 * Where the request stands for a refund: `clear` — no fill can land any more (deadline passed, or
 * cancelled onchain), refund; `waiting` — a cancel is in flight, come back next tick; `filled` — the
 * receiver shows it filled, never refund.
 */
export type CancelOutcome = "clear" | "waiting" | "filled";

export async function cancelBeforeRefund(ctx: SolverContext, request: StoredRequest): Promise<{ outcome: CancelOutcome; request: StoredRequest }> {
  const { intent, cancel } = requireSolverState(request);
  const dest = ctx.clients.get(request.destinationChainId);
  const digest = await filledDigestOf(dest, request.id);
  if (digest === CANCELLED_DIGEST) return { outcome: "clear", request: await recordConfirmed(ctx, request) };
  if (digest !== ZERO_DIGEST) return { outcome: "filled", request };

  const latest = await dest.publicClient.getBlock({ blockTag: "latest" });
  if (Number(latest.timestamp) > intent.fillDeadline) return { outcome: "clear", request };

  if (cancel?.status === "sent") {
    const receipt = await receiptOrNull(dest.publicClient, cancel.hash);
    if (receipt === null && (await transactionKnown(dest.publicClient, cancel.hash))) return { outcome: "waiting", request };
    if (receipt?.status === "success") {
      return { outcome: "clear", request: await ctx.store.patchRequest(request.id, { solver: { cancel: { ...cancel, status: "confirmed", block: Number(receipt.blockNumber) } } }) };
    }
    if (receipt) {
      // Reverted: the receiver's state (read above, before this receipt was looked at) decides on the next tick.
      ctx.log.warn({ requestId: request.id, hash: cancel.hash }, "cancel reverted; the receiver's state decides");
      return { outcome: "waiting", request: await ctx.store.patchRequest(request.id, { solver: { cancel: { ...cancel, status: "reverted", block: Number(receipt.blockNumber) } } }) };
    }
    // Unknown to the node (lost before or after its broadcast): sent again below.
  }
  return sendCancel(ctx, request, dest);
}

async function sendCancel(ctx: SolverContext, request: StoredRequest, dest: ChainClient): Promise<{ outcome: CancelOutcome; request: StoredRequest }> {
  const wallet = dest.attesterWallet;
  if (!wallet) throw new KeyNotConfiguredError("attester");
  let current = request;
  const data = encodeFunctionData({ abi: attestedReceiverAbi, functionName: "cancel", args: [request.id] });
  let hash: Bytes32;
  try {
    hash = await sendRecordedFrom(wallet, dest.publicClient, { to: dest.config.contracts.attestedReceiver, data, maxGas: BigInt(ctx.settings.maxGasPerTransaction) }, async (h) => {
      current = await ctx.store.patchRequest(request.id, { solver: { cancel: { hash: h, status: "sent" } } });
    });
  } catch (error) {
    if (!isRevert(error)) throw error;
    const decoded = decodeRevert(revertDataOf(error));
    if (decoded.errorName === "AlreadyFilled") return { outcome: "filled", request: current };
    if (decoded.errorName === "RequestCancelled") return { outcome: "clear", request: current };
    if (decoded.errorName === "SignerNotAllowed") {
      ctx.log.warn({ requestId: request.id, attester: wallet.account.address }, "the attester is not a signer of the receiver: none of its attestations can fill, nothing to cancel");
      return { outcome: "clear", request: current };
    }
    throw error;
  }
  ctx.log.info({ requestId: request.id, hash }, "attestation cancelled before the refund: waiting for the cancel to be mined");
  const receipt = await receiptOrNull(dest.publicClient, hash);
  if (receipt?.status === "success") {
    return { outcome: "clear", request: await ctx.store.patchRequest(request.id, { solver: { cancel: { hash, status: "confirmed", block: Number(receipt.blockNumber) } } }) };
  }
  return { outcome: "waiting", request: current };
}

/** Records a cancel seen onchain as confirmed (a stored `sent` one whose receipt was not read yet). */
async function recordConfirmed(ctx: SolverContext, request: StoredRequest): Promise<StoredRequest> {
  const cancel = request.solver?.cancel;
  if (!cancel || cancel.status === "confirmed") return request;
  const receipt = await receiptOrNull(ctx.clients.get(request.destinationChainId).publicClient, cancel.hash);
  if (receipt?.status !== "success") return request;
  return ctx.store.patchRequest(request.id, { solver: { cancel: { ...cancel, status: "confirmed", block: Number(receipt.blockNumber) } } });
}
