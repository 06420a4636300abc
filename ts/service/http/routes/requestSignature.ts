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
 * construction, byte for byte). `fillAttestation.signature` is over ts/core's `fillDigest`, or — for an
 * intent with destination calls — `callsFillDigest` (`fillAttestation.type` says which): a calls
 * attestation runs only through `fillWithCalls`, with its calls.
 *
 * `?gate=<address>` adds `gateAttestation`: the same attestations bound to that AttestationGate on the
 * origin chain (ts/core `gateDigest` of the v2 fill digest → `signature`, of the v1 digest →
 * `requestSignature`), the only signatures a gate accepts — an attestation made for one integrator's
 * gate cannot be consumed by another's. Additions are extra fields; the v1 record is unchanged. 404 REQUEST_NOT_FOUND for an id neither requested nor quoted; 503
 * ATTESTER_NOT_CONFIGURED without an attester key. `fillAttestation` is absent when the destination
 * chain has no receiver configured.
 */
import { Type } from "typebox";
import { getAddress, type LocalAccount } from "viem";
import { fillDigest, gateDigest, requestDigest } from "../../../core/attestationDigest.ts";
import { signAttestationDigest } from "../../../core/signAttestation.ts";
import type { ChainConfig } from "../../config/configSchema.ts";
import { ServiceError } from "../../errors/serviceError.ts";
import { fillAttestationOf, isCallsAttestation, requestAttestationOf, signedDigestOf } from "../../model/attestations.ts";
import { RequestId } from "../../model/publicRecords.ts";
import type { QuotedIntent } from "../../model/quotedIntent.ts";
import { Address, AddressString, CanonicalHexOf, type Bytes32 } from "../../model/values.ts";
import type { Store } from "../../store/createStore.ts";
import type { FerryApp } from "../ferryApp.ts";
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
          type: Type.Union([Type.Literal("FillAttestation"), Type.Literal("CallsFillAttestation")], {
            description:
              "Ferry's addition: the type the signature is over — FillAttestation (fill_7hVe, fill), or CallsFillAttestation for a request with destination calls (fillWithCalls only)",
          }),
        },
        { description: "Ferry's v2 fill attestation (AttestedReceiver); present when the request has its fields" },
      ),
    ),
    gateAttestation: Type.Optional(
      Type.Object(
        {
          gate: AddressString,
          chainId: Type.Number({ description: "the gate's chain: the request's origin chain" }),
          /** Over gateDigest(fillDigest(fillAttestation.attestation), gate, chainId): what AttestationGate._consumeFill checks. */
          signature: Hex,
          /** Over gateDigest(requestDigest(the v1 attestation), gate, chainId): what AttestationGate._consumeRequest checks. */
          requestSignature: Hex,
        },
        { description: "Ferry's addition, with ?gate=: the attestations bound to that AttestationGate (a gate accepts only these)" },
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
    "With ?gate=<address>, also the gate attestation for that AttestationGate (the only signature a gate accepts). " +
    "404 REQUEST_NOT_FOUND; 409 ATTESTATION_UNAVAILABLE when the request lacks the attested fields.",
  tags: ["Requests"],
  params: Type.Object({ requestId: CanonicalHexOf(RequestId) }, { additionalProperties: false }),
  querystring: Type.Object(
    { gate: Type.Optional(Address) },
    { additionalProperties: false },
  ),
  response: { 200: AttestationRecord, 404: ErrorBody, 409: ErrorBody, 503: ErrorBody, ...commonErrorResponses },
};

/** The quoted intent a requestId is attested from: its request's, else its quote's (deposit not indexed yet). */
async function intentOf(store: Store, requestId: Bytes32): Promise<QuotedIntent> {
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
    const intent = await intentOf(options.store, request.params.requestId);
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
    const signer = getAddress(attester.address);
    const receiver = options.chains.find((c) => c.id === intent.destinationChainId)?.contracts.attestedReceiver;
    if (!receiver) return { requestData, signature, signer };
    const v2 = fillAttestationOf(intent, receiver);
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
    const fillAttestation = {
      attestation,
      signature: await signAttestationDigest(attester, signedDigestOf(intent, v2)),
      type: isCallsAttestation(intent) ? ("CallsFillAttestation" as const) : ("FillAttestation" as const),
    };
    if (request.query.gate === undefined) return { requestData, signature, signer, fillAttestation };
    const gate = request.query.gate;
    const chainId = BigInt(intent.originChainId);
    const gateAttestation = {
      gate,
      chainId: intent.originChainId,
      signature: await signAttestationDigest(attester, gateDigest({ digest: fillDigest(v2), gate, chainId })),
      requestSignature: await signAttestationDigest(attester, gateDigest({ digest: requestDigest(v1), gate, chainId })),
    };
    return { requestData, signature, signer, fillAttestation, gateAttestation };
  });
}
