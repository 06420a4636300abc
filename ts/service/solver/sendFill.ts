/**
 * Builds and sends the fill of a request: the v2 fill attestation of its quoted intent (one builder,
 * ../model/attestations.ts, shared with the signature route), signed by the attester; an ERC-20 fill
 * first makes sure the receiver may pull the solver's tokens; then the fill transaction is prepared
 * (./fillTransaction.ts: the packed `fill_7hVe` — ts/core's `encodeFill`, the attestation without
 * destination chain and receiver and an EIP-2098 signature, refused with FILL_TARGET_MISMATCH when the
 * attestation names another chain or receiver than the transaction's — or `fillWithCalls` for an
 * intent with destination calls) (its gas estimate is a simulation: a fill
 * that would revert is caught here, decoded, and never sent), its hash handed to `record`, and
 * broadcast. A simulation that reverts SignerNotAllowed is diagnosed: onchain, a wrong chain or
 * receiver surfaces as an unrelated recovered signer, so the log names the field that differs from the
 * chain the RPC reports and the receiver the transaction goes to (`fillTargetMismatches`).
 *
 * Approval: one `approve(receiver, max)` per token, the first time the allowance is short — one
 * transaction per token instead of one per fill. The receiver only pulls what an attestation the
 * attester signed says, to the attested recipient, so the standing allowance is bounded by the
 * attester key rather than by the amount.
 */
import { erc20Abi, maxUint256, type Address, type Hex } from "viem";
import { fillDigest } from "../../core/attestationDigest.ts";
import { fillTargetMismatches } from "../../core/fillCalldata.ts";
import { signAttestationDigest } from "../../core/signAttestation.ts";
import type { ChainClient } from "../chains/chainClients.ts";
import { KeyNotConfiguredError } from "../chains/serviceAccounts.ts";
import { fillAttestationOf } from "../model/attestations.ts";
import type { QuotedIntent } from "../model/quotedIntent.ts";
import type { RequestData } from "../model/requestData.ts";
import { canonicalAddress, ZERO_ADDRESS } from "../model/values.ts";
import { callsOverGasBudget, fillTransaction } from "./fillTransaction.ts";
import { decodeRevert, isRevert, revertDataOf, type DecodedRevert } from "./revertReason.ts";
import { sendRecorded, type OutgoingTx } from "./sendTransaction.ts";
import type { SolverContext } from "./solverContext.ts";
import { SolverTransactionRevertedError } from "./solverErrors.ts";

export type FillCallData = NonNullable<RequestData["failedCallData"]>;

export type SendFillResult = { sent: true; hash: Hex } | { sent: false; revert: DecodedRevert; callData: FillCallData };

export async function sendFill(ctx: SolverContext, intent: QuotedIntent, dest: ChainClient, record: (hash: Hex) => Promise<void>): Promise<SendFillResult> {
  const wallet = dest.solverWallet;
  if (!wallet) throw new KeyNotConfiguredError("solver");
  const receiver = canonicalAddress(dest.config.contracts.attestedReceiver);
  const attestation = fillAttestationOf(intent, receiver);
  const signature = await signAttestationDigest(ctx.attester, fillDigest(attestation));
  const native = intent.destinationCurrency === ZERO_ADDRESS;
  if (!native) await ensureAllowance(ctx, dest, intent.destinationCurrency, intent.destinationAmount);
  // The packed fill_7hVe, or fillWithCalls for an intent with destination calls (./fillTransaction.ts).
  const tx: OutgoingTx = { to: receiver, ...fillTransaction(intent, attestation, signature, { chainId: dest.config.id, receiver }), maxGas: BigInt(ctx.settings.maxGasPerTransaction) };
  const callData = { from: canonicalAddress(wallet.account.address), to: receiver, data: tx.data, value: (tx.value ?? 0n).toString() };
  try {
    // Destination calls: simulated and held to the quoted gas first (./fillTransaction.ts).
    const overBudget = await callsOverGasBudget(dest.publicClient, wallet.account.address, tx, intent);
    if (overBudget) return { sent: false, revert: overBudget, callData };
    const hash = await sendRecorded(wallet, dest.publicClient, tx, record);
    return { sent: true, hash };
  } catch (error) {
    if (!isRevert(error)) throw error;
    const revert = decodeRevert(revertDataOf(error));
    if (revert.errorName === "SignerNotAllowed") {
      const mismatches = fillTargetMismatches(attestation, { chainId: await dest.publicClient.getChainId(), receiver });
      ctx.log.error({ chainId: dest.config.id, receiver, requestId: attestation.requestId, mismatches }, "fill signature recovers to no allowed signer");
    }
    return {
      sent: false,
      revert,
      callData,
    };
  }
}

async function ensureAllowance(ctx: SolverContext, dest: ChainClient, token: Address, amount: bigint): Promise<void> {
  const wallet = dest.solverWallet!;
  const receiver = dest.config.contracts.attestedReceiver;
  const allowance = await dest.publicClient.readContract({ address: token, abi: erc20Abi, functionName: "allowance", args: [wallet.account.address, receiver] });
  if (allowance >= amount) return;
  const hash = await wallet.writeContract({ address: token, abi: erc20Abi, functionName: "approve", args: [receiver, maxUint256], chain: wallet.chain, account: wallet.account });
  ctx.log.info({ chainId: dest.config.id, token, hash }, "solver approved the receiver");
  const receipt = await dest.publicClient.waitForTransactionReceipt({ hash, timeout: 60_000 });
  if (receipt.status !== "success") throw new SolverTransactionRevertedError("approve", hash);
}
