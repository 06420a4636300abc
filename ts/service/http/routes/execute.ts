/**
 * POST /execute `{requestId?, executionKind: "rawCalls", data: {chainId, to, data, value,
 * authorizationList?}, executionOptions?: {referrer?, subsidizeFees?}, originGasOverhead?}` — a call
 * relayed by the service's relayer, its gas paid on the app's behalf: a smart wallet's deposit call, an
 * ERC-4337 `EntryPoint.handleOps` with zero-fee user operations, an EIP-7702 batch (`authorizationList`
 * delegating the user's EOA; @relayprotocol/relay-sdk's `executeGaslessBatch` sends exactly this body).
 * The logic is ../../relay/relayExecution.ts (the `Executor` port, injected by server.ts).
 *
 * `x-api-key` is required (401 API_KEY_REQUIRED without one, 401 INVALID_API_KEY with an unknown one).
 * 200 `{message, requestId, txHash}`; 400 EXECUTION_SIMULATION_FAILED with the spec's simulation error
 * body (`error`, `message`, `requestId`, `details: {topLevel, innermost, path, revert}`) and nothing
 * sent; 400 UNKNOWN_CHAIN, EXECUTE_CHAIN_MISMATCH, QUOTE_EXPIRED; 404 REQUEST_NOT_FOUND; 503
 * CHAIN_UNAVAILABLE.
 */
import { Type } from "typebox";
import { isFerryError } from "../../../core/errors.ts";
import { ServiceError } from "../../errors/serviceError.ts";
import type { Logger } from "../../logging/logger.ts";
import { CallFrame, RevertDetails } from "../../model/solverState.ts";
import { BYTES32_PATTERN, canonicalHex, CanonicalHexOf, type Bytes32 } from "../../model/values.ts";
import { ExecutionSimulationFailedError, type ExecuteResult, type ExecuteSubmission } from "../../relay/relayExecution.ts";
import type { FerryApp } from "../ferryApp.ts";
import { bodyErrorResponses, commonErrorResponses, ErrorBody } from "../httpErrors.ts";

/** What the route asks of the relayer (../../relay/relayExecution.ts `createRelayExecutor` is one). */
export type Executor = { execute(submission: ExecuteSubmission, log: Logger): Promise<ExecuteResult> };

const ADDRESS = "^0x[0-9a-fA-F]{40}$";
const WORD = "^0x[0-9a-fA-F]{1,64}$";
/** A signature word (r, s) as the SDK sends it (leading zeros may be dropped): decoded to 32 bytes, canonical. */
const Word = Type.Codec(Type.String({ pattern: WORD }))
  .Decode((value): Bytes32 => canonicalHex(`0x${value.slice(2).padStart(64, "0")}`))
  .Encode((value: Bytes32): string => value);

export const ExecuteAuthorization = Type.Object(
  {
    chainId: Type.Integer({ minimum: 0, maximum: Number.MAX_SAFE_INTEGER, description: "The chain the delegation is valid on (0: any)" }),
    address: CanonicalHexOf(Type.String({ pattern: ADDRESS, description: "The contract the EOA delegates to" })),
    nonce: Type.Integer({ minimum: 0, maximum: Number.MAX_SAFE_INTEGER, description: "The EOA's nonce the authorization is signed for" }),
    yParity: Type.Integer({ minimum: 0, maximum: 1 }),
    r: Word,
    s: Word,
  },
  { additionalProperties: false, description: "A signed EIP-7702 authorization" },
);

export const ExecuteBody = Type.Object(
  {
    requestId: Type.Optional(CanonicalHexOf(Type.String({ pattern: BYTES32_PATTERN, description: "The quote's requestId; absent for a smart account's own execution (the service makes one)" }))),
    executionKind: Type.Literal("rawCalls"),
    data: Type.Object(
      {
        chainId: Type.Integer({ minimum: 1, maximum: Number.MAX_SAFE_INTEGER }),
        to: CanonicalHexOf(Type.String({ pattern: ADDRESS })),
        data: CanonicalHexOf(Type.String({ pattern: "^0x([0-9a-fA-F]{2})*$", maxLength: 262_144 })),
        value: Type.String({ pattern: "^[0-9]{1,78}$", description: "Wei the relayer sends with the call" }),
        authorizationList: Type.Optional(Type.Array(ExecuteAuthorization, { minItems: 1, maxItems: 16, description: "EIP-7702: sent as a type-4 transaction" })),
      },
      { additionalProperties: false },
    ),
    executionOptions: Type.Optional(
      Type.Object(
        {
          referrer: Type.Optional(Type.String({ maxLength: 256, description: "Accepted (the SDK sends its source)" })),
          subsidizeFees: Type.Optional(Type.Boolean({ description: "Accepted; the app pays the quote's fees (fee sponsorship)" })),
        },
        { additionalProperties: false },
      ),
    ),
    originGasOverhead: Type.Optional(Type.Integer({ minimum: 0, maximum: 10_000_000, description: "Accepted (the SDK's estimate of the batch executor's overhead); the relayer estimates the gas itself" })),
  },
  { additionalProperties: false },
);

export const ExecuteResponse = Type.Object(
  {
    message: Type.String(),
    requestId: Type.String({ description: "The quote's requestId, or the one made for this execution: follow it on /intents/status/v3" }),
    txHash: Type.Optional(Type.String({ description: "The relayer's transaction" })),
  },
  { additionalProperties: false },
);

/** 400: every error body, and for EXECUTION_SIMULATION_FAILED the spec's simulation error fields. */
export const ExecuteErrorBody = Type.Object(
  {
    message: Type.String(),
    errorCode: Type.String(),
    error: Type.Optional(Type.String({ description: "The decoded error label (a failReason when one fits), e.g. TRANSFER_AMOUNT_EXCEEDS_BALANCE" })),
    requestId: Type.Optional(Type.String()),
    details: Type.Optional(
      Type.Object(
        {
          topLevel: { ...CallFrame, description: "The call simulated (from the call trace, or without one built from the call itself)" },
          innermost: Type.Optional({ ...CallFrame, description: "The deepest frame that failed (only with a call trace)" }),
          path: Type.Optional(Type.Array(CallFrame, { description: "The failing frames from topLevel down to innermost (only with a call trace)" })),
          revert: { ...RevertDetails, description: "The innermost frame's revert decoded (without a trace: the top-level revert data)" },
        },
        { additionalProperties: false },
      ),
    ),
  },
  { description: "Error; a failed simulation adds error, requestId and details" },
);

export const executeSchema = {
  summary: "Relay a call, gas paid by the app",
  description:
    "Gasless execution for an app (x-api-key required): a smart wallet's deposit call, an ERC-4337 EntryPoint handleOps with zero-fee user operations, or an EIP-7702 batch (authorizationList: a type-4 transaction). Simulated first: a revert is 400 EXECUTION_SIMULATION_FAILED with error, requestId and details {topLevel, innermost, path, revert}, and nothing is sent. 401 API_KEY_REQUIRED, INVALID_API_KEY; 400 UNKNOWN_CHAIN, EXECUTE_CHAIN_MISMATCH, QUOTE_EXPIRED; 404 REQUEST_NOT_FOUND; 503 CHAIN_UNAVAILABLE.",
  tags: ["Execute"],
  body: ExecuteBody,
  response: { 200: ExecuteResponse, 404: ErrorBody, 503: ErrorBody, ...bodyErrorResponses, ...commonErrorResponses, 400: ExecuteErrorBody },
};

export function registerExecuteRoute(app: FerryApp, options: { executor: Executor }): void {
  // The key is checked before the body: an anonymous caller learns nothing about what would be accepted.
  const requireKey = async (request: { apiKey?: { id: string } | undefined }) => {
    if (!request.apiKey) throw new ServiceError("API_KEY_REQUIRED", "POST /execute relays at an app's expense: send the app's x-api-key");
  };
  app.post("/execute", { schema: executeSchema, preValidation: requireKey }, async (request, reply) => {
    const apiKey = request.apiKey!;
    const body = request.body;
    const submission: ExecuteSubmission = {
      ...(body.requestId !== undefined && { requestId: body.requestId }),
      apiKeyId: apiKey.id,
      chainId: body.data.chainId,
      to: body.data.to,
      data: body.data.data,
      value: BigInt(body.data.value),
      ...(body.data.authorizationList && {
        authorizationList: body.data.authorizationList.map((a) => ({
          chainId: a.chainId,
          address: a.address,
          nonce: a.nonce,
          yParity: a.yParity,
          r: a.r,
          s: a.s,
        })),
      }),
      subsidizeFees: body.executionOptions?.subsidizeFees === true,
    };
    try {
      return await options.executor.execute(submission, request.log as Logger);
    } catch (error) {
      if (error instanceof ExecutionSimulationFailedError) return reply.code(400).send({ ...error.body, errorCode: error.code });
      if (isFerryError(error)) throw error;
      request.log.warn({ chainId: submission.chainId, err: { message: (error as { shortMessage?: string }).shortMessage ?? "rpc error" } }, "execute: chain call failed");
      throw new ServiceError("CHAIN_UNAVAILABLE", "the chain did not answer; retry", { cause: error });
    }
  });
}
