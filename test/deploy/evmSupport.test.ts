/**
 * ts/deploy/evmSupport.ts: the probe passes on a prague chain, and on a chain before Shanghai (no
 * PUSH0, MCOPY, TSTORE) `ferry deploy`'s library refuses to deploy before sending anything and
 * `--check` reports the chain row as failed.
 */
import { expect } from "chai";
import { network } from "hardhat";
import { getAddress } from "viem";
import { isFerryError } from "../../ts/core/errors.ts";
import { DeployErrorCode } from "../../ts/deploy/deployErrors.ts";
import { probeEvmSupport } from "../../ts/deploy/evmSupport.ts";
import { checkFerryDeployment, deployFerryContracts, predictFerryAddresses } from "../../ts/deploy/ferryDeployment.ts";

describe("evmSupport", function () {
  it("passes on a prague chain", async function () {
    const connection = await network.create("origin");
    try {
      expect(await probeEvmSupport((await connection.viem.getPublicClient()) as never)).to.deep.equal({ ok: true });
    } finally {
      await connection.close();
    }
  });

  it("refuses a pre-Shanghai chain before sending anything, and --check names it", async function () {
    const connection = await network.create({ network: "origin", override: { hardfork: "merge" } });
    try {
      const { viem } = connection;
      const publicClient = await viem.getPublicClient();
      const [walletClient] = await viem.getWalletClients();
      const deployer = getAddress(walletClient!.account.address);
      const nonceBefore = await publicClient.getTransactionCount({ address: deployer });
      expect((await probeEvmSupport(publicClient as never)).ok).to.equal(false);
      try {
        await deployFerryContracts({
          publicClient: publicClient as never,
          walletClient: walletClient as never,
          testClient: (await viem.getTestClient()) as never,
          options: { allocator: deployer, signers: [] },
        });
        expect.fail("expected UNSUPPORTED_CHAIN");
      } catch (error) {
        expect(isFerryError(error, DeployErrorCode.UNSUPPORTED_CHAIN), String(error)).to.equal(true);
      }
      expect(await publicClient.getTransactionCount({ address: deployer })).to.equal(nonceBefore);

      const check = await checkFerryDeployment({
        publicClient: publicClient as never,
        addresses: predictFerryAddresses({ deployer, allocator: deployer }),
        expected: { owner: deployer, allocator: deployer, signers: [] },
      });
      expect(check.ok).to.equal(false);
      expect(check.rows[0]).to.include({ contract: "chain", ok: false });
    } finally {
      await connection.close();
    }
  });
});
