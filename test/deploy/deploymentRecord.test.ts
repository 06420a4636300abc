/** ts/deploy/deploymentRecord.ts: `deployments/<chainId>.json` written by a real deployment and read back. */
import { expect } from "chai";
import { mkdtemp, readFile, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { network } from "hardhat";
import { isFerryError } from "../../ts/core/errors.ts";
import { DeployErrorCode } from "../../ts/deploy/deployErrors.ts";
import {
  DEPLOYMENT_RECORD_FORMAT,
  mergeDeploymentRecords,
  readDeploymentRecord,
  writeDeploymentRecord,
  type DeploymentRecord,
} from "../../ts/deploy/deploymentRecord.ts";
import { deployFerryContracts } from "../../ts/deploy/ferryDeployment.ts";

describe("deploymentRecord", function () {
  let record: DeploymentRecord;

  before(async function () {
    const connection = await network.create("destination");
    const wallets = await connection.viem.getWalletClients();
    const result = await deployFerryContracts({
      publicClient: await connection.viem.getPublicClient(),
      walletClient: wallets[0]!,
      testClient: await connection.viem.getTestClient(),
      options: { allocator: wallets[1]!.account.address, signers: [wallets[2]!.account.address] },
    });
    record = result.record;
    await connection.close();
  });

  it("writes deployments/<chainId>.json and reads it back unchanged", async function () {
    const dir = join(await mkdtemp(join(tmpdir(), "ferry-deployments-")), "deployments");
    const path = await writeDeploymentRecord(dir, record);
    expect(path).to.equal(join(dir, "31338.json"));

    const json = JSON.parse(await readFile(path, "utf8"));
    expect(json.format).to.equal(DEPLOYMENT_RECORD_FORMAT);
    expect(json.chainId).to.equal(31338);
    expect(Object.keys(json.transactions)).to.include.members(["Multicaller", "AttestedReceiver", "Depository"]);
    expect(json.blockNumber).to.be.a("number").greaterThan(0);
    expect(json.deployedAt).to.match(/^\d{4}-\d\d-\d\dT/);

    expect(await readDeploymentRecord(dir, 31338)).to.deep.equal(record);
    expect(await readDeploymentRecord(dir, 31337)).to.equal(undefined);
  });

  it("rejects a malformed record and one filed under another chain id", async function () {
    const dir = await mkdtemp(join(tmpdir(), "ferry-deployments-"));
    await writeFile(join(dir, "1.json"), "{not json");
    await writeFile(join(dir, "31337.json"), JSON.stringify(record));
    await writeFile(join(dir, "5.json"), JSON.stringify({ ...record, chainId: 5, addresses: { ...record.addresses, depository: "0x1234" } }));
    for (const chainId of [1, 31337, 5]) {
      try {
        await readDeploymentRecord(dir, chainId);
        expect.fail(`chain ${chainId}: expected DEPLOYMENT_RECORD_INVALID`);
      } catch (error) {
        expect(isFerryError(error, DeployErrorCode.DEPLOYMENT_RECORD_INVALID), String(error)).to.equal(true);
      }
    }
  });

  it("keeps the first deployment's block and transactions when a later run adds some", function () {
    const later: DeploymentRecord = {
      ...record,
      blockNumber: record.blockNumber + 10,
      deployedAt: "2030-01-01T00:00:00.000Z",
      transactions: { "AttestedReceiver.setSigner(0x0000000000000000000000000000000000000001)": `0x${"ab".repeat(32)}` },
    };
    const merged = mergeDeploymentRecords(record, later);
    expect(merged.blockNumber).to.equal(record.blockNumber);
    expect(merged.deployedAt).to.equal(record.deployedAt);
    expect(merged.transactions).to.deep.equal({ ...record.transactions, ...later.transactions });
  });
});
