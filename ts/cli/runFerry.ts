/**
 * The `ferry` dispatcher: global flags, then one lazily loaded module per command group, so a
 * heavy group (deploy, devnet, keys, webhooks: they will pull in the service) costs nothing to the
 * others. Returns the exit code; all process I/O goes through the CliIo.
 */
import { FerryError } from "../core/errors.ts";
import { EXIT, UsageError, printError, printResult, type CliIo } from "./cliIo.ts";
import type { CommandGroup } from "./commandGroup.ts";
import { packageVersion } from "./packageVersion.ts";

type CommandEntry = { usage: string; summary: string; load: () => Promise<CommandGroup> };

/** Command groups by name. Add a group here and in its own module under commands/. */
const COMMANDS: Record<string, CommandEntry> = {
  attest: {
    usage: "attest digest|sign|verify",
    summary: "v1/v2 attestation digests, signatures and verification",
    load: async () => (await import("./commands/attest.ts")).attest,
  },
  deploy: {
    usage: "deploy --network <name>",
    summary: "Ferry's contracts at the same addresses on every chain; --check verifies",
    load: async () => (await import("./commands/deploy.ts")).deployCommand,
  },
  balances: {
    usage: "balances show <keyId>",
    summary: "an app's balance and its ledger (admin API or database)",
    load: async () => (await import("./commands/balances.ts")).balances,
  },
  "deposit-addresses": {
    usage: "deposit-addresses show <address>",
    summary: "a deposit address's payments and what became of each (admin API or database)",
    load: async () => (await import("./commands/depositAddresses.ts")).depositAddresses,
  },
  devnet: {
    usage: "devnet send-steps <quote.json>",
    summary: "send a quote's steps from a devnet account (reads .devnet/devnet.json)",
    load: async () => (await import("./commands/devnet.ts")).devnet,
  },
  keys: {
    usage: "keys create|list|revoke|referrer|funding-address",
    summary: "the service's API keys (admin API or database)",
    load: async () => (await import("./commands/keys.ts")).keys,
  },
  mcp: {
    usage: "mcp [--api-url <url>]",
    summary: "an MCP server on stdio: quote, follow, list and explain requests of a Ferry API",
    load: async () => (await import("./commands/mcp.ts")).mcp,
  },
  "order-id": {
    usage: "order-id <file>",
    summary: "the protocol orderId of a quote's orderData",
    load: async () => (await import("./commands/orderId.ts")).orderId,
  },
  reclaim: {
    usage: "reclaim <orderId> --rpc-url <url> --depository <address>",
    summary: "take a reclaimable deposit back once its reclaim time has passed (FERRY_DEPOSITOR_KEY)",
    load: async () => (await import("./commands/reclaim.ts")).reclaim,
  },
  requests: {
    usage: "requests parked|unpark",
    summary: "requests the solver parked; unpark one once its cause is fixed",
    load: async () => (await import("./commands/requests.ts")).requests,
  },
  serve: {
    usage: "serve [--config ferry.json]",
    summary: "run the service (API, solver, webhooks, admin API) against the configured chains",
    load: async () => (await import("./commands/serve.ts")).serve,
  },
  solver: {
    usage: "solver recover-reorg --chain <id>",
    summary: "after a deep reorg: re-check deposits and payouts on the canonical chain, resume",
    load: async () => (await import("./commands/solver.ts")).solver,
  },
  webhook: {
    usage: "webhook sign|verify",
    summary: "webhook HMAC signatures over a body's exact bytes",
    load: async () => (await import("./commands/webhook.ts")).webhook,
  },
  webhooks: {
    usage: "webhooks set|clear|show|log|redeliver|rotate-secret-key",
    summary: "webhook endpoints per API key, delivery log, redelivery, secret key rotation",
    load: async () => (await import("./commands/webhooks.ts")).webhooks,
  },
};

const USAGE_WIDTH = Math.max(...Object.values(COMMANDS).map(({ usage }) => usage.length)) + 2;

export const FERRY_HELP = `Usage: ferry [--json] <command> [options]

Commands:
${Object.values(COMMANDS)
  .map(({ usage, summary }) => `  ${usage.padEnd(USAGE_WIDTH)}${summary}`)
  .join("\n")}

Global options:
  --json          machine-readable output (one JSON object per line)
  -h, --help      help; \`ferry <command> --help\` for a command
  -V, --version   the version of the package the command runs from

Exit codes: 0 success/valid, 1 verification failed, 2 bad usage or input, 3 unexpected error.
Inputs named <file> may be - for stdin. keys, webhooks and requests act on a running service's
admin API (--api-url / FERRY_API_URL with FERRY_ADMIN_TOKEN; on the devnet, from .devnet/devnet.json)
or on its database (--data-dir / FERRY_DATA_DIR / DATABASE_URL; the embedded one only while the
service is stopped).
`;

export async function runFerry(argv: readonly string[], io: CliIo): Promise<number> {
  let json = argv.includes("--json");
  try {
    let index = 0;
    let help = false;
    let version = false;
    for (; index < argv.length && argv[index]!.startsWith("-"); index++) {
      const flag = argv[index]!;
      if (flag === "--json") json = true;
      else if (flag === "--help" || flag === "-h") help = true;
      else if (flag === "--version" || flag === "-V") version = true;
      else throw new UsageError(`unknown option ${flag} (see ferry --help)`);
    }
    if (version && !help) {
      const running = packageVersion();
      printResult(io, json, running.version, running);
      return EXIT.OK;
    }
    const name = argv[index];
    if (name === "help") {
      const topic = argv[index + 1];
      if (topic === undefined) return printHelp(io);
      return await commandOf(topic).then((group) => group.run(["--help"], io, { json }));
    }
    if (name === undefined) {
      if (help) return printHelp(io);
      throw new UsageError("missing command (see ferry --help)");
    }
    const group = await commandOf(name);
    const rest = argv.slice(index + 1);
    return await group.run(help ? ["--help", ...rest] : rest, io, { json });
  } catch (error) {
    if (error instanceof FerryError) {
      // Anything a command throws is about its input: the verdicts 0/1 are returned, not thrown.
      printError(io, json, error);
      return EXIT.USAGE;
    }
    printError(io, json, { code: "INTERNAL", message: error instanceof Error ? error.message : String(error) });
    return EXIT.INTERNAL;
  }
}

async function commandOf(name: string): Promise<CommandGroup> {
  const entry = Object.hasOwn(COMMANDS, name) ? COMMANDS[name] : undefined;
  if (!entry) throw new UsageError(`unknown command "${name}" (see ferry --help)`);
  return entry.load();
}

function printHelp(io: CliIo): number {
  io.stdout(FERRY_HELP);
  return EXIT.OK;
}
