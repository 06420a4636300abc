/**
 * Builds and sends the fill of a request: the v2 fill attestation of its quoted intent (one builder,
 * ../../model/attestations.ts, shared with the signature route), signed by the attester; an ERC-20 fill
 * first makes sure the receiver may pull the solver's tokens; then the fill transaction is prepared
 * (../../transactions/fillTransaction.ts: the packed `fill_7hVe` — ts/core's `encodeFill`, the attestation without
 * destination chain and receiver and an EIP-2098 signature, refused with FILL_TARGET_MISMATCH when the
 * attestation names another chain or receiver than the transaction's — or `fillWithCalls` for an
 * intent with destination calls) (its gas estimate is a simulation: a fill
 * that would revert is caught here, decoded, traced for its failing frames, and never sent), its hash handed to `record`, and
 * broadcast. A simulation that reverts SignerNotAllowed is diagnosed: onchain, a wrong chain or
 * receiver surfaces as an unrelated recovered signer, so the log names the field that differs from the
 * chain the RPC reports and the receiver the transaction goes to (`fillTargetMismatches`).
 *
 * Approval: one `approve(receiver, max)` per token, the first time the allowance is short — one
 * transaction per token instead of one per fill. The receiver only pulls what an attestation the
 * attester signed says, to the attested recipient, so the standing allowance is bounded by the
 * attester key rather than by the amount.
 */
import { encodeFunctionData, erc20Abi, maxUint256 } from "viem";
import { fillTargetMismatches } from "../../../core/fillCalldata.ts";
import { signAttestationDigest } from "../../../core/signAttestation.ts";
import type { ChainClient } from "../../chains/chainClients.ts";
import { KeyNotConfiguredError } from "../../chains/serviceAccounts.ts";
import type { PreparedFill } from "../../model/attestations.ts";
import type { QuotedIntent } from "../../model/quotedIntent.ts";
import type { RequestData } from "../../model/requestData.ts";
import { ZERO_ADDRESS, type Address } from "../../model/values.ts";
import { callsOverGasBudget, fillTransaction } from "../../transactions/fillTransaction.ts";
import { decodeRevert, isRevert, revertDataOf, type DecodedRevert } from "../../transactions/revertReason.ts";
import { failureFrames, frameNames, traceCall, type FailureFrames, type TraceClient } from "../../transactions/callFrames.ts";
import { sendRecorded, type OutgoingTx, type SentTx } from "../sendTransaction.ts";
import type { SolverContext } from "../solverContext.ts";
import { ApprovalPendingError, SolverTransactionRevertedError } from "../solverErrors.ts";
import type { Repositories } from "../../store/createStore.ts";

export type FillCallData = NonNullable<RequestData["failedCallData"]>;

/** Not sent: the decoded revert, the call, and (a simulation that reverted) its frames (../../transactions/callFrames.ts). */
export type SendFillResult = ({ sent: true } & SentTx) | { sent: false; revert: DecodedRevert; callData: FillCallData; frames?: FailureFrames };

/** `record` runs in the nonce's store transaction, before the broadcast (../sendTransaction.ts). */
export async function sendFill(
  ctx: SolverContext,
  intent: QuotedIntent,
  dest: ChainClient,
  fill: PreparedFill,
  record: (sent: SentTx, repos: Repositories) => Promise<void>,
): Promise<SendFillResult> {
  const wallet = dest.solverWallet;
  if (!wallet) throw new KeyNotConfiguredError("solver");
  const receiver = dest.config.contracts.attestedReceiver;
  const { attestation, digest } = fill;
  // A calls attestation for an intent with destination calls: fillWithCalls is the only path that takes it.
  const signature = await signAttestationDigest(ctx.attester, digest);
  const native = intent.destinationCurrency === ZERO_ADDRESS;
  if (!native) await ensureAllowance(ctx, dest, intent.destinationCurrency, intent.destinationAmount);
  // The packed fill_7hVe, or fillWithCalls for an intent with destination calls (../../transactions/fillTransaction.ts).
  const tx: OutgoingTx = { to: receiver, ...fillTransaction(intent, attestation, signature, { chainId: dest.config.id, receiver }), maxGas: BigInt(ctx.settings.maxGasPerTransaction) };
  const callData = { from: ctx.solver, to: receiver, data: tx.data, value: (tx.value ?? 0n).toString() };
  try {
    // Destination calls: simulated and held to the quoted gas first (../../transactions/fillTransaction.ts).
    const overBudget = await callsOverGasBudget(dest.publicClient, wallet.account.address, tx, intent);
    if (overBudget) return { sent: false, revert: overBudget, callData };
    const sent = await sendRecorded(ctx, dest.config.id, { purpose: "fill", subject: intent.requestId, logFields: { requestId: intent.requestId, orderId: intent.orderId } }, tx, record);
    return { sent: true, ...sent };
  } catch (error) {
    if (!isRevert(error)) throw error;
    const revertData = revertDataOf(error);
    const revert = decodeRevert(revertData);
    if (revert.errorName === "SignerNotAllowed") {
      const mismatches = fillTargetMismatches(attestation, { chainId: await dest.publicClient.getChainId(), receiver });
      ctx.log.error({ chainId: dest.config.id, receiver, requestId: attestation.requestId, mismatches }, "fill signature recovers to no allowed signer");
    }
    // The simulation traced (debug_traceCall where the node offers it): the status details carry its frames.
    const trace = await traceCall(dest.publicClient as unknown as TraceClient, { from: wallet.account.address, to: receiver, data: tx.data, value: tx.value ?? 0n });
    const frames = failureFrames({ trace, call: { to: receiver, data: tx.data }, revertData, names: frameNames(dest.config) });
    return { sent: false, revert, callData, frames };
  }
}

async function ensureAllowance(ctx: SolverContext, dest: ChainClient, token: Address, amount: bigint): Promise<void> {
  const wallet = dest.solverWallet!;
  const receiver = dest.config.contracts.attestedReceiver;
  const allowance = await dest.publicClient.readContract({ address: token, abi: erc20Abi, functionName: "allowance", args: [wallet.account.address, receiver] });
  if (allowance >= amount) return;
  // One approval per token at a time, through the nonce manager (its nonce shared with the fills);
  // the fill waits for it (its simulation would fail on the short allowance) and never blocks on it
  // longer than a look: a step that finds it pending retries later.
  const subject = token;
  const pending = await ctx.store.findPendingSolverTransaction(dest.config.id, "approve", subject);
  let txNonce = pending?.nonce;
  if (txNonce === undefined) {
    const data = encodeFunctionData({ abi: erc20Abi, functionName: "approve", args: [receiver, maxUint256] });
    const tx = { to: token, data, maxGas: BigInt(ctx.settings.maxGasPerTransaction) };
    const sent = await sendRecorded(ctx, dest.config.id, { purpose: "approve", subject, logFields: { token: subject } }, tx, async () => {});
    ctx.log.info({ chainId: dest.config.id, token, txHash: sent.hash }, "solver approval of the receiver sent");
    txNonce = sent.txNonce;
  }
  const outcome = await ctx.transactions.follow({ chainId: dest.config.id, txNonce }, { token: subject });
  if (outcome.state === "pending") throw new ApprovalPendingError(subject, outcome.hash);
  if (outcome.state === "mined" && outcome.receipt.status !== "success") throw new SolverTransactionRevertedError("approve", outcome.hash);
}
