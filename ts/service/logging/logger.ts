/**
 * The one logger type of the service (solver, webhooks, indexer, routes): pino's call shape (`log.info(obj, msg)`), so Fastify's logger (or
 * any pino instance) plugs in. Objects logged never hold keys: only ids, hashes, addresses, codes.
 */
export type Logger = {
  debug(obj: Record<string, unknown>, msg: string): void;
  info(obj: Record<string, unknown>, msg: string): void;
  warn(obj: Record<string, unknown>, msg: string): void;
  error(obj: Record<string, unknown>, msg: string): void;
};

export const SILENT_LOG: Logger = { debug() {}, info() {}, warn() {}, error() {} };

/** The loggable form of an error: code and message, never a stack or cause chain (which may quote RPC URLs). */
export function errorFields(error: unknown): { code: string | undefined; message: string } {
  const e = error as { code?: unknown; shortMessage?: unknown; message?: unknown; details?: unknown };
  const message = String(e?.shortMessage ?? e?.message ?? error);
  // viem's short message of an RPC error the client does not know ("An unknown RPC error occurred.")
  // says nothing of why the node refused: its own words are in `details`.
  const details = typeof e?.shortMessage === "string" && typeof e.details === "string" && e.details !== "" && !message.includes(e.details) ? `: ${e.details}` : "";
  return { code: typeof e?.code === "string" ? e.code : undefined, message: `${message}${details}` };
}
