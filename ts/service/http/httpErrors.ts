/**
 * The one error body every endpoint answers with: `{message, errorCode}` (the spec's error shape),
 * and the error statuses route schemas declare. Which status a code gets is decided once, in
 * ../errors/errorRegistry.ts; routes throw `ServiceError`s (../errors/serviceError.ts).
 */
import { Type, type Static } from "typebox";

export const ErrorBody = Type.Object(
  {
    message: Type.String(),
    errorCode: Type.String({ description: "Stable machine-readable code, e.g. INVALID_REQUEST, NOT_FOUND" }),
  },
  { description: "Error" },
);
export type ErrorBody = Static<typeof ErrorBody>;

/** The error statuses every route can answer (declared in each route schema, so /openapi.json lists them). */
export const commonErrorResponses = {
  400: ErrorBody,
  401: ErrorBody,
  429: ErrorBody,
  500: ErrorBody,
} as const;

/** What routes with a request body add: 413 (over the body limit) and 415 (not JSON). */
export const bodyErrorResponses = { 413: ErrorBody, 415: ErrorBody } as const;
