/**
 * A `hardhat node` started as its own process (this repository's Hardhat, on loopback, on a free port,
 * with a chain id), as an operator would start a local chain next to `ferry serve`. No tests here.
 */
import { spawn, type ChildProcess } from "node:child_process";
import { createServer } from "node:net";
import { fileURLToPath } from "node:url";

const REPO_ROOT = fileURLToPath(new URL("../../", import.meta.url));
const HARDHAT_CLI = fileURLToPath(new URL("../../node_modules/hardhat/dist/src/cli.js", import.meta.url));

export type HardhatNode = { url: string; port: number; chainId: number; process: ChildProcess; output: () => string; stop: () => Promise<void> };

/** A loopback port nothing listens on (taken, then released). */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

export async function startHardhatNode(chainId: number, options: { timeoutMs?: number } = {}): Promise<HardhatNode> {
  const port = await freePort();
  const env: NodeJS.ProcessEnv = {};
  for (const [name, value] of Object.entries(process.env)) if (!/^(HARDHAT_|HH_)/.test(name)) env[name] = value;
  const child = spawn(process.execPath, [HARDHAT_CLI, "node", "--hostname", "127.0.0.1", "--port", String(port), "--chain-id", String(chainId)], {
    cwd: REPO_ROOT,
    env,
    stdio: ["ignore", "pipe", "pipe"],
  });
  let output = "";
  child.stdout!.on("data", (chunk: Buffer) => (output += chunk.toString()));
  child.stderr!.on("data", (chunk: Buffer) => (output += chunk.toString()));
  const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
  const stop = async () => {
    if (child.exitCode === null && child.signalCode === null) {
      child.kill("SIGTERM");
      const killed = await Promise.race([exited.then(() => true), new Promise<boolean>((r) => setTimeout(() => r(false), 5_000))]);
      if (!killed) child.kill("SIGKILL");
    }
    await exited;
  };
  const deadline = Date.now() + (options.timeoutMs ?? 120_000);
  while (!/Started HTTP and WebSocket JSON-RPC server/.test(output)) {
    if (child.exitCode !== null || Date.now() > deadline) {
      await stop();
      throw new Error(`hardhat node (chain ${chainId}) did not start:\n${output}`);
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  return { url: `http://127.0.0.1:${port}`, port, chainId, process: child, output: () => output, stop };
}
