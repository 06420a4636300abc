/**
 * What the packaging tests share: the release (`npm run release` into a temp dir, run once per test
 * process: both tarballs — each package's prepack builds it — their SHA256SUMS and a changelog entry
 * written to a copy of CHANGELOG.md), a copy of an example project in a temp dir, and `npm install` of
 * a tarball path there with scripts on — exactly what a user does before the packages are on the
 * registry. Child processes run asynchronously, so an in-process devnet keeps serving while they talk
 * to it. No tests here.
 */
import { spawn } from "node:child_process";
import { rmSync } from "node:fs";
import { copyFile, cp, mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";

export const REPO_ROOT = fileURLToPath(new URL("../../", import.meta.url));

export type Run = { status: number | null; stdout: string; stderr: string };

/**
 * The environment of a command a user would type: this repo's Node 22 first on PATH (npm and npx
 * then run on it), and none of the variables of the `npm run` and the Hardhat test run this test is
 * running under (HARDHAT_CONFIG would point the example's Hardhat at this repository's config).
 */
export function userEnv(extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const [name, value] of Object.entries(process.env)) {
    if (/^(npm_|HARDHAT_)/i.test(name) || ["INIT_CWD", "NODE_OPTIONS", "NODE_ENV", "HH_TEST"].includes(name)) continue;
    env[name] = value;
  }
  env.PATH = `${path.dirname(process.execPath)}${path.delimiter}${path.join(REPO_ROOT, "node_modules/.bin")}${path.delimiter}${process.env.PATH ?? ""}`;
  return { ...env, ...extra };
}

export function run(command: string, args: string[], options: { cwd: string; env?: Record<string, string>; timeoutMs?: number }): Promise<Run> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { cwd: options.cwd, env: userEnv(options.env), stdio: ["ignore", "pipe", "pipe"] });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (chunk: Buffer) => (stdout += chunk.toString("utf8")));
    child.stderr.on("data", (chunk: Buffer) => (stderr += chunk.toString("utf8")));
    const timer = setTimeout(() => child.kill("SIGKILL"), options.timeoutMs ?? 300_000);
    child.on("error", (error) => {
      clearTimeout(timer);
      reject(error);
    });
    child.on("close", (status) => {
      clearTimeout(timer);
      resolve({ status, stdout, stderr });
    });
  });
}

/** Throws with the command's output when it failed. */
export async function runOk(command: string, args: string[], options: Parameters<typeof run>[2]): Promise<Run> {
  const result = await run(command, args, options);
  if (result.status !== 0) {
    throw new Error(`${command} ${args.join(" ")} exited ${result.status} in ${options.cwd}\n--- stdout\n${result.stdout}\n--- stderr\n${result.stderr}`);
  }
  return result;
}

export type Release = {
  /** Where the tarballs and SHA256SUMS are. */
  dir: string;
  /** Each package's tarball path, by package name. */
  tarballs: Record<"ferry" | "ferry-service", string>;
  /** The copy of the repository's CHANGELOG.md the entry was written to. */
  changelog: string;
  version: string;
  run: Run;
  /** `git status --porcelain` before and after: the release must not change the checkout. */
  gitStatus: { before: string; after: string };
};

let release: Promise<Release> | undefined;

/** `npm run release -- --out <tmp> --changelog <tmp copy of CHANGELOG.md>`, once per test process (removed at exit). */
export function releasedTarballs(): Promise<Release> {
  release ??= (async () => {
    const root = await mkdtemp(path.join(tmpdir(), "ferry-release-"));
    process.once("exit", () => rmSync(root, { recursive: true, force: true }));
    const changelog = path.join(root, "CHANGELOG.md");
    await copyFile(path.join(REPO_ROOT, "CHANGELOG.md"), changelog);
    const status = async () => (await runOk("git", ["status", "--porcelain"], { cwd: REPO_ROOT })).stdout;
    const before = await status();
    const dir = path.join(root, "release");
    const run = await runOk("npm", ["run", "--silent", "release", "--", "--out", dir, "--changelog", changelog], { cwd: REPO_ROOT, timeoutMs: 600_000 });
    const after = await status();
    const { version } = (await import(path.join(REPO_ROOT, "packages/ferry/package.json"), { with: { type: "json" } })).default as { version: string };
    const tarballs = { ferry: path.join(dir, `ferry-${version}.tgz`), "ferry-service": path.join(dir, `ferry-service-${version}.tgz`) };
    return { dir, tarballs, changelog, version, run, gitStatus: { before, after } };
  })();
  return release;
}

/** Copies examples/<example> (sources only) into a fresh temp dir and installs `tarballs` there. */
export async function installExample(example: string, tarballs: string[]): Promise<{ dir: string; cleanup: () => Promise<void> }> {
  const root = await mkdtemp(path.join(tmpdir(), `ferry-${example}-`));
  const dir = path.join(root, example);
  const source = path.join(REPO_ROOT, "examples", example);
  const skip = new Set(["node_modules", "artifacts", "cache", "types", "package-lock.json"]);
  await cp(source, dir, { recursive: true, filter: (from) => !skip.has(path.basename(from)) || path.dirname(from) !== source });
  await runOk("npm", ["install", "--no-audit", "--no-fund", "--prefer-offline", ...tarballs], { cwd: dir });
  return { dir, cleanup: () => rm(root, { recursive: true, force: true }) };
}

/** The files in a tarball (`npm pack` layout: package/<path>). */
export async function tarballFiles(tarball: string): Promise<string[]> {
  const listed = await runOk("tar", ["-tzf", tarball], { cwd: path.dirname(tarball) });
  return listed.stdout
    .split("\n")
    .filter((line) => line.length > 0 && !line.endsWith("/"))
    .map((line) => line.replace(/^package\//, ""))
    .sort();
}

/** A fresh empty project (a package.json, nothing else) in a temp dir with `tarballs` installed. */
export async function installIntoEmptyProject(name: string, tarballs: string[]): Promise<{ dir: string; cleanup: () => Promise<void> }> {
  const dir = await mkdtemp(path.join(tmpdir(), `ferry-${name}-`));
  await writeFile(path.join(dir, "package.json"), `${JSON.stringify({ name, private: true, type: "module" }, null, 2)}\n`);
  await runOk("npm", ["install", "--no-audit", "--no-fund", "--prefer-offline", ...tarballs], { cwd: dir });
  return { dir, cleanup: () => rm(dir, { recursive: true, force: true }) };
}
