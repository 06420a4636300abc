/**
 * The CLI's edge: everything that touches the process (argv, stdin, files, env, clock, output)
 * goes through a CliIo, so commands stay plain functions over core and tests can inject it.
 */
import { readFile } from "node:fs/promises";
import { FerryError, InvalidInputError } from "../core/errors.ts";

export type CliIo = {
  stdout: (text: string) => void;
  stderr: (text: string) => void;
  readStdin: () => Promise<Buffer>;
  readFile: (path: string) => Promise<Buffer>;
  env: Readonly<Record<string, string | undefined>>;
  /** Unix seconds. */
  now: () => number;
};

/** Exit codes: 0 success / valid, 1 verification failed, 2 bad usage or input, 3 unexpected failure. */
export const EXIT = { OK: 0, INVALID: 1, USAGE: 2, INTERNAL: 3 } as const;

/** Bad command line: unknown command or flag, missing or extra argument. Exit code 2. */
export class UsageError extends FerryError {
  constructor(message: string, options: { cause?: unknown } = {}) {
    super("USAGE", message, options);
  }
}

export function processIo(): CliIo {
  return {
    stdout: (text) => process.stdout.write(text),
    stderr: (text) => process.stderr.write(text),
    readStdin: async () => {
      const chunks: Buffer[] = [];
      for await (const chunk of process.stdin) chunks.push(typeof chunk === "string" ? Buffer.from(chunk) : chunk);
      return Buffer.concat(chunks);
    },
    readFile: (path) => readFile(path),
    env: process.env,
    now: () => Math.floor(Date.now() / 1000),
  };
}

/** Reads `path`, or stdin when it is "-", as exact bytes. */
export async function readInput(io: CliIo, path: string): Promise<Buffer> {
  if (path === "-") return io.readStdin();
  try {
    return await io.readFile(path);
  } catch (cause) {
    const reason = (cause as NodeJS.ErrnoException).code ?? "unreadable";
    throw new InvalidInputError(`cannot read ${path} (${reason})`, { cause });
  }
}

/** Reads and parses a JSON document from `path` or stdin. */
export async function readJsonInput(io: CliIo, path: string): Promise<unknown> {
  const text = (await readInput(io, path)).toString("utf8").replace(/^\uFEFF/, "");
  try {
    return JSON.parse(text);
  } catch (cause) {
    throw new InvalidInputError(`${path === "-" ? "stdin" : path} is not valid JSON`, { cause });
  }
}

/** Writes one result: `text` as a line, or `json` as one JSON line with --json. */
export function printResult(io: CliIo, json: boolean, text: string, value: Record<string, unknown>): void {
  io.stdout(json ? `${JSON.stringify(value, jsonReplacer)}\n` : `${text}\n`);
}

/** Writes one error line to stderr: `ferry: CODE: message`, or `{"error":{...}}` with --json. */
export function printError(io: CliIo, json: boolean, error: { code: string; message: string }): void {
  io.stderr(json ? `${JSON.stringify({ error: { code: error.code, message: error.message } })}\n` : `ferry: ${error.code}: ${oneLine(error.message)}\n`);
}

export function jsonReplacer(_key: string, value: unknown): unknown {
  return typeof value === "bigint" ? value.toString() : value;
}

function oneLine(text: string): string {
  return text.replace(/\s*\n\s*/g, " ");
}
