// `npm run release [-- --version <x.y.z>] [--out <dir>] [--changelog <file>] [--since <git ref>]`:
// a release before (and besides) the npm registry. It
//   1. with --version, writes that version into package.json, packages/ferry/package.json,
//      packages/ferry-service/package.json and its npm-shrinkwrap.json; without it, checks the four
//      agree (RELEASE_VERSION_MISMATCH otherwise) and that the shrinkwrap locks exactly the
//      ferry-service dependencies (RELEASE_SHRINKWRAP_STALE);
//   2. packs both packages (their prepack builds them) into --out (default release/<version>/, git-
//      and docker-ignored): ferry-<version>.tgz and ferry-service-<version>.tgz;
//   3. writes SHA256SUMS beside them (`sha256sum -c SHA256SUMS` checks them);
//   4. adds a changelog entry to --changelog (default CHANGELOG.md) under its header: the version, the
//      date, the tarballs with their SHA-256, and the subject of every commit since --since (default:
//      the newest tag v*, else the first commit). A version already in the changelog is refused
//      (RELEASE_EXISTS): a released version is never rebuilt under the same number.
// It tags nothing and pushes nothing: it prints the `git` commands that finish the release.
import { execFileSync } from "node:child_process";
import { createHash } from "node:crypto";
import { existsSync } from "node:fs";
import { mkdir, readFile, writeFile } from "node:fs/promises";
import path from "node:path";
import { parseArgs } from "node:util";
import { fileURLToPath, pathToFileURL } from "node:url";

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
export const PACKAGES = ["ferry", "ferry-service"] as const;
/** Every file that carries the release's version. */
const VERSIONED = ["package.json", "packages/ferry/package.json", "packages/ferry-service/package.json", "packages/ferry-service/npm-shrinkwrap.json"];
export const CHANGELOG_HEADER = `# Changelog

Each release of the \`ferry\` and \`ferry-service\` packages, newest first, as \`npm run release\` writes it:
the tarballs with their SHA-256 and the commits since the previous release.
`;

export class ReleaseError extends Error {
  readonly code: string;
  constructor(code: string, message: string) {
    super(message);
    this.code = code;
  }
}

const SEMVER = /^\d+\.\d+\.\d+(-[0-9A-Za-z.-]+)?$/;

/** The versions the files carry (the shrinkwrap's twice: its own and its root package's). */
export function versionsOf(files: Record<string, string>): Record<string, string> {
  const versions: Record<string, string> = {};
  for (const [file, text] of Object.entries(files)) {
    const json = JSON.parse(text) as { version?: string; packages?: Record<string, { version?: string }> };
    versions[file] = String(json.version);
    if (json.packages?.[""]) versions[`${file} packages[""]`] = String(json.packages[""].version);
  }
  return versions;
}

/** `text` (a package.json or a shrinkwrap) with its version — and its root package's — set to `version`, formatting kept. */
export function withVersion(text: string, version: string): string {
  const json = JSON.parse(text) as { version: string; packages?: Record<string, { version?: string }> };
  json.version = version;
  if (json.packages?.[""]) json.packages[""].version = version;
  return `${JSON.stringify(json, null, 2)}\n`;
}

/** The one version all files agree on; RELEASE_VERSION_MISMATCH listing them otherwise. */
export function agreedVersion(versions: Record<string, string>): string {
  const distinct = [...new Set(Object.values(versions))];
  if (distinct.length !== 1 || !SEMVER.test(distinct[0]!)) {
    const listed = Object.entries(versions).map(([file, version]) => `${file} ${version}`).join(", ");
    throw new ReleaseError("RELEASE_VERSION_MISMATCH", `the versions differ or are not x.y.z (${listed}): pass --version <x.y.z> to set them all`);
  }
  return distinct[0]!;
}

/** `sha256sum` format: `<hex>  <file>`, one line per file, sorted by name. */
export function sha256Sums(files: Record<string, Uint8Array>): string {
  return Object.keys(files)
    .sort()
    .map((name) => `${createHash("sha256").update(files[name]!).digest("hex")}  ${name}\n`)
    .join("");
}

export type ChangelogEntry = { version: string; date: string; sums: string; since: string | undefined; subjects: string[] };

export function renderEntry(entry: ChangelogEntry): string {
  const lines = [`## ${entry.version} — ${entry.date}`, "", "Tarballs (SHA-256, as in `SHA256SUMS`):", "", "```", entry.sums.trimEnd(), "```", ""];
  lines.push(`Changes since ${entry.since ?? "the first commit"} (${entry.subjects.length} commit${entry.subjects.length === 1 ? "" : "s"}):`, "");
  for (const subject of entry.subjects) lines.push(`- ${subject}`);
  return `${lines.join("\n")}\n`;
}

/**
 * The changelog with `entry` inserted above the newest entry (below the header); a new file gets the
 * header. RELEASE_EXISTS when the version already has an entry.
 */
export function insertEntry(changelog: string | undefined, version: string, entry: string): string {
  const text = changelog ?? CHANGELOG_HEADER;
  if (text.split("\n").some((line) => line === `## ${version}` || line.startsWith(`## ${version} `))) {
    throw new ReleaseError("RELEASE_EXISTS", `the changelog already has ${version}: pass --version <next version>`);
  }
  const first = text.search(/^## /m);
  if (first < 0) return `${text.trimEnd()}\n\n${entry}`;
  return `${text.slice(0, first)}${entry}\n${text.slice(first)}`;
}

const git = (args: string[]) => execFileSync("git", args, { cwd: ROOT, encoding: "utf8", stdio: ["ignore", "pipe", "ignore"] }).trim();

/** The newest tag v* reachable from HEAD, or undefined. */
function lastTag(): string | undefined {
  try {
    return git(["describe", "--tags", "--abbrev=0", "--match", "v*"]) || undefined;
  } catch {
    return undefined;
  }
}

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: { version: { type: "string" }, out: { type: "string" }, changelog: { type: "string" }, since: { type: "string" } },
    strict: true,
  });
  const files = Object.fromEntries(await Promise.all(VERSIONED.map(async (file) => [file, await readFile(path.join(ROOT, file), "utf8")] as const)));
  if (values.version !== undefined && !SEMVER.test(values.version)) throw new ReleaseError("RELEASE_VERSION_INVALID", `--version must be x.y.z (or x.y.z-tag), got ${values.version}`);
  const version = values.version ?? agreedVersion(versionsOf(files));
  const service = JSON.parse(files["packages/ferry-service/package.json"]!) as { dependencies: Record<string, string> };
  const shrinkwrap = JSON.parse(files["packages/ferry-service/npm-shrinkwrap.json"]!) as { packages: Record<string, { dependencies?: Record<string, string> }> };
  const sorted = (deps: Record<string, string> = {}) => JSON.stringify(Object.entries(deps).sort(([a], [b]) => a.localeCompare(b)));
  if (sorted(shrinkwrap.packages[""]?.dependencies) !== sorted(service.dependencies)) {
    throw new ReleaseError(
      "RELEASE_SHRINKWRAP_STALE",
      "packages/ferry-service/npm-shrinkwrap.json does not lock the package's dependencies: regenerate it (packages/ferry-service/README.md)",
    );
  }
  // The changelog is checked before anything is written or packed, so a released version fails fast.
  const changelogFile = path.resolve(values.changelog ?? path.join(ROOT, "CHANGELOG.md"));
  const changelog = existsSync(changelogFile) ? await readFile(changelogFile, "utf8") : undefined;
  insertEntry(changelog, version, "");
  if (values.version !== undefined) {
    for (const file of VERSIONED) await writeFile(path.join(ROOT, file), withVersion(files[file]!, version));
  }

  const out = path.resolve(values.out ?? path.join(ROOT, "release", version));
  await mkdir(out, { recursive: true });
  const tarballs: Record<string, Uint8Array> = {};
  for (const name of PACKAGES) {
    process.stderr.write(`release: packing ${name} ${version}…\n`);
    const packed = execFileSync("npm", ["pack", "--json", "--pack-destination", out], { cwd: path.join(ROOT, "packages", name), encoding: "utf8", stdio: ["ignore", "pipe", "inherit"] });
    const [info] = JSON.parse(packed.slice(packed.indexOf("["))) as [{ filename: string }];
    if (info.filename !== `${name}-${version}.tgz`) throw new Error(`npm pack wrote ${info.filename}, expected ${name}-${version}.tgz`);
    tarballs[info.filename] = await readFile(path.join(out, info.filename));
  }
  const sums = sha256Sums(tarballs);
  await writeFile(path.join(out, "SHA256SUMS"), sums);

  const since = values.since ?? lastTag();
  const subjects = git(["log", "--no-merges", "--format=%s", ...(since ? [`${since}..HEAD`] : ["HEAD"])]).split("\n").filter((line) => line.length > 0);
  const entry = renderEntry({ version, date: new Date().toISOString().slice(0, 10), sums, since, subjects });
  await writeFile(changelogFile, insertEntry(changelog, version, entry));

  const relative = (file: string) => path.relative(process.cwd(), file) || ".";
  process.stdout.write(
    [
      `ferry ${version}: ${relative(out)}/`,
      ...Object.keys(tarballs).map((file) => `  ${file}`),
      "  SHA256SUMS",
      `changelog: ${relative(changelogFile)} (${subjects.length} commits since ${since ?? "the first commit"})`,
      `to finish: git commit -am "Release ${version}" && git tag v${version}; publish the tarballs and SHA256SUMS`,
      "",
    ].join("\n"),
  );
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  try {
    await main();
  } catch (error) {
    if (!(error instanceof ReleaseError)) throw error;
    process.stderr.write(`release: ${error.code}: ${error.message}\n`);
    process.exitCode = 2;
  }
}
