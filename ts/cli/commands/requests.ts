/**
 * `ferry requests parked|unpark`: requests the solver parked on a non-retryable error (the error's
 * code and message) and unparking one once its cause is fixed, so the solver takes it up again — through
 * a running service's admin API or in its database (../adminTarget.ts).
 *
 * `ferry requests receipt <requestId>`: the request's receipt (GET /requests/{id}/receipt of the public
 * API) as JSON on stdout; `ferry requests verify-receipt <file>`: ts/core's `verifyReceipt` on a saved
 * receipt, offline — exit 0 valid, 1 invalid (naming the first failed check), 2 unreadable (no such
 * file, not JSON, not a `ferry.receipt.v1`).
 */
import { FerryError } from "../../core/errors.ts";
import type { Bytes32 } from "../../service/model/values.ts";
import type { ParkedRequest } from "../../service/store/solver/parkedRequests.ts";
import { EXIT, UsageError, printError, printResult, readJsonInput, type CliIo } from "../cliIo.ts";
import { findDevnetJson } from "../devnetDir.ts";
import { runSubcommand, type CommandGroup, type GlobalFlags } from "../commandGroup.ts";
import { integerFlag, parseCommandArgs, type ParsedCommand } from "../parseCommandArgs.ts";
import { TARGET_HELP, TARGET_OPTIONS, withAdmin } from "../adminTarget.ts";
import { textTable } from "../textTable.ts";

const HELP = `Usage: ferry requests <command> [options]

Receipts: the offline-verifiable receipt of a filled and repaid request (receipt, verify-receipt).

Requests the solver parked: a step failed with an error that retrying does not fix (a reverted
transaction, a stored row that does not decode, ...). A parked request is left alone until an
operator unparks it; ferry_solver_parked_requests in /metrics counts them.

Commands:
  parked              parked requests: id, status, chains, the error's code and message, when
                        --limit <n>   at most n (1-1000, default 100)
  unpark <requestId>  put it back on the solver's work list (fix the cause first)
  receipt <requestId> the receipt of a filled and repaid request (JSON on stdout), from the public
                      API: --api-url <url> ($FERRY_API_URL), else the devnet's (.devnet/devnet.json)
  verify-receipt <file>
                      verify a saved receipt offline, trusting nothing the service says; exit 0
                      valid, 1 invalid (names the first failed check), 2 unreadable. Pin what you
                      trust: --signer <address> (repeatable), --depository <address>, --receiver <address>

${TARGET_HELP}

Options: --api-url <url>  --data-dir <dir>  --config <file>  --devnet-dir <dir>  --json  -h, --help
`;

async function parked(args: readonly string[], io: CliIo, globals: GlobalFlags): Promise<number> {
  const parsed = parseCommandArgs(args, { ...TARGET_OPTIONS, limit: { type: "string" } }, { min: 0, max: 0 });
  if (parsed.help) return help(io);
  const json = parsed.json || globals.json;
  const limit = integerFlag(parsed, "limit");
  if (limit !== undefined && (limit < 1 || limit > 1000)) throw new UsageError("--limit must be between 1 and 1000");
  const requests = await withAdmin(io, parsed, "read", (admin) => admin.listParkedRequests(limit));
  printResult(io, json, requests.length === 0 ? "no parked requests" : parkedTable(requests), { requests });
  return EXIT.OK;
}

async function unpark(args: readonly string[], io: CliIo, globals: GlobalFlags): Promise<number> {
  const parsed = parseCommandArgs(args, TARGET_OPTIONS, { min: 0, max: 1 });
  if (parsed.help) return help(io);
  const json = parsed.json || globals.json;
  const given = parsed.positionals[0];
  if (given === undefined) throw new UsageError("missing <requestId>: ferry requests unpark <requestId>");
  const requestId = await requestIdOf(given);
  const request = await withAdmin(io, parsed, "write", (admin) => admin.unparkRequest(requestId));
  printResult(io, json, `unparked ${request.id} (${request.status}; was parked: ${request.parked.code}); the solver takes it up at its next tick`, { request });
  return EXIT.OK;
}

async function receipt(args: readonly string[], io: CliIo, globals: GlobalFlags): Promise<number> {
  const parsed = parseCommandArgs(args, { "api-url": { type: "string" }, "devnet-dir": { type: "string" } }, { min: 0, max: 1 });
  if (parsed.help) return help(io);
  const given = parsed.positionals[0];
  if (given === undefined) throw new UsageError("missing <requestId>: ferry requests receipt <requestId>");
  const requestId = await requestIdOf(given);
  const base = (await publicApiUrl(io, parsed)).replace(/\/+$/, "");
  let response: Response;
  try {
    response = await fetch(`${base}/requests/${requestId}/receipt`, { signal: AbortSignal.timeout(30_000) });
  } catch (cause) {
    throw new FerryError("SERVICE_UNREACHABLE", `cannot reach the service at ${base} (${(cause as Error).message})`, { cause });
  }
  const body = (await response.json().catch(() => null)) as { errorCode?: string; message?: string } | null;
  if (!response.ok) throw new FerryError(body?.errorCode ?? `HTTP_${response.status}`, body?.message ?? `the service answered ${response.status}`);
  io.stdout(globals.json ? `${JSON.stringify(body)}\n` : `${JSON.stringify(body, null, 2)}\n`);
  return EXIT.OK;
}

async function verifyReceiptFile(args: readonly string[], io: CliIo, globals: GlobalFlags): Promise<number> {
  const repeatable = { type: "string", multiple: true } as const;
  const parsed = parseCommandArgs(args, { signer: repeatable, depository: repeatable, receiver: repeatable }, { min: 1, max: 1 });
  if (parsed.help) return help(io);
  const json = parsed.json || globals.json;
  const list = (name: string) => (parsed.values[name] as string[] | undefined)?.map((value, i) => addressFlag(value, `--${name}`, i));
  const signers = list("signer");
  const depositories = list("depository");
  const receivers = list("receiver");
  const trusted = { ...(signers && { signers }), ...(depositories && { depositories }), ...(receivers && { receivers }) };
  // Unreadable (no file, not JSON) throws: exit 2.
  const input = await readJsonInput(io, parsed.positionals[0]!);
  // Imported here, not above: the verifier loads viem, which parked and unpark do not need.
  const { verifyReceipt } = await import("../../core/verifyReceipt.ts");
  const result = await verifyReceipt(input, { trusted });
  if (result.valid) {
    printResult(io, json, `valid: request ${result.requestId} (order ${result.orderId}), attested by ${result.signer}; ${result.checks.length} checks passed`, {
      valid: true,
      requestId: result.requestId,
      orderId: result.orderId,
      signer: result.signer,
      checks: result.checks.length,
    });
    return EXIT.OK;
  }
  const error = { code: result.error.code, message: result.error.message };
  if (json) printResult(io, true, "", { valid: false, check: result.check, error });
  printError(io, json, error);
  // A document that is not a receipt at all is unreadable (2); a receipt that fails a check is invalid (1).
  return result.check === "format" ? EXIT.USAGE : EXIT.INVALID;
}

function addressFlag(value: string, flag: string, index: number): string {
  if (!/^0x[0-9a-fA-F]{40}$/.test(value)) throw new UsageError(`${flag} #${index + 1} must be an address (0x + 40 hex digits)`);
  return value;
}

/** The public API: --api-url, else $FERRY_API_URL, else the devnet's (devnet.json). */
async function publicApiUrl(io: CliIo, parsed: ParsedCommand): Promise<string> {
  const flag = typeof parsed.values["api-url"] === "string" ? (parsed.values["api-url"] as string) : undefined;
  const url = flag || io.env.FERRY_API_URL || undefined;
  if (url) {
    if (!/^https?:\/\//.test(url)) throw new UsageError(`--api-url must be an http(s) URL, got ${JSON.stringify(url)}`);
    return url;
  }
  const devnet = findDevnetJson(io, typeof parsed.values["devnet-dir"] === "string" ? (parsed.values["devnet-dir"] as string) : undefined);
  if (!devnet) throw new UsageError("no Ferry API to ask: pass --api-url <url> or set FERRY_API_URL (or run from the folder of a devnet started with npm start)");
  const { readDevnetJson } = await import("../devnetJson.ts");
  return (await readDevnetJson(io, devnet)).apiUrl;
}

/**
 * A `<requestId>` argument, canonical. Its parsers are imported here, not above: they load viem and
 * typebox, which `parked` does not need.
 */
async function requestIdOf(text: string): Promise<Bytes32> {
  const [{ parseBytes32 }, { canonicalHex }] = await Promise.all([import("../../core/inputParsers.ts"), import("../../service/model/values.ts")]);
  return canonicalHex(parseBytes32(text, "<requestId>"));
}

function parkedTable(requests: readonly ParkedRequest[]): string {
  return textTable(
    ["REQUEST", "STATUS", "CHAINS", "PARKED AT", "CODE", "MESSAGE"],
    requests.map((r) => [r.id, r.status, `${r.originChainId} → ${r.destinationChainId}`, r.parked.at, r.parked.code, r.parked.message.slice(0, 120)]),
  );
}

function help(io: CliIo): number {
  io.stdout(HELP);
  return EXIT.OK;
}

export const requests: CommandGroup = {
  help: HELP,
  run: (args, io, globals) =>
    runSubcommand("requests", HELP, { parked, unpark, receipt, "verify-receipt": verifyReceiptFile }, args, io, globals, (m) => new UsageError(m)),
};
