/**
 * What a rollup charges a transaction's L1 data for: the size of the signed transaction (type byte +
 * RLP, `serializeTransaction` with its signature) after the compressor the rollup prices with.
 *
 * - OP Stack (Fjord and later): FastLZ. The L1 fee's size is `estimatedSize = max(100, (836_500 ×
 *   flzSize − 42_585_600) / 1e6)` bytes, with `flzSize` the FastLZ-compressed length of the signed
 *   transaction (op-geth `rollup_cost.go`; GasPriceOracle `getL1FeeFjord`, which adds 68 bytes for a
 *   signature only when it is handed an unsigned transaction). FastLZ is solady's JS port
 *   (`LibZip.flzCompress`, the same algorithm as the predeploy's LibZip; test/onchain/flzCompress.test.ts
 *   checks it against solady's Solidity `LibZip.flzCompress` on a chain).
 * - Arbitrum (Nitro): brotli of the signed transaction (`tx.MarshalBinary()`), at the ArbOS
 *   `BrotliCompressionLevel` (its initial value is 0 — "brotli-zero"; the chain owner may raise it
 *   with `ArbOwner.setBrotliCompressionLevel`), window 22 (`BROTLI_DEFAULT_WINDOW`, arbcompress); the
 *   poster's units are that length × 16. node:zlib's brotli is the same reference implementation.
 */
import { constants, brotliCompressSync } from "node:zlib";
import solady from "solady";
import { hexToBytes, toHex, type Hex } from "viem";

/** FastLZ-compressed length (bytes) of `data`. */
export function flzSize(data: Hex | Uint8Array): number {
  const hex = typeof data === "string" ? data : toHex(data);
  return hexToBytes(solady.LibZip.flzCompress(hex) as Hex).length;
}

/** OP Stack Fjord's estimated L1 size (bytes) for a FastLZ size. */
export function opFjordEstimatedSize(flz: number): number {
  return Math.max(100, (836_500 * flz - 42_585_600) / 1e6);
}

/** Brotli-compressed length (bytes) at `quality` (Arbitrum: ArbOS's BrotliCompressionLevel, initially 0), window 22. */
export function brotliSize(data: Hex | Uint8Array, quality = 0): number {
  const bytes = typeof data === "string" ? hexToBytes(data) : data;
  return brotliCompressSync(bytes, {
    params: {
      [constants.BROTLI_PARAM_QUALITY]: quality,
      [constants.BROTLI_PARAM_LGWIN]: 22,
      [constants.BROTLI_PARAM_MODE]: constants.BROTLI_MODE_GENERIC,
      [constants.BROTLI_PARAM_SIZE_HINT]: bytes.length,
    },
  }).length;
}

/** Calldata bytes that are zero and non-zero (4 and 16 gas each). */
export function calldataBytes(data: Hex): { zero: number; nonZero: number; gas: number } {
  const bytes = hexToBytes(data);
  const zero = bytes.filter((b) => b === 0).length;
  return { zero, nonZero: bytes.length - zero, gas: 4 * zero + 16 * (bytes.length - zero) };
}
