/**
 * "attestation: valid / invalid (what failed)" for the explorer, computed where the page runs by
 * ts/core's own `verifyReceipt` — the code `ferry requests verify-receipt` runs — bundled for the
 * browser. The trusted contracts and signers are the ones GET /chains names (the depository, the
 * AttestedReceiver, `attestationSigners`): the page checks that the receipt is consistent with what
 * this service publishes; a visitor who trusts another source compares those addresses with it.
 */
import { verifyReceipt, type ReceiptTrust } from "../core/verifyReceipt.ts";

/** The parts of a GET /chains record the trust set is read from. */
export type ChainTrustFacts = {
  id: number;
  contracts?: { serviceReceiver?: string };
  protocol?: { v2?: { depository?: string } };
  attestationSigners?: string[];
};

export type ReceiptVerdict =
  | { valid: true; signer: string; checks: number; trusted: ReceiptTrust }
  | { valid: false; check: string; code: string; message: string; trusted: ReceiptTrust };

/** The addresses given, once each (every chain names the same attester), case-insensitively. */
const present = (values: (string | undefined)[]) => [...new Map(values.filter((value): value is string => typeof value === "string" && value !== "").map((value) => [value.toLowerCase(), value])).values()];

export function trustOf(chains: readonly ChainTrustFacts[]): ReceiptTrust {
  return {
    signers: present(chains.flatMap((chain) => chain.attestationSigners ?? [])),
    depositories: present(chains.map((chain) => chain.protocol?.v2?.depository)),
    receivers: present(chains.map((chain) => chain.contracts?.serviceReceiver)),
  };
}

export async function receiptVerdict(receipt: unknown, chains: readonly ChainTrustFacts[]): Promise<ReceiptVerdict> {
  const trusted = trustOf(chains);
  const result = await verifyReceipt(receipt, { trusted });
  if (result.valid) return { valid: true, signer: result.signer, checks: result.checks.length, trusted };
  return { valid: false, check: result.check, code: result.error.code, message: result.error.message, trusted };
}
