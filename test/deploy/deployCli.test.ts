/**
 * `ferry deploy` as a subprocess against a real JSON-RPC server (an in-process Hardhat chain on
 * loopback), reached through hardhat.config.ts's `localhost` network whose URL is the config variable
 * FERRY_RPC_URL_LOCALHOST. Async spawn: the server answers from this process's event loop.
 */
import { expect } from "chai";
import { spawn } from "node:child_process";
import { mkdtemp, readFile, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { network } from "hardhat";
import { createPublicClient, createWalletClient, getAddress, http, type Address } from "viem";
import { hardhat } from "viem/chains";
import type { JsonRpcServer } from "hardhat/types/network";
import { FERRY_ABIS } from "../../ts/deploy/ferryArtifacts.ts";
import { predictFerryAddresses } from "../../ts/deploy/ferryDeployment.ts";

const REPO_ROOT = fileURLToPath(new URL("../../", import.meta.url));
const BIN = join(REPO_ROOT, "ts/cli/bin.mjs");

type Run = { status: number | null; stdout: string; stderr: string };

function ferry(args: string[], env: Record<string, string>): Promise<Run> {
  const inherited: Record<string, string | undefined> = { ...process.env };
  delete inherited.FERRY_DEPLOYER_KEY;
  const childEnv = { ...inherited, ...env };
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [BIN, ...args], { cwd: REPO_ROOT, env: childEnv, stdio: ["ignore", "pipe", "pipe"] });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (chunk) => (stdout += chunk));
    child.stderr.on("data", (chunk) => (stderr += chunk));
    const timer = setTimeout(() => child.kill("SIGKILL"), 60_000);
    child.on("error", reject);
    child.on("close", (status) => {
      clearTimeout(timer);
      resolve({ status, stdout, stderr });
    });
  });
}

// The unlocked accounts of Hardhat's default mnemonic, as the node lists them.
const DEPLOYER = getAddress("0xf39fd6e51aad88f6f4ce6ab8827279cfffb92266");
const SIGNER = getAddress("0x3c44cdddb6a900fa2b585dd299e03d12fa4293bc");
const NEW_OWNER = getAddress("0x15d34aaf54267db7d7c367839aaf71a00a2c6a65");
const INTRUDER = getAddress("0x14dc79964da2c08b23698b3d3cc7ca32193d9955");

describe("ferry deploy (CLI)", function () {
  let server: JsonRpcServer;
  let url: string;
  let env: Record<string, string>;
  let dir: string;
  const addresses = predictFerryAddresses({ deployer: DEPLOYER, allocator: DEPLOYER });

  before(async function () {
    server = await network.createServer("origin", "127.0.0.1", 0);
    const { address, port } = await server.listen();
    url = `http://${address}:${port}`;
    env = { FERRY_RPC_URL_LOCALHOST: url };
    dir = join(await mkdtemp(join(tmpdir(), "ferry-cli-deploy-")), "deployments");
  });
  after(async function () {
    await server.close();
  });

  const client = () => createPublicClient({ chain: hardhat, transport: http(url) });
  const wallet = (account: Address) => createWalletClient({ account, chain: hardhat, transport: http(url) });
  const deployArgs = () => ["deploy", "--network", "localhost", "--deployments-dir", dir, "--signer", SIGNER, "--owner", NEW_OWNER];
  const checkArgs = () => ["deploy", "--check", "--network", "localhost", "--deployments-dir", dir];

  it("deploys, writes the record and prints what the new owner must accept", async function () {
    const run = await ferry(deployArgs(), env);
    expect(run.status, run.stderr).to.equal(0);
    expect(run.stdout).to.include(`deployer ${DEPLOYER}`);
    expect(run.stdout).to.match(/Depository\s+0x[0-9a-fA-F]{40} deployed/);
    expect(run.stdout).to.not.include("already deployed");
    expect(run.stdout).to.include(`ownership: transfer to ${NEW_OWNER} pending`);
    expect(run.stdout).to.match(new RegExp(`Depository\\s+${addresses.depository}\\s+acceptOwnership\\(\\)`));
    expect(run.stdout).to.match(new RegExp(`AttestedReceiver\\s+${addresses.attestedReceiver}\\s+acceptOwnership\\(\\)`));
    const record = JSON.parse(await readFile(join(dir, "31337.json"), "utf8"));
    expect(record.addresses).to.deep.equal(addresses);
    expect(record.configuration).to.deep.equal({ owner: NEW_OWNER, allocator: DEPLOYER, signers: [SIGNER] });
  });

  it("says \"already deployed\" the second time and sends no transaction", async function () {
    const block = await client().getBlockNumber();
    const nonce = await client().getTransactionCount({ address: DEPLOYER });
    const recordBefore = await readFile(join(dir, "31337.json"), "utf8");

    const run = await ferry(deployArgs(), env);
    expect(run.status, run.stderr).to.equal(0);
    expect(run.stdout).to.include("already deployed");
    expect(run.stdout).to.include("(unchanged)");
    const json = await ferry([...deployArgs(), "--json"], env);
    expect(json.status, json.stderr).to.equal(0);
    const result = JSON.parse(json.stdout);
    expect(result).to.include({ status: "already deployed", alreadyDeployed: true, chainId: 31337 });
    expect(result.transactions).to.deep.equal([]);
    expect(result.pendingOwnership.calls).to.have.length(2);

    expect(await client().getBlockNumber()).to.equal(block);
    expect(await client().getTransactionCount({ address: DEPLOYER })).to.equal(nonce);
    expect(await readFile(join(dir, "31337.json"), "utf8")).to.equal(recordBefore);
  });

  it("--check passes after the deploy (handover pending) and prints the table", async function () {
    const run = await ferry(checkArgs(), env);
    expect(run.status, run.stderr).to.equal(0);
    expect(run.stdout).to.match(/contract\s+field\s+expected\s+actual\s+ok/);
    expect(run.stdout).to.match(/Depository\s+allocator\s+\S+\s+\S+\s+ok/);
    expect(run.stdout).to.include(`handover to ${NEW_OWNER} pending`);
    expect(run.stdout).to.not.include("FAIL");
  });

  it("--check fails naming the signer after it is removed behind its back", async function () {
    const hash = await wallet(DEPLOYER).writeContract({
      address: addresses.attestedReceiver,
      abi: FERRY_ABIS.AttestedReceiver,
      functionName: "setSigner",
      args: [SIGNER, false],
    });
    await client().waitForTransactionReceipt({ hash });

    const run = await ferry(checkArgs(), env);
    expect(run.status).to.equal(1);
    expect(run.stdout).to.match(new RegExp(`AttestedReceiver\\s+signer ${SIGNER.toLowerCase()}\\s+allowed\\s+not allowed\\s+FAIL`));
    expect(run.stderr).to.include(`CHECK_FAILED: AttestedReceiver.signer ${SIGNER.toLowerCase()}: expected allowed, actual not allowed`);

    // `ferry deploy` repairs it (the deployer still owns the receiver).
    const repair = await ferry(deployArgs(), env);
    expect(repair.status, repair.stderr).to.equal(0);
    expect(repair.stdout).to.include("AttestedReceiver.setSigner");
    expect((await ferry(checkArgs(), env)).status).to.equal(0);
  });

  it("--check fails naming the owner after ownership is moved behind its back", async function () {
    const transfer = await wallet(DEPLOYER).writeContract({
      address: addresses.depository,
      abi: FERRY_ABIS.Depository,
      functionName: "transferOwnership",
      args: [INTRUDER],
    });
    await client().waitForTransactionReceipt({ hash: transfer });
    const accept = await wallet(INTRUDER).writeContract({ address: addresses.depository, abi: FERRY_ABIS.Depository, functionName: "acceptOwnership" });
    await client().waitForTransactionReceipt({ hash: accept });

    const run = await ferry([...checkArgs(), "--json"], env);
    expect(run.status).to.equal(1);
    const result = JSON.parse(run.stdout);
    expect(result.ok).to.equal(false);
    expect(result.rows.filter((row: { ok: boolean }) => !row.ok)).to.deep.equal([
      { contract: "Depository", field: "owner", expected: NEW_OWNER.toLowerCase(), actual: INTRUDER.toLowerCase(), ok: false },
    ]);
    const error = JSON.parse(run.stderr.trim().split("\n").at(-1)!);
    expect(error.error.code).to.equal("CHECK_FAILED");
    expect(error.error.message).to.include("Depository.owner");
  });

  it("refuses a build whose addresses differ from another chain's record for the same deployer and salt", async function () {
    const other = await mkdtemp(join(tmpdir(), "ferry-cli-drift-"));
    const record = JSON.parse(await readFile(join(dir, "31337.json"), "utf8"));
    const drifted = { ...record, chainId: 1, addresses: { ...record.addresses, depository: getAddress(`0x${"11".repeat(20)}`) } };
    await writeFile(join(other, "1.json"), JSON.stringify(drifted));
    const block = await client().getBlockNumber();
    const run = await ferry(["deploy", "--network", "localhost", "--deployments-dir", other, "--signer", SIGNER, "--owner", NEW_OWNER], env);
    expect(run.status).to.equal(2);
    expect(run.stderr).to.match(/DEPLOYMENT_CONFLICT: build: .*chain 1 has it at 0x1111111111111111111111111111111111111111/);
    expect(await client().getBlockNumber()).to.equal(block);
  });

  it("deploys from $FERRY_DEPLOYER_KEY when set, and never prints the key", async function () {
    // Hardhat's default account #6: funded on the node, so it can pay for its own deployment.
    const key = "0x92db14e403b83dfe3df233f83dfa3a0d7096f21ca9b0d6d6b8d88b2b4ec1564e";
    const keyDeployer = getAddress("0x976ea74026e726554db657fa54763abd0c3a0aa9");
    const own = join(await mkdtemp(join(tmpdir(), "ferry-cli-key-")), "deployments");
    const run = await ferry(["deploy", "--network", "localhost", "--deployments-dir", own, "--json"], { ...env, FERRY_DEPLOYER_KEY: key });
    expect(run.status, run.stderr).to.equal(0);
    const result = JSON.parse(run.stdout);
    expect(result.deployer).to.equal(keyDeployer);
    expect(result.addresses).to.deep.equal(predictFerryAddresses({ deployer: keyDeployer, allocator: keyDeployer }));
    expect(run.stdout + run.stderr).to.not.include(key.slice(2));

    const bad = await ferry(["deploy", "--network", "localhost", "--deployments-dir", own], { ...env, FERRY_DEPLOYER_KEY: `${key.slice(0, -1)}x` });
    expect(bad.status).to.equal(2);
    expect(bad.stderr).to.include("DEPLOYER_KEY_MISSING: FERRY_DEPLOYER_KEY is not a 0x-prefixed 32-byte private key");
    expect(bad.stdout + bad.stderr).to.not.include(key.slice(2, -1));
  });

  it("rejects an unknown network and bad flags with exit 2", async function () {
    const unknown = await ferry(["deploy", "--network", "nowhere"], env);
    expect(unknown.status).to.equal(2);
    expect(unknown.stderr).to.match(/USAGE: unknown network "nowhere"/);
    const badOwner = await ferry(["deploy", "--network", "localhost", "--owner", "0x1234"], env);
    expect(badOwner.status).to.equal(2);
    expect(badOwner.stderr).to.include("--owner");
  });
});
