/**
 * `ferry balances show <keyId>`: an app's balance (available, held, credited, debited, in USD) and its
 * latest ledger lines, through the service's admin API or in its database (../adminTarget.ts).
 */
import type { AppBalanceView } from "../../service/admin/appBalanceAdmin.ts";
import { EXIT, UsageError, printResult, type CliIo } from "../cliIo.ts";
import { runSubcommand, type CommandGroup, type GlobalFlags } from "../commandGroup.ts";
import { integerFlag, parseCommandArgs } from "../parseCommandArgs.ts";
import { TARGET_HELP, TARGET_OPTIONS, withAdmin } from "../adminTarget.ts";
import { textTable } from "../textTable.ts";

const HELP = `Usage: ferry balances <command> [options]

App balances (what an API key's app funded onchain, holds and was debited, in USD).

Commands:
  show <keyId>       the balance and its latest ledger lines
                       --limit <n>   ledger lines (default 20, at most 500)

${TARGET_HELP}

Options: --api-url <url>  --data-dir <dir>  --config <file>  --devnet-dir <dir>  --json  -h, --help
`;

/** USD micro-units (a decimal string) as USD with 6 decimals. */
export function usdText(micros: string): string {
  const padded = micros.padStart(7, "0");
  return `${padded.slice(0, -6)}.${padded.slice(-6)}`;
}

async function show(args: readonly string[], io: CliIo, globals: GlobalFlags): Promise<number> {
  const parsed = parseCommandArgs(args, { ...TARGET_OPTIONS, limit: { type: "string" } }, { min: 0, max: 1 });
  if (parsed.help) return help(io);
  const json = parsed.json || globals.json;
  const id = parsed.positionals[0];
  if (!id) throw new UsageError("missing <keyId>: ferry balances show <keyId>");
  const limit = integerFlag(parsed, "limit") ?? 20;
  if (limit < 1 || limit > 500) throw new UsageError("--limit must be 1–500");
  const view = await withAdmin(io, parsed, "read", (admin) => admin.appBalance(id, limit));
  printResult(io, json, balanceText(view), view);
  return EXIT.OK;
}

function balanceText(view: AppBalanceView): string {
  const head = `${view.apiKeyId}: available ${usdText(view.availableUsd)} USD, held ${usdText(view.heldUsd)}, credited ${usdText(view.creditedUsd)}, debited ${usdText(view.debitedUsd)}`;
  if (view.entries.length === 0) return `${head}\nno ledger lines yet (fund it: POST /app-balance/deposits with the app's key)`;
  return `${head}\n${textTable(
    ["WHEN", "KIND", "USD", "PURPOSE", "REFERENCE"],
    view.entries.map((e) => [e.createdAt, e.kind, usdText(e.amountUsd), e.purpose ?? "-", e.reference ?? (e.source ? `${e.source.chainId}:${e.source.txHash}:${e.source.logIndex}` : "-")]),
  )}`;
}

function help(io: CliIo): number {
  io.stdout(HELP);
  return EXIT.OK;
}

export const balances: CommandGroup = {
  help: HELP,
  run: (args, io, globals) => runSubcommand("balances", HELP, { show }, args, io, globals, (m) => new UsageError(m)),
};
