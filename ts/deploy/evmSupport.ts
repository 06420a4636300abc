/**
 * Whether a chain runs the opcodes this build emits (solc 0.8.30, evmVersion prague): PUSH0
 * (Shanghai), MCOPY and TSTORE/TLOAD (Cancun). Asked with one `eth_call` of a 19-byte creation code
 * that uses all four and returns the value it round-tripped through transient storage and MCOPY; a
 * chain without one of them fails the call (invalid opcode) or returns something else. Nothing is
 * sent: `ferry deploy` runs it before its first transaction and `--check` reports it as a row.
 */
import { hexToBigInt, type Hex, type PublicClient } from "viem";
import { UnsupportedChainError } from "./deployErrors.ts";

/**
 * PUSH1 0x2a PUSH0 TSTORE · PUSH0 TLOAD PUSH0 MSTORE · PUSH1 0x20 PUSH0 PUSH1 0x20 MCOPY ·
 * PUSH1 0x20 PUSH1 0x20 RETURN — returns the word 0x2a when every opcode ran.
 */
export const EVM_PROBE_CODE: Hex = "0x602a5f5d5f5c5f5260205f60205e60206020f3";

/** The opcodes the probe needs, for messages. */
export const REQUIRED_OPCODES = "PUSH0 (Shanghai), MCOPY and TSTORE/TLOAD (Cancun)";

export type EvmSupport = { ok: true } | { ok: false; reason: string };

export async function probeEvmSupport(publicClient: PublicClient): Promise<EvmSupport> {
  let data: Hex | undefined;
  try {
    ({ data } = await publicClient.call({ data: EVM_PROBE_CODE }));
  } catch (cause) {
    const message = (cause as { shortMessage?: string }).shortMessage ?? (cause instanceof Error ? cause.message : String(cause));
    return { ok: false, reason: `the probe call failed: ${message.split("\n")[0]}` };
  }
  if (data === undefined || data.length !== 66 || hexToBigInt(data) !== 0x2an) {
    return { ok: false, reason: `the probe returned ${data ?? "nothing"} instead of 0x…2a` };
  }
  return { ok: true };
}

/** Throws UnsupportedChainError when the chain lacks an opcode of this build. */
export async function assertEvmSupport(publicClient: PublicClient, chainId: number): Promise<void> {
  const support = await probeEvmSupport(publicClient);
  if (!support.ok) throw new UnsupportedChainError(chainId, `${support.reason}`);
}
