/**
 * The explorer page's files (../../explorer): the HTML document, its stylesheet and its script — the
 * browser bundle of ../../explorer/explorerPage.ts with the ts/core and ts/client code it imports.
 *
 * The package (scripts/build-package.ts) ships the bundle prebuilt beside the HTML as `explorer.js`;
 * a source checkout has no such file and bundles the page with esbuild (a devDependency) at its first
 * request, once per process (~0.1–1 s), so what it serves is always today's ts/core. Either way
 * the page needs nothing beyond the service's own origin.
 */
import { readFile } from "node:fs/promises";
import { fileURLToPath } from "node:url";
import { ServiceError } from "../errors/serviceError.ts";

const EXPLORER_DIR = new URL("../../explorer/", import.meta.url);

/** The page's entry module: what the bundle is built from. */
export const EXPLORER_ENTRY = fileURLToPath(new URL("explorerPage.ts", EXPLORER_DIR));
/** The prebuilt bundle's name beside the HTML (the package's). */
export const EXPLORER_BUNDLE_NAME = "explorer.js";

const cached = new Map<string, Promise<string>>();
const once = (key: string, load: () => Promise<string>): Promise<string> => {
  let value = cached.get(key);
  if (!value) {
    value = load();
    // A failed load is tried again at the next request.
    value.catch(() => cached.delete(key));
    cached.set(key, value);
  }
  return value;
};

const fileText = (name: string) => readFile(new URL(name, EXPLORER_DIR), "utf8");

export const explorerHtml = () => once("html", () => fileText("explorer.html"));
export const explorerCss = () => once("css", () => fileText("explorer.css"));
export const explorerScript = () => once("script", loadScript);

async function loadScript(): Promise<string> {
  try {
    return await fileText(EXPLORER_BUNDLE_NAME);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== "ENOENT") throw error;
  }
  try {
    return await bundleExplorerScript();
  } catch (error) {
    throw new ServiceError("EXPLORER_UNAVAILABLE", "the explorer's script is not built (no prebuilt explorer.js and no esbuild to build it)", { cause: error });
  }
}

/** The page's module bundled for the browser: one ES module, minified, no import left to fetch. */
export async function bundleExplorerScript(): Promise<string> {
  const esbuild = await import("esbuild");
  const result = await esbuild.build({
    entryPoints: [EXPLORER_ENTRY],
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
