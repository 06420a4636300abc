/**
 * The explorer page's files (../../explorer): the HTML document, its stylesheet and its script —
 * `explorer.js`, the browser bundle of ../../explorer/explorerPage.ts with the ts/core and ts/client
 * code it imports, built ahead of time: by scripts/build-package.ts into the ferry-service package,
 * by `npm run build:explorer` (which `npm run build`, `npm test` and `npm start` run) in a checkout.
 * Read once per app, at the first request. Without the script (a checkout where it was never
 * built): 503 EXPLORER_UNAVAILABLE naming the command. The page needs nothing beyond this origin.
 */
import { readFile } from "node:fs/promises";
import { ServiceError } from "../errors/serviceError.ts";

const EXPLORER_DIR = new URL("../../explorer/", import.meta.url);

/** The bundle's name beside the HTML. */
export const EXPLORER_BUNDLE_NAME = "explorer.js";

export type ExplorerFiles = { html(): Promise<string>; css(): Promise<string>; script(): Promise<string> };

/** The page's files, each read once per app (at its first request); a failed read is tried again next time. */
export function explorerFiles(dir: URL = EXPLORER_DIR): ExplorerFiles {
  const cached = new Map<string, Promise<string>>();
  const fileText = (name: string): Promise<string> => {
    let value = cached.get(name);
    if (!value) {
      value = readFile(new URL(name, dir), "utf8");
      value.catch(() => cached.delete(name));
      cached.set(name, value);
    }
    return value;
  };
  return {
    html: () => fileText("explorer.html"),
    css: () => fileText("explorer.css"),
    async script() {
      try {
        return await fileText(EXPLORER_BUNDLE_NAME);
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code !== "ENOENT") throw error;
        throw new ServiceError("EXPLORER_UNAVAILABLE", "the explorer page's script is not built: run npm run build:explorer (an installed package ships it)", { cause: error });
      }
    },
  };
}
