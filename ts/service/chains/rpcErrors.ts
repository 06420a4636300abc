/**
 * What an RPC error means, recognised across the shapes providers use. Pure (inspects error objects).
 *
 * - `isEndpointFault`: the URL, not the request, failed — refused or dropped connection, timeout,
 *   HTTP error status (429, 5xx …), an answer that is not what the method returns
 *   (RpcMalformedAnswerError), JSON-RPC "internal error" / "limit exceeded" (rate limits) /
 *   "resource unavailable", or a node that lacks the block or state asked for ("header not found",
 *   "missing trie node"). Another URL (or a later retry) may answer: the transport fails over.
 * - `isLogRangeError`: an `eth_getLogs` range the provider refuses as too large or as returning too
 *   many results. The scan halves its range (../solver/indexer/logScan.ts) instead of failing over.
 * - `isUnsupportedMethod`: the node does not serve the method (or the tracer) asked — the request's own
 *   answer, thrown to the caller, who may read another way (the quote's call trace, the indexer's
 *   block-wide receipts).
 * Anything else (a revert, "nonce too low", invalid params) is the request's own answer and is thrown
 * to the caller as is.
 */
import { nodeErrorText } from "./alreadySent.ts";

type ErrorLike = { code?: unknown; status?: unknown; message?: unknown; details?: unknown; shortMessage?: unknown; name?: unknown; cause?: unknown; data?: unknown };

/** The error and its causes, outermost first (bounded: cause chains can be cyclic). */
export function errorChain(error: unknown): ErrorLike[] {
  const chain: ErrorLike[] = [];
  let current: unknown = error;
  while (current && typeof current === "object" && chain.length < 10 && !chain.includes(current as ErrorLike)) {
    chain.push(current as ErrorLike);
    current = (current as ErrorLike).cause;
  }
  return chain;
}

function text(e: ErrorLike): string {
  return [e.message, e.details, e.shortMessage].filter((v) => typeof v === "string").join(" ").toLowerCase();
}

/** Messages of providers refusing a log query for its size (geth, Infura, Alchemy, QuickNode, Ankr, Cloudflare, Erigon, Nethermind, …). */
const RANGE_PATTERNS = [
  /query returned more than \d+ results/,
  /more than \d+ (results|logs)/,
  /block range[^.]*(too (large|wide|big)|exceed|limit|greater than|is limited|maximum|max)/,
  /(exceed(s|ed)?|over) (the )?(max(imum)?|allowed) (block )?range/,
  /range (is )?too (large|wide|big)/,
  /log response size exceeded/,
  /response (size|too large)/,
  /limited to (a )?[\d,]+ (block )?range/,
  /max(imum)? (block )?range/,
  /too many (results|logs|blocks)/,
  /logs? (matched by query )?exceeds? (the )?limit/,
  /query exceeds/,
  /results? exceed/,
];

export function isLogRangeError(error: unknown): boolean {
  for (const e of errorChain(error)) {
    if (e.name === "ResponseBodyTooLargeError") return true;
    if (e.status === 413) return true;
    const message = text(e);
    if (RANGE_PATTERNS.some((pattern) => pattern.test(message))) return true;
  }
  return false;
}

/** JSON-RPC codes that say the node, not the request, failed. */
const FAULT_CODES = new Set([-32603, -32005, -32002, -32001, -32099, -32098, -32097]);
/** Node-side messages under generic codes (-32000): the node lacks the data, or is overloaded. */
const FAULT_MESSAGES = [
  /header not found/,
  /missing trie node/,
  /unknown block/,
  /block not found/,
  /state (is )?not available/,
  /service (temporarily )?unavailable/,
  /rate limit/,
  /too many requests/,
  /capacity/,
  /backend/,
  /upstream/,
  /timed? ?out/,
  /internal (server )?error/,
];

/** The request's own answer, whatever code a node files it under (some report reverts as -32603). */
const REQUEST_MESSAGES = /revert|execution|vm exception|nonce|insufficient funds|intrinsic gas|gas required|already known|underpriced|invalid (argument|params|sender|signature|transaction)/;

export function isEndpointFault(error: unknown): boolean {
  if (isLogRangeError(error)) return false;
  const chain = errorChain(error);
  if (chain.some((e) => typeof e.code === "number" && (typeof e.data === "string" || REQUEST_MESSAGES.test(text(e))))) return false;
  for (const e of chain) {
    const name = typeof e.name === "string" ? e.name : "";
    if (name === "TimeoutError" || name === "HttpRequestError" || name === "AbortError" || name === "ResponseBodyTooLargeError" || name === "RpcMalformedAnswerError") return true;
    if (typeof e.code === "number" && FAULT_CODES.has(e.code)) return true;
    if (typeof e.code === "string" && /^(ECONNREFUSED|ECONNRESET|EPIPE|ETIMEDOUT|UND_ERR_\w+|ENOTFOUND|EAI_AGAIN)$/.test(e.code)) return true;
    if (typeof e.code === "number" && e.code === -32000 && FAULT_MESSAGES.some((pattern) => pattern.test(text(e)))) return true;
  }
  return false;
}

/** The short kind of an endpoint fault, for metrics: timeout, http (status or connection), rpc (node-side JSON-RPC error). */
export function faultKind(error: unknown): "timeout" | "http" | "rpc" | "malformed" {
  for (const e of errorChain(error)) {
    if (e.name === "TimeoutError" || e.name === "AbortError") return "timeout";
    if (e.name === "RpcMalformedAnswerError") return "malformed";
    if (e.name === "HttpRequestError") return "http";
  }
  return "rpc";
}

/** A URL answered with a result the method never returns (e.g. a head that is no block number): a fault of the URL, failed over. */
export class RpcMalformedAnswerError extends Error {
  override readonly name = "RpcMalformedAnswerError";
  constructor(method: string, url: string, result: unknown) {
    super(`${url} answered ${method} with ${JSON.stringify(result)?.slice(0, 80) ?? String(result)}, which is not what ${method} returns`);
  }
}

/**
 * JSON-RPC "method not found" / "not supported" (-32601, -32004 — EDR's answer to eth_getBlockReceipts,
 * EIP-1193 4200), or a tracer the node does not know.
 */
export function isUnsupportedMethod(error: unknown): boolean {
  for (const e of errorChain(error)) {
    if (e.code === -32601 || e.code === -32004 || e.code === 4200) return true;
    if (e.name === "MethodNotFoundRpcError" || e.name === "MethodNotSupportedRpcError" || e.name === "UnsupportedProviderMethodError") return true;
    if (/(method|tracer).*(not found|not supported|unsupported|does not exist|not available)|unknown (method|tracer)/.test(nodeErrorText(e))) return true;
  }
  return false;
}
