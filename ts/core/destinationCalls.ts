/**
 * Destination calls of an intent (a quote's `txs`): how they are bound onchain and into the order.
 * Pure.
 *
 * - `callsRequestId(orderId, calls, sweepTokens)`: the requestId of an intent with calls, equal to
 *   `AttestedReceiver.callsRequestId` — keccak256(abi.encode(bytes32 orderId, (address target, bool
 *   allowFailure, uint256 value, bytes data)[] calls, address[] sweepTokens)). The v2 fill attestation
 *   signs the requestId, so it signs the calls; `fillWithCalls` refuses any other calls (CallsMismatch).
 *   Every call is `allowFailure: false` (one reverting call reverts the fill).
 * - `encodeOrderCall(call)`: a call as `orderData.output.calls` carries it, abi.encode((address to),
 *   (bytes data), (uint256 value)) (./orderJson.ts `encodeEvmCall`), so the orderId binds them too.
 */
import { encodeAbiParameters, type Address, type Hex } from "viem";
import { encodeEvmCall } from "./orderJson.ts";
import { keccak256Lowercase, type LowercaseHex } from "./lowercaseHex.ts";

/** One destination call: `to.call{value}(data)` from the Multicaller. */
export type DestinationCall = { to: Address; data: Hex; value: bigint };

/** The Multicaller's `Call` struct of a destination call. */
export type MulticallerCall = { target: Address; allowFailure: boolean; value: bigint; data: Hex };

export const MULTICALLER_CALL_COMPONENTS = [
  { name: "target", type: "address" },
  { name: "allowFailure", type: "bool" },
  { name: "value", type: "uint256" },
  { name: "data", type: "bytes" },
] as const;

export function multicallerCalls(calls: readonly DestinationCall[]): MulticallerCall[] {
  return calls.map((call) => ({ target: call.to, allowFailure: false, value: call.value, data: call.data }));
}

export function callsRequestId(orderId: Hex, calls: readonly DestinationCall[], sweepTokens: readonly Address[]): LowercaseHex {
  return keccak256Lowercase(
    encodeAbiParameters(
      [{ type: "bytes32" }, { type: "tuple[]", components: MULTICALLER_CALL_COMPONENTS }, { type: "address[]" }],
      [orderId, multicallerCalls(calls), [...sweepTokens]],
    ),
  );
}

export function encodeOrderCall(call: DestinationCall): Hex {
  return encodeEvmCall(call);
}
