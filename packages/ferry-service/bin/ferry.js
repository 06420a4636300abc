#!/usr/bin/env node
// The `ferry` command of the ferry-service package: the compiled CLI (dist/, built at pack time by
// the repository's scripts/build-package.ts). Plain JavaScript that any Node can start, so that an
// older Node gets a clear message instead of a syntax error.
const [major] = process.versions.node.split(".").map(Number);
if (major < 22) {
  process.stderr.write(`ferry: UNSUPPORTED_NODE: needs Node >= 22 (running ${process.versions.node}): upgrade Node\n`);
  process.exit(2);
}
await import("../dist/ts/cli/ferry.js");
