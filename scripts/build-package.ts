// Assembles a package at pack time — its `prepack`; `--clean` (its `postpack`) removes what this
// wrote. Nothing it writes is committed. The sources stay where the repository keeps them.
//
//   node scripts/build-package.ts [ferry]   packages/ferry, the integrators' toolkit:
//     contracts/**/*.sol     the Solidity sources at the paths they have here, without contracts/mocks
//     build/contracts/*.json the compiled artifacts of those sources (OpenZeppelin's layout)
//     dist/**                ts/{core,abi,client,testing} (and the ts/deploy code the fixture runs)
//                            compiled to ESM JS + .d.ts, with the artifacts the fixture deploys
//   node scripts/build-package.ts ferry-service   packages/ferry-service, the service and the CLI:
//     dist/**                ts/cli and ts/service (with the ts/core, ts/abi, ts/deploy they import)
//                            compiled to ESM JS + .d.ts, the artifacts `ferry deploy` deploys, and
//                            the SQL migrations the store applies at start
//     examples/*.json        the example service configurations (examples/serve)
//     dist/ts/explorer/      the explorer page: its HTML and CSS, and its script bundled for the
//                            browser (ts/explorer with the ts/core code it imports) as explorer.js
// Node does not strip types under node_modules, so the packages ship no .ts.
import { execFileSync } from "node:child_process";
import { cp, mkdir, readdir, readFile, rm } from "node:fs/promises";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { writeExplorerBundle } from "./build-explorer.ts";

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const NAME = process.argv.slice(2).find((arg) => !arg.startsWith("--")) ?? "ferry";
if (NAME !== "ferry" && NAME !== "ferry-service") throw new Error(`unknown package ${NAME}: ferry or ferry-service`);
const PACKAGE = path.join(ROOT, "packages", NAME);
const GENERATED = NAME === "ferry" ? ["contracts", "build", "dist"] : ["dist", "examples"];
const bin = (name: string) => path.join(ROOT, "node_modules/.bin", name);

async function clean(): Promise<void> {
  for (const folder of GENERATED) await rm(path.join(PACKAGE, folder), { recursive: true, force: true });
}

async function* files(dir: string): AsyncGenerator<string> {
  for (const entry of await readdir(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) yield* files(full);
    else yield full;
  }
}

/** contracts/mocks holds test-only tokens and hostile recipients, contracts/devnet the devnet's market and vault: not for consumers. */
const isShippedSource = (relative: string) => relative.endsWith(".sol") && !relative.startsWith(`mocks${path.sep}`) && !relative.startsWith(`devnet${path.sep}`);

async function build(): Promise<void> {
  await clean();
  // The artifacts the package ships are this build's (incremental: fast when nothing changed).
  execFileSync(bin("hardhat"), ["build", "--quiet"], { cwd: ROOT, stdio: ["ignore", "ignore", "inherit"] });
  if (NAME === "ferry") await assembleToolkit();
  else await assembleService();
  await compileAndCheck();
}

async function assembleService(): Promise<void> {
  // The migrations are read from the folder beside migrate.js at run time.
  const migrations = path.join(ROOT, "ts/service/store/migrations");
  const target = path.join(PACKAGE, "dist/ts/service/store/migrations");
  await mkdir(target, { recursive: true });
  for (const file of await readdir(migrations)) if (file.endsWith(".sql")) await cp(path.join(migrations, file), path.join(target, file));
  // The explorer page (ts/service/http/explorerAssets.ts reads it beside its own module's folder): the
  // script is bundled now, so the installed service needs no bundler.
  const explorer = path.join(PACKAGE, "dist/ts/explorer");
  await mkdir(explorer, { recursive: true });
  for (const file of ["explorer.html", "explorer.css"]) await cp(path.join(ROOT, "ts/explorer", file), path.join(explorer, file));
  await writeExplorerBundle(explorer);
  await mkdir(path.join(PACKAGE, "examples"), { recursive: true });
  for (const file of await readdir(path.join(ROOT, "examples/serve"))) {
    if (file.endsWith(".json")) await cp(path.join(ROOT, "examples/serve", file), path.join(PACKAGE, "examples", file));
  }
}

async function assembleToolkit(): Promise<void> {
  const sources = path.join(ROOT, "contracts");
  const artifactNames = new Set<string>();
  for await (const file of files(sources)) {
    const relative = path.relative(sources, file);
    if (!isShippedSource(relative)) continue;
    await mkdir(path.dirname(path.join(PACKAGE, "contracts", relative)), { recursive: true });
    await cp(file, path.join(PACKAGE, "contracts", relative));
    // One artifact per contract of the file (artifacts/contracts/<path>/<Name>.json).
    const artifactDir = path.join(ROOT, "artifacts/contracts", relative);
    for (const entry of await readdir(artifactDir)) {
      if (!entry.endsWith(".json")) continue;
      if (artifactNames.has(entry)) throw new Error(`two artifacts named ${entry}: build/contracts is flat`);
      artifactNames.add(entry);
      await mkdir(path.join(PACKAGE, "build/contracts"), { recursive: true });
      await cp(path.join(artifactDir, entry), path.join(PACKAGE, "build/contracts", entry));
    }
  }
}

async function compileAndCheck(): Promise<void> {
  execFileSync(bin("tsc"), ["-p", path.join(PACKAGE, "tsconfig.build.json")], { cwd: ROOT, stdio: "inherit" });

  // What Node would refuse under node_modules: any import of a .ts module left in the JS.
  for await (const file of files(path.join(PACKAGE, "dist"))) {
    if (!file.endsWith(".js")) continue;
    const text = await readFile(file, "utf8");
    if (/from\s+["'][^"']+\.ts["']|import\(\s*["'][^"']+\.ts["']/.test(text)) throw new Error(`${file} still imports a .ts module`);
  }
}

if (process.argv.includes("--clean")) await clean();
else await build();
