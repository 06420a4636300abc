/**
 * The receiver call a fill sends, chosen by the intent: `fill(att, sig)` for a plain intent, or
 * `fillWithCalls(att, sig, calls, sweepTokens)` for an intent with destination calls (`txs`, the gas
 * top-up) — the calls exactly as quoted (../model/intentCalls.ts), so the receiver's commitment check
 * (requestId = callsRequestId(orderId, calls, sweepTokens)) holds. msg.value: a native output's amount
 * (the calls spend from it inside the Multicaller); for an ERC-20 output, the native the calls carry
 * (the gas top-up, which the quote charged for).
 */
import { encodeFunctionData, type Hex } from "viem";
import { attestedReceiverAbi } from "../../abi/AttestedReceiver.ts";
import type { FillAttestation } from "../../core/attestationDigest.ts";
import { multicallerCalls } from "../../core/destinationCalls.ts";
import { hasCalls, sweepTokensOf } from "../model/intentCalls.ts";
import type { QuotedIntent } from "../model/quotedIntent.ts";
import { ZERO_ADDRESS } from "../model/values.ts";

export function fillTransaction(intent: QuotedIntent, attestation: FillAttestation, signature: Hex): { data: Hex; value: bigint } {
  const native = intent.destinationCurrency === ZERO_ADDRESS;
  if (!hasCalls(intent)) {
    return { data: encodeFunctionData({ abi: attestedReceiverAbi, functionName: "fill", args: [attestation, signature] }), value: native ? intent.destinationAmount : 0n };
  }
  const calls = multicallerCalls(intent.calls);
  const callsValue = intent.calls.reduce((sum, call) => sum + call.value, 0n);
  return {
    data: encodeFunctionData({ abi: attestedReceiverAbi, functionName: "fillWithCalls", args: [attestation, signature, calls, sweepTokensOf(intent)] }),
    value: native ? intent.destinationAmount : callsValue,
  };
}
