/**
 * The receiver call a fill sends, chosen by the intent: the packed `fill_7hVe` (ts/core `encodeFill`:
 * 281 calldata bytes, the cheapest fill) for a plain intent — or, for the rare attestation with no
 * packed form (an amount of 2^128 or more, an origin chain id of 2^64 or more: `fitsPackedFill`), the
 * full-ABI `fill(att, sig)` — or
 * `fillWithCalls(att, sig, calls, sweepTokens)` for an intent with destination calls (`txs`, the gas
 * top-up) — the calls exactly as quoted (../model/intentCalls.ts), so the receiver's commitment check
 * (requestId = callsRequestId(orderId, calls, sweepTokens)) holds. msg.value: a native output's amount
 * (the calls spend from it inside the Multicaller); for an ERC-20 output, the native the calls carry
 * (the gas top-up, which the quote charged for).
 */
import { encodeFunctionData, type Address, type Hex, type PublicClient } from "viem";
import { attestedReceiverAbi } from "../../abi/AttestedReceiver.ts";
import type { FillAttestation } from "../../core/attestationDigest.ts";
import { encodeFill, fitsPackedFill, type FillTarget } from "../../core/fillCalldata.ts";
import { multicallerCalls } from "../../core/destinationCalls.ts";
import { hasCalls, sweepTokensOf } from "../model/intentCalls.ts";
import type { QuotedIntent } from "../model/quotedIntent.ts";
import { ZERO_ADDRESS } from "../model/values.ts";
import type { DecodedRevert } from "./revertReason.ts";

export function fillTransaction(intent: QuotedIntent, attestation: FillAttestation, signature: Hex, target: FillTarget): { data: Hex; value: bigint } {
  const native = intent.destinationCurrency === ZERO_ADDRESS;
  if (!hasCalls(intent)) {
    // `target`: the chain and receiver the transaction goes to; encodeFill refuses an attestation
    // naming others (FILL_TARGET_MISMATCH) instead of sending a fill that recovers to no signer.
    const data = fitsPackedFill(attestation)
      ? encodeFill({ attestation, signature, target })
      : encodeFunctionData({ abi: attestedReceiverAbi, functionName: "fill", args: [attestation, signature] });
    return { data, value: native ? intent.destinationAmount : 0n };
  }
  const calls = multicallerCalls(intent.calls);
  const callsValue = callsNativeValue(intent);
  return {
    data: encodeFunctionData({ abi: attestedReceiverAbi, functionName: "fillWithCalls", args: [attestation, signature, calls, sweepTokensOf(intent)] }),
    value: native ? intent.destinationAmount : callsValue,
  };
}

/** The native the destination calls carry (the gas top-up): what an ERC-20 output's fill sends as msg.value. 0 without calls. */
export function callsNativeValue(intent: QuotedIntent): bigint {
  return hasCalls(intent) ? intent.calls.reduce((sum, call) => sum + call.value, 0n) : 0n;
}

/**
 * Bounded gas for destination calls: the fill with its calls is estimated (a simulation: a reverting
 * call throws here, and the caller decodes it as for any fill) and, when the estimate exceeds the gas
 * the quote priced (`fillGasLimit`: `txsGasLimit` or the default per call), the fill is not sent —
 * failure SWAP_USES_TOO_MUCH_GAS (the spec's value for an execution that needs more gas than
 * quoted), refunded. Undefined when within the budget or without calls.
 */
export async function callsOverGasBudget(
  publicClient: Pick<PublicClient, "estimateGas">,
  from: Address,
  tx: { to: Address; data: Hex; value?: bigint },
  intent: Pick<QuotedIntent, "calls" | "fillGasLimit">,
): Promise<DecodedRevert | undefined> {
  const limit = intent.fillGasLimit;
  if (!hasCalls(intent) || limit === undefined) return undefined;
  const estimate = await publicClient.estimateGas({ account: from, to: tx.to, data: tx.data, value: tx.value ?? 0n });
  if (estimate <= limit) return undefined;
  return {
    failReason: "SWAP_USES_TOO_MUCH_GAS",
    errorName: null,
    data: null,
    details: { reason: "the destination calls need more gas than the quote priced (txsGasLimit)", gasEstimate: estimate.toString(), gasLimit: limit.toString() },
  };
}
