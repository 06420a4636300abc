/**
 * The Hardhat Ignition path (ignition/modules/Ferry.ts, built by ts/deploy/ferryIgnitionModule.ts)
 * on a real in-process chain: the same addresses as `ferry deploy`, the same configuration, and a
 * state that `deployFerryContracts` then finds complete.
 */
import { expect } from "chai";
import { network } from "hardhat";
import { getAddress, type Address } from "viem";
import { ensureDeterministicDeployer } from "../../ts/deploy/deterministicDeployer.ts";
import { checkFerryDeployment, deployFerryContracts, predictFerryAddresses } from "../../ts/deploy/ferryDeployment.ts";
import { buildFerryIgnitionModule } from "../../ts/deploy/ferryIgnitionModule.ts";
import { prepareFerryIgnitionModule } from "../../ts/deploy/ferryIgnitionEntry.ts";
import { isFerryError } from "../../ts/core/errors.ts";

const INPUTS = ["FERRY_ALLOCATOR", "FERRY_SIGNERS", "FERRY_OWNER", "FERRY_SALT"] as const;

describe("Ferry Ignition module", function () {
  const saved: Record<string, string | undefined> = {};
  before(function () {
    for (const name of INPUTS) saved[name] = process.env[name];
  });
  after(function () {
    for (const name of INPUTS) {
      if (saved[name] === undefined) delete process.env[name];
      else process.env[name] = saved[name];
    }
  });

  it("prepareFerryIgnitionModule_failsWithDeterministicDeployerMissing_beforePlanningAnything_whenTheProxyIsAbsent", async function () {
    const fresh = await network.create("destination");
    try {
      let caught: unknown;
      try {
        await prepareFerryIgnitionModule({ provider: fresh.provider, env: {} });
      } catch (error) {
        caught = error;
      }
      expect(isFerryError(caught, "DETERMINISTIC_DEPLOYER_MISSING"), String(caught)).to.equal(true);
      expect((caught as Error).message).to.include("ferry deploy");
      const blockBefore = await (await fresh.viem.getPublicClient()).getBlockNumber();
      expect(blockBefore).to.equal(0n);
      // Installed, the same call builds the module.
      await ensureDeterministicDeployer({ publicClient: await fresh.viem.getPublicClient(), testClient: await fresh.viem.getTestClient() });
      const module = await prepareFerryIgnitionModule({ provider: fresh.provider, env: {} });
      expect(module.id).to.equal("Ferry");
    } finally {
      await fresh.close();
    }
  });

  it("ignition/modules/Ferry.ts deploys at the addresses of `ferry deploy` on another chain", async function () {
    const origin = await network.create("origin");
    const destination = await network.create("destination");
    const wallets = await origin.viem.getWalletClients();
    const [deployer, allocator, signer, newOwner] = wallets.slice(0, 4).map((wallet) => getAddress(wallet.account.address)) as [Address, Address, Address, Address];
    const originClient = await origin.viem.getPublicClient();
    await ensureDeterministicDeployer({ publicClient: originClient, testClient: await origin.viem.getTestClient() });

    // The module file checks the proxy on the connection Ignition's CLI would use (`--network`, here the default one).
    const defaultConnection = await network.getOrCreate();
    await ensureDeterministicDeployer({ publicClient: await defaultConnection.viem.getPublicClient(), testClient: await defaultConnection.viem.getTestClient() });
    process.env.FERRY_ALLOCATOR = allocator;
    process.env.FERRY_SIGNERS = signer;
    process.env.FERRY_OWNER = newOwner;
    delete process.env.FERRY_SALT;
    const { default: ferryModule } = await import("../../ignition/modules/Ferry.ts");
    const deployed = await origin.ignition.deploy(ferryModule);

    const predicted = predictFerryAddresses({ deployer, allocator });
    expect(getAddress(deployed.depository.address)).to.equal(predicted.depository);
    expect(getAddress(deployed.attestedReceiver.address)).to.equal(predicted.attestedReceiver);
    expect(getAddress(deployed.multicaller.address)).to.equal(predicted.multicaller);
    expect(await deployed.depository.read.pendingOwner()).to.equal(newOwner);

    const expected = { owner: newOwner, allocator, signers: [signer], handoverFrom: deployer };
    const check = await checkFerryDeployment({ publicClient: originClient, addresses: predicted, expected });
    expect(check.ok, JSON.stringify(check.rows.filter((row) => !row.ok))).to.equal(true);

    // `ferry deploy`'s library finds the Ignition deployment complete: nothing to send.
    const options = { allocator, signers: [signer], owner: newOwner };
    const again = await deployFerryContracts({ publicClient: originClient, walletClient: wallets[0]!, options });
    expect(again.alreadyDeployed).to.equal(true);

    // And on a chain with another id, the viem path lands on the same addresses.
    const other = await deployFerryContracts({
      publicClient: await destination.viem.getPublicClient(),
      walletClient: (await destination.viem.getWalletClients())[0]!,
      testClient: await destination.viem.getTestClient(),
      options,
    });
    expect(other.chainId).to.equal(31338);
    expect(other.addresses).to.deep.equal(predicted);
    await origin.close();
    await destination.close();
  });

  it("fails loudly instead of deploying nothing when the CREATE2 proxy is missing", async function () {
    const connection = await network.create("destination");
    const wallets = await connection.viem.getWalletClients();
    const deployer = getAddress(wallets[0]!.account.address);
    const module = buildFerryIgnitionModule({ deployer, allocator: deployer, signers: [] }, "FerryWithoutProxy");
    let failure: unknown;
    try {
      await connection.ignition.deploy(module);
    } catch (error) {
      failure = error;
    }
    expect(failure, "ignition.deploy should fail").to.be.instanceOf(Error);
    expect(String(failure)).to.match(/Owner/);
    await connection.close();
  });
});
