/**
 * `Depository.execute` calldata. `encodeExecute` builds the compact form the solver sends,
 * `execute_kJ9b8(CallRequest, CompactSignature)` (the allocator's signature as EIP-2098 r, vs: two
 * words instead of a `bytes` argument's offset, length and three padded words; the mined suffix makes
 * its selector 0x000000…, tried third by the dispatcher); `decodeExecute` reads both forms, the compact
 * one and `execute(CallRequest, bytes)` (kept for allocators that are contracts: an EIP-1271 signature
 * can be any length). The request and its EIP-712 signature are ./payoutRequest.ts's. Pure.
 */
import { decodeFunctionData, encodeFunctionData, type Hex } from "viem";
import { fromCompactSignature, parseCompactSignature, toCompactSignature, type CompactSignature } from "./compactSignature.ts";
import { InvalidInputError } from "./errors.ts";
import { normalizePayoutRequest, type PayoutRequest } from "./payoutRequest.ts";

export const EXECUTE_COMPACT_FUNCTION = "execute_kJ9b8";

const CALL_REQUEST = {
  type: "tuple",
  internalType: "struct IDepository.CallRequest",
  components: [
    {
      name: "calls",
      type: "tuple[]",
      internalType: "struct IDepository.Call[]",
      components: [
        { name: "to", type: "address" },
        { name: "token", type: "address" },
        { name: "amount", type: "uint256" },
      ],
    },
    { name: "nonce", type: "uint256" },
    { name: "expiration", type: "uint256" },
  ],
} as const;

/** Both `execute` forms as hand-written ABI fragments, checked against the compiled IDepository. */
export const EXECUTE_ABI = [
  {
    type: "function",
    name: EXECUTE_COMPACT_FUNCTION,
    stateMutability: "nonpayable",
    inputs: [
      { name: "request", ...CALL_REQUEST },
      {
        name: "signature",
        type: "tuple",
        internalType: "struct CompactSignature",
        components: [
          { name: "r", type: "bytes32" },
          { name: "vs", type: "bytes32" },
        ],
      },
    ],
    outputs: [],
  },
  {
    type: "function",
    name: "execute",
    stateMutability: "nonpayable",
    inputs: [
      { name: "request", ...CALL_REQUEST },
      { name: "signature", type: "bytes" },
    ],
    outputs: [],
  },
] as const;

/**
 * Compact `execute` calldata for a request (loose input accepted) and the allocator's signature
 * (65 bytes, converted: INVALID_SIGNATURE_LENGTH / SIGNATURE_MALLEABLE / INVALID_SIGNATURE when it
 * cannot be; or already compact).
 */
export function encodeExecute(params: { request: unknown; signature: Hex | CompactSignature }): Hex {
  const { calls, nonce, expiration } = normalizePayoutRequest(params.request);
  const signature = typeof params.signature === "string" ? toCompactSignature(params.signature) : parseCompactSignature(params.signature);
  return encodeFunctionData({ abi: EXECUTE_ABI, functionName: EXECUTE_COMPACT_FUNCTION, args: [{ calls, nonce, expiration }, signature] });
}

/** A decoded `execute` call of either form; `signature` is always the 65-byte (r, s, v) form. */
export type DecodedExecute = { compact: boolean; request: PayoutRequest; signature: Hex };

/** Decodes either `execute` form, or throws INVALID_INPUT (path `data`). */
export function decodeExecute(data: Hex): DecodedExecute {
  let call;
  try {
    call = decodeFunctionData({ abi: EXECUTE_ABI, data });
  } catch (cause) {
    throw new InvalidInputError("not a Depository execute call", { path: "data", cause });
  }
  const request = normalizePayoutRequest(call.args[0]);
  if (call.functionName === EXECUTE_COMPACT_FUNCTION) {
    return { compact: true, request, signature: fromCompactSignature(parseCompactSignature(call.args[1])) };
  }
  return { compact: false, request, signature: call.args[1] };
}
