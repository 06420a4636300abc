// `npm run build:explorer`: bundles the explorer page's script — ts/explorer/explorerPage.ts with the
// ts/core and ts/client code it imports (verifyReceipt, explainFailure) — into one minified ES module
// for the browser, written beside the page's HTML as ts/explorer/explorer.js (ignored by git), where
// the service serves it from (ts/service/http/explorerAssets.ts). `npm run build`, `npm test` and
// `npm start` run it; scripts/build-package.ts writes the same bundle into the ferry-service package,
// so an installed service needs no bundler.
//
//   node scripts/build-explorer.ts
import { writeFile } from "node:fs/promises";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { build } from "esbuild";
import { EXPLORER_BUNDLE_NAME } from "../ts/service/http/explorerAssets.ts";

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const EXPLORER = path.join(ROOT, "ts/explorer");

/** The page's module bundled for the browser: one ES module, minified, nothing left to import. */
export async function bundleExplorerScript(): Promise<string> {
  const result = await build({
    entryPoints: [path.join(EXPLORER, "explorerPage.ts")],
    bundle: true,
    format: "esm",
    platform: "browser",
    target: "es2022",
    minify: true,
    legalComments: "none",
    charset: "utf8",
    write: false,
    logLevel: "silent",
  });
  return result.outputFiles[0]!.text;
}

/** Writes the bundle into `dir` (default: ts/explorer, beside the HTML); returns the file's path. */
export async function writeExplorerBundle(dir = EXPLORER): Promise<string> {
  const file = path.join(dir, EXPLORER_BUNDLE_NAME);
  await writeFile(file, await bundleExplorerScript());
  return file;
}

if (process.argv[1] !== undefined && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const file = await writeExplorerBundle();
  process.stdout.write(`explorer page script: ${path.relative(ROOT, file)}\n`);
}
