/**
 * Builds and sends the fill of a request: the attester signs the v2 fill attestation (receiver = the
 * destination's AttestedReceiver), an ERC-20 fill first makes sure the receiver may pull the
 * solver's tokens, then `AttestedReceiver.fill(att, sig)` is prepared (its gas estimate is a
 * simulation: a fill that would revert is caught here, decoded, and never sent), its hash handed to
 * `record`, and broadcast.
 *
 * Approval: one `approve(receiver, max)` per token, the first time the allowance is short — one
 * transaction per token instead of one per fill. The receiver only pulls what an attestation the
 * attester signed says, to the attested recipient, so the standing allowance is bounded by the
 * attester key rather than by the amount.
 */
import { encodeFunctionData, erc20Abi, maxUint256, type Hex } from "viem";
import { attestedReceiverAbi } from "../../abi/AttestedReceiver.ts";
import { normalizeFillAttestation } from "../../core/attestationDigest.ts";
import { signAttestation } from "../../core/signAttestation.ts";
import type { StoredRequest } from "../store/requests.ts";
import type { ChainClient } from "./chainClients.ts";
import { fillAttestationOf, type SolverRequestData } from "./fillAttestation.ts";
import { decodeRevert, isRevert, revertDataOf, type DecodedRevert } from "./revertReason.ts";
import { sendRecorded, type OutgoingTx } from "./sendTransaction.ts";
import type { SolverContext } from "./solverContext.ts";
import { KeyNotConfiguredError } from "./solverErrors.ts";

const ZERO = "0x0000000000000000000000000000000000000000";

export type FillCallData = { from: string; to: string; data: string; value: string };

export type SendFillResult = { sent: true; hash: Hex } | { sent: false; revert: DecodedRevert; callData: FillCallData };

export async function sendFill(
  ctx: SolverContext,
  request: StoredRequest,
  data: SolverRequestData,
  dest: ChainClient,
  record: (hash: Hex) => Promise<void>,
): Promise<SendFillResult> {
  const wallet = dest.solverWallet;
  if (!wallet) throw new KeyNotConfiguredError("solver");
  const receiver = dest.config.contracts.attestedReceiver;
  const signed = await signAttestation({ account: ctx.attester, format: "v2", attestation: fillAttestationOf(request, data, receiver) });
  const attestation = normalizeFillAttestation(fillAttestationOf(request, data, receiver));
  const native = data.destinationCurrency.toLowerCase() === ZERO;
  if (!native) await ensureAllowance(ctx, dest, data.destinationCurrency, data.destinationAmount);
  const tx: OutgoingTx = {
    to: receiver,
    data: encodeFunctionData({ abi: attestedReceiverAbi, functionName: "fill", args: [attestation, signed.signature] }),
    value: native ? data.destinationAmount : 0n,
  };
  try {
    const hash = await sendRecorded(wallet, dest.publicClient, tx, record);
    return { sent: true, hash };
  } catch (error) {
    if (!isRevert(error)) throw error;
    return {
      sent: false,
      revert: decodeRevert(revertDataOf(error)),
      callData: { from: wallet.account.address.toLowerCase(), to: receiver.toLowerCase(), data: tx.data, value: (tx.value ?? 0n).toString() },
    };
  }
}

async function ensureAllowance(ctx: SolverContext, dest: ChainClient, token: `0x${string}`, amount: bigint): Promise<void> {
  const wallet = dest.solverWallet!;
  const receiver = dest.config.contracts.attestedReceiver;
  const allowance = await dest.publicClient.readContract({ address: token, abi: erc20Abi, functionName: "allowance", args: [wallet.account.address, receiver] });
  if (allowance >= amount) return;
  const hash = await wallet.writeContract({ address: token, abi: erc20Abi, functionName: "approve", args: [receiver, maxUint256], chain: wallet.chain, account: wallet.account });
  ctx.log.info({ chainId: dest.config.id, token, hash }, "solver approved the receiver");
  const receipt = await dest.publicClient.waitForTransactionReceipt({ hash, timeout: 60_000 });
  if (receipt.status !== "success") throw new Error(`approve ${hash} reverted`);
}
