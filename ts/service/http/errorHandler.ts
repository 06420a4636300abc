/**
 * How every failure becomes `{message, errorCode}`: schema validation (400 naming the field), unknown
 * routes (404), malformed JSON (400), oversized bodies (413), rate limits (429), malformed requests
 * rejected by Node's HTTP parser (400/431) and everything unexpected (500 "Internal error", no stack;
 * the details go to the log with secrets scrubbed).
 */
import type { Socket } from "node:net";
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import { isFerryError, type FerryError } from "../../core/errors.ts";
import { errorPolicy, type ErrorCode } from "../errors/errorRegistry.ts";
import { type ErrorBody } from "./httpErrors.ts";
import { loggableError } from "../logging/loggableError.ts";

type ValidationIssue = { instancePath?: string; message?: string; keyword?: string; params?: Record<string, unknown> };

/**
 * The message of a schema validation failure, naming the field: `body/amount must be integer`,
 * `querystring: unknown field 'foo'`, `body: missing required field 'name'`. Accepts TypeBox's and
 * Ajv's error shapes.
 */
export function formatValidationErrors(errors: readonly ValidationIssue[], dataVar: string): Error {
  // TypeBox reports an unknown field twice (a "schema is false" at its path, then additionalProperties
  // on the object); the latter names it.
  const first = errors.find((e) => e.keyword === "additionalProperties") ?? errors.find((e) => e.keyword !== "boolean") ?? errors[0];
  if (!first) return new Error(`${dataVar} is invalid`);
  const field = `${dataVar}${first.instancePath ?? ""}`;
  const params = first.params ?? {};
  // A field name is echoed at most 64 characters long (an unknown key can be a megabyte).
  const firstOf = (list: unknown, single: unknown) => String(Array.isArray(list) ? list[0] : single).slice(0, 64);
  let message: string;
  if (first.keyword === "additionalProperties") message = `${field}: unknown field '${firstOf(params.additionalProperties, params.additionalProperty)}'`;
  else if (first.keyword === "boolean") message = `${field}: unknown field`;
  else if (first.keyword === "required") message = `${field}: missing required field '${firstOf(params.requiredProperties, params.missingProperty)}'`;
  else {
    const allowed = allowedValues(errors, first.instancePath ?? "");
    message = allowed ? `${field} must be one of ${allowed.map((value) => (typeof value === "string" ? `'${value}'` : String(value))).join(", ")}` : `${field} ${first.message ?? "is invalid"}`;
  }
  return new Error(message);
}

/**
 * The values a field may take when its schema is an enum or a union of literals (every issue at the
 * path is a `const` or `enum` miss, besides the union's own `anyOf`); otherwise undefined.
 */
function allowedValues(errors: readonly ValidationIssue[], instancePath: string): unknown[] | undefined {
  const atPath = errors.filter((e) => (e.instancePath ?? "") === instancePath && e.keyword !== "anyOf");
  if (atPath.length === 0 || !atPath.every((e) => e.keyword === "const" || e.keyword === "enum")) return undefined;
  return atPath.flatMap((e) => (e.keyword === "enum" ? ((e.params?.allowedValues as unknown[] | undefined) ?? []) : [e.params?.allowedValue]));
}

const CODE_BY_STATUS: Record<number, ErrorCode> = {
  400: "INVALID_REQUEST",
  401: "INVALID_API_KEY",
  404: "NOT_FOUND",
  413: "PAYLOAD_TOO_LARGE",
  415: "UNSUPPORTED_MEDIA_TYPE",
  429: "RATE_LIMITED",
};

/**
 * The status and body for `error`: a registered code (../errors/errorRegistry.ts) answers with its
 * status, whoever threw it; 5xx never reveal their message.
 */
export function errorResponse(error: FastifyError | Error): { statusCode: number; body: ErrorBody } {
  const policy = isFerryError(error) ? errorPolicy(error.code) : undefined;
  if (policy && policy.status < 500) return { statusCode: policy.status, body: { message: error.message, errorCode: (error as FerryError).code } };
  if (policy) return { statusCode: policy.status, body: { message: policy.status === 503 ? error.message : "Internal error", errorCode: policy.status === 503 ? (error as FerryError).code : "INTERNAL_ERROR" } };
  const fastifyError = error as FastifyError;
  if (fastifyError.validation) {
    return { statusCode: 400, body: { message: error.message, errorCode: "INVALID_REQUEST" } };
  }
  const statusCode = fastifyError.statusCode;
  if (statusCode !== undefined && statusCode >= 400 && statusCode < 500 && !isFerryError(error)) {
    // Fastify's own request errors (content-type parser, body limit, bad content-length): their
    // messages describe the request, not the server.
    const message =
      error instanceof SyntaxError || fastifyError.code === "FST_ERR_CTP_INVALID_JSON_BODY"
        ? "body is not valid JSON"
        : fastifyError.code === "FST_ERR_CTP_BODY_TOO_LARGE"
          ? "request body is too large"
          : error.message;
    return { statusCode, body: { message, errorCode: CODE_BY_STATUS[statusCode] ?? "INVALID_REQUEST" } };
  }
  return { statusCode: 500, body: { message: "Internal error", errorCode: "INTERNAL_ERROR" } };
}

export function installErrorHandlers(app: FastifyInstance, secrets: readonly string[]): void {
  app.setErrorHandler((error: FastifyError, request: FastifyRequest, reply: FastifyReply) => {
    const { statusCode, body } = errorResponse(error);
    if (statusCode >= 500) request.log.error({ err: loggableError(error, secrets, true) }, "request failed");
    else request.log.info({ err: loggableError(error, secrets, false), statusCode }, "request rejected");
    return reply.code(statusCode).type("application/json; charset=utf-8").send(body);
  });
}

/**
 * Errors Fastify's router raises before any route or hook runs (its `frameworkErrors` option): a URL
 * that is not valid percent-encoding (FST_ERR_BAD_URL) and a path parameter over `maxParamLength`
 * (FST_ERR_MAX_PARAM_LENGTH, 414). Same body shape as every other error; the URL is not echoed.
 */
export function frameworkErrorHandler(error: FastifyError, request: FastifyRequest, reply: FastifyReply): void {
  const [statusCode, body]: [number, ErrorBody] =
    error.code === "FST_ERR_MAX_PARAM_LENGTH"
      ? [414, { message: "a path parameter is too long", errorCode: "URI_TOO_LONG" }]
      : error.code === "FST_ERR_BAD_URL"
        ? [400, { message: "the URL is not valid percent-encoded UTF-8", errorCode: "INVALID_REQUEST" }]
        : [400, { message: "the request cannot be routed", errorCode: "INVALID_REQUEST" }];
  request.log.info({ code: error.code, statusCode }, "request rejected by the router");
  void reply.code(statusCode).type("application/json; charset=utf-8").send(body);
}

export function notFoundBody(request: FastifyRequest): ErrorBody {
  // The path only (no query string): it is echoed back and must stay short.
  const path = request.url.split("?")[0]!.slice(0, 200);
  return { message: `Route ${request.method} ${path} not found`, errorCode: "NOT_FOUND" };
}

/**
 * Requests Node's HTTP parser rejects before Fastify sees them (oversized headers, malformed request
 * lines) get the same JSON body shape instead of an empty response.
 */
export function clientErrorHandler(error: NodeJS.ErrnoException, socket: Socket): void {
  if (error.code === "ECONNRESET" || !socket.writable) {
    socket.destroy();
    return;
  }
  const tooLarge = error.code === "HPE_HEADER_OVERFLOW";
  const status = tooLarge ? "431 Request Header Fields Too Large" : "400 Bad Request";
  const body = JSON.stringify(
    tooLarge
      ? { message: "request headers are too large", errorCode: "HEADERS_TOO_LARGE" }
      : { message: "malformed HTTP request", errorCode: "INVALID_REQUEST" },
  );
  socket.end(
    `HTTP/1.1 ${status}\r\nContent-Type: application/json; charset=utf-8\r\nContent-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`,
  );
}
