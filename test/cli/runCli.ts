/**
 * Runs the `ferry` command for CLI tests: the real bin spawned (Node 22 = process.execPath), or the
 * same dispatcher in this process (runCliInProcess). No tests here.
 */
import { spawn, spawnSync } from "node:child_process";
import { mkdtempSync, writeFileSync } from "node:fs";
import { readFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { runFerry } from "../../ts/cli/runFerry.ts";

export const REPO_ROOT = fileURLToPath(new URL("../../", import.meta.url));
export const BIN = join(REPO_ROOT, "ts/cli/bin.mjs");

export type CliRun = { status: number | null; stdout: string; stderr: string; stdoutBytes: Buffer };

const SECRET_ENV = ["FERRY_ATTESTER_KEY", "FERRY_WEBHOOK_SECRET"];

export function runCli(args: string[], options: { input?: string | Buffer; env?: Record<string, string>; node?: string } = {}): CliRun {
  const env: Record<string, string | undefined> = { ...process.env };
  for (const name of SECRET_ENV) delete env[name];
  const result = spawnSync(options.node ?? process.execPath, [BIN, ...args], {
    cwd: REPO_ROOT,
    input: options.input ?? "",
    env: { ...env, ...options.env },
    timeout: 60_000,
  });
  if (result.error) throw result.error;
  return { status: result.status, stdout: result.stdout.toString("utf8"), stderr: result.stderr.toString("utf8"), stdoutBytes: result.stdout };
}

/**
 * What `runCli` does, without a process: runFerry (what ts/cli/ferry.ts runs) with a CliIo over the
 * same argv, env (this process's, secrets removed, then `env`), stdin bytes and working directory,
 * collecting stdout and stderr. A spawn costs seconds (Node start, the TypeScript sources loaded
 * again, PGlite opened cold); this costs what the command itself does. Keep at least one `runCli` per
 * command in its test file so the bin is proven too.
 */
export async function runCliInProcess(args: string[], options: { input?: string | Buffer; env?: Record<string, string> } = {}): Promise<CliRun> {
  const env: Record<string, string | undefined> = { ...process.env };
  for (const name of SECRET_ENV) delete env[name];
  const out: Buffer[] = [];
  const err: Buffer[] = [];
  const status = await runFerry(args, {
    stdout: (text) => void out.push(Buffer.from(text, "utf8")),
    stderr: (text) => void err.push(Buffer.from(text, "utf8")),
    readStdin: async () => Buffer.from(options.input ?? ""),
    readFile: (path) => readFile(resolve(REPO_ROOT, path)),
    env: { ...env, ...options.env },
    now: () => Math.floor(Date.now() / 1000),
  });
  const stdoutBytes = Buffer.concat(out);
  return { status, stdout: stdoutBytes.toString("utf8"), stderr: Buffer.concat(err).toString("utf8"), stdoutBytes };
}

/** A fresh temp dir with the given files written as exact bytes; returns their paths. */
export function tempFiles<K extends string>(files: Record<K, string | Buffer>): Record<K, string> {
  const dir = mkdtempSync(join(tmpdir(), "ferry-cli-"));
  const paths = {} as Record<K, string>;
  for (const [name, content] of Object.entries(files) as [K, string | Buffer][]) {
    paths[name] = join(dir, name);
    writeFileSync(paths[name], content);
  }
  return paths;
}

/** The single stderr line of a failed run (npm noise excluded). */
export function errorLine(run: CliRun): string {
  const lines = run.stderr.split("\n").filter((line) => line !== "" && !line.startsWith("npm warn"));
  if (lines.length !== 1) throw new Error(`expected one stderr line, got ${JSON.stringify(run.stderr)}`);
  return lines[0]!;
}

/**
 * `runCli` without blocking the event loop: for CLI runs against a server in this process (the admin
 * API), which must keep answering while the child waits on it. `cwd` defaults to the repository.
 */
export function runCliAsync(
  args: string[],
  options: { input?: string; env?: Record<string, string>; cwd?: string; timeoutMs?: number } = {},
): Promise<CliRun> {
  const env: Record<string, string | undefined> = { ...process.env };
  for (const name of SECRET_ENV) delete env[name];
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [BIN, ...args], { cwd: options.cwd ?? REPO_ROOT, env: { ...env, ...options.env }, stdio: ["pipe", "pipe", "pipe"] });
    const out: Buffer[] = [];
    const err: Buffer[] = [];
    child.stdout.on("data", (chunk: Buffer) => out.push(chunk));
    child.stderr.on("data", (chunk: Buffer) => err.push(chunk));
    const timer = setTimeout(() => child.kill("SIGKILL"), options.timeoutMs ?? 120_000);
    child.on("error", (error) => {
      clearTimeout(timer);
      reject(error);
    });
    child.on("close", (status) => {
      clearTimeout(timer);
      const stdoutBytes = Buffer.concat(out);
      resolve({ status, stdout: stdoutBytes.toString("utf8"), stderr: Buffer.concat(err).toString("utf8"), stdoutBytes });
    });
    child.stdin.end(options.input ?? "");
  });
}
