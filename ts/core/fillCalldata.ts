/**
 * The calldata of `AttestedReceiver.fill` and `fillAndCall`: a v2 fill attestation without
 * `destinationChainId` and `receiver` (the receiver supplies `block.chainid` and `address(this)` when it
 * rebuilds the digest) and its EIP-2098 signature, as two static structs encoded in place — 4 + 12 × 32
 * = 388 bytes for `fill`. The v2 digest is unchanged (./attestationDigest.ts): the full attestation is
 * what is signed; this module only drops and restores the two fields.
 *
 * Because the two fields are not sent, an attestation for another chain or receiver cannot fail a check
 * of its own onchain: it recovers to an unrelated address (SignerNotAllowed). `encodeFill` therefore
 * checks them against where the transaction goes first (FILL_TARGET_MISMATCH naming the field), and
 * `fillTargetMismatches` tells which one is off after the fact (`ferry attest verify --chain-id
 * --receiver`, the solver's failed simulation).
 */
import { decodeFunctionData, encodeFunctionData, type Address, type Hex } from "viem";
import { fromCompactSignature, parseCompactSignature, toCompactSignature, type CompactSignature } from "./compactSignature.ts";
import type { FillAttestation } from "./attestationDigest.ts";
import { FillTargetMismatchError, InvalidInputError, type FillTargetField } from "./errors.ts";
import { parseAddress, parseUint } from "./inputParsers.ts";

/** What `fill` sends of a v2 attestation (`CompactFillAttestation` in AttestationLib.sol). */
export type CompactFillAttestation = Omit<FillAttestation, "destinationChainId" | "receiver">;

/** Where a fill goes: the chain it is sent on and the AttestedReceiver it calls. */
export type FillTarget = { chainId: bigint | number; receiver: Address };

/** One destination call of `fillAndCall` (IMulticaller.Call). */
export type FillCall = { target: Address; allowFailure: boolean; value: bigint; data: Hex };

const COMPACT_FILL_ATTESTATION_COMPONENTS = [
  { name: "requestId", type: "bytes32" },
  { name: "orderId", type: "bytes32" },
  { name: "originChainId", type: "uint256" },
  { name: "originUser", type: "bytes32" },
  { name: "originCurrency", type: "bytes32" },
  { name: "originAmount", type: "uint256" },
  { name: "destinationUser", type: "bytes32" },
  { name: "destinationCurrency", type: "bytes32" },
  { name: "destinationAmount", type: "uint256" },
  { name: "deadline", type: "uint256" },
] as const;

const COMPACT_SIGNATURE_COMPONENTS = [
  { name: "r", type: "bytes32" },
  { name: "vs", type: "bytes32" },
] as const;

/**
 * `fill` and `fillAndCall` as hand-written ABI fragments (the core does not depend on the generated
 * ABIs); test/core/fillCalldata.test.ts checks them against the compiled IAttestedReceiver.
 */
export const FILL_ABI = [
  {
    type: "function",
    name: "fill",
    stateMutability: "payable",
    inputs: [
      { name: "att", type: "tuple", internalType: "struct CompactFillAttestation", components: COMPACT_FILL_ATTESTATION_COMPONENTS },
      { name: "signature", type: "tuple", internalType: "struct CompactSignature", components: COMPACT_SIGNATURE_COMPONENTS },
    ],
    outputs: [],
  },
  {
    type: "function",
    name: "fillAndCall",
    stateMutability: "payable",
    inputs: [
      { name: "att", type: "tuple", internalType: "struct CompactFillAttestation", components: COMPACT_FILL_ATTESTATION_COMPONENTS },
      { name: "signature", type: "tuple", internalType: "struct CompactSignature", components: COMPACT_SIGNATURE_COMPONENTS },
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

/** The fields `fill` sends: the attestation without destinationChainId and receiver. */
export function toCompactFillAttestation(att: FillAttestation): CompactFillAttestation {
  return {
    requestId: att.requestId,
    orderId: att.orderId,
    originChainId: att.originChainId,
    originUser: att.originUser,
    originCurrency: att.originCurrency,
    originAmount: att.originAmount,
    destinationUser: att.destinationUser,
    destinationCurrency: att.destinationCurrency,
    destinationAmount: att.destinationAmount,
    deadline: att.deadline,
  };
}

/** The full v2 attestation the receiver at `target` rebuilds from a compact one (and hashes). */
export function completeFillAttestation(compact: CompactFillAttestation, target: FillTarget): FillAttestation {
  return {
    requestId: compact.requestId,
    orderId: compact.orderId,
    originChainId: compact.originChainId,
    originUser: compact.originUser,
    originCurrency: compact.originCurrency,
    originAmount: compact.originAmount,
    destinationChainId: parseUint(target.chainId, "target.chainId"),
    destinationUser: compact.destinationUser,
    destinationCurrency: compact.destinationCurrency,
    destinationAmount: compact.destinationAmount,
    deadline: compact.deadline,
    receiver: parseAddress(target.receiver, "target.receiver"),
  };
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
  /** The full v2 attestation that was signed. */
  attestation: FillAttestation;
  /** The attester's signature: 65 bytes (converted, INVALID_SIGNATURE_LENGTH / SIGNATURE_MALLEABLE / INVALID_SIGNATURE when it cannot be) or compact. */
  signature: Hex | CompactSignature;
  /** Where the transaction goes: the attestation must name this chain and this receiver (FILL_TARGET_MISMATCH otherwise). */
  target: FillTarget;
};

/** `fill(att, signature)` calldata (388 bytes). */
export function encodeFill(params: EncodeFillParams): Hex {
  assertFillTarget(params.attestation, params.target);
  return encodeFunctionData({
    abi: FILL_ABI,
    functionName: "fill",
    args: [toCompactFillAttestation(params.attestation), compactOf(params.signature)],
  });
}

/** `fillAndCall(att, signature, calls, sweepTokens)` calldata. */
export function encodeFillAndCall(params: EncodeFillParams & { calls: readonly FillCall[]; sweepTokens: readonly Address[] }): Hex {
  assertFillTarget(params.attestation, params.target);
  return encodeFunctionData({
    abi: FILL_ABI,
    functionName: "fillAndCall",
    args: [toCompactFillAttestation(params.attestation), compactOf(params.signature), params.calls, params.sweepTokens],
  });
}

/** A decoded `fill` / `fillAndCall` call, completed with the chain and receiver it was sent to. */
export type DecodedFill = {
  functionName: "fill" | "fillAndCall";
  /** The attestation the receiver at `target` hashes: what the signature must have signed. */
  attestation: FillAttestation;
  signature: CompactSignature;
  /** The same signature as 65 bytes (r, s, v). */
  signature65: Hex;
  calls?: readonly FillCall[];
  sweepTokens?: readonly Address[];
};

/** Decodes `fill` / `fillAndCall` calldata sent to `target` (INVALID_INPUT when it is neither). */
export function decodeFill(data: Hex, target: FillTarget): DecodedFill {
  let call;
  try {
    call = decodeFunctionData({ abi: FILL_ABI, data });
  } catch (cause) {
    throw new InvalidInputError("not AttestedReceiver.fill or fillAndCall calldata", { path: "data", cause });
  }
  const [compact, rawSignature] = call.args;
  const signature = parseCompactSignature(rawSignature);
  const decoded: DecodedFill = {
    functionName: call.functionName,
    attestation: completeFillAttestation(compact, target),
    signature,
    signature65: fromCompactSignature(signature),
  };
  if (call.functionName === "fillAndCall") {
    decoded.calls = call.args[2];
    decoded.sweepTokens = call.args[3];
  }
  return decoded;
}

function compactOf(signature: Hex | CompactSignature): CompactSignature {
  return typeof signature === "string" ? toCompactSignature(signature) : parseCompactSignature(signature);
}
