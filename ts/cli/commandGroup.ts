/** The shape every `ferry <group>` module exports, so the dispatcher can load groups lazily. */
import type { CliIo } from "./cliIo.ts";

export type GlobalFlags = { json: boolean };

export type CommandGroup = {
  /** Full help of the group (`ferry <group> --help`). */
  help: string;
  /** Runs the group with the arguments after its name; returns the exit code. */
  run: (args: readonly string[], io: CliIo, globals: GlobalFlags) => Promise<number>;
};

/** Splits `<sub> [args]` and routes it, handling group-level help. */
export async function runSubcommand(
  group: string,
  helpText: string,
  subcommands: Record<string, (args: readonly string[], io: CliIo, globals: GlobalFlags) => Promise<number>>,
  args: readonly string[],
  io: CliIo,
  globals: GlobalFlags,
  usageError: (message: string) => Error,
): Promise<number> {
  // Flags may come before the subcommand too: `ferry attest --json digest ...`.
  let index = 0;
  let help = false;
  let json = globals.json;
  for (; index < args.length && (args[index] === "--json" || args[index] === "--help" || args[index] === "-h"); index++) {
    if (args[index] === "--json") json = true;
    else help = true;
  }
  const sub = args[index];
  const rest = [...(help ? ["--help"] : []), ...args.slice(index + 1)];
  if (sub === "help" || (help && sub === undefined)) {
    io.stdout(helpText);
    return 0;
  }
  if (sub === undefined) throw usageError(`missing subcommand: ferry ${group} ${Object.keys(subcommands).join("|")} (see ferry ${group} --help)`);
  const handler = Object.hasOwn(subcommands, sub) ? subcommands[sub] : undefined;
  if (!handler) throw usageError(`unknown command "ferry ${group} ${sub}" (see ferry ${group} --help)`);
  if (rest.includes("--help") || rest.includes("-h")) {
    io.stdout(subcommandHelp(helpText, sub));
    return 0;
  }
  return handler(rest, io, { ...globals, json });
}

/**
 * The help of one subcommand, cut from its group's help so that there is one text to maintain: the
 * usage line with `<command>` replaced, the subcommand's entry under "Commands:" (its line and the
 * more deeply indented lines after it), the group's preamble and its "Options:" line. Falls back to
 * the whole group help when the entry is not found.
 */
export function subcommandHelp(groupHelp: string, sub: string): string {
  const lines = groupHelp.split("\n");
  const commandsAt = lines.indexOf("Commands:");
  const start = lines.findIndex((line, i) => i > commandsAt && commandsAt >= 0 && (line === `  ${sub}` || line.startsWith(`  ${sub} `)));
  if (start < 0) return groupHelp;
  let end = start + 1;
  while (end < lines.length && lines[end]!.startsWith("   ")) end++;
  const usage = lines[0]!.replace("<command>", sub);
  const preamble = lines.slice(1, commandsAt).join("\n").trim();
  const options = lines.slice(end).filter((line) => line.startsWith("Options:"));
  return `${[usage, "", ...lines.slice(start, end), ...(preamble ? ["", preamble] : []), ...(options.length ? ["", ...options] : [])].join("\n")}\n`;
}
