/** Spawns the real `ferry` bin (Node 22 = process.execPath) for CLI tests. No tests here. */
import { spawn, spawnSync } from "node:child_process";
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";

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
