/**
 * The one matcher for a node refusing a raw transaction because it is not new. Pure.
 *
 * - `known`: the node already has this very transaction ("already known" geth, "known transaction"
 *   / "already imported" OpenEthereum-style nodes, "already exists") — e.g. another RPC URL took it
 *   before timing out, or a re-broadcast of a transaction still in the mempool;
 * - `nonce-used`: its nonce was taken ("nonce too low", "nonce has already been used") — by this
 *   transaction mined meanwhile or by another one.
 *
 * Used by the RPC transport (a raw transaction another URL already took counts as sent) and by the
 * nonce manager (../transactions/nonceManager.ts: how a broadcast ended). Anything else → undefined.
 * `nodeErrorText` is the text it matches, and the text the service's other node-error checks match.
 */
export type AlreadySent = "known" | "nonce-used";

const KNOWN = /already known|known transaction|already imported|already exists/;
const NONCE_USED = /nonce too low|nonce has already been used|nonce.*too low/;

export function alreadySent(error: unknown): AlreadySent | undefined {
  const text = nodeErrorText(error);
  if (KNOWN.test(text)) return "known";
  if (NONCE_USED.test(text)) return "nonce-used";
  return undefined;
}

/**
 * A node error's text as the matchers read it: its `details` (the node's own words, when viem has
 * them) and its `message`, lowercased — the one place a node error's text is normalised (here, the
 * nonce manager's fee and nonce checks, the quote's "method not supported" check).
 */
export function nodeErrorText(error: unknown): string {
  const { details, message } = (error ?? {}) as { details?: unknown; message?: unknown };
  return `${typeof details === "string" ? details : ""} ${typeof message === "string" ? message : String(message ?? "")}`.toLowerCase();
}
