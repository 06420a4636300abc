/**
 * One Anvil node (Foundry's, from the `@foundry-rs/anvil` npm package: the binary ships in a
 * platform package, so it installs offline like any dependency) as a child process on loopback: the
 * devnet's second node implementation beside EDR (./devnetNode.ts). It is started with Hardhat's test
 * mnemonic and 20 funded accounts of 10,000 ETH, as EDR's default accounts are, so every devnet role
 * and address is the same on either node. The port may be 0: Anvil prints the one it bound
 * ("Listening on host:port"), which is read back.
 */
import { spawn, type ChildProcess } from "node:child_process";
import { existsSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";

/** Hardhat's (and Anvil's) default test mnemonic: the devnet's accounts. */
const TEST_MNEMONIC = "test test test test test test test test test test test junk";
const FUNDED_ACCOUNTS = 20;
const BALANCE_ETH = 10_000;
/** How long Anvil may take to listen. */
const START_TIMEOUT_MS = 30_000;
const STOP_TIMEOUT_MS = 5_000;

export type AnvilNode = { rpcUrl: string; pid: number; close: () => Promise<void> };

/** The Anvil binary of this platform's package; a clear error when the package is not installed. */
export function anvilBinary(): string {
  const arch = process.arch === "x64" ? "amd64" : process.arch;
  const name = `@foundry-rs/anvil-${process.platform}-${arch}`;
  const require = createRequire(import.meta.url);
  let path: string | undefined;
  try {
    path = join(dirname(require.resolve(`${name}/package.json`)), "bin", process.platform === "win32" ? "anvil.exe" : "anvil");
  } catch {
    path = undefined;
  }
  if (path === undefined || !existsSync(path)) {
    throw new Error(`Anvil is not installed for ${process.platform}/${process.arch} (${name}): run npm install in the project (it is a devDependency), or use FERRY_DEVNET_NODE=edr`);
  }
  return path;
}

export async function startAnvilNode(args: { chainId: number; host: string; port: number }): Promise<AnvilNode> {
  const child = spawn(
    anvilBinary(),
    ["--host", args.host, "--port", String(args.port), "--chain-id", String(args.chainId), "--mnemonic", TEST_MNEMONIC, "--accounts", String(FUNDED_ACCOUNTS), "--balance", String(BALANCE_ETH)],
    { stdio: ["ignore", "pipe", "pipe"] },
  );
  const rpcUrl = await listeningUrl(child);
  // Anvil logs every call on stdout: keep reading it so the pipe never fills and stalls the node.
  child.stdout!.resume();
  child.stderr!.resume();
  return { rpcUrl, pid: child.pid!, close: () => stop(child) };
}

function listeningUrl(child: ChildProcess): Promise<string> {
  return new Promise((resolve, reject) => {
    let seen = "";
    const fail = (error: Error) => {
      cleanup();
      child.kill("SIGKILL");
      reject(error);
    };
    const timer = setTimeout(() => fail(new Error(`Anvil did not listen within ${START_TIMEOUT_MS} ms: ${seen.slice(-500)}`)), START_TIMEOUT_MS);
    const onData = (chunk: Buffer) => {
      seen += chunk.toString("utf8");
      const match = /Listening on ([0-9.]+|\[[0-9a-f:]+\]):([0-9]+)/.exec(seen);
      if (match) {
        cleanup();
        resolve(`http://${match[1]}:${match[2]}`);
      }
    };
    const onExit = (code: number | null) => fail(new Error(`Anvil exited (${code}) before listening: ${seen.slice(-500)}`));
    const cleanup = () => {
      clearTimeout(timer);
      child.stdout!.off("data", onData);
      child.stderr!.off("data", onData);
      child.off("exit", onExit);
      child.off("error", fail);
    };
    child.stdout!.on("data", onData);
    child.stderr!.on("data", onData);
    child.once("exit", onExit);
    child.once("error", fail);
  });
}

async function stop(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
  child.kill("SIGTERM");
  const timer = setTimeout(() => child.kill("SIGKILL"), STOP_TIMEOUT_MS);
  await exited;
  clearTimeout(timer);
}
