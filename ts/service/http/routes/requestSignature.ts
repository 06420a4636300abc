/**
 * GET /requests/{requestId}/signature — the spec's v1 Attestation record, plus Ferry's v2 fill
 * attestation when the request carries what it needs.
 *
 * `signature` is the attester key's EIP-191 personal sign over ts/core's `requestDigest` (the spec's
 * construction). Where the values come from (the quote/solver work fills them in the request's `data`):
 *
 * | Field | Source |
 * |---|---|
 * | requestId | the request id |
 * | originChainId, destinationChainId | the request's chain ids |
 * | originUser / destinationUser | the request's `user` / `recipient` |
 * | originCurrency, originAmount | `data.originCurrency` (address, zero = native), `data.originAmount` (decimal string, base units) |
 * | orderId (v2) | the request's orderId |
 * | destinationCurrency, destinationAmount (v2) | `data.destinationCurrency`, `data.destinationAmount` |
 * | deadline (v2) | `data.fillDeadline` (unix seconds) |
 * | receiver (v2) | the destination chain's `attestedReceiver` from the config |
 *
 * Before the deposit is indexed there is no request row; a quoted requestId is then attested from the
 * quote's intent (an integrator's gated checkout needs the attestation before it pays): originUser /
 * destinationUser = the intent's `user` / `recipient`, origin and destination currency and amount as
 * quoted, deadline (v2) = the intent's `fillDeadline`, orderId the quote's.
 *
 * 404 REQUEST_NOT_FOUND for an id neither requested nor quoted; 409 ATTESTATION_UNAVAILABLE when the v1 fields are missing
 * or malformed; 503 ATTESTER_NOT_CONFIGURED without an attester key. `fillAttestation` is simply
 * absent when a v2 field is missing.
 */
import { Type } from "typebox";
import type { LocalAccount } from "viem";
import { normalizeFillAttestation, normalizeRequestAttestation } from "../../../core/attestationDigest.ts";
import { isFerryError } from "../../../core/errors.ts";
import { signAttestation } from "../../../core/signAttestation.ts";
import type { ChainConfig } from "../../config/configSchema.ts";
import type { Store } from "../../store/createStore.ts";
import type { StoredQuote } from "../../store/quotes.ts";
import type { StoredRequest } from "../../store/requests.ts";
import { NoQuery, type FerryApp } from "../ferryApp.ts";
import { commonErrorResponses, ErrorBody } from "../httpErrors.ts";
import { RequestId } from "../requestRecord.ts";
import { ServiceError } from "../../errors/serviceError.ts";

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

const str = (value: unknown): string | undefined =>
  typeof value === "string" ? value : typeof value === "bigint" ? value.toString() : typeof value === "number" && Number.isSafeInteger(value) ? String(value) : undefined;

function unavailable(message: string): ServiceError {
  return new ServiceError("ATTESTATION_UNAVAILABLE", message);
}

/** What the attestations are built from: a stored request, or (before its deposit is indexed) a quote. */
type AttestedSource = {
  orderId: string;
  originChainId: number;
  originUser: string;
  originCurrency: string | undefined;
  originAmount: string | undefined;
  destinationChainId: number;
  destinationUser: string;
  destinationCurrency: string | undefined;
  destinationAmount: string | undefined;
  deadline: string | undefined;
};

function fromRequest(stored: StoredRequest): AttestedSource {
  return {
    orderId: stored.orderId,
    originChainId: stored.originChainId,
    originUser: stored.user,
    originCurrency: str(stored.data.originCurrency),
    originAmount: str(stored.data.originAmount),
    destinationChainId: stored.destinationChainId,
    destinationUser: stored.recipient,
    destinationCurrency: str(stored.data.destinationCurrency),
    destinationAmount: str(stored.data.destinationAmount),
    deadline: str(stored.data.fillDeadline),
  };
}

function fromQuote({ intent }: StoredQuote): AttestedSource {
  return {
    orderId: intent.orderId,
    originChainId: intent.originChainId,
    originUser: intent.user,
    originCurrency: str(intent.originCurrency),
    originAmount: str(intent.originAmount),
    destinationChainId: intent.destinationChainId,
    destinationUser: intent.recipient,
    destinationCurrency: str(intent.destinationCurrency),
    destinationAmount: str(intent.destinationAmount),
    deadline: str(intent.fillDeadline),
  };
}

async function fillAttestation(source: AttestedSource, chains: readonly ChainConfig[], attester: LocalAccount, v1: Record<string, unknown>) {
  const receiver = chains.find((c) => c.id === source.destinationChainId)?.contracts.attestedReceiver;
  const { destinationCurrency, destinationAmount, deadline } = source;
  if (!receiver || destinationCurrency === undefined || destinationAmount === undefined || deadline === undefined) return undefined;
  try {
    const a = normalizeFillAttestation({ ...v1, orderId: source.orderId, destinationCurrency, destinationAmount, deadline, receiver });
    const { signature } = await signAttestation({ account: attester, format: "v2", attestation: a });
    const attestation = Object.fromEntries(Object.entries(a).map(([k, v]) => [k, typeof v === "bigint" ? v.toString() : v])) as Record<
      keyof typeof a,
      string
    >;
    return { attestation, signature };
  } catch (error) {
    if (isFerryError(error)) return undefined;
    throw error;
  }
}

export function registerRequestSignatureRoute(
  app: FerryApp,
  options: { store: Store; chains: readonly ChainConfig[]; attester: LocalAccount | undefined },
): void {
  app.get("/requests/:requestId/signature", { schema: requestSignatureSchema }, async (request) => {
    const requestId = request.params.requestId.toLowerCase();
    const stored = await options.store.getRequest(requestId);
    const quote = stored ? null : await options.store.getQuote(requestId);
    if (!stored && !quote) throw new ServiceError("REQUEST_NOT_FOUND", `request not found: ${requestId}`);
    if (!options.attester) throw new ServiceError("ATTESTER_NOT_CONFIGURED", "this service has no attester key");
    const source = stored ? fromRequest(stored) : fromQuote(quote!);
    const { originCurrency, originAmount } = source;
    if (originCurrency === undefined || originAmount === undefined) {
      throw unavailable("the request has no origin currency and amount to attest yet");
    }
    const requestData = {
      originChainId: source.originChainId,
      originUser: source.originUser,
      originCurrency,
      originAmount,
      destinationChainId: source.destinationChainId,
      destinationUser: source.destinationUser,
    };
    const v1 = { requestId, ...requestData };
    let signature: `0x${string}`;
    try {
      normalizeRequestAttestation(v1);
      ({ signature } = await signAttestation({ account: options.attester, format: "v1", attestation: v1 }));
    } catch (error) {
      if (isFerryError(error)) throw unavailable("the request's attested fields are malformed");
      throw error;
    }
    const fill = await fillAttestation(source, options.chains, options.attester, v1);
    return { requestData, signature, ...(fill && { fillAttestation: fill }) };
  });
}
