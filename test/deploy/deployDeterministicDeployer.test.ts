/** ts/deploy/deterministicDeployer.ts and create2.ts: the standard CREATE2 proxy, installed and used. */
import { expect } from "chai";
import { network } from "hardhat";
import { keccak256, parseTransaction, recoverTransactionAddress, type TransactionSerializedLegacy } from "viem";
import { isFerryError } from "../../ts/core/errors.ts";
import { deterministicAddress, deterministicDeployCalldata } from "../../ts/deploy/create2.ts";
import { DeployErrorCode } from "../../ts/deploy/deployErrors.ts";
import {
  DETERMINISTIC_DEPLOYER,
  DETERMINISTIC_DEPLOYER_RUNTIME_CODE,
  DETERMINISTIC_DEPLOYER_SIGNER,
  DETERMINISTIC_DEPLOYER_TRANSACTION,
  ensureDeterministicDeployer,
} from "../../ts/deploy/deterministicDeployer.ts";
import { maskImmutables } from "../../ts/deploy/runtimeCode.ts";

describe("deterministicDeployer", function () {
  it("the presigned transaction is keyless, pre-EIP-155 and sent by the well-known signer", async function () {
    const tx = parseTransaction(DETERMINISTIC_DEPLOYER_TRANSACTION);
    expect(tx.type).to.equal("legacy");
    expect(tx.chainId).to.equal(undefined);
    expect(tx.nonce ?? 0).to.equal(0);
    expect(tx.r).to.equal(`0x${"22".repeat(32)}`);
    const signer = await recoverTransactionAddress({ serializedTransaction: DETERMINISTIC_DEPLOYER_TRANSACTION as TransactionSerializedLegacy });
    expect(signer.toLowerCase()).to.equal(DETERMINISTIC_DEPLOYER_SIGNER);
  });

  it("installs the proxy with the keyless transaction, then finds it there", async function () {
    const connection = await network.create("origin");
    const publicClient = await connection.viem.getPublicClient();
    const testClient = await connection.viem.getTestClient();
    expect(await publicClient.getCode({ address: DETERMINISTIC_DEPLOYER })).to.equal(undefined);

    const installed = await ensureDeterministicDeployer({ publicClient, testClient });
    expect(installed.deployed).to.equal(true);
    expect(installed.method).to.equal("keyless-transaction");
    expect(await publicClient.getCode({ address: DETERMINISTIC_DEPLOYER })).to.equal(DETERMINISTIC_DEPLOYER_RUNTIME_CODE);
    expect(await ensureDeterministicDeployer({ publicClient, testClient })).to.deep.equal({ deployed: false });

    // The proxy deploys salt ‖ initCode at the CREATE2 address computed offchain.
    const wallet = (await connection.viem.getWalletClients())[0]!;
    const initCode = "0x600a600c600039600a6000f3602a60005260206000f3"; // returns 42
    const salt = keccak256("0x01");
    const hash = await wallet.sendTransaction({ to: DETERMINISTIC_DEPLOYER, data: deterministicDeployCalldata({ salt, initCode }) });
    await publicClient.waitForTransactionReceipt({ hash });
    expect(await publicClient.getCode({ address: deterministicAddress({ salt, initCode }) })).to.equal("0x602a60005260206000f3");
    await connection.close();
  });

  it("falls back to setCode with the same runtime code when the keyless transaction cannot be sent", async function () {
    const connection = await network.create("destination");
    const publicClient = await connection.viem.getPublicClient();
    const testClient = await connection.viem.getTestClient();
    // A used-up signer nonce makes the node reject the presigned transaction (nonce 0).
    await testClient.setNonce({ address: DETERMINISTIC_DEPLOYER_SIGNER, nonce: 1 });
    const installed = await ensureDeterministicDeployer({ publicClient, testClient });
    expect(installed).to.deep.equal({ deployed: true, method: "set-code" });
    expect(await publicClient.getCode({ address: DETERMINISTIC_DEPLOYER })).to.equal(DETERMINISTIC_DEPLOYER_RUNTIME_CODE);
    await connection.close();
  });

  it("without a test client, a missing proxy is an error with instructions, and nothing is sent", async function () {
    const connection = await network.create("origin");
    const publicClient = await connection.viem.getPublicClient();
    try {
      await ensureDeterministicDeployer({ publicClient });
      expect.fail("expected DETERMINISTIC_DEPLOYER_MISSING");
    } catch (error) {
      expect(isFerryError(error, DeployErrorCode.DETERMINISTIC_DEPLOYER_MISSING), String(error)).to.equal(true);
      expect((error as Error).message).to.include(DETERMINISTIC_DEPLOYER_SIGNER).and.include(DETERMINISTIC_DEPLOYER_TRANSACTION);
    }
    expect(await publicClient.getBlockNumber()).to.equal(0n);
    await connection.close();
  });

  it("maskImmutables zeroes exactly the immutable slots", function () {
    const code = `0x${"ff".repeat(8)}` as const;
    expect(maskImmutables(code, { "1": [{ start: 1, length: 2 }], "2": [{ start: 6, length: 4 }] })).to.equal("0xff0000ffffff0000");
  });
});
