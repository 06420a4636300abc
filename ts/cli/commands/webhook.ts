/** `ferry webhook sign|verify`: the spec's webhook HMAC over a body file's exact bytes. */
import {
  DEFAULT_WEBHOOK_TOLERANCE_SECONDS,
  WEBHOOK_SIGNATURE_HEADER,
  WEBHOOK_TIMESTAMP_HEADER,
  signWebhook,
  verifyWebhook,
} from "../../core/webhookSignature.ts";
import { EXIT, UsageError, printError, printResult, readInput, type CliIo } from "../cliIo.ts";
import { runSubcommand, type CommandGroup, type GlobalFlags } from "../commandGroup.ts";
import { integerFlag, parseCommandArgs, type ParsedCommand } from "../parseCommandArgs.ts";

/** Read when --secret is absent, so the API key need not appear in the process list. */
export const WEBHOOK_SECRET_ENV = "FERRY_WEBHOOK_SECRET";

const HELP = `Usage: ferry webhook <command> [options] <body-file|->

Signature = lower-case hex HMAC-SHA256 over "<timestamp>.<body>", keyed with the API key;
the body is read as exact bytes (no trimming, no re-serialization). - reads stdin.

Commands:
  sign     print the X-Signature-SHA256 value
             --timestamp <unix>   the X-Signature-Timestamp value
  verify   exit 0 if valid, 1 if not (reason on stderr)
             --timestamp <unix>   the received X-Signature-Timestamp
             --signature <hex>    the received X-Signature-SHA256 (a 0x prefix is accepted)
             --now <unix>         clock (default: now)
             --tolerance <sec>    accepted clock distance (default ${DEFAULT_WEBHOOK_TOLERANCE_SECONDS})

Options: --secret <api key> (or $${WEBHOOK_SECRET_ENV})  --json  -h, --help
`;

function secretOf(parsed: ParsedCommand, io: CliIo): string {
  const secret = typeof parsed.values.secret === "string" ? parsed.values.secret : io.env[WEBHOOK_SECRET_ENV];
  if (secret === undefined || secret === "") throw new UsageError(`missing --secret (or $${WEBHOOK_SECRET_ENV})`);
  return secret;
}

function timestampOf(parsed: ParsedCommand): string {
  const timestamp = integerFlag(parsed, "timestamp");
  if (timestamp === undefined) throw new UsageError("missing --timestamp");
  return parsed.values.timestamp as string;
}

async function sign(args: readonly string[], io: CliIo, globals: GlobalFlags): Promise<number> {
  const parsed = parseCommandArgs(args, { secret: { type: "string" }, timestamp: { type: "string" } }, { min: 1, max: 1 });
  if (parsed.help) return help(io);
  const secret = secretOf(parsed, io);
  const timestamp = timestampOf(parsed);
  const body = await readInput(io, parsed.positionals[0]!);
  const signature = signWebhook({ secret, timestamp, body });
  printResult(io, parsed.json || globals.json, signature, { timestamp, signature });
  return EXIT.OK;
}

async function verify(args: readonly string[], io: CliIo, globals: GlobalFlags): Promise<number> {
  const parsed = parseCommandArgs(
    args,
    { secret: { type: "string" }, timestamp: { type: "string" }, signature: { type: "string" }, now: { type: "string" }, tolerance: { type: "string" } },
    { min: 1, max: 1 },
  );
  if (parsed.help) return help(io);
  const json = parsed.json || globals.json;
  const secret = secretOf(parsed, io);
  const timestamp = timestampOf(parsed);
  const given = parsed.values.signature;
  if (typeof given !== "string" || given === "") throw new UsageError("missing --signature");
  // The header is bare hex; a 0x-prefixed copy of it (as other signatures are written) is the same value.
  const signature = given.replace(/^0x/i, "");
  const now = integerFlag(parsed, "now") ?? io.now();
  const toleranceSeconds = integerFlag(parsed, "tolerance") ?? DEFAULT_WEBHOOK_TOLERANCE_SECONDS;
  const rawBody = await readInput(io, parsed.positionals[0]!);

  const result = verifyWebhook({
    headers: { [WEBHOOK_TIMESTAMP_HEADER]: timestamp, [WEBHOOK_SIGNATURE_HEADER]: signature },
    rawBody,
    secret,
    now,
    toleranceSeconds,
  });
  if (result.valid) {
    printResult(io, json, "valid", { valid: true, timestamp: result.timestamp });
    return EXIT.OK;
  }
  const error = { code: result.error.code, message: result.error.message };
  if (json) printResult(io, true, "", { valid: false, error });
  printError(io, json, error);
  return EXIT.INVALID;
}

function help(io: CliIo): number {
  io.stdout(HELP);
  return EXIT.OK;
}

export const webhook: CommandGroup = {
  help: HELP,
  run: (args, io, globals) => runSubcommand("webhook", HELP, { sign, verify }, args, io, globals, (m) => new UsageError(m)),
};
