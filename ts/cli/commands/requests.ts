/**
 * `ferry requests parked|unpark`: requests the solver parked on a non-retryable error (the error's
 * code and message) and unparking one once its cause is fixed, so the solver takes it up again — through
 * a running service's admin API or in its database (../adminTarget.ts).
 */
import { parseBytes32 } from "../../core/inputParsers.ts";
import { canonicalHex } from "../../service/model/values.ts";
import type { ParkedRequest } from "../../service/store/solver/parkedRequests.ts";
import { EXIT, UsageError, printResult, type CliIo } from "../cliIo.ts";
import { runSubcommand, type CommandGroup, type GlobalFlags } from "../commandGroup.ts";
import { integerFlag, parseCommandArgs } from "../parseCommandArgs.ts";
import { TARGET_HELP, TARGET_OPTIONS, withAdmin } from "../adminTarget.ts";
import { textTable } from "../textTable.ts";

const HELP = `Usage: ferry requests <command> [options]

Requests the solver parked: a step failed with an error that retrying does not fix (a reverted
transaction, a stored row that does not decode, ...). A parked request is left alone until an
operator unparks it; ferry_solver_parked_requests in /metrics counts them.

Commands:
  parked              parked requests: id, status, chains, the error's code and message, when
                        --limit <n>   at most n (1-1000, default 100)
  unpark <requestId>  put it back on the solver's work list (fix the cause first)

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
  const requestId = canonicalHex(parseBytes32(given, "<requestId>"));
  const request = await withAdmin(io, parsed, "write", (admin) => admin.unparkRequest(requestId));
  printResult(io, json, `unparked ${request.id} (${request.status}; was parked: ${request.parked.code}); the solver takes it up at its next tick`, { request });
  return EXIT.OK;
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
  run: (args, io, globals) => runSubcommand("requests", HELP, { parked, unpark }, args, io, globals, (m) => new UsageError(m)),
};
