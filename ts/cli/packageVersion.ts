/**
 * The name and version of the package the `ferry` command runs from, for `ferry --version`: the
 * nearest package.json above this module — the repository's in a checkout (ts/cli), the
 * `ferry-service` package's when installed (dist/ts/cli). The release command keeps the versions of
 * the repository and both packages equal.
 */
import { existsSync, readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

export function packageVersion(from: string = import.meta.url): { name: string; version: string } {
  let dir = dirname(fileURLToPath(from));
  for (;;) {
    const file = join(dir, "package.json");
    if (existsSync(file)) {
      const manifest = JSON.parse(readFileSync(file, "utf8")) as { name?: unknown; version?: unknown };
      if (typeof manifest.name === "string" && typeof manifest.version === "string") return { name: manifest.name, version: manifest.version };
    }
    const parent = dirname(dir);
    if (parent === dir) throw new Error(`no package.json with a name and a version above ${fileURLToPath(from)}`);
    dir = parent;
  }
}
