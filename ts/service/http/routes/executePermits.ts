/**
 * POST /execute/permits?signature=0x… {kind, requestId, api?, referrer?} — the signature of a usePermit
 * quote's `authorize` step, exactly as @relayprotocol/relay-sdk posts it (the step item's `post`: the
 * body as quoted, `referrer` = the SDK's source added, the signature as a query parameter). The
 * service checks it against the stored quote and submits the deposit from its own wallet (the port,
 * ../../solver/fill/submitPermitDeposit.ts, is injected by the process that owns the solver's clients).
 * 200 `{message, requestId, txHash?}`; the SDK then polls the item's `check` (the status goes
 * `depositing` → `pending` → … → `success`).
 *
 * 404 REQUEST_NOT_FOUND (no such quote); 400 PERMIT_NOT_QUOTED, INVALID_REQUEST (another kind),
 * QUOTE_EXPIRED, INVALID_PERMIT_SIGNATURE (not the user's signature over the quoted message: another
 * spender, amount, token, deadline or order), PERMIT_DEPOSIT_REVERTED (the deposit would revert);
 * 503 CHAIN_UNAVAILABLE.
 */
import { Type } from "typebox";
import type { Hex } from "viem";
import { isFerryError } from "../../../core/errors.ts";
import { ServiceError } from "../../errors/serviceError.ts";
import type { Logger } from "../../logging/logger.ts";
import { BYTES32_PATTERN, CanonicalHexOf } from "../../model/values.ts";
import type { FerryApp } from "../ferryApp.ts";
import { bodyErrorResponses, commonErrorResponses, ErrorBody } from "../httpErrors.ts";

/** What the route asks of the permit-deposit submitter (the solver's `createPermitDepositSubmitter` is one). */
export type PermitDepositSubmitter = {
  submit(submission: { requestId: Hex; kind: string; signature: Hex }, log: Logger): Promise<{ message: string; requestId: Hex; txHash?: Hex }>;
};

export const ExecutePermitsQuery = Type.Object(
  {
    signature: CanonicalHexOf(Type.String({ pattern: "^0x([0-9a-fA-F]{128}|[0-9a-fA-F]{130})$", description: "The user's EIP-712 signature (65 bytes, or 64-byte EIP-2098)" })),
    referrer: Type.Optional(Type.String({ maxLength: 256, description: "Accepted and ignored" })),
  },
  { additionalProperties: false },
);

export const ExecutePermitsBody = Type.Object(
  {
    kind: Type.String({ maxLength: 32, description: "The quoted kind: `eip2612` or `permit2` (the step item's post.body)" }),
    requestId: CanonicalHexOf(Type.String({ pattern: BYTES32_PATTERN, description: "The quote's requestId" })),
    api: Type.Optional(Type.String({ maxLength: 32, description: "Accepted and ignored (`bridge`)" })),
    referrer: Type.Optional(Type.String({ maxLength: 256, description: "Accepted and ignored (the SDK sends its source)" })),
  },
  { additionalProperties: false },
);

export const ExecutePermitsResponse = Type.Object(
  {
    message: Type.String(),
    requestId: Type.String(),
    txHash: Type.Optional(Type.String({ description: "The origin deposit transaction (the service's, or the one already onchain)" })),
  },
  { additionalProperties: false },
);

export const executePermitsSchema = {
  summary: "Submit a permit signature",
  description:
    "The signature of a usePermit quote's `authorize` step. The service checks it against the quote (user, token, amount, spender = the Depository, deadline = expiresAt, the order) and submits the deposit itself. 404 REQUEST_NOT_FOUND; 400 PERMIT_NOT_QUOTED, INVALID_REQUEST, QUOTE_EXPIRED, INVALID_PERMIT_SIGNATURE, PERMIT_DEPOSIT_REVERTED; 503 CHAIN_UNAVAILABLE.",
  tags: ["Execute"],
  querystring: ExecutePermitsQuery,
  body: ExecutePermitsBody,
  response: { 200: ExecutePermitsResponse, 404: ErrorBody, 503: ErrorBody, ...bodyErrorResponses, ...commonErrorResponses },
};

export function registerExecutePermitsRoute(app: FerryApp, options: { submitter: PermitDepositSubmitter }): void {
  app.post("/execute/permits", { schema: executePermitsSchema }, async (request) => {
    const submission = { requestId: request.body.requestId, kind: request.body.kind, signature: request.query.signature };
    try {
      return await options.submitter.submit(submission, request.log as Logger);
    } catch (error) {
      if (isFerryError(error)) throw error;
      request.log.warn({ requestId: submission.requestId, err: { message: (error as { shortMessage?: string }).shortMessage ?? "rpc error" } }, "execute/permits: chain call failed");
      throw new ServiceError("CHAIN_UNAVAILABLE", "the origin chain did not answer; retry", { cause: error });
    }
  });
}
