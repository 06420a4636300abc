#!/usr/bin/env node
// A `solc` executable for Foundry (used only by `npm run test:coverage`), backed by the solc-js
// build in the npm "solc" package, so no compiler is ever downloaded. Foundry calls
// `solc --version` and `solc --standard-json [...]` (input on stdin); nothing else is supported.
import { createRequire } from "node:module";
import { readFileSync } from "node:fs";
import path from "node:path";

const require = createRequire(import.meta.url);
const solc = require("solc");
const args = process.argv.slice(2);

if (args.includes("--version")) {
  process.stdout.write(`solc, the solidity compiler commandline interface\nVersion: ${solc.version()}\n`);
  process.exit(0);
}
if (!args.includes("--standard-json")) {
  process.stderr.write(`solc-shim: only --version and --standard-json are supported (got: ${args.join(" ")})\n`);
  process.exit(2);
}

const basePathIndex = args.indexOf("--base-path");
const basePath = basePathIndex >= 0 ? args[basePathIndex + 1] : process.cwd();
const input = readFileSync(0, "utf8");
const findImports = (importPath) => {
  try {
    return { contents: readFileSync(path.resolve(basePath, importPath), "utf8") };
  } catch (error) {
    return { error: String(error) };
  }
};
process.stdout.write(solc.compile(input, { import: findImports }));
