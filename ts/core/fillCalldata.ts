/**
 * The calldata of `AttestedReceiver.fill_7hVe` and `fillAndCall`: the **packed fill** — the TypeScript
 * twin of AttestationLib's "Packed fill" layout. A v2 fill attestation without `destinationChainId` and
 * `receiver` (the receiver supplies `block.chainid` and `address(this)` when it rebuilds the digest),
 * each field in the bytes it needs, then the EIP-2098 signature, 277 bytes in all:
 *
 *   requestId 32 · orderId 32 · originChainId 8 · originUser 32 · originCurrency 32 · originAmount 16 ·
 *   destinationUser 20 · destinationCurrency 20 · destinationAmount 16 · deadline 5 · r 32 · vs 32
 *
 * `fill_7hVe` is its selector followed by the 277 bytes (281); `fillAndCall` takes them as its `fill`
 * argument. The v2 digest is unchanged (./attestationDigest.ts): the full attestation is what is signed;
 * this module only drops, packs and restores fields.
 *
 * Because the two fields are not sent, an attestation for another chain or receiver cannot fail a
 * check of its own onchain: it recovers to an unrelated address (SignerNotAllowed). `encodeFill`
 * therefore checks them against where the transaction goes first (FILL_TARGET_MISMATCH naming the
 * field), and `fillTargetMismatches` says which one is off after the fact (`ferry attest verify
 * --chain-id --receiver`, the solver's failed simulation).
 */
import { concat, decodeFunctionData, encodeFunctionData, hexToBytes, isHex, numberToHex, slice, toFunctionSelector, type Address, type Hex } from "viem";
import type { FillAttestation } from "./attestationDigest.ts";
import { fromCompactSignature, parseCompactSignature, toCompactSignature, type CompactSignature } from "./compactSignature.ts";
import { FillTargetMismatchError, InvalidInputError, type FillTargetField } from "./errors.ts";
import { parseAddress, parseUint } from "./inputParsers.ts";

/** Where a fill goes: the chain it is sent on and the AttestedReceiver it calls. */
export type FillTarget = { chainId: bigint | number; receiver: Address };

/** One destination call of `fillAndCall` (IMulticaller.Call). */
export type FillCall = { target: Address; allowFailure: boolean; value: bigint; data: Hex };

/** The fill entry point's name: the suffix is mined so that its selector is 0x00000026 (tried first). */
export const FILL_FUNCTION = "fill_7hVe";
/** Length of a packed fill (AttestationLib.PACKED_FILL_LENGTH). */
export const PACKED_FILL_LENGTH = 277;

/** The packed fields in order: name and byte width. */
const PACKED_FIELDS = [
  ["requestId", 32],
  ["orderId", 32],
  ["originChainId", 8],
  ["originUser", 32],
  ["originCurrency", 32],
  ["originAmount", 16],
  ["destinationUser", 20],
  ["destinationCurrency", 20],
  ["destinationAmount", 16],
  ["deadline", 5],
] as const;

/**
 * `fill_7hVe` and `fillAndCall` as hand-written ABI fragments (the core does not depend on the generated
 * ABIs); test/core/fillCalldata.test.ts checks them against the compiled IAttestedReceiver.
 */
export const FILL_ABI = [
  { type: "function", name: FILL_FUNCTION, stateMutability: "payable", inputs: [], outputs: [] },
  {
    type: "function",
    name: "fillAndCall",
    stateMutability: "payable",
    inputs: [
      { name: "packedFill", type: "bytes" },
      {
        name: "calls",
        type: "tuple[]",
        internalType: "struct IMulticaller.Call[]",
        components: [
          { name: "target", type: "address" },
          { name: "allowFailure", type: "bool" },
          { name: "value", type: "uint256" },
          { name: "data", type: "bytes" },
        ],
      },
      { name: "sweepTokens", type: "address[]" },
    ],
    outputs: [],
  },
] as const;

/** `fill_7hVe`'s selector. */
export const FILL_SELECTOR: Hex = toFunctionSelector(`${FILL_FUNCTION}()`);

/**
 * The 277-byte packed fill of a (normalized) v2 attestation and its signature (65 bytes, converted
 * with recoverStrict's rules, or compact). INVALID_INPUT naming the field when a value does not fit
 * its width: an origin chain id of 2^64 or more, an amount of 2^128 or more, a deadline of 2^40 or
 * more, or a destination user or currency that is a 32-byte (non-EVM) word.
 */
export function packFill(attestation: FillAttestation, signature: Hex | CompactSignature): Hex {
  const compact = compactOf(signature);
  const parts: Hex[] = [];
  for (const [name, width] of PACKED_FIELDS) {
    const value = attestation[name];
    if (typeof value === "bigint") {
      if (value >= 1n << BigInt(8 * width)) throw new InvalidInputError(`does not fit the packed fill's ${8 * width} bits`, { path: name });
      parts.push(numberToHex(value, { size: width }));
    } else if (width === 20) {
      if (!/^0x0{24}[0-9a-fA-F]{40}$/.test(value)) throw new InvalidInputError("is not an EVM address (the packed fill carries 20 bytes)", { path: name });
      parts.push(`0x${value.slice(26)}`);
    } else {
      parts.push(value);
    }
  }
  return concat([...parts, compact.r, compact.vs]);
}

/**
 * Whether the attestation has a packed form: the origin chain id, amounts and deadline fit their
 * widths and the destination user and currency are EVM addresses. One that does not is filled
 * through the full-ABI `fill(FillAttestation, bytes)` (the solver does so).
 */
export function fitsPackedFill(attestation: FillAttestation): boolean {
  for (const [name, width] of PACKED_FIELDS) {
    const value = attestation[name];
    if (typeof value === "bigint") {
      if (value >= 1n << BigInt(8 * width)) return false;
    } else if (width === 20 && !/^0x0{24}[0-9a-fA-F]{40}$/.test(value)) {
      return false;
    }
  }
  return true;
}

/** The attestation (completed with `target`) and the signature a packed fill carries. INVALID_INPUT when it is not 277 bytes of hex. */
export function unpackFill(packed: Hex, target: FillTarget): { attestation: FillAttestation; signature: CompactSignature } {
  if (!isHex(packed, { strict: true }) || hexToBytes(packed).length !== PACKED_FILL_LENGTH) {
    throw new InvalidInputError(`expected ${PACKED_FILL_LENGTH} bytes of hex`, { path: "packedFill" });
  }
  const fields: Record<string, Hex> = {};
  let at = 0;
  for (const [name, width] of PACKED_FIELDS) {
    fields[name] = slice(packed, at, at + width);
    at += width;
  }
  const word = (value: Hex) => `0x${value.slice(2).padStart(64, "0").toLowerCase()}` as Hex;
  const attestation: FillAttestation = {
    requestId: word(fields.requestId!),
    orderId: word(fields.orderId!),
    originChainId: BigInt(fields.originChainId!),
    originUser: word(fields.originUser!),
    originCurrency: word(fields.originCurrency!),
    originAmount: BigInt(fields.originAmount!),
    destinationChainId: parseUint(target.chainId, "target.chainId"),
    destinationUser: word(fields.destinationUser!),
    destinationCurrency: word(fields.destinationCurrency!),
    destinationAmount: BigInt(fields.destinationAmount!),
    deadline: BigInt(fields.deadline!),
    receiver: parseAddress(target.receiver, "target.receiver"),
  };
  return { attestation, signature: { r: word(slice(packed, at, at + 32)), vs: word(slice(packed, at + 32, at + 64)) } };
}

/**
 * Which of the attestation's destinationChainId and receiver differ from where the fill goes (empty
 * when both match). Addresses compare case-insensitively.
 */
export function fillTargetMismatches(att: FillAttestation, target: FillTarget): { field: FillTargetField; attested: string; target: string }[] {
  const chainId = parseUint(target.chainId, "target.chainId");
  const receiver = parseAddress(target.receiver, "target.receiver");
  const out: { field: FillTargetField; attested: string; target: string }[] = [];
  if (att.destinationChainId !== chainId) out.push({ field: "destinationChainId", attested: att.destinationChainId.toString(), target: chainId.toString() });
  if (att.receiver.toLowerCase() !== receiver.toLowerCase()) out.push({ field: "receiver", attested: att.receiver, target: receiver });
  return out;
}

/** Throws FILL_TARGET_MISMATCH for the first of destinationChainId, receiver that differs from `target`. */
export function assertFillTarget(att: FillAttestation, target: FillTarget): void {
  const [mismatch] = fillTargetMismatches(att, target);
  if (mismatch) throw new FillTargetMismatchError(mismatch.field, mismatch.attested, mismatch.target);
}

export type EncodeFillParams = {
  /** The full v2 attestation that was signed (normalized). */
  attestation: FillAttestation;
  /** The attester's signature: 65 bytes (converted; INVALID_SIGNATURE_LENGTH / SIGNATURE_MALLEABLE / INVALID_SIGNATURE when it cannot be) or compact. */
  signature: Hex | CompactSignature;
  /** Where the transaction goes: the attestation must name this chain and this receiver (FILL_TARGET_MISMATCH otherwise). */
  target: FillTarget;
};

/** `fill_7hVe` calldata: the selector and the packed fill (281 bytes). */
export function encodeFill(params: EncodeFillParams): Hex {
  assertFillTarget(params.attestation, params.target);
  return concat([FILL_SELECTOR, packFill(params.attestation, params.signature)]);
}

/** `fillAndCall(fill, calls, sweepTokens)` calldata. */
export function encodeFillAndCall(params: EncodeFillParams & { calls: readonly FillCall[]; sweepTokens: readonly Address[] }): Hex {
  assertFillTarget(params.attestation, params.target);
  return encodeFunctionData({
    abi: FILL_ABI,
    functionName: "fillAndCall",
    args: [packFill(params.attestation, params.signature), params.calls, params.sweepTokens],
  });
}

/** A decoded fill call, completed with the chain and receiver it was sent to. */
export type DecodedFill = {
  functionName: typeof FILL_FUNCTION | "fillAndCall";
  /** The attestation the receiver at `target` hashes: what the signature must have signed. */
  attestation: FillAttestation;
  signature: CompactSignature;
  /** The same signature as 65 bytes (r, s, v). */
  signature65: Hex;
  calls?: readonly FillCall[];
  sweepTokens?: readonly Address[];
};

/** Decodes `fill_7hVe` / `fillAndCall` calldata sent to `target` (INVALID_INPUT when it is neither). */
export function decodeFill(data: Hex, target: FillTarget): DecodedFill {
  if (isHex(data, { strict: true }) && data.slice(0, 10).toLowerCase() === FILL_SELECTOR) {
    const { attestation, signature } = unpackFill(slice(data, 4), target);
    return { functionName: FILL_FUNCTION, attestation, signature, signature65: fromCompactSignature(signature) };
  }
  let call;
  try {
    call = decodeFunctionData({ abi: FILL_ABI, data });
  } catch (cause) {
    throw new InvalidInputError(`not AttestedReceiver.${FILL_FUNCTION} or fillAndCall calldata`, { path: "data", cause });
  }
  if (call.functionName !== "fillAndCall") throw new InvalidInputError(`not AttestedReceiver.${FILL_FUNCTION} or fillAndCall calldata`, { path: "data" });
  const { attestation, signature } = unpackFill(call.args[0], target);
  return {
    functionName: "fillAndCall",
    attestation,
    signature,
    signature65: fromCompactSignature(signature),
    calls: call.args[1],
    sweepTokens: call.args[2],
  };
}

function compactOf(signature: Hex | CompactSignature): CompactSignature {
  return typeof signature === "string" ? toCompactSignature(signature) : parseCompactSignature(signature);
}
