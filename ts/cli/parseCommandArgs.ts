/**
 * node:util parseArgs with the CLI's conventions: strict flags, `--json` and `-h/--help` on every
 * command, and exactly the expected number of positionals. Failures are UsageErrors (exit 2).
 */
import { parseArgs, type ParseArgsConfig } from "node:util";
import { UsageError } from "./cliIo.ts";

type Options = NonNullable<ParseArgsConfig["options"]>;

const COMMON = {
  json: { type: "boolean" },
  help: { type: "boolean", short: "h" },
} as const satisfies Options;

export type ParsedCommand = {
  values: Record<string, string | boolean | string[] | boolean[] | undefined>;
  positionals: string[];
  json: boolean;
  help: boolean;
};

export function parseCommandArgs(args: readonly string[], options: Options, positionals: { min: number; max: number }): ParsedCommand {
  let parsed;
  try {
    parsed = parseArgs({ args: [...args], options: { ...COMMON, ...options }, strict: true, allowPositionals: true });
  } catch (cause) {
    throw new UsageError((cause as Error).message.split("\n")[0]!, { cause });
  }
  const json = parsed.values.json === true;
  const help = parsed.values.help === true;
  if (!help) {
    const count = parsed.positionals.length;
    if (count < positionals.min) throw new UsageError(positionals.min === 1 ? "missing input file (a path, or - for stdin)" : "missing argument");
    if (count > positionals.max) throw new UsageError(`unexpected argument ${JSON.stringify(parsed.positionals[positionals.max])}`);
  }
  return { values: parsed.values as ParsedCommand["values"], positionals: parsed.positionals, json, help };
}

/** A required string flag. */
export function requiredFlag(parsed: ParsedCommand, name: string): string {
  const value = parsed.values[name];
  if (typeof value !== "string" || value === "") throw new UsageError(`missing --${name}`);
  return value;
}

/** An optional flag holding unix seconds or another non-negative integer. */
export function integerFlag(parsed: ParsedCommand, name: string): number | undefined {
  const value = parsed.values[name];
  if (value === undefined) return undefined;
  if (typeof value !== "string" || !/^[0-9]{1,15}$/.test(value)) throw new UsageError(`--${name} must be a non-negative integer`);
  return Number(value);
}
