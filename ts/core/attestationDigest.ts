/**
 * The two attestation digests — TypeScript twin of contracts/libraries/AttestationLib.sol. Shared
 * vectors (test/vectors/attestations.json) keep both byte for byte equal.
 *
 * v1 (the spec's `GET /requests/{requestId}/signature`):
 *   keccak256(abi.encode(bytes32 requestId, uint256 originChainId, bytes32 originUser,
 *             bytes32 originCurrency, uint256 originAmount, uint256 destinationChainId, bytes32 destinationUser))
 * v2 (the fill attestation): keccak256(abi.encode(FILL_TYPEHASH, ...twelve fields..., address receiver)),
 *   which is the EIP-712 hashStruct of `FillAttestation`.
 * calls (a v2 attestation whose requestId commits to destination calls, filled by `fillWithCalls`):
 *   the same twelve fields under CALLS_FILL_TYPEHASH, so the packed fill and `fill` never accept it.
 * gate (what an AttestationGate accepts): keccak256(abi.encode(GATE_TYPEHASH, digest, gate, chainId)),
 *   a v1 or v2 digest bound to the gate contract and its chain.
 */
import { encodeAbiParameters, keccak256, toHex, type Address, type Hex } from "viem";
import { InvalidInputError } from "./errors.ts";
import { parseAddress, parseAddressWord, parseBytes32, parseObject, parseUint } from "./inputParsers.ts";
import { keccak256Lowercase, type LowercaseHex } from "./lowercaseHex.ts";

/** The attestation formats: v1 request attestation, v2 fill attestation. */
export type AttestationFormat = "v1" | "v2";

export const ATTESTATION_FORMATS: readonly AttestationFormat[] = ["v1", "v2"];

/** v1: users and currencies are left-padded bytes32 (lower-case); the native currency is zero. */
export type RequestAttestation = {
  requestId: Hex;
  originChainId: bigint;
  originUser: Hex;
  originCurrency: Hex;
  originAmount: bigint;
  destinationChainId: bigint;
  destinationUser: Hex;
};

/** v2: v1 plus the deposit's orderId, the destination payment, an expiry and the receiver contract. */
export type FillAttestation = {
  requestId: Hex;
  orderId: Hex;
  originChainId: bigint;
  originUser: Hex;
  originCurrency: Hex;
  originAmount: bigint;
  destinationChainId: bigint;
  destinationUser: Hex;
  destinationCurrency: Hex;
  destinationAmount: bigint;
  deadline: bigint;
  receiver: Address;
};

export type AttestationOf<F extends AttestationFormat> = F extends "v1" ? RequestAttestation : FillAttestation;

/**
 * Loose input as JSON carries it: numbers as JSON numbers (safe integers) or decimal strings,
 * users/currencies as 20-byte addresses or 32-byte hex, ids as bytes32 hex.
 */
export type AttestationInput = Record<string, unknown>;

/** The v2 type string, exactly as in AttestationLib.FILL_TYPEHASH. */
export const FILL_ATTESTATION_TYPE =
  "FillAttestation(bytes32 requestId,bytes32 orderId,uint256 originChainId,bytes32 originUser,bytes32 originCurrency,uint256 originAmount,uint256 destinationChainId,bytes32 destinationUser,bytes32 destinationCurrency,uint256 destinationAmount,uint256 deadline,address receiver)";

/** keccak256(FILL_ATTESTATION_TYPE). */
export const FILL_TYPEHASH: Hex = keccak256(toHex(FILL_ATTESTATION_TYPE));

/**
 * The type string of a calls attestation (AttestationLib.CALLS_FILL_TYPEHASH): the v2 fields under
 * another name, signed for an intent with destination calls.
 */
export const CALLS_FILL_ATTESTATION_TYPE = `Calls${FILL_ATTESTATION_TYPE}`;

/** keccak256(CALLS_FILL_ATTESTATION_TYPE). */
export const CALLS_FILL_TYPEHASH: Hex = keccak256(toHex(CALLS_FILL_ATTESTATION_TYPE));

/** The type string of a gate attestation (AttestationLib.GATE_TYPEHASH). */
export const GATE_ATTESTATION_TYPE = "GateAttestation(bytes32 attestation,address gate,uint256 chainId)";

/** keccak256(GATE_ATTESTATION_TYPE). */
export const GATE_TYPEHASH: Hex = keccak256(toHex(GATE_ATTESTATION_TYPE));

/** The v2 struct as EIP-712 types (for wallets and for cross-checks with `hashStruct`). */
export const FILL_ATTESTATION_TYPES = {
  FillAttestation: [
    { name: "requestId", type: "bytes32" },
    { name: "orderId", type: "bytes32" },
    { name: "originChainId", type: "uint256" },
    { name: "originUser", type: "bytes32" },
    { name: "originCurrency", type: "bytes32" },
    { name: "originAmount", type: "uint256" },
    { name: "destinationChainId", type: "uint256" },
    { name: "destinationUser", type: "bytes32" },
    { name: "destinationCurrency", type: "bytes32" },
    { name: "destinationAmount", type: "uint256" },
    { name: "deadline", type: "uint256" },
    { name: "receiver", type: "address" },
  ],
} as const;

const REQUEST_PARAMS = [
  { type: "bytes32" },
  { type: "uint256" },
  { type: "bytes32" },
  { type: "bytes32" },
  { type: "uint256" },
  { type: "uint256" },
  { type: "bytes32" },
] as const;

const FILL_PARAMS = [
  { type: "bytes32" }, // FILL_TYPEHASH
  { type: "bytes32" },
  { type: "bytes32" },
  { type: "uint256" },
  { type: "bytes32" },
  { type: "bytes32" },
  { type: "uint256" },
  { type: "uint256" },
  { type: "bytes32" },
  { type: "bytes32" },
  { type: "uint256" },
  { type: "uint256" },
  { type: "address" },
] as const;

/** Parses loose input into a v1 attestation, or throws INVALID_INPUT / INVALID_ADDRESS naming the field. */
export function normalizeRequestAttestation(input: unknown): RequestAttestation {
  const o = parseObject(input, "attestation");
  return {
    requestId: parseBytes32(o.requestId, "requestId"),
    originChainId: parseUint(o.originChainId, "originChainId"),
    originUser: parseAddressWord(o.originUser, "originUser"),
    originCurrency: parseAddressWord(o.originCurrency, "originCurrency"),
    originAmount: parseUint(o.originAmount, "originAmount"),
    destinationChainId: parseUint(o.destinationChainId, "destinationChainId"),
    destinationUser: parseAddressWord(o.destinationUser, "destinationUser"),
  };
}

/** Parses loose input into a v2 attestation, or throws INVALID_INPUT / INVALID_ADDRESS naming the field. */
export function normalizeFillAttestation(input: unknown): FillAttestation {
  const o = parseObject(input, "attestation");
  return {
    requestId: parseBytes32(o.requestId, "requestId"),
    orderId: parseBytes32(o.orderId, "orderId"),
    originChainId: parseUint(o.originChainId, "originChainId"),
    originUser: parseAddressWord(o.originUser, "originUser"),
    originCurrency: parseAddressWord(o.originCurrency, "originCurrency"),
    originAmount: parseUint(o.originAmount, "originAmount"),
    destinationChainId: parseUint(o.destinationChainId, "destinationChainId"),
    destinationUser: parseAddressWord(o.destinationUser, "destinationUser"),
    destinationCurrency: parseAddressWord(o.destinationCurrency, "destinationCurrency"),
    destinationAmount: parseUint(o.destinationAmount, "destinationAmount"),
    deadline: parseUint(o.deadline, "deadline"),
    receiver: parseAddress(o.receiver, "receiver"),
  };
}

/** Parses loose input of either format. */
export function normalizeAttestation<F extends AttestationFormat>(format: F, input: unknown): AttestationOf<F>;
export function normalizeAttestation(format: AttestationFormat, input: unknown): RequestAttestation | FillAttestation {
  if (format === "v1") return normalizeRequestAttestation(input);
  if (format === "v2") return normalizeFillAttestation(input);
  throw new InvalidInputError(`unknown attestation format ${JSON.stringify(format)} (expected v1 or v2)`, { path: "format" });
}

/** v1 digest (AttestationLib.requestDigest). Takes a normalized attestation. */
export function requestDigest(att: RequestAttestation): LowercaseHex {
  return keccak256Lowercase(
    encodeAbiParameters(REQUEST_PARAMS, [
      att.requestId,
      att.originChainId,
      att.originUser,
      att.originCurrency,
      att.originAmount,
      att.destinationChainId,
      att.destinationUser,
    ]),
  );
}

/** v2 digest (AttestationLib.fillDigest). Takes a normalized attestation. */
export function fillDigest(att: FillAttestation): LowercaseHex {
  return fillDigestOfType(FILL_TYPEHASH, att);
}

/**
 * Calls attestation digest (AttestationLib.callsFillDigest): what the signer signs for an intent with
 * destination calls (requestId = callsRequestId), accepted by `fillWithCalls` only.
 */
export function callsFillDigest(att: FillAttestation): LowercaseHex {
  return fillDigestOfType(CALLS_FILL_TYPEHASH, att);
}

/**
 * Gate attestation digest (AttestationLib.gateDigest): a v1 `requestDigest` or v2 `fillDigest` bound to
 * the AttestationGate `gate` on chain `chainId` — the only signature that gate accepts.
 */
export function gateDigest(params: { digest: Hex; gate: Address; chainId: bigint }): LowercaseHex {
  return keccak256Lowercase(
    encodeAbiParameters([{ type: "bytes32" }, { type: "bytes32" }, { type: "address" }, { type: "uint256" }], [
      GATE_TYPEHASH,
      params.digest,
      params.gate,
      params.chainId,
    ]),
  );
}

function fillDigestOfType(typehash: Hex, att: FillAttestation): LowercaseHex {
  return keccak256Lowercase(
    encodeAbiParameters(FILL_PARAMS, [
      typehash,
      att.requestId,
      att.orderId,
      att.originChainId,
      att.originUser,
      att.originCurrency,
      att.originAmount,
      att.destinationChainId,
      att.destinationUser,
      att.destinationCurrency,
      att.destinationAmount,
      att.deadline,
      att.receiver,
    ]),
  );
}

/** The digest of either format, from loose input. */
export function attestationDigest(format: AttestationFormat, input: unknown): Hex {
  if (format === "v1") return requestDigest(normalizeRequestAttestation(input));
  if (format === "v2") return fillDigest(normalizeFillAttestation(input));
  throw new InvalidInputError(`unknown attestation format ${JSON.stringify(format)} (expected v1 or v2)`, { path: "format" });
}
