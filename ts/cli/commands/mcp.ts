/**
 * `ferry mcp`: the Ferry MCP server (../mcp/ferryMcpServer.ts) on stdio, for an agent (Claude
 * Desktop, an IDE, any MCP client) to quote, follow, list and explain requests of a Ferry API. It is
 * only an HTTP client of that API (ts/client): the API's URL from --api-url, else $FERRY_API_URL,
 * else the running devnet's .devnet/devnet.json; the optional API key from --api-key, else
 * $FERRY_API_KEY, else the devnet's key. stdout carries the protocol only; the one line saying what
 * it serves goes to stderr. It runs until the client closes stdin (exit 0) or SIGINT/SIGTERM (exit 0).
 */
import { readFileSync } from "node:fs";
import { StdioServerTransport } from "@modelcontextprotocol/sdk/server/stdio.js";
import { createFerryClient } from "../../client/createFerryClient.ts";
import { EXIT, UsageError, type CliIo } from "../cliIo.ts";
import type { CommandGroup } from "../commandGroup.ts";
import { findDevnetJson } from "../devnetDir.ts";
import { readDevnetJson } from "../devnetJson.ts";
import { parseCommandArgs } from "../parseCommandArgs.ts";
import { createFerryMcpServer } from "../mcp/ferryMcpServer.ts";

const HELP = `Usage: ferry mcp [options]

An MCP server on stdio (Model Context Protocol) with the tools quote, follow_request, list_requests
and explain_failure, over a Ferry API. Register it with your MCP client as the command
\`npx ferry mcp\` (with --api-url, or FERRY_API_URL in its environment).

Options:
  --api-url <url>      the Ferry API (default $FERRY_API_URL, else the devnet's, from
                       .devnet/devnet.json)
  --api-key <key>      sent as x-api-key (default $FERRY_API_KEY, else the devnet's key)
  --devnet-dir <dir>   where devnet.json is (default $FERRY_DEVNET_DIR, else .devnet)
  -h, --help

Example (the devnet: npm start in another terminal):
  npx ferry mcp
`;

/** The version of the package this file ships in (ferry or ferry-service): the nearest package.json up. */
function packageVersion(): string {
  for (let url = new URL("./", import.meta.url); url.pathname !== "/"; url = new URL("../", url)) {
    try {
      const manifest = JSON.parse(readFileSync(new URL("package.json", url), "utf8")) as { name?: string; version?: string };
      if (manifest.version && (manifest.name === "ferry" || manifest.name === "ferry-service")) return manifest.version;
    } catch {
      // not here: one folder up
    }
  }
  return "0.0.0";
}

async function run(args: readonly string[], io: CliIo): Promise<number> {
  const parsed = parseCommandArgs(args, { "api-url": { type: "string" }, "api-key": { type: "string" }, "devnet-dir": { type: "string" } }, { min: 0, max: 0 });
  if (parsed.help) {
    io.stdout(HELP);
    return EXIT.OK;
  }
  const flag = (name: string) => (typeof parsed.values[name] === "string" ? (parsed.values[name] as string) : undefined);
  let baseUrl = flag("api-url") || io.env.FERRY_API_URL || undefined;
  let apiKey = flag("api-key") || io.env.FERRY_API_KEY || undefined;
  let from = flag("api-url") ? "--api-url" : "FERRY_API_URL";
  if (!baseUrl) {
    const path = findDevnetJson(io, flag("devnet-dir"));
    if (!path) throw new UsageError("no Ferry API to talk to: pass --api-url <url> or set FERRY_API_URL (or start the devnet with npm start here)");
    const devnet = await readDevnetJson(io, path);
    baseUrl = devnet.apiUrl;
    apiKey ??= devnet.apiKey;
    from = path;
  }
  if (!/^https?:\/\//.test(baseUrl)) throw new UsageError(`--api-url must be an http(s) URL, got ${JSON.stringify(baseUrl)}`);

  const server = createFerryMcpServer({ client: createFerryClient({ baseUrl, ...(apiKey ? { apiKey } : {}) }), version: packageVersion() });
  const closed = new Promise<number>((resolve) => {
    server.onclose = () => resolve(EXIT.OK);
    const stop = () => void server.close();
    process.once("SIGINT", stop);
    process.once("SIGTERM", stop);
  });
  const transport = new StdioServerTransport();
  // The client closing its end of stdin is the end of the session.
  process.stdin.once("end", () => void server.close());
  await server.connect(transport);
  io.stderr(`ferry mcp: serving the Ferry API at ${baseUrl} (from ${from})${apiKey ? " with an API key" : ""} on stdio\n`);
  return closed;
}

export const mcp: CommandGroup = { help: HELP, run };
