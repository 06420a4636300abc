/** Typed loaders for the shared vector files (read by tests; no side effects on import). */
import { readFileSync } from "node:fs";
import type { Address, Hex } from "viem";

export type AttestationVector<I> = { name: string; input: I; digest: Hex; signature: Hex; signer: Address };
export type V1VectorInput = Record<
  "requestId" | "originChainId" | "originUser" | "originCurrency" | "originAmount" | "destinationChainId" | "destinationUser",
  string
>;
export type V2VectorInput = V1VectorInput &
  Record<"orderId" | "destinationCurrency" | "destinationAmount" | "deadline" | "receiver", string>;
export type AttestationVectorFile = {
  description: string;
  fillTypehash: Hex;
  callsFillTypehash: Hex;
  gateTypehash: Hex;
  signer: Address;
  v1: AttestationVector<V1VectorInput>[];
  v2: (AttestationVector<V2VectorInput> & { callsDigest: Hex; callsSignature: Hex })[];
  /** v1/v2 digests bound to a gate on the vector's origin chain (AttestationLib.gateDigest). */
  gate: { name: string; format: "v1" | "v2"; attestationDigest: Hex; gate: Address; chainId: string; digest: Hex; signature: Hex }[];
};
export type OrderIdVectorFile = {
  description: string;
  cases: { name: string; orderData: Record<string, unknown>; orderId: Hex }[];
};

type CompactSignatureVector = { r: Hex; vs: Hex };
export type CalldataVectorFile = {
  description: string;
  fill: {
    name: string;
    target: { chainId: string; receiver: Address };
    digest: Hex;
    signature: Hex;
    compactSignature: CompactSignatureVector;
    signer: Address;
    /** The 277-byte packed fill (AttestationLib, "Packed fill"). */
    packed: Hex;
    /** fill_7hVe's calldata: its selector and `packed`. */
    calldata: Hex;
  }[];
  /** The v2 vectors whose values do not fit the packed fill (filled through the full-ABI `fill`). */
  noPackedForm: string[];
  deposits: { name: string; kind: "native" | "erc20"; token: Address; amount: string; id: Hex; value: string; calldata: Hex }[];
  execute: {
    name: string;
    chainId: number;
    depository: Address;
    request: { calls: { to: Address; token: Address; amount: string }[]; nonce: string; expiration: string };
    digest: Hex;
    signature: Hex;
    compactSignature: CompactSignatureVector;
    signer: Address;
    calldata: Hex;
  }[];
};

export const ATTESTATION_VECTORS_PATH = new URL("./attestations.json", import.meta.url);
export const ORDER_ID_VECTORS_PATH = new URL("./order-ids.json", import.meta.url);
export const CALLDATA_VECTORS_PATH = new URL("./calldata.json", import.meta.url);

export function loadAttestationVectors(): AttestationVectorFile {
  return JSON.parse(readFileSync(ATTESTATION_VECTORS_PATH, "utf8")) as AttestationVectorFile;
}

export function loadOrderIdVectors(): OrderIdVectorFile {
  return JSON.parse(readFileSync(ORDER_ID_VECTORS_PATH, "utf8")) as OrderIdVectorFile;
}

export function loadCalldataVectors(): CalldataVectorFile {
  return JSON.parse(readFileSync(CALLDATA_VECTORS_PATH, "utf8")) as CalldataVectorFile;
}
