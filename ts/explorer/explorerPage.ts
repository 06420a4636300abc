/**
 * The explorer page's module (bundled for the browser with ts/core and ts/client's pure parts; the
 * service serves it at /explorer/assets/explorer.js). It reads only the service's own JSON routes,
 * on the page's origin, and writes the DOM with text nodes only (never HTML from a record).
 *
 * - `/explorer[?q=…]`: the search (request id, transaction hash, user address) → GET /requests/v2.
 * - `/explorer/requests/{id}`: the request — its timeline, transactions, the solver's decision and
 *   its reason, a decoded revert, the receipt verified here by ts/core's verifyReceipt, and, when the
 *   visitor types their API key (kept in this page's memory only), their webhook delivery log.
 */
import type { RequestRecord, StatusRecord } from "../client/apiTypes.ts";
import { explainFailure } from "../client/explainFailure.ts";
import { receiptVerdict, type ChainTrustFacts } from "./receiptVerdict.ts";
import { requestTimeline, requestTransactions, type ReceiptPlaces } from "./requestTimeline.ts";
import { parseSearchQuery, searchPaths } from "./searchQuery.ts";
import { solverDecision } from "./solverDecision.ts";

type ChainRecord = ChainTrustFacts & { name?: string; displayName?: string };
type ApiAnswer<T> = { ok: true; body: T } | { ok: false; status: number; errorCode: string; message: string };

async function api<T>(path: string, headers: Record<string, string> = {}): Promise<ApiAnswer<T>> {
  let response: Response;
  try {
    response = await fetch(path, { headers: { accept: "application/json", ...headers }, cache: "no-store" });
  } catch (error) {
    return { ok: false, status: 0, errorCode: "NETWORK_ERROR", message: `the service did not answer (${String(error)})` };
  }
  const body = (await response.json().catch(() => null)) as (T & { errorCode?: string; message?: string }) | null;
  if (response.ok && body !== null) return { ok: true, body };
  return { ok: false, status: response.status, errorCode: body?.errorCode ?? "UNKNOWN", message: body?.message ?? response.statusText };
}

/** `el("p", {class: "x"}, "text", child)`: an element with attributes and text/element children. */
function el(tag: string, attributes: Record<string, string> = {}, ...children: (Node | string | undefined)[]): HTMLElement {
  const node = document.createElement(tag);
  for (const [name, value] of Object.entries(attributes)) node.setAttribute(name, value);
  for (const child of children) if (child !== undefined) node.append(child);
  return node;
}

function section(id: string, title: string, ...children: (Node | string | undefined)[]): HTMLElement {
  return el("section", { id, "aria-labelledby": `${id}-title` }, el("h2", { id: `${id}-title` }, title), ...children);
}

const content = () => document.getElementById("content")!;
const setTitle = (text: string) => {
  document.getElementById("title")!.textContent = text;
  document.title = `${text} — Ferry explorer`;
};

function errorNote(answer: { status: number; errorCode: string; message: string }, what: string): HTMLElement {
  return el("p", { class: "error", role: "alert" }, `${what}: ${answer.message} (${answer.errorCode}${answer.status ? `, HTTP ${answer.status}` : ""})`);
}

function chainName(chains: readonly ChainRecord[], id: number): string {
  const chain = chains.find((c) => c.id === id);
  return chain ? `${chain.displayName ?? chain.name ?? id} (${id})` : String(id);
}

const requestLink = (id: string) => el("a", { href: `/explorer/requests/${id}` }, id);

// ---------------------------------------------------------------------------------------------
// Search

async function showSearch(q: string | null): Promise<void> {
  setTitle("Ferry explorer");
  const box = document.getElementById("q") as HTMLInputElement;
  if (q !== null) box.value = q;
  const query = parseSearchQuery(q);
  if (query.kind === "empty") {
    content().replaceChildren(el("p", {}, "Search for a request by its id, by a transaction hash (deposit, fill or refund) or by a user address (sender or recipient)."));
    return;
  }
  if (query.kind === "invalid") {
    content().replaceChildren(el("p", { class: "error", role: "alert" }, query.reason));
    return;
  }
  content().replaceChildren(el("p", { role: "status" }, "Searching…"));
  const answers = await Promise.all(searchPaths(query).map((path) => api<{ requests: RequestRecord[] }>(path)));
  const failed = answers.find((answer) => !answer.ok);
  const found = new Map<string, RequestRecord>();
  for (const answer of answers) if (answer.ok) for (const request of answer.body.requests) found.set(request.id, request);
  // Quoted but not deposited yet: no request record, but the status route knows the id.
  if (found.size === 0 && query.kind === "idOrHash") {
    const status = await api<StatusRecord>(`/intents/status/v3?requestId=${query.value}`);
    if (status.ok) {
      content().replaceChildren(section("results", "1 request", el("p", {}, "Quoted, no deposit indexed yet: "), el("ul", {}, el("li", {}, requestLink(query.value), ` — ${status.body.status}`))));
      return;
    }
  }
  const heading = `${found.size} request${found.size === 1 ? "" : "s"}`;
  if (found.size === 0) {
    content().replaceChildren(failed && !failed.ok ? errorNote(failed, "Search failed") : el("p", { role: "status" }, `No request found for ${query.value}.`));
    return;
  }
  const table = el(
    "table",
    {},
    el("caption", {}, `Requests for ${query.value}, most recent first`),
    el("thead", {}, el("tr", {}, ...["Request", "Status", "From chain", "To chain", "Created"].map((h) => el("th", { scope: "col" }, h)))),
    el(
      "tbody",
      {},
      ...[...found.values()]
        .sort((a, b) => b.createdAt.localeCompare(a.createdAt))
        .map((request) => {
          const inTx = request.data.inTxs?.[0];
          const outTx = request.data.outTxs?.[0];
          return el(
            "tr",
            {},
            el("td", {}, requestLink(request.id)),
            el("td", {}, statusBadge(request.status)),
            el("td", {}, String(inTx?.chainId ?? "")),
            el("td", {}, String(outTx?.chainId ?? "")),
            el("td", {}, el("time", { datetime: request.createdAt }, request.createdAt)),
          );
        }),
    ),
  );
  content().replaceChildren(section("results", heading, table));
}

function statusBadge(status: string): HTMLElement {
  return el("span", { class: `badge badge-${status}` }, status);
}

// ---------------------------------------------------------------------------------------------
// A request

async function showRequest(requestId: string): Promise<void> {
  setTitle(`Request ${requestId.slice(0, 10)}…`);
  content().replaceChildren(el("p", { role: "status" }, "Loading the request…"));
  const [status, records, chains, receipt] = await Promise.all([
    api<StatusRecord>(`/intents/status/v3?requestId=${requestId}`),
    api<{ requests: RequestRecord[] }>(`/requests/v2?id=${requestId}&includeChildRequests=true`),
    api<{ chains: ChainRecord[] }>("/chains"),
    api<Record<string, unknown> & ReceiptPlaces>(`/requests/${requestId}/receipt`),
  ]);
  if (!status.ok) {
    content().replaceChildren(errorNote(status, "This request cannot be shown"));
    return;
  }
  const chainList = chains.ok ? chains.body.chains : [];
  const request = records.ok ? records.body.requests.find((r) => r.id === requestId) : undefined;
  const facts = { status: status.body, request, receipt: receipt.ok ? receipt.body : undefined };

  const summary = el(
    "dl",
    { class: "summary" },
    el("dt", {}, "Request id"),
    el("dd", { class: "hash" }, requestId),
    el("dt", {}, "Status"),
    el("dd", { id: "status" }, statusBadge(status.body.status)),
    el("dt", {}, "Route"),
    el("dd", {}, `${chainName(chainList, status.body.originChainId)} → ${chainName(chainList, status.body.destinationChainId)}`),
    ...(request ? [el("dt", {}, "User"), el("dd", { class: "hash" }, request.user), el("dt", {}, "Recipient"), el("dd", { class: "hash" }, request.recipient)] : []),
    el("dt", {}, "Last change"),
    el("dd", {}, el("time", { datetime: new Date(status.body.updatedAt).toISOString() }, new Date(status.body.updatedAt).toISOString())),
  );

  const timeline = el(
    "ol",
    { class: "timeline" },
    ...requestTimeline(facts).map((step) =>
      el(
        "li",
        { class: `step step-${step.state.replace(" ", "-")}`, "data-step": step.id, "data-state": step.state },
        el("span", { class: "step-label" }, step.label),
        " ",
        el("span", { class: "step-state" }, `(${step.state})`),
        el("p", {}, step.note),
        step.at ? el("time", { datetime: step.at }, step.at) : undefined,
      ),
    ),
  );

  const transactions = requestTransactions(facts);
  const txTable =
    transactions.length === 0
      ? el("p", {}, "No transaction yet.")
      : el(
          "table",
          {},
          el("caption", {}, "Deposit, fill, refund and repayment transactions"),
          el("thead", {}, el("tr", {}, ...["Role", "Chain", "Transaction hash", "Block"].map((h) => el("th", { scope: "col" }, h)))),
          el(
            "tbody",
            {},
            ...transactions.map((tx) =>
              el("tr", { "data-role": tx.role }, el("td", {}, tx.role), el("td", {}, chainName(chainList, tx.chainId)), el("td", { class: "hash" }, tx.hash), el("td", {}, tx.block === undefined ? "" : String(tx.block))),
            ),
          ),
        );

  content().replaceChildren(
    section("summary", "Summary", summary),
    section("timeline", "Lifecycle", timeline),
    section("transactions", "Transactions", txTable),
    decisionSection(status.body, requestId),
    section("receipt", "Attestation", el("p", { role: "status", id: "receipt-verdict" }, receipt.ok ? "Verifying the receipt in this browser…" : receiptUnavailable(receipt))),
    webhookSection(requestId),
  );
  if (receipt.ok) await showVerdict(receipt.body, chainList);
}

function receiptUnavailable(answer: { status: number; errorCode: string; message: string }): string {
  if (answer.errorCode === "RECEIPT_UNAVAILABLE") return "attestation: no receipt (the request is not filled and repaid: only a filled and repaid request has one).";
  return `attestation: receipt not available — ${answer.message} (${answer.errorCode}).`;
}

async function showVerdict(receipt: unknown, chains: readonly ChainRecord[]): Promise<void> {
  const target = document.getElementById("receipt-verdict")!;
  const verdict = await receiptVerdict(receipt, chains);
  const trust = el("p", { class: "note" }, `Checked with ts/core verifyReceipt in this browser, trusting the signers and contracts GET /chains lists (${verdict.trusted.signers?.length ?? 0} signer(s)).`);
  if (verdict.valid) {
    target.replaceChildren(el("strong", { class: "verdict verdict-valid" }, "attestation: valid"), ` — all ${verdict.checks} checks passed; signed by ${verdict.signer}.`);
  } else {
    target.replaceChildren(el("strong", { class: "verdict verdict-invalid" }, "attestation: invalid"), ` — failed check ${verdict.check} (${verdict.code}): ${verdict.message}`);
    target.setAttribute("data-failed-check", verdict.check);
  }
  target.after(trust);
}

function decisionSection(status: StatusRecord, requestId: string): HTMLElement {
  const explained = explainFailure({
    requestId,
    status: status.status,
    failReason: status.failReason,
    refundFailReason: status.refundFailReason,
    details: status.details,
    inTxHashes: status.inTxHashes,
    txHashes: status.txHashes,
  });
  const details = status.details as Record<string, unknown> | null;
  const revert = details?.revert as { label?: string; message?: string; name?: string; args?: Record<string, string> } | undefined;
  const incident = details?.chainIncident as { chainId?: number; incident?: string } | undefined;
  const facts = el("dl", { class: "summary" });
  if (explained.failReason) facts.append(el("dt", {}, "failReason"), el("dd", { id: "fail-reason" }, explained.failReason));
  if (explained.refundFailReason) facts.append(el("dt", {}, "refundFailReason"), el("dd", {}, explained.refundFailReason));
  if (typeof details?.error === "string") facts.append(el("dt", {}, "Contract error"), el("dd", {}, details.error));
  if (typeof details?.callIndex === "number") facts.append(el("dt", {}, "Failing call"), el("dd", {}, `call #${details.callIndex}`));
  if (incident) facts.append(el("dt", {}, "Chain incident"), el("dd", {}, `chain ${incident.chainId}: ${incident.incident}`));
  const revertBlock = revert
    ? el(
        "div",
        { id: "revert" },
        el("h3", {}, "Decoded revert"),
        el("p", {}, el("code", {}, revert.label ?? revert.name ?? "revert"), revert.message ? ` — ${revert.message}` : ""),
        revert.args ? el("dl", { class: "summary" }, ...Object.entries(revert.args).flatMap(([name, value]) => [el("dt", {}, name), el("dd", { class: "hash" }, value)])) : undefined,
      )
    : undefined;
  const decided = solverDecision(status);
  return section(
    "decision",
    "The solver's decision",
    el("p", { id: "decision-verdict" }, el("strong", {}, `${decided.decision}: `), decided.reason),
    el("p", { id: "decision-text" }, explained.explanation),
    el("p", {}, el("strong", {}, "What to do: "), explained.whatToDo),
    facts.childElementCount > 0 ? facts : undefined,
    revertBlock,
  );
}

// ---------------------------------------------------------------------------------------------
// The visitor's webhook log (their API key stays in this page's memory: never stored, never in a URL)

function webhookSection(requestId: string): HTMLElement {
  const input = el("input", { id: "api-key", name: "api-key", type: "password", autocomplete: "off", spellcheck: "false", required: "" }) as HTMLInputElement;
  const output = el("div", { id: "webhook-log", "aria-live": "polite" });
  const form = el(
    "form",
    { id: "webhook-form" },
    el("label", { for: "api-key" }, "Your API key"),
    input,
    el("button", { type: "submit" }, "Show my webhook deliveries"),
    el("p", { class: "note" }, "Sent only as the x-api-key header to this service; kept in this page's memory, never stored."),
  ) as HTMLFormElement;
  form.addEventListener("submit", (event) => {
    event.preventDefault();
    void showWebhookLog(requestId, input.value.trim(), output);
  });
  return section("webhooks", "Webhook deliveries (your API key)", form, output);
}

type DeliveryAttempt = { attempt: number; at: string; statusCode: number | null; error: string | null; durationMs: number };
type Delivery = { eventId: number; status: string; state: string; attempts: number; deliveredAt: string | null; lastStatusCode: number | null; lastError: string | null; attemptLog: DeliveryAttempt[] };

async function showWebhookLog(requestId: string, apiKey: string, output: HTMLElement): Promise<void> {
  if (apiKey === "") return;
  output.replaceChildren(el("p", { role: "status" }, "Loading…"));
  const answer = await api<{ deliveries: Delivery[] }>(`/requests/${requestId}/webhook-deliveries`, { "x-api-key": apiKey });
  if (!answer.ok) {
    output.replaceChildren(errorNote(answer, "Webhook log"));
    return;
  }
  if (answer.body.deliveries.length === 0) {
    output.replaceChildren(el("p", {}, "No webhook event of this request for your key (it was quoted with another key or none, or your key has no webhook endpoint)."));
    return;
  }
  output.replaceChildren(
    el(
      "table",
      {},
      el("caption", {}, "Events of this request sent to your endpoint, oldest first"),
      el("thead", {}, el("tr", {}, ...["Event", "Status", "Delivery", "Attempts", "Last answer"].map((h) => el("th", { scope: "col" }, h)))),
      el(
        "tbody",
        {},
        ...answer.body.deliveries.map((delivery) =>
          el(
            "tr",
            { "data-event": String(delivery.eventId) },
            el("td", {}, String(delivery.eventId)),
            el("td", {}, delivery.status),
            el("td", {}, delivery.state),
            el("td", {}, delivery.attemptLog.map((a) => `#${a.attempt} ${a.at} ${a.statusCode ?? a.error ?? ""} (${a.durationMs} ms)`).join("; ") || String(delivery.attempts)),
            el("td", {}, delivery.lastStatusCode === null ? (delivery.lastError ?? "") : `HTTP ${delivery.lastStatusCode}`),
          ),
        ),
      ),
    ),
  );
}

// ---------------------------------------------------------------------------------------------

async function main(): Promise<void> {
  const match = /^\/explorer\/requests\/(0x[0-9a-fA-F]{64})\/?$/.exec(location.pathname);
  try {
    if (match) await showRequest(match[1]!.toLowerCase());
    else await showSearch(new URLSearchParams(location.search).get("q"));
  } catch (error) {
    content().replaceChildren(el("p", { class: "error", role: "alert" }, `The page failed: ${String(error)}`));
  }
  document.body.setAttribute("data-ready", "true");
}

void main();
