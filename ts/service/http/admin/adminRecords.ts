/**
 * The records the admin API answers with (routes/admin*.ts), as TypeBox schemas: API keys, webhook
 * configurations (header values always [redacted]), delivery logs with their attempts, parked
 * requests, deposit addresses with their payments. The same shapes as ../admin/*.ts returns, so the CLI prints either path alike.
 */
import { Type } from "typebox";
import { RequestStatusSchema } from "../../model/publicRecords.ts";
import { ErrorBody } from "../httpErrors.ts";

const IsoTime = Type.String({ format: "date-time", description: "ISO 8601, UTC" });
const NullableIsoTime = Type.Union([IsoTime, Type.Null()]);

/** An API key id as `ferry keys` prints it (`key_<16 hex>`); any other short token is looked up and not found. */
export const ApiKeyId = Type.String({ pattern: "^[A-Za-z0-9_-]{1,100}$", description: "API key id (key_…)" });
export const RequestIdParam = Type.String({ pattern: "^0x[0-9a-fA-F]{64}$", description: "requestId" });

export const ApiKeyRecordSchema = Type.Object(
  {
    id: Type.String(),
    name: Type.String(),
    rateLimit: Type.Union([Type.Integer(), Type.Null()], { description: "Requests per minute; null: rateLimits.apiKeyPerMinute" }),
    createdAt: IsoTime,
    revokedAt: NullableIsoTime,
    referrer: Type.Union([Type.String(), Type.Null()], { description: "The quote `referrer` attributed to this key (ferry keys referrer); null: none" }),
  },
  { additionalProperties: false },
);

/** PUT /admin/keys/{keyId}/referrer's answer. */
export const ApiKeyReferrerSchema = Type.Object({ id: Type.String(), referrer: Type.Union([Type.String(), Type.Null()]) }, { additionalProperties: false });

export const CreatedApiKeySchema = Type.Object(
  {
    id: Type.String(),
    name: Type.String(),
    rateLimit: Type.Union([Type.Integer(), Type.Null()]),
    key: Type.String({ description: "The key itself: shown only in this response, only its SHA-256 is stored" }),
  },
  { additionalProperties: false },
);

export const RevokedApiKeySchema = Type.Object(
  {
    id: Type.String(),
    revoked: Type.Literal(true),
    alreadyRevoked: Type.Boolean({ description: "true when the key was revoked before this call" }),
    revokedAt: NullableIsoTime,
  },
  { additionalProperties: false },
);

export const WebhookConfigSchema = Type.Object(
  {
    keyId: Type.String(),
    keyName: Type.String(),
    url: Type.String(),
    headers: Type.Record(Type.String(), Type.String(), { description: "Custom header names; every value is [redacted]" }),
    updatedAt: IsoTime,
  },
  { additionalProperties: false },
);

const WebhookDeliveryState = Type.Union([Type.Literal("pending"), Type.Literal("delivered"), Type.Literal("failed"), Type.Literal("skipped")]);
const Nullable = <T extends Parameters<typeof Type.Union>[0][number]>(schema: T) => Type.Union([schema, Type.Null()]);

export const WebhookAttemptSchema = Type.Object(
  {
    eventId: Type.Integer(),
    attempt: Type.Integer(),
    at: IsoTime,
    statusCode: Nullable(Type.Integer()),
    error: Nullable(Type.String()),
    durationMs: Type.Integer(),
  },
  { additionalProperties: false },
);

export const DeliveryLogSchema = Type.Object(
  {
    eventId: Type.Integer(),
    requestId: Type.String(),
    status: RequestStatusSchema,
    keyId: Nullable(Type.String()),
    state: WebhookDeliveryState,
    attempts: Type.Integer({ description: "Attempts in the current round" }),
    nextAttemptAt: NullableIsoTime,
    lastStatusCode: Nullable(Type.Integer()),
    lastError: Nullable(Type.String()),
    deliveredAt: NullableIsoTime,
    createdAt: IsoTime,
    attemptLog: Type.Array(WebhookAttemptSchema, { description: "Every attempt, oldest first, earlier rounds included" }),
  },
  { additionalProperties: false },
);

export const ParkedRequestSchema = Type.Object(
  {
    id: Type.String(),
    status: RequestStatusSchema,
    originChainId: Type.Integer(),
    destinationChainId: Type.Integer(),
    parked: Type.Object(
      { code: Type.String({ description: "The error code that parked it" }), message: Type.String(), at: IsoTime },
      { additionalProperties: false },
    ),
    updatedAt: IsoTime,
  },
  { additionalProperties: false },
);

const NullableString = Type.Union([Type.String(), Type.Null()]);

/** One deposit address on one chain and the payments it saw (../../admin/depositAddressAdmin.ts). */
export const DepositAddressViewSchema = Type.Object(
  {
    chainId: Type.Integer(),
    address: Type.String(),
    mode: Type.String({ description: "strict, or open (an open address on a chain other than its quotes')" }),
    state: Type.String({ description: "watching, forwarding (forwarded), refunding, refunded; elsewhere: a chain other than the quote's, where payments are refunded" }),
    requestId: Type.String(),
    orderId: Type.String(),
    currency: Type.String({ description: "The bound currency (zero address: native)" }),
    amount: Type.String({ description: "The bound amount, smallest unit" }),
    refundTo: Type.String(),
    expiresAt: IsoTime,
    payments: Type.Array(
      Type.Object(
        {
          txHash: NullableString,
          depositor: NullableString,
          currency: Type.String(),
          amount: Type.String(),
          block: Type.Integer(),
          outcome: Type.String({ description: "forwarded, or refund planned|sent|confirmed|ignored|reverted" }),
          reason: NullableString,
          requestId: Type.String(),
          refundTxHash: NullableString,
        },
        { additionalProperties: false },
      ),
    ),
  },
  { additionalProperties: false },
);

/** Every admin route answers these besides its own: 401 ADMIN_UNAUTHORIZED, 400, 429, 500. */
export const adminErrorResponses = { 400: ErrorBody, 401: ErrorBody, 429: ErrorBody, 500: ErrorBody } as const;

/** The OpenAPI security requirement of admin routes (the `adminToken` scheme, ../routes/openapi.ts). */
export const ADMIN_SECURITY = [{ adminToken: [] }];
