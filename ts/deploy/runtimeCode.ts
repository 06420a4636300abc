/**
 * Comparing deployed runtime code with this build, pure. Immutables are written into the runtime code
 * by the constructor (AttestedReceiver's multicaller; Depository's EIP-712 cache: chain id, own
 * address, domain separator, hashed and short-string name/version), so the onchain code never equals
 * the artifact's `deployedBytecode` byte for byte. Both sides are compared with every immutable slot
 * (solc's `immutableReferences`) zeroed: the "fingerprint". The immutables' values are checked
 * separately through their getters (`multicaller()`, `eip712Domain()`).
 */
import { keccak256, type Hex } from "viem";
import type { ImmutableReferences } from "./ferryArtifacts.ts";

/** `code` with every immutable slot zeroed. Slots beyond the end of `code` are ignored. */
export function maskImmutables(code: Hex, immutableReferences: ImmutableReferences): Hex {
  const hex = code.slice(2).split("");
  for (const ranges of Object.values(immutableReferences)) {
    for (const { start, length } of ranges) {
      for (let i = start * 2; i < Math.min((start + length) * 2, hex.length); i++) hex[i] = "0";
    }
  }
  return `0x${hex.join("")}`;
}

/** keccak256 of the runtime code with immutables masked: equal for this build's code on any chain. */
export function runtimeCodeFingerprint(code: Hex, immutableReferences: ImmutableReferences): Hex {
  return keccak256(maskImmutables(code, immutableReferences));
}
