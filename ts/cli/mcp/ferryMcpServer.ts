/**
 * The Ferry MCP server (`ferry mcp`, ../commands/mcp.ts): tools an agent uses to quote an intent,
 * follow a request, list requests and have a failure explained, each over the Ferry HTTP API through
 * the typed client (ts/client). Transport-free: the command connects it to stdio, the tests to
 * whatever transport they drive it over.
 *
 * The low-level `Server` of @modelcontextprotocol/sdk is used rather than `McpServer`: the tools'
 * input schemas are TypeBox schemas (JSON Schema, as every schema of this project), given to the
 * client as they are and checked here with TypeBox once per call — McpServer wants zod schemas.
 * A tool's bad input or a refusal of the service is a tool result with `isError` and the service's
 * `errorCode` (so the agent reads and corrects it), never a protocol error.
 */
import { Server } from "@modelcontextprotocol/sdk/server/index.js";
import { CallToolRequestSchema, ListToolsRequestSchema, type CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { Type, type Static, type TSchema } from "typebox";
import { Value } from "typebox/value";
import type { FerryClient } from "../../client/createFerryClient.ts";
import type { QuoteRequest, RequestFilters, StatusRecord } from "../../client/apiTypes.ts";
import { FerryApiError } from "../../client/clientErrors.ts";
import { explainFailure } from "../../client/explainFailure.ts";

const Address = Type.String({ pattern: "^0x[0-9a-fA-F]{40}$", description: "0x-prefixed 20-byte address" });
const Amount = Type.String({ pattern: "^[0-9]{1,78}$", description: "integer in the currency's smallest unit (wei; 6-decimal units for a 6-decimal stablecoin)" });
const RequestId = Type.String({ pattern: "^0x[0-9a-fA-F]{64}$", description: "the request id (0x + 64 hex): the quote's steps[].requestId, or from list_requests" });

const QuoteInput = Type.Object(
  {
    user: Address,
    recipient: Type.Optional(Address),
    originChainId: Type.Integer({ minimum: 1 }),
    destinationChainId: Type.Integer({ minimum: 1 }),
    originCurrency: Type.String({ description: "token address on the origin chain; 0x0000000000000000000000000000000000000000 for the native currency" }),
    destinationCurrency: Type.String({ description: "token address on the destination chain; the zero address for the native currency" }),
    amount: Amount,
    tradeType: Type.Union([Type.Literal("EXACT_INPUT"), Type.Literal("EXACT_OUTPUT")]),
    refundTo: Type.Optional(Address),
    slippageTolerance: Type.Optional(Type.String({ pattern: "^[0-9]{1,5}$", description: "basis points (swaps)" })),
    topupGas: Type.Optional(Type.Boolean()),
  },
  { additionalProperties: false },
);
const FollowInput = Type.Object(
  {
    requestId: RequestId,
    waitSeconds: Type.Optional(Type.Integer({ minimum: 0, maximum: 300, description: "wait up to this long for success, failure or refund (default 0: the status now)" })),
  },
  { additionalProperties: false },
);
const ListInput = Type.Object(
  {
    user: Type.Optional(Address),
    originChainId: Type.Optional(Type.Integer({ minimum: 1 })),
    destinationChainId: Type.Optional(Type.Integer({ minimum: 1 })),
    limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 50, description: "default 20" })),
    continuation: Type.Optional(Type.String({ description: "the previous answer's continuation: the next page" })),
  },
  { additionalProperties: false },
);
const ExplainInput = Type.Object({ requestId: RequestId }, { additionalProperties: false });

type Tool<S extends TSchema> = { name: string; description: string; input: S; run: (input: Static<S>) => Promise<CallToolResult> };

const FINAL = new Set(["success", "failure", "refund", "fallback"]);
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** A result with a one-line summary for the reader and the whole value as JSON (structuredContent too). */
function result(summary: string, value: Record<string, unknown>): CallToolResult {
  return { content: [{ type: "text", text: `${summary}\n\n${JSON.stringify(value, null, 2)}` }], structuredContent: value };
}

function toolError(errorCode: string, message: string): CallToolResult {
  return { isError: true, content: [{ type: "text", text: `${errorCode}: ${message}` }], structuredContent: { errorCode, message } };
}

export type FerryMcpOptions = {
  client: FerryClient;
  version: string;
  /** Poll interval of follow_request's wait. Default 1 s. */
  pollIntervalMs?: number;
};

export function createFerryMcpServer(options: FerryMcpOptions): Server {
  const { client } = options;
  const pollIntervalMs = options.pollIntervalMs ?? 1_000;

  const statusNow = async (requestId: string, waitSeconds: number): Promise<StatusRecord> => {
    const deadline = Date.now() + waitSeconds * 1000;
    for (;;) {
      const status = await client.getStatus(requestId);
      if (FINAL.has(status.status) || Date.now() >= deadline) return status;
      await sleep(Math.min(pollIntervalMs, Math.max(0, deadline - Date.now())));
    }
  };

  const tools = [
    {
      name: "quote",
      description:
        "Quote a cross-chain intent (POST /quote/v2): a bridge (same currency on both chains), a swap (another destination currency). " +
        "The answer's steps are the transactions the user's wallet sends, in order (an approve when needed, then the deposit); " +
        "then follow the request with follow_request and the requestId given here. Chains and currencies: the service's GET /chains.",
      input: QuoteInput,
      run: async (input: Static<typeof QuoteInput>) => {
        const quote = await client.getQuote(input as QuoteRequest);
        const requestId = quote.steps.find((step) => step.requestId)?.requestId;
        const steps = quote.steps.map((step) => `${step.id} (${step.kind}, ${step.items.length} item${step.items.length === 1 ? "" : "s"})`).join(", ");
        const out = quote.details?.currencyOut;
        return result(
          `Quoted request ${requestId ?? "(no id)"}: send ${steps} from ${input.user}; ${out ? `the recipient gets ${out.amount} of ${out.currency?.symbol ?? "the destination currency"}` : ""}.`.replace("; .", "."),
          { requestId: requestId ?? null, quote: quote as unknown as Record<string, unknown> },
        );
      },
    } satisfies Tool<typeof QuoteInput>,
    {
      name: "follow_request",
      description:
        "The status of a request (GET /intents/status/v3): waiting (no deposit seen yet), pending, submitted (fill sent), success, failure or refund, " +
        "with the origin (inTxHashes) and destination (txHashes) transactions. waitSeconds waits for a final status.",
      input: FollowInput,
      run: async (input: Static<typeof FollowInput>) => {
        const status = await statusNow(input.requestId, input.waitSeconds ?? 0);
        const final = FINAL.has(status.status);
        const why = status.failReason !== "N/A" ? ` (failReason ${status.failReason}: explain_failure says what it means)` : "";
        return result(`Request ${input.requestId} is ${status.status}${final ? " (final)" : ""}${why}.`, { requestId: input.requestId, final, ...status });
      },
    } satisfies Tool<typeof FollowInput>,
    {
      name: "list_requests",
      description: "List requests, newest first (GET /requests/v2), optionally of one user or between two chains; pass continuation back for the next page.",
      input: ListInput,
      run: async (input: Static<typeof ListInput>) => {
        const filters: RequestFilters = { limit: input.limit ?? 20 };
        if (input.user) filters.user = input.user;
        if (input.originChainId) filters.originChainId = input.originChainId;
        if (input.destinationChainId) filters.destinationChainId = input.destinationChainId;
        if (input.continuation) filters.continuation = input.continuation;
        const page = await client.getRequests(filters);
        const rows = page.requests.map((request) => ({
          id: request.id,
          status: request.status,
          user: request.user,
          recipient: request.recipient,
          failReason: request.data.failReason ?? "N/A",
          createdAt: request.createdAt,
        }));
        const lines = rows.map((row) => `- ${row.id} ${row.status}${row.failReason !== "N/A" ? ` (${row.failReason})` : ""} ${row.createdAt}`);
        return result(`${rows.length} request${rows.length === 1 ? "" : "s"}${page.continuation ? " (more: pass continuation)" : ""}:\n${lines.join("\n")}`, {
          requests: rows,
          ...(page.continuation ? { continuation: page.continuation } : {}),
        });
      },
    } satisfies Tool<typeof ListInput>,
    {
      name: "explain_failure",
      description:
        "Why a request failed or was refunded, in plain language, and what to do about it: from its record (failReason, refundFailReason) and status details.",
      input: ExplainInput,
      run: async (input: Static<typeof ExplainInput>) => {
        const [page, status] = await Promise.all([client.getRequests({ id: input.requestId, limit: 1 }), client.getStatus(input.requestId)]);
        const record = page.requests[0];
        const explanation = explainFailure({
          requestId: input.requestId,
          status: record?.status ?? status.status,
          failReason: record?.data.failReason ?? status.failReason,
          refundFailReason: record?.data.refundFailReason ?? status.refundFailReason,
          details: status.details,
          inTxHashes: status.inTxHashes,
          txHashes: status.txHashes,
        });
        return result(`${explanation.explanation}\nWhat to do: ${explanation.whatToDo}`, explanation as unknown as Record<string, unknown>);
      },
    } satisfies Tool<typeof ExplainInput>,
  ] as const;

  const server = new Server({ name: "ferry", version: options.version }, { capabilities: { tools: {} } });
  server.setRequestHandler(ListToolsRequestSchema, async () => ({
    tools: tools.map((tool) => ({ name: tool.name, description: tool.description, inputSchema: tool.input as unknown as { type: "object"; [key: string]: unknown } })),
  }));
  server.setRequestHandler(CallToolRequestSchema, async (request) => {
    const tool = tools.find((candidate) => candidate.name === request.params.name);
    if (!tool) return toolError("UNKNOWN_TOOL", `no tool ${request.params.name}: the tools are ${tools.map((t) => t.name).join(", ")}`);
    const input = request.params.arguments ?? {};
    const invalid = Value.Errors(tool.input, input)[0];
    if (invalid) return toolError("INVALID_INPUT", `${tool.name}: ${invalid.instancePath || "(arguments)"} ${invalid.message}`);
    try {
      return await (tool.run as (value: unknown) => Promise<CallToolResult>)(input);
    } catch (error) {
      if (error instanceof FerryApiError) return toolError(error.errorCode, `the Ferry API answered ${error.status} to ${error.method} ${error.path}: ${error.message}`);
      const cause = error as { code?: string; message?: string };
      return toolError(cause.code ?? "INTERNAL_ERROR", cause.message ?? String(error));
    }
  });
  return server;
}
