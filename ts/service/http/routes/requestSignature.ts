/**
 * GET /requests/{requestId}/signature — the spec's v1 Attestation record, plus Ferry's v2 fill
 * attestation.
 *
 * Both are built by the one builder the solver's fill uses (../../model/attestations.ts) from the
 * request's quoted intent — stored with the request, or, before its deposit is indexed, the quote's
 * (an integrator's gated checkout needs the attestation before it pays) — so the v2 attestation served
 * here is byte for byte the one the solver sends to the AttestedReceiver:
 *
 * | Field | Source (the quoted intent) |
 * |---|---|
 * | requestId, orderId (v2) | the ids |
 * | originChainId, destinationChainId | the chain ids |
 * | originUser / destinationUser | `user` / `recipient`, left-padded to bytes32 |
 * | originCurrency, originAmount | the deposit quoted (zero address = native) |
 * | destinationCurrency, destinationAmount (v2) | what the recipient is paid |
 * | deadline (v2) | the fill deadline (unix seconds) |
 * | receiver (v2) | the destination chain's `attestedReceiver` from the config |
 *
 * `signature` is the attester key's EIP-191 personal sign over ts/core's `requestDigest` (the spec's
 * construction). 404 REQUEST_NOT_FOUND for an id neither requested nor quoted; 503
 * ATTESTER_NOT_CONFIGURED without an attester key. `fillAttestation` is absent when the destination
 * chain has no receiver configured.
 */
import { Type } from "typebox";
import type { LocalAccount } from "viem";
import { fillDigest, requestDigest } from "../../../core/attestationDigest.ts";
import { signAttestationDigest } from "../../../core/signAttestation.ts";
import type { ChainConfig } from "../../config/configSchema.ts";
import { ServiceError } from "../../errors/serviceError.ts";
import { fillAttestationOf, requestAttestationOf } from "../../model/attestations.ts";
import { RequestId } from "../../model/publicRecords.ts";
import type { QuotedIntent } from "../../model/quotedIntent.ts";
import { canonicalAddress } from "../../model/values.ts";
import type { Store } from "../../store/createStore.ts";
import { NoQuery, type FerryApp } from "../ferryApp.ts";
import { commonErrorResponses, ErrorBody } from "../httpErrors.ts";

const Hex = Type.String({ pattern: "^0x[0-9a-fA-F]*$" });

export const AttestationRecord = Type.Object(
  {
    requestData: Type.Object({
      originChainId: Type.Number(),
      originUser: Type.String(),
      originCurrency: Type.String(),
      originAmount: Type.String(),
      destinationChainId: Type.Number(),
      destinationUser: Type.String(),
    }),
    signature: Hex,
    signer: Type.String({
      description: "Ferry's addition: the address `signature` (and the fill attestation's) recovers to — the attester key, also in /chains attestationSigners",
    }),
    fillAttestation: Type.Optional(
      Type.Object(
        {
          attestation: Type.Object({
            requestId: Type.String(),
            orderId: Type.String(),
            originChainId: Type.String(),
            originUser: Type.String(),
            originCurrency: Type.String(),
            originAmount: Type.String(),
            destinationChainId: Type.String(),
            destinationUser: Type.String(),
            destinationCurrency: Type.String(),
            destinationAmount: Type.String(),
            deadline: Type.String(),
            receiver: Type.String(),
          }),
          signature: Hex,
        },
        { description: "Ferry's v2 fill attestation (AttestedReceiver); present when the request has its fields" },
      ),
    ),
  },
  { description: "Attestation record" },
);

export const requestSignatureSchema = {
  summary: "Request attestation",
  description:
    "The v1 attestation of a request (EIP-191 signature over the request digest) and, when available, the v2 fill attestation. " +
    "A quoted requestId is attested from its quote before the deposit is indexed. " +
    "404 REQUEST_NOT_FOUND; 409 ATTESTATION_UNAVAILABLE when the request lacks the attested fields.",
  tags: ["Requests"],
  params: Type.Object({ requestId: RequestId }, { additionalProperties: false }),
  querystring: NoQuery,
  response: { 200: AttestationRecord, 404: ErrorBody, 409: ErrorBody, 503: ErrorBody, ...commonErrorResponses },
};

/** The quoted intent a requestId is attested from: its request's, else its quote's (deposit not indexed yet). */
async function intentOf(store: Store, requestId: string): Promise<QuotedIntent> {
  const stored = await store.getRequest(requestId);
  if (stored?.solver) return stored.solver.intent;
  const quote = stored ? null : await store.getQuote(requestId);
  if (quote) return quote.intent;
  if (stored) throw new ServiceError("ATTESTATION_UNAVAILABLE", "the request has no quoted terms to attest");
  throw new ServiceError("REQUEST_NOT_FOUND", `request not found: ${requestId}`);
}

const decimal = (value: bigint) => value.toString();

export function registerRequestSignatureRoute(
  app: FerryApp,
  options: { store: Store; chains: readonly ChainConfig[]; attester: LocalAccount | undefined },
): void {
  app.get("/requests/:requestId/signature", { schema: requestSignatureSchema }, async (request) => {
    const intent = await intentOf(options.store, request.params.requestId.toLowerCase());
    const attester = options.attester;
    if (!attester) throw new ServiceError("ATTESTER_NOT_CONFIGURED", "this service has no attester key");
    const v1 = requestAttestationOf(intent);
    const signature = await signAttestationDigest(attester, requestDigest(v1));
    const requestData = {
      originChainId: intent.originChainId,
      originUser: intent.user,
      originCurrency: intent.originCurrency,
      originAmount: decimal(intent.originAmount),
      destinationChainId: intent.destinationChainId,
      destinationUser: intent.recipient,
    };
    const signer = attester.address;
    const receiver = options.chains.find((c) => c.id === intent.destinationChainId)?.contracts.attestedReceiver;
    if (!receiver) return { requestData, signature, signer };
    const v2 = fillAttestationOf(intent, canonicalAddress(receiver));
    const attestation = {
      requestId: v2.requestId,
      orderId: v2.orderId,
      originChainId: decimal(v2.originChainId),
      originUser: v2.originUser,
      originCurrency: v2.originCurrency,
      originAmount: decimal(v2.originAmount),
      destinationChainId: decimal(v2.destinationChainId),
      destinationUser: v2.destinationUser,
      destinationCurrency: v2.destinationCurrency,
      destinationAmount: decimal(v2.destinationAmount),
      deadline: decimal(v2.deadline),
      receiver: v2.receiver,
    };
    return { requestData, signature, signer, fillAttestation: { attestation, signature: await signAttestationDigest(attester, fillDigest(v2)) } };
  });
}
