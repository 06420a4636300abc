/**
 * `ferry deposit-addresses show <address>`: one deposit address on every chain where the service handed
 * it out — what it is bound to (request, currency, amount, refundTo, expiry, state) and each payment it
 * saw: the payer's transaction, currency, amount, block, outcome (forwarded, or a refund and its state),
 * the reason, the request, the refund transaction — through a running service's admin API or in its
 * database (../adminTarget.ts).
 */
import type { DepositAddressView } from "../../service/admin/depositAddressAdmin.ts";
import { EXIT, UsageError, printResult, type CliIo } from "../cliIo.ts";
import { runSubcommand, type CommandGroup, type GlobalFlags } from "../commandGroup.ts";
import { parseCommandArgs } from "../parseCommandArgs.ts";
import { TARGET_HELP, TARGET_OPTIONS, withAdmin } from "../adminTarget.ts";
import { textTable } from "../textTable.ts";

const HELP = `Usage: ferry deposit-addresses <command> [options]

Deposit addresses the service handed out in quotes (useDepositAddress), and what became of each
payment sent to them.

Commands:
  show <address>   on each chain: the address's request, bound currency and amount, refundTo,
                   expiry and state; then each payment: transaction, currency, amount, block,
                   outcome (forwarded, or refund planned|sent|confirmed|ignored|reverted),
                   reason, request, refund transaction

${TARGET_HELP}

Options: --api-url <url>  --data-dir <dir>  --config <file>  --devnet-dir <dir>  --json  -h, --help
`;

async function show(args: readonly string[], io: CliIo, globals: GlobalFlags): Promise<number> {
  const parsed = parseCommandArgs(args, TARGET_OPTIONS, { min: 0, max: 1 });
  if (parsed.help) return help(io);
  const json = parsed.json || globals.json;
  const given = parsed.positionals[0];
  if (given === undefined) throw new UsageError("missing <address>: ferry deposit-addresses show <address>");
  // Imported here, not above: they load viem and typebox, which the help and usage errors do not need.
  const [{ parseAddress }, { canonicalAddress }] = await Promise.all([import("../../core/inputParsers.ts"), import("../../service/model/values.ts")]);
  const address = canonicalAddress(parseAddress(given, "<address>"));
  const depositAddresses = await withAdmin(io, parsed, "read", (admin) => admin.showDepositAddress(address));
  printResult(io, json, depositAddresses.map(viewText).join("\n\n"), { depositAddresses });
  return EXIT.OK;
}

function viewText(view: DepositAddressView): string {
  const head = [
    `${view.address} on chain ${view.chainId} (${view.mode}): ${view.state}`,
    `  request ${view.requestId}, bound to ${view.amount} of ${view.currency}, refundTo ${view.refundTo}, expires ${view.expiresAt}`,
  ];
  if (view.payments.length === 0) return [...head, "  no payment seen"].join("\n");
  const table = textTable(
    ["TX", "CURRENCY", "AMOUNT", "BLOCK", "OUTCOME", "REASON", "REQUEST", "REFUND TX"],
    view.payments.map((p) => [p.txHash ?? "-", p.currency, p.amount, String(p.block), p.outcome, p.reason ?? "-", p.requestId, p.refundTxHash ?? "-"]),
  );
  return [...head, table].join("\n");
}

function help(io: CliIo): number {
  io.stdout(HELP);
  return EXIT.OK;
}

export const depositAddresses: CommandGroup = {
  help: HELP,
  run: (args, io, globals) => runSubcommand("deposit-addresses", HELP, { show }, args, io, globals, (m) => new UsageError(m)),
};
