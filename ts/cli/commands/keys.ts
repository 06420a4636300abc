/**
 * `ferry keys create|list|revoke|referrer|funding-address`: the service's API keys, through its admin API or in its database
 * (../adminTarget.ts decides which). The plaintext key exists only in `create`'s output: the store
 * keeps its hash.
 */
import type { ApiKeyRecord } from "../../service/store/apiKeys.ts";
import { MAX_API_KEY_NAME_LENGTH } from "../../service/admin/apiKeyAdmin.ts";
import { EXIT, UsageError, printResult, type CliIo } from "../cliIo.ts";
import { runSubcommand, type CommandGroup, type GlobalFlags } from "../commandGroup.ts";
import { integerFlag, parseCommandArgs } from "../parseCommandArgs.ts";
import { TARGET_HELP, TARGET_OPTIONS, withAdmin } from "../adminTarget.ts";
import { textTable } from "../textTable.ts";

const HELP = `Usage: ferry keys <command> [options]

API keys of the service: through a running service's admin API, or in its database.

Commands:
  create <name>      create a key and print it once (only its hash is stored)
                       --rate-limit <n>   requests per minute (default: rateLimits.apiKeyPerMinute)
  list               every key: id, name, rate limit, created, revoked
  revoke <keyId>     revoke a key (it stays listed); a running service notices within
                     server.apiKeyCacheSeconds
  referrer <keyId> <referrer> | --clear <keyId>
                     tie a quote body's \`referrer\` to the key: anonymous quotes with it are
                     attributed to the key (its webhooks fire). The official client sends its
                     \`source\` as \`referrer\`, and x-api-key only to the reference's hosts.
                     Attribution only: no rate limit or privilege. One key per referrer.
  funding-address <keyId> <address> | --clear <keyId>
                     where the app's balance withdrawals are paid (POST /app-balance/withdrawals
                     pays only there; without one they are refused)

${TARGET_HELP}

Options: --api-url <url>  --data-dir <dir>  --config <file>  --devnet-dir <dir>  --json  -h, --help
`;

function keyName(value: string | undefined): string {
  if (value === undefined) throw new UsageError("missing <name>: ferry keys create <name> [--rate-limit <n>]");
  const name = value.trim();
  if (name === "") throw new UsageError("<name> must not be empty");
  if (name.length > MAX_API_KEY_NAME_LENGTH) throw new UsageError(`<name> is longer than ${MAX_API_KEY_NAME_LENGTH} characters`);
  if (/\p{Cc}/u.test(name)) throw new UsageError("<name> must not contain control characters");
  return name;
}

function keyId(value: string | undefined, usage: string): string {
  if (value === undefined || value === "") throw new UsageError(`missing <keyId>: ${usage}`);
  return value;
}

async function create(args: readonly string[], io: CliIo, globals: GlobalFlags): Promise<number> {
  const parsed = parseCommandArgs(args, { ...TARGET_OPTIONS, "rate-limit": { type: "string" } }, { min: 0, max: 1 });
  if (parsed.help) return help(io);
  const json = parsed.json || globals.json;
  const name = keyName(parsed.positionals[0]);
  const rateLimit = integerFlag(parsed, "rate-limit");
  if (rateLimit !== undefined && (rateLimit < 1 || rateLimit > 2_147_483_647)) throw new UsageError("--rate-limit must be a positive integer (requests per minute)");

  const created = await withAdmin(io, parsed, "write", (admin) => admin.createApiKey({ name, ...(rateLimit !== undefined ? { rateLimit } : {}) }));
  // The one place a plaintext key is ever printed.
  printResult(
    io,
    json,
    [
      `created ${created.id} ${JSON.stringify(created.name)} (${rateLimitText(created.rateLimit)})`,
      created.key,
      "This key is shown only now: Ferry stores its SHA-256 hash, not the key. Keep it safe.",
    ].join("\n"),
    { id: created.id, name: created.name, rateLimit: created.rateLimit, key: created.key },
  );
  return EXIT.OK;
}

async function list(args: readonly string[], io: CliIo, globals: GlobalFlags): Promise<number> {
  const parsed = parseCommandArgs(args, TARGET_OPTIONS, { min: 0, max: 0 });
  if (parsed.help) return help(io);
  const json = parsed.json || globals.json;
  const keys = await withAdmin(io, parsed, "read", (admin) => admin.listApiKeys());
  printResult(io, json, keys.length === 0 ? "no API keys (create one with ferry keys create <name>)" : keysTable(keys), { keys });
  return EXIT.OK;
}

async function revoke(args: readonly string[], io: CliIo, globals: GlobalFlags): Promise<number> {
  const parsed = parseCommandArgs(args, TARGET_OPTIONS, { min: 0, max: 1 });
  if (parsed.help) return help(io);
  const json = parsed.json || globals.json;
  const id = keyId(parsed.positionals[0], "ferry keys revoke <keyId>");
  const outcome = await withAdmin(io, parsed, "write", (admin) => admin.revokeApiKey(id));
  if (!outcome.alreadyRevoked) {
    printResult(io, json, `revoked ${id} (a running service may accept it for up to server.apiKeyCacheSeconds more)`, { id, revoked: true, alreadyRevoked: false });
  } else {
    printResult(io, json, `${id} was already revoked at ${outcome.revokedAt}`, { id, revoked: true, alreadyRevoked: true, revokedAt: outcome.revokedAt });
  }
  return EXIT.OK;
}

async function referrer(args: readonly string[], io: CliIo, globals: GlobalFlags): Promise<number> {
  const parsed = parseCommandArgs(args, { ...TARGET_OPTIONS, clear: { type: "boolean" } }, { min: 0, max: 2 });
  if (parsed.help) return help(io);
  const json = parsed.json || globals.json;
  const clear = parsed.values.clear === true;
  const id = keyId(parsed.positionals[0], "ferry keys referrer <keyId> <referrer> | --clear <keyId>");
  const value = clear ? null : (parsed.positionals[1] ?? "").trim();
  if (value !== null && (value === "" || value.length > 256 || /\p{Cc}/u.test(value))) {
    throw new UsageError("<referrer> must be 1–256 characters without control characters (or --clear)");
  }
  if (clear && parsed.positionals.length > 1) throw new UsageError("--clear takes only <keyId>");
  const updated = await withAdmin(io, parsed, "write", (admin) => admin.setApiKeyReferrer(id, value));
  printResult(io, json, updated.referrer === null ? `${id}: no referrer` : `${id}: referrer ${JSON.stringify(updated.referrer)}`, updated);
  return EXIT.OK;
}

async function fundingAddress(args: readonly string[], io: CliIo, globals: GlobalFlags): Promise<number> {
  const parsed = parseCommandArgs(args, { ...TARGET_OPTIONS, clear: { type: "boolean" } }, { min: 0, max: 2 });
  if (parsed.help) return help(io);
  const json = parsed.json || globals.json;
  const clear = parsed.values.clear === true;
  const id = keyId(parsed.positionals[0], "ferry keys funding-address <keyId> <address> | --clear <keyId>");
  if (clear && parsed.positionals.length > 1) throw new UsageError("--clear takes only <keyId>");
  const address = clear ? null : (parsed.positionals[1] ?? "");
  if (address !== null && !/^0x[0-9a-fA-F]{40}$/.test(address)) throw new UsageError("<address> must be 0x and 40 hex digits (or --clear)");
  // Imported here, not above: values.ts loads viem and typebox, which no other keys command needs.
  const funding = address === null ? null : (await import("../../service/model/values.ts")).canonicalAddress(address);
  const updated = await withAdmin(io, parsed, "write", (admin) => admin.setApiKeyFundingAddress(id, funding));
  printResult(io, json, updated.fundingAddress === null ? `${id}: no funding address (withdrawals refused)` : `${id}: withdrawals paid to ${updated.fundingAddress}`, updated);
  return EXIT.OK;
}

function rateLimitText(rateLimit: number | null): string {
  return rateLimit === null ? "default rate limit" : `${rateLimit}/min`;
}

function keysTable(keys: readonly ApiKeyRecord[]): string {
  return textTable(
    ["ID", "NAME", "RATE LIMIT", "REFERRER", "CREATED", "REVOKED"],
    keys.map((key) => [key.id, key.name, key.rateLimit === null ? "default" : `${key.rateLimit}/min`, key.referrer ?? "-", key.createdAt, key.revokedAt ?? "-"]),
  );
}

function help(io: CliIo): number {
  io.stdout(HELP);
  return EXIT.OK;
}

export const keys: CommandGroup = {
  help: HELP,
  run: (args, io, globals) => runSubcommand("keys", HELP, { create, list, revoke, referrer, "funding-address": fundingAddress }, args, io, globals, (m) => new UsageError(m)),
};
