/**
 * `ferry solver recover-reorg`: the operator's recovery after a reorg deeper than a chain's
 * confirmations halted it — every deposit and payout the service recorded above the resume block is
 * checked against the canonical chain, only what exists is repaid, vanished deposits are parked and
 * never paid for, then the chain resumes (../../service/solver/indexer/recoverDeepReorg.ts). It acts on the
 * service's database (../serviceStore.ts: PostgreSQL at any time, the embedded one while the service is
 * stopped) and reads the chain through the config's RPC URLs.
 */
import { ChainNotConfiguredError, createChainClients } from "../../service/chains/chainClients.ts";
import { resolveAccounts } from "../../service/chains/serviceAccounts.ts";
import { SILENT_LOG } from "../../service/logging/logger.ts";
import { recoverDeepReorg, type ReorgRecoveryReport } from "../../service/solver/indexer/recoverDeepReorg.ts";
import { EXIT, UsageError, printResult, type CliIo } from "../cliIo.ts";
import { runSubcommand, type CommandGroup, type GlobalFlags } from "../commandGroup.ts";
import { integerFlag, parseCommandArgs, requiredFlag } from "../parseCommandArgs.ts";
import { withServiceStore } from "../serviceStore.ts";
import { textTable } from "../textTable.ts";

const HELP = `Usage: ferry solver <command> [options]

The solver's operator procedures.

Commands:
  recover-reorg --chain <id>   after a reorg deeper than the chain's confirmations halted it:
                                 checks every deposit credited and every payout confirmed above the
                                 resume block against the canonical chain; a deposit that is gone is
                                 parked DEEP_REORG_DEPOSIT_GONE and its unexecuted payouts marked
                                 reverted DEPOSIT_GONE (never paid; the solver nonce that carried
                                 one is taken by a 0-value transfer, so FERRY_SOLVER_KEY is needed
                                 then); payouts of deposits that exist
                                 and are no longer onchain go back to sent (resent, paid once); then
                                 the chain resumes. Exit 1 when something is not final yet (nothing
                                 resumed: run it again later).
                                 --from-block <n>  resume block (default: the halt's last good block;
                                                   required when the halt has none)
                                 --dry-run         check and report, change nothing

Where: the service's database — --config <file> ($FERRY_CONFIG: also the chains' RPC URLs), with
$DATABASE_URL (PostgreSQL, any time) or --data-dir <dir> / $FERRY_DATA_DIR (the embedded one, service
stopped).

Options: --config <file>  --data-dir <dir>  --json  -h, --help
`;

async function recoverReorg(args: readonly string[], io: CliIo, globals: GlobalFlags): Promise<number> {
  const parsed = parseCommandArgs(
    args,
    { chain: { type: "string" }, "from-block": { type: "string" }, "dry-run": { type: "boolean" }, config: { type: "string" }, "data-dir": { type: "string" } },
    { min: 0, max: 0 },
  );
  const json = parsed.json || globals.json;
  const chain = requiredFlag(parsed, "chain");
  if (!/^[1-9][0-9]{0,15}$/.test(chain)) throw new UsageError("--chain must be a chain id (a positive integer)");
  const fromBlock = integerFlag(parsed, "from-block");
  const apply = parsed.values["dry-run"] !== true;
  const config = parsed.values.config;
  const dataDir = parsed.values["data-dir"];
  const env = { ...io.env, ...(typeof config === "string" ? { FERRY_CONFIG: config } : {}), ...(typeof dataDir === "string" ? { FERRY_DATA_DIR: dataDir } : {}) };
  const chainId = Number(chain);
  const report = await withServiceStore(
    { ...io, env },
    async (store, loaded) => {
      // Closed after: a chain followed by websocket would otherwise keep the command from exiting.
      const clients = createChainClients(loaded.chains, { ...resolveAccounts(loaded) });
      try {
        return await recoverDeepReorg({ store, clients, log: SILENT_LOG }, { chainId, apply, ...(fromBlock !== undefined ? { fromBlock } : {}) });
      } finally {
        clients.close();
      }
    },
    {
      // A chain the config does not have is refused before the database is opened (or created).
      beforeOpen: (loaded) => {
        if (!loaded.chains.some((c) => c.id === chainId)) throw new ChainNotConfiguredError(chainId);
      },
    },
  );
  printResult(io, json, reportText(report), { report });
  return report.waitingFor.length > 0 ? EXIT.INVALID : EXIT.OK;
}

function reportText(report: ReorgRecoveryReport): string {
  const head = `chain ${report.chainId}: resume block ${report.resumeBlock} (${report.resumeHash})${report.applied ? "" : " — dry run, nothing changed"}`;
  const table =
    report.records.length === 0
      ? "no deposit or payout recorded above the resume block"
      : textTable(
          ["RECORD", "KIND", "DEPOSIT", "ACTIONS", "LOSSES"],
          report.records.map((r) => [r.id, r.kind, r.deposit, r.actions.join("; ") || "-", r.losses.join("; ") || "-"]),
        );
  const tail = report.resumed
    ? "indexing resumed after the resume block (ferry_chain_deep_reorg_alert goes back to 0)"
    : report.waitingFor.length > 0
      ? `not resumed, not final yet — run again later:\n  ${report.waitingFor.join("\n  ")}`
      : "not resumed (dry run)";
  return `${head}\n${table}\n${tail}`;
}

export const solver: CommandGroup = {
  help: HELP,
  run: (args, io, globals) => runSubcommand("solver", HELP, { "recover-reorg": recoverReorg }, args, io, globals, (m) => new UsageError(m)),
};
