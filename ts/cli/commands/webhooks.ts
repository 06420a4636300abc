/**
 * `ferry webhooks set|clear|show|log|redeliver`: the operator's side of webhooks (spec "Events →
 * Configuration": one endpoint and custom headers per API key), through a running service's admin
 * API or in its database (../adminTarget.ts decides which; both run ts/service/admin's operations).
 *
 * Secrets stay out of the output: `--key` (the API key, which is also the HMAC secret of deliveries)
 * is never echoed, not even in an error, and header values are shown as [redacted].
 */
import type { DeliveryLog } from "../../service/admin/webhookAdmin.ts";
import { REDACTED } from "../../service/config/secret.ts";
import type { Bytes32 } from "../../service/model/values.ts";
import type { WebhookConfig, WebhookDelivery } from "../../service/store/webhooks/webhooks.ts";
import { WebhookError } from "../../service/store/webhooks/webhookRules.ts";
import {
  configuredWebhookSecretKeys,
  rotateWebhookSecrets,
  secretKeyMismatch,
  WEBHOOK_SECRET_KEY_ENV,
  WEBHOOK_SECRET_KEY_PREVIOUS_ENV,
} from "../../service/store/webhooks/webhookSecrets.ts";
import { EXIT, UsageError, printResult, type CliIo } from "../cliIo.ts";
import { runSubcommand, type CommandGroup, type GlobalFlags } from "../commandGroup.ts";
import { parseCommandArgs, requiredFlag, type ParsedCommand } from "../parseCommandArgs.ts";
import { requireExistingDatabase, TARGET_HELP, TARGET_OPTIONS, withAdmin } from "../adminTarget.ts";
import { textTable } from "../textTable.ts";

const HELP = `Usage: ferry webhooks <command> [options]

One webhook endpoint (and optional custom headers) per API key; every status change of a request
made with that key is POSTed to it, signed with the key (see ferry webhook verify).

Commands:
  set        set (or replace) the endpoint of an API key
               --key <apiKey>          the key itself (- reads it from stdin); never printed
               --url <https://...>     the endpoint (http:// only to a loopback host unless
                                       webhooks.allowHttp)
               --header "Name: value"  a custom header sent with each delivery (repeatable)
             The service stores the key encrypted under its $${WEBHOOK_SECRET_KEY_ENV} (64 hex
             chars); on the database directly, set the same value here.
  clear      remove the endpoint of a key                --key-id <keyId>
  show       configured endpoints: key, url, header names (values hidden)   [--key-id <keyId>]
  log        delivery state and attempts of an event     <eventId>
             ... or of every event of a request          --request <requestId>
  redeliver  deliver an event again (new round, attempt log kept)   <eventId>
             ... or every event created since a time     --since <ISO-8601, e.g. 2026-01-01T00:00:00Z>
  rotate-secret-key
             re-encrypt the stored webhook secrets under $${WEBHOOK_SECRET_KEY_ENV} (the new key),
             opening those still under $${WEBHOOK_SECRET_KEY_PREVIOUS_ENV} (the old one). The
             service, started with both, reads either meanwhile. On the database only (--data-dir,
             $DATABASE_URL, --config); one transaction per secret: safe to interrupt and re-run.
             Then drop $${WEBHOOK_SECRET_KEY_PREVIOUS_ENV} and restart the service.

${TARGET_HELP}

Options: --api-url <url>  --data-dir <dir>  --config <file>  --devnet-dir <dir>  --json  -h, --help
`;

// --- set ----------------------------------------------------------------------------------------

async function set(args: readonly string[], io: CliIo, globals: GlobalFlags): Promise<number> {
  const parsed = parseCommandArgs(
    args,
    { ...TARGET_OPTIONS, key: { type: "string" }, url: { type: "string" }, header: { type: "string", multiple: true } },
    { min: 0, max: 0 },
  );
  if (parsed.help) return help(io);
  const json = parsed.json || globals.json;
  const apiKey = await apiKeyOf(parsed, io);
  const url = requiredFlag(parsed, "url");
  const headers = parseHeaders((parsed.values.header as string[] | undefined) ?? []);

  let configured: WebhookConfig;
  try {
    configured = await withAdmin(io, parsed, "write", (admin) => admin.setWebhook({ apiKey, url, headers }));
  } catch (error) {
    // The store's messages never quote the key or a header value; this keeps it so whatever failed.
    throw scrub(error, [apiKey, ...Object.values(headers).filter((value) => value.length >= 8)]);
  }
  const names = Object.keys(configured.headers);
  printResult(
    io,
    json,
    `webhook of ${configured.keyId} ${JSON.stringify(configured.keyName)} set: ${configured.url}` +
      (names.length > 0 ? `\nheaders: ${names.join(", ")} (values hidden)` : ""),
    configured,
  );
  return EXIT.OK;
}

/** `--key <key>`, or `--key -`: the first line of stdin (keeps the key out of the process list). */
async function apiKeyOf(parsed: ParsedCommand, io: CliIo): Promise<string> {
  const flag = requiredFlag(parsed, "key");
  if (flag !== "-") return flag;
  const key = (await io.readStdin()).toString("utf8").split(/\r?\n/)[0]!.trim();
  if (key === "") throw new UsageError("--key -: stdin holds no key");
  return key;
}

/** `"Name: value"` flags → a record. Errors name the header (or its position), never its value. */
export function parseHeaders(flags: readonly string[]): Record<string, string> {
  const headers: Record<string, string> = {};
  const seen = new Set<string>();
  flags.forEach((flag, i) => {
    const colon = flag.indexOf(":");
    const name = colon < 0 ? "" : flag.slice(0, colon).trim();
    if (name === "") {
      throw new WebhookError("INVALID_WEBHOOK_HEADER", `--header #${i + 1} must look like "Name: value"`, { field: "headers" });
    }
    if (seen.has(name.toLowerCase())) {
      throw new WebhookError("INVALID_WEBHOOK_HEADER", `header ${JSON.stringify(name.slice(0, 64))} is given twice`, { field: `headers.${name}` });
    }
    seen.add(name.toLowerCase());
    // Optional whitespace around the value is not part of it (RFC 9110 field values).
    headers[name] = flag.slice(colon + 1).replace(/^[ \t]+|[ \t]+$/g, "");
  });
  return headers;
}

// --- clear, show ----------------------------------------------------------------------------------

async function clear(args: readonly string[], io: CliIo, globals: GlobalFlags): Promise<number> {
  const parsed = parseCommandArgs(args, { ...TARGET_OPTIONS, "key-id": { type: "string" } }, { min: 0, max: 0 });
  if (parsed.help) return help(io);
  const json = parsed.json || globals.json;
  const keyId = requiredFlag(parsed, "key-id");
  await withAdmin(io, parsed, "write", (admin) => admin.clearWebhook(keyId));
  printResult(io, json, `webhook of ${keyId} cleared`, { keyId, cleared: true });
  return EXIT.OK;
}

async function show(args: readonly string[], io: CliIo, globals: GlobalFlags): Promise<number> {
  const parsed = parseCommandArgs(args, { ...TARGET_OPTIONS, "key-id": { type: "string" } }, { min: 0, max: 0 });
  if (parsed.help) return help(io);
  const json = parsed.json || globals.json;
  const keyId = parsed.values["key-id"] === undefined ? undefined : requiredFlag(parsed, "key-id");
  const shown = await withAdmin(io, parsed, "read", (admin) => admin.listWebhooks(keyId));
  const text =
    shown.length === 0
      ? "no webhooks configured (see ferry webhooks set)"
      : textTable(
          ["KEY ID", "NAME", "URL", "UPDATED", "HEADERS"],
          shown.map((w) => [w.keyId, w.keyName, w.url, w.updatedAt, Object.keys(w.headers).map((name) => `${name}: ${REDACTED}`).join(", ") || "-"]),
        );
  printResult(io, json, text, { webhooks: shown });
  return EXIT.OK;
}

// --- log ----------------------------------------------------------------------------------------

async function log(args: readonly string[], io: CliIo, globals: GlobalFlags): Promise<number> {
  const parsed = parseCommandArgs(args, { ...TARGET_OPTIONS, request: { type: "string" } }, { min: 0, max: 1 });
  if (parsed.help) return help(io);
  const json = parsed.json || globals.json;
  const target = eventOrOther(parsed, "request", "ferry webhooks log <eventId> | --request <requestId>");
  const requestId = target.other === undefined ? undefined : await requestIdOf(target.other);
  const logs = await withAdmin(io, parsed, "read", (admin) => admin.deliveryLog(requestId === undefined ? { eventId: target.eventId! } : { requestId }));
  const text = logs.length === 0 ? `no events for request ${requestId}` : logs.map(deliveryText).join("\n\n");
  printResult(io, json, text, { deliveries: logs });
  return EXIT.OK;
}

/**
 * `--request`'s id, canonical. Its parsers are imported here, not above: they load viem and typebox,
 * which no other webhooks command needs.
 */
async function requestIdOf(text: string): Promise<Bytes32> {
  const [{ parseBytes32 }, { canonicalHex }] = await Promise.all([import("../../core/inputParsers.ts"), import("../../service/model/values.ts")]);
  return canonicalHex(parseBytes32(text, "--request"));
}

function deliveryText(delivery: DeliveryLog): string {
  const lines = [
    `event ${delivery.eventId}  request ${delivery.requestId}  status ${delivery.status}  key ${delivery.keyId ?? "-"}  created ${delivery.createdAt}`,
    `state ${delivery.state}${stateDetail(delivery)}`,
  ];
  if (delivery.attemptLog.length > 0) {
    lines.push(
      textTable(
        ["  #", "AT", "STATUS", "DURATION", "ERROR"],
        delivery.attemptLog.map((a) => [`  ${a.attempt}`, a.at, a.statusCode === null ? "-" : String(a.statusCode), `${a.durationMs} ms`, a.error ?? "-"]),
      ),
    );
  }
  return lines.join("\n");
}

function stateDetail(d: WebhookDelivery): string {
  const parts = [`${d.attempts} attempt${d.attempts === 1 ? "" : "s"}`];
  if (d.state === "delivered" && d.deliveredAt) parts.push(`delivered at ${d.deliveredAt}`);
  if (d.state === "pending") parts.push(d.nextAttemptAt ? `next attempt at ${d.nextAttemptAt}` : "next attempt: as soon as a worker claims it");
  if (d.state !== "delivered" && (d.lastStatusCode !== null || d.lastError !== null)) {
    parts.push(`last: ${[d.lastStatusCode === null ? undefined : `HTTP ${d.lastStatusCode}`, d.lastError ?? undefined].filter(Boolean).join(", ")}`);
  }
  return ` (${parts.join("; ")})`;
}

// --- redeliver ------------------------------------------------------------------------------------

async function redeliver(args: readonly string[], io: CliIo, globals: GlobalFlags): Promise<number> {
  const parsed = parseCommandArgs(args, { ...TARGET_OPTIONS, since: { type: "string" } }, { min: 0, max: 1 });
  if (parsed.help) return help(io);
  const json = parsed.json || globals.json;
  const target = eventOrOther(parsed, "since", "ferry webhooks redeliver <eventId> | --since <ISO-8601>");
  const since = target.other === undefined ? undefined : parseIsoTime(target.other, "--since");

  const count = await withAdmin(io, parsed, "write", (admin) => admin.redeliver(since === undefined ? { eventId: target.eventId! } : { since }));
  let text: string;
  if (since !== undefined) text = `${count} event${count === 1 ? "" : "s"} since ${since.toISOString()} queued for redelivery`;
  else if (count > 0) text = `event ${target.eventId} queued for redelivery`;
  else text = `event ${target.eventId} is being delivered right now: left alone (try again when its attempt is over)`;
  printResult(io, json, text, { ...(since ? { since: since.toISOString() } : { eventId: target.eventId }), redelivered: count });
  return EXIT.OK;
}

// --- rotate-secret-key ---------------------------------------------------------------------------

async function rotateSecretKey(args: readonly string[], io: CliIo, globals: GlobalFlags): Promise<number> {
  const parsed = parseCommandArgs(args, { "data-dir": { type: "string" }, config: { type: "string" } }, { min: 0, max: 0 });
  if (parsed.help) return help(io);
  const json = parsed.json || globals.json;
  const dataDir = typeof parsed.values["data-dir"] === "string" && parsed.values["data-dir"] !== "" ? parsed.values["data-dir"] : undefined;
  const config = typeof parsed.values.config === "string" && parsed.values.config !== "" ? parsed.values.config : undefined;
  if (dataDir === undefined && config === undefined && !io.env.FERRY_DATA_DIR && !io.env.DATABASE_URL && !io.env.FERRY_CONFIG) {
    throw new UsageError("rotate-secret-key works on the service's database: --data-dir <dir> (FERRY_DATA_DIR), DATABASE_URL or --config <file>");
  }
  const env = { ...io.env, ...(dataDir !== undefined ? { FERRY_DATA_DIR: dataDir } : {}), ...(config !== undefined ? { FERRY_CONFIG: config } : {}) };
  // Imported here, not above: the store and the config are a second of CPU the other commands skip.
  const { withServiceStore } = await import("../serviceStore.ts");
  const rotation = await withServiceStore(
    { ...io, env },
    async (store, loaded) => {
      const keys = configuredWebhookSecretKeys(loaded.webhooks);
      if (!keys) {
        throw new WebhookError("WEBHOOK_SECRET_KEY_MISSING", `${WEBHOOK_SECRET_KEY_ENV} is not set: set it to the new key and ${WEBHOOK_SECRET_KEY_PREVIOUS_ENV} to the old one`, {
          field: WEBHOOK_SECRET_KEY_ENV,
        });
      }
      return { ...(await rotateWebhookSecrets(store.engine, keys)), previousSet: keys.previous !== undefined };
    },
    { beforeOpen: (loaded) => requireExistingDatabase(loaded.database) },
  );
  const { previousSet, ...result } = rotation;
  const plural = (n: number) => `${n} webhook secret${n === 1 ? "" : "s"}`;
  const done = result.unreadable.length === 0;
  const text =
    `${plural(result.reencrypted)} re-encrypted under ${WEBHOOK_SECRET_KEY_ENV}, ${result.alreadyCurrent} already under it` +
    (done ? (previousSet ? `; ${WEBHOOK_SECRET_KEY_PREVIOUS_ENV} is no longer needed: remove it and restart the service` : "") : `; ${plural(result.unreadable.length)} neither key opens`);
  printResult(io, json, text, result);
  if (!done) throw secretKeyMismatch(result.unreadable);
  return EXIT.OK;
}

// --- shared parsing --------------------------------------------------------------------------------

/** Exactly one of a positional `<eventId>` and the flag `other`. */
function eventOrOther(parsed: ParsedCommand, other: string, usage: string): { eventId?: number; other?: string } {
  const positional = parsed.positionals[0];
  const flag = parsed.values[other];
  if (positional !== undefined && flag !== undefined) throw new UsageError(`give either <eventId> or --${other}, not both: ${usage}`);
  if (flag !== undefined) return { other: requiredFlag(parsed, other) };
  if (positional === undefined) throw new UsageError(`missing <eventId> or --${other}: ${usage}`);
  if (!/^[1-9][0-9]{0,14}$/.test(positional)) throw new UsageError(`<eventId> must be a positive integer (the event ids of ferry webhooks log --request)`);
  return { eventId: Number(positional) };
}

const ISO_TIME = /^(\d{4})-(\d{2})-(\d{2})(?:T(\d{2}):(\d{2})(?::(\d{2})(?:\.\d{1,9})?)?(Z|[+-]\d{2}:?\d{2}))?$/;

/**
 * An ISO 8601 date (`2026-01-31`, midnight UTC) or date-time with a zone (`…T12:00:00Z`,
 * `…T12:00+02:00`). A time without a zone is refused: the machine's local zone is a guess.
 */
export function parseIsoTime(text: string, name: string): Date {
  const match = ISO_TIME.exec(text);
  if (!match) {
    const reason = /T\d{2}:\d{2}(:\d{2}(\.\d+)?)?$/.test(text) ? "needs a time zone (Z or ±hh:mm)" : "must be an ISO 8601 date or date-time, e.g. 2026-01-31T12:00:00Z";
    throw new UsageError(`${name} ${reason}`);
  }
  const [, year, month, day, hour = "00", minute = "00", second = "00"] = match;
  const date = new Date(text);
  const calendar = new Date(Date.UTC(Number(year), Number(month) - 1, Number(day)));
  const valid =
    !Number.isNaN(date.getTime()) &&
    calendar.getUTCMonth() === Number(month) - 1 &&
    calendar.getUTCDate() === Number(day) &&
    Number(hour) < 24 &&
    Number(minute) < 60 &&
    Number(second) < 60;
  if (!valid) throw new UsageError(`${name} is not a valid date or time`);
  return date;
}

/** `error` with every occurrence of the given secrets in its message replaced (same object, same code). */
function scrub(error: unknown, secrets: readonly string[]): unknown {
  if (!(error instanceof Error)) return error;
  let message = error.message;
  for (const secret of secrets) if (secret !== "") message = message.split(secret).join(REDACTED);
  if (message !== error.message) error.message = message;
  return error;
}

function help(io: CliIo): number {
  io.stdout(HELP);
  return EXIT.OK;
}

export const webhooks: CommandGroup = {
  help: HELP,
  run: (args, io, globals) => runSubcommand("webhooks", HELP, { set, clear, show, log, redeliver, "rotate-secret-key": rotateSecretKey }, args, io, globals, (m) => new UsageError(m)),
};
