/**
 * The log-safe description of an error caught at an edge (a request, a websocket, a readiness check):
 * its type, code and message with every configured secret scrubbed out, and the stack only when asked
 * (unexpected failures). Logging sits above the config for this: the secrets are the config's.
 */
import { scrubSecrets } from "../config/redactConfig.ts";

export function loggableError(error: Error, secrets: readonly string[], withStack: boolean): Record<string, unknown> {
  const scrub = (text: string | undefined) => (text === undefined ? undefined : scrubSecrets(text, secrets));
  return {
    type: error.name,
    code: (error as { code?: unknown }).code,
    message: scrub(error.message),
    ...(withStack ? { stack: scrub(error.stack) } : {}),
  };
}
