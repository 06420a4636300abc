/**
 * The attestations of a quoted intent, built in this one place for every signer: the solver's fill
 * (v2, sent to the AttestedReceiver) and GET /requests/{requestId}/signature (v1, and the same v2).
 * Typed ts/core values: addresses as left-padded bytes32 words, amounts and chain ids as bigint, so
 * ts/core's `requestDigest` / `fillDigest` and the contract's ABI encoder take them as they are.
 */
import { pad, type Address, type Hex } from "viem";
import type { FillAttestation, RequestAttestation } from "../../core/attestationDigest.ts";
import type { QuotedIntent } from "./quotedIntent.ts";

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
