/**
 * POST /fast-fill {requestId, solverInputCurrencyAmount?, maxFillAmountUsd?} — an app asks the solver to
 * fill a request whose origin deposit transaction was sent but is not final yet, fronting the value on
 * the app's balance (the solver's ../../solver/fill/fastFill.ts, injected as a `FastFiller`). The body
 * is what @relayprotocol/relay-sdk's `fastFill` action sends.
 *
 * `x-api-key` required (401 API_KEY_REQUIRED / INVALID_API_KEY); 200 `{message}` "fast fill queued" or,
 * for a request already fast-filled, "fast fill already queued or executed"; 400 FAST_FILL_DEPOSIT_NOT_SEEN,
 * FAST_FILL_DEPOSIT_MISMATCH, FAST_FILL_ABOVE_MAX, FAST_FILL_PRICE_UNAVAILABLE; 403 FAST_FILL_BALANCE_TOO_LOW;
 * 404 REQUEST_NOT_FOUND (also another app's request: it is neither revealed nor charged); 409
 * FAST_FILL_REQUEST_IN_PROGRESS (the deposit is already indexed); 429 EXPOSURE_BUDGET_EXCEEDED.
 * `solverInputCurrencyAmount` is accepted and ignored: the solver is repaid from the deposit, as quoted.
 */
import { Type } from "typebox";
import { ServiceError } from "../../errors/serviceError.ts";
import { CanonicalHexOf, type Bytes32 } from "../../model/values.ts";
import { NoQuery, type FerryApp } from "../ferryApp.ts";
import { bodyErrorResponses, commonErrorResponses, ErrorBody } from "../httpErrors.ts";

/** What the route asks of the solver (../../server.ts injects the solver's `createFastFiller`). */
export type FastFiller = {
  fastFill(input: { apiKeyId: string; requestId: Bytes32; maxFillAmountUsd?: bigint }): Promise<{ message: string }>;
};

const MICROS = "^(0|[1-9][0-9]{0,37})$";

export const FastFillBody = Type.Object(
  {
    requestId: CanonicalHexOf(Type.String({ pattern: "^0x[0-9a-fA-F]{64}$", description: "The request to fill now (its deposit transaction sent and indexed through POST /transactions/index)" })),
    solverInputCurrencyAmount: Type.Optional(Type.String({ pattern: MICROS, description: "Accepted and ignored: the solver is repaid from the deposit as quoted" })),
    maxFillAmountUsd: Type.Optional(
      Type.String({ pattern: MICROS, description: "The most the app will front, in USD micro-units (6 decimals): a fill worth more is refused (400 FAST_FILL_ABOVE_MAX)" }),
    ),
  },
  { additionalProperties: false },
);

export const FastFillResponse = Type.Object({ message: Type.String({ description: "fast fill queued, or already queued or executed" }) }, { additionalProperties: false });

export const fastFillSchema = {
  summary: "Fill a request before its deposit is final, fronted by the app balance",
  description:
    "Needs x-api-key: the request must be quoted with that key and its deposit transaction seen. The destination value (USD micro-units at the configured price) is held on the app balance until the deposit is indexed (then released) or the quote expires without it (then settled: the app bears it). 401 API_KEY_REQUIRED / INVALID_API_KEY; 400 FAST_FILL_DEPOSIT_NOT_SEEN, FAST_FILL_DEPOSIT_MISMATCH, FAST_FILL_ABOVE_MAX, FAST_FILL_PRICE_UNAVAILABLE; 403 FAST_FILL_BALANCE_TOO_LOW; 404 REQUEST_NOT_FOUND; 409 FAST_FILL_REQUEST_IN_PROGRESS; 429 EXPOSURE_BUDGET_EXCEEDED.",
  tags: ["Transactions"],
  querystring: NoQuery,
  body: FastFillBody,
  response: { 200: FastFillResponse, 403: ErrorBody, 404: ErrorBody, 409: ErrorBody, ...bodyErrorResponses, ...commonErrorResponses },
};

export function registerFastFillRoute(app: FerryApp, options: { filler: FastFiller }): void {
  app.post("/fast-fill", { schema: fastFillSchema }, async (request) => {
    if (!request.apiKey) throw new ServiceError("API_KEY_REQUIRED", "POST /fast-fill needs the app's key in the x-api-key header");
    const { requestId, maxFillAmountUsd } = request.body;
    const result = await options.filler.fastFill({
      apiKeyId: request.apiKey.id,
      requestId,
      ...(maxFillAmountUsd !== undefined && { maxFillAmountUsd: BigInt(maxFillAmountUsd) }),
    });
    return { message: result.message };
  });
}
