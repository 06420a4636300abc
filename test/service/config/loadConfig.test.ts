/** ts/service/config/loadConfig.ts: the file named by FERRY_CONFIG, env overrides, deployment records. */
import { expect } from "chai";
import { mkdir, mkdtemp, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { isFerryError } from "../../../ts/core/errors.ts";
import { DEPLOYMENT_RECORD_FORMAT, writeDeploymentRecord, type DeploymentRecord } from "../../../ts/deploy/deploymentRecord.ts";
import { ConfigErrorCode, type ConfigInvalidError } from "../../../ts/service/config/configErrors.ts";
import { loadConfig } from "../../../ts/service/config/loadConfig.ts";

const chain = {
  id: 31338,
  name: "destination",
  displayName: "Destination",
  rpcUrl: "http://127.0.0.1:8546",
  nativeCurrency: { symbol: "ETH", name: "Ether", decimals: 18 },
};

/** A fixture record in the format ts/deploy writes (the deployment itself is exercised in test/service/http/chains.test.ts). */
const record = {
  format: DEPLOYMENT_RECORD_FORMAT,
  chainId: 31338,
  addresses: {
    depository: "0x2222222222222222222222222222222222222222",
    attestedReceiver: "0x3333333333333333333333333333333333333333",
    multicaller: "0x4444444444444444444444444444444444444444",
  },
  deployer: "0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266",
  salt: `0x${"00".repeat(32)}`,
  deterministicDeployer: "0x4e59b44847b379578588920cA78FbF26c0B4956C",
  blockNumber: 3,
  transactions: {},
  constructorArgs: {},
  configuration: { owner: "0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266", allocator: "0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266", signers: [] },
  compiler: {},
} as unknown as DeploymentRecord;

async function expectInvalid(promise: Promise<unknown>, field: string): Promise<void> {
  try {
    await promise;
  } catch (error) {
    expect(isFerryError(error, ConfigErrorCode.CONFIG_INVALID), String(error)).to.equal(true);
    expect((error as ConfigInvalidError).field).to.equal(field);
    return;
  }
  expect.fail(`expected CONFIG_INVALID on ${field}`);
}

describe("loadConfig", function () {
  it("reads the file, resolves paths next to it and fills contracts from deployments/<chainId>.json", async function () {
    const dir = await mkdtemp(join(tmpdir(), "ferry-config-"));
    await writeDeploymentRecord(join(dir, "deployments"), record);
    await writeFile(join(dir, "ferry.json"), JSON.stringify({ server: { port: 3000 }, chains: [chain] }));
    const config = await loadConfig({ env: { FERRY_CONFIG: join(dir, "ferry.json"), FERRY_PORT: "4000" }, cwd: "/" });
    expect(config.server).to.include({ host: "127.0.0.1", port: 4000 });
    expect(config.deploymentsDir).to.equal(join(dir, "deployments"));
    expect(config.chains[0]!.contracts).to.deep.equal(record.addresses);
    expect(config.chains[0]!.deploymentBlock).to.equal(3);
  });

  it("runs on defaults and env alone without a file", async function () {
    const config = await loadConfig({ env: { FERRY_HOST: "0.0.0.0" }, cwd: "/srv" });
    expect(config.server.host).to.equal("0.0.0.0");
    expect(config.chains).to.deep.equal([]);
  });

  it("is CONFIG_INVALID when the file is missing or not JSON, or a chain has no contracts anywhere", async function () {
    const dir = await mkdtemp(join(tmpdir(), "ferry-config-"));
    await expectInvalid(loadConfig({ env: { FERRY_CONFIG: join(dir, "missing.json") } }), "FERRY_CONFIG");
    await writeFile(join(dir, "broken.json"), "{ chains: ");
    await expectInvalid(loadConfig({ env: { FERRY_CONFIG: join(dir, "broken.json") } }), "FERRY_CONFIG");
    await writeFile(join(dir, "ferry.json"), JSON.stringify({ chains: [chain] }));
    await expectInvalid(loadConfig({ env: { FERRY_CONFIG: join(dir, "ferry.json") } }), "chains[0].contracts.depository");
    await writeFile(join(dir, "bad-record.json"), JSON.stringify({ chains: [chain], deploymentsDir: "bad" }));
    await mkdir(join(dir, "bad"));
    await writeFile(join(dir, "bad", "31338.json"), "{not json");
    await expectInvalid(loadConfig({ env: { FERRY_CONFIG: join(dir, "bad-record.json") } }), "chains[0].contracts");
  });
});
