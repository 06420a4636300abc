/**
 * The attestations of a quoted intent, built in this one place for every signer: the solver's fill
 * (v2, sent to the AttestedReceiver) and GET /requests/{requestId}/signature (v1, and the same v2).
 * Typed ts/core values: addresses as left-padded bytes32 words, amounts and chain ids as bigint, so
 * ts/core's `requestDigest` / `fillDigest` and the contract's ABI encoder take them as they are.
 *
 * What the attester signs of the v2 attestation (`signedDigestOf`): the fill digest, or — for an intent
 * with destination calls, whose requestId commits to them — the calls attestation digest, which only
 * `fillWithCalls` accepts (the packed fill and `fill` would pay the recipient and skip the calls).
 */
import { pad, type Address, type Hex } from "viem";
import { callsFillDigest, fillDigest, type FillAttestation, type RequestAttestation } from "../../core/attestationDigest.ts";
import { hasCalls } from "./intentCalls.ts";
import type { QuotedIntent } from "./quotedIntent.ts";
import type { Bytes32 } from "./values.ts";

/** The fields an attestation is made of: a quoted intent's. */
export type AttestedTerms = Pick<
  QuotedIntent,
  | "requestId"
  | "orderId"
  | "user"
  | "recipient"
  | "originChainId"
  | "originCurrency"
  | "originAmount"
  | "destinationChainId"
  | "destinationCurrency"
  | "destinationAmount"
  | "fillDeadline"
  | "calls"
>;

const word = (address: Address): Hex => pad(address, { size: 32 });

/** v1 (the spec's request attestation): origin user = the quote's user, destination user = its recipient. */
export function requestAttestationOf(terms: AttestedTerms): RequestAttestation {
  return {
    requestId: terms.requestId,
    originChainId: BigInt(terms.originChainId),
    originUser: word(terms.user),
    originCurrency: word(terms.originCurrency),
    originAmount: terms.originAmount,
    destinationChainId: BigInt(terms.destinationChainId),
    destinationUser: word(terms.recipient),
  };
}

/** v2 (the fill attestation) for the destination chain's AttestedReceiver `receiver`; deadline = the fill deadline. */
export function fillAttestationOf(terms: AttestedTerms, receiver: Address): FillAttestation {
  return {
    ...requestAttestationOf(terms),
    orderId: terms.orderId,
    destinationCurrency: word(terms.destinationCurrency),
    destinationAmount: terms.destinationAmount,
    deadline: BigInt(terms.fillDeadline),
    receiver,
  };
}

/** Whether `terms`' v2 attestation is a calls attestation (signed for `fillWithCalls` only). */
export function isCallsAttestation(terms: Pick<AttestedTerms, "calls">): boolean {
  return hasCalls(terms);
}

/** The digest the attester signs for `terms`' v2 attestation `att` (and the receiver stores once filled). */
export function signedDigestOf(terms: Pick<AttestedTerms, "calls">, att: FillAttestation): Bytes32 {
  return hasCalls(terms) ? callsFillDigest(att) : fillDigest(att);
}

/** The service's fill of a quoted intent on one receiver: its v2 attestation and the digest the attester signs. */
export type PreparedFill = { attestation: FillAttestation; digest: Bytes32 };

/**
 * Built and hashed once per fill: the solver signs `digest`, sends `attestation` and records `digest`
 * (the receiver stores it once filled). `receiver` is the destination AttestedReceiver, canonical.
 */
export function preparedFillOf(terms: AttestedTerms, receiver: Address): PreparedFill {
  const attestation = fillAttestationOf(terms, receiver);
  return { attestation, digest: signedDigestOf(terms, attestation) };
}
