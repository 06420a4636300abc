/**
 * Ferry on a fork of a real chain (Hardhat's `fork` network, see "Fork testing" in the README):
 * deploys through the deterministic-deployment proxy that already lives on the chain, so the
 * addresses are the production ones, and runs validated fills against the chain's real state.
 *
 *   FORK_URL=https://… [FORK_BLOCK=…] npx hardhat test mocha test/deploy/forkRealChain.test.ts
 *
 * Optional ERC-20 leg against a real token: FORK_TOKEN=<token> FORK_TOKEN_HOLDER=<an account holding
 * some> (impersonated to fund the solver). Without FORK_URL every test is skipped with the reason
 * printed: CI machines reach no chain.
 */
import { expect } from "chai";
import { network } from "hardhat";
import type { NetworkConnection } from "hardhat/types/network";
import { erc20Abi, getAddress, parseEther, parseEventLogs, zeroAddress, type Address } from "viem";
import { DETERMINISTIC_DEPLOYER } from "../../ts/deploy/deterministicDeployer.ts";
import { predictFerryAddresses } from "../../ts/deploy/ferryDeployment.ts";
import { deployFerry, type FerryFixture } from "../../ts/testing/deployFerry.ts";

describe("Ferry on a fork of a real chain (FORK_URL)", function () {
  let connection: NetworkConnection | undefined;
  let ferry: FerryFixture;
  let proxyWasThere: boolean;
  let forkBlock: bigint;

  before(async function () {
    if (!process.env.FORK_URL) {
      console.log("    skipped: FORK_URL is not set (set it to an RPC URL of the chain to fork; these machines reach no chain)");
      this.skip();
    }
    connection = await network.create("fork");
    const publicClient = await connection.viem.getPublicClient();
    forkBlock = await publicClient.getBlockNumber();
    proxyWasThere = ((await publicClient.getCode({ address: DETERMINISTIC_DEPLOYER })) ?? "0x") !== "0x";
    // EDR runs calls at a forked block only on chains whose hardfork history it knows; one block of
    // the fork's own makes "latest" local, so this also works on chains it does not know.
    await connection.networkHelpers.mine();
    ferry = await deployFerry(connection.viem, { stablecoin: false });
    const chainId = await publicClient.getChainId();
    console.log(`    forked block ${forkBlock} (fork chain id ${chainId}); Ferry ${ferry.alreadyDeployed ? "found" : "deployed"} at ${ferry.addresses.attestedReceiver} (AttestedReceiver)`);
  });

  after(async function () {
    await connection?.close();
  });

  it("deploys at the addresses every chain gets", async function () {
    expect(proxyWasThere, "the deterministic-deployment proxy exists on the forked chain").to.equal(true);
    const [deployer] = await connection!.viem.getWalletClients();
    expect(ferry.addresses).to.deep.equal(predictFerryAddresses({ deployer: deployer!.account.address, allocator: ferry.allocator.address }));
    expect(await ferry.attestedReceiver.read.isSigner([ferry.signer.address])).to.equal(true);
  });

  it("fills a real account natively and refuses the replay", async function () {
    // A recipient with real history: the fee recipient of the forked block.
    const recipient = getAddress((await ferry.publicClient.getBlock({ blockNumber: forkBlock })).miner);
    const amount = parseEther("0.01");
    const before = await ferry.publicClient.getBalance({ address: recipient });
    const signed = await ferry.attest({ destinationUser: recipient, destinationAmount: amount });
    const hash = await ferry.fill(signed, { value: amount });
    const receipt = await ferry.publicClient.waitForTransactionReceipt({ hash });
    const [filled] = parseEventLogs({ abi: ferry.attestedReceiver.abi, logs: receipt.logs, eventName: "Filled" });
    expect(filled?.args).to.include({ requestId: signed.attestation.requestId, recipient, currency: zeroAddress, amount });
    expect(await ferry.attestedReceiver.read.filled([signed.attestation.requestId])).to.equal(true);

    const received = (await ferry.publicClient.getBalance({ address: recipient })) - before;
    const fillBlock = await ferry.publicClient.getBlock({ blockNumber: receipt.blockNumber });
    // Exact, unless the recipient also earned the fill block's fees (the fork's coinbase).
    if (getAddress(fillBlock.miner) === recipient) expect(received >= amount).to.equal(true);
    else expect(received).to.equal(amount);

    await connection!.viem.assertions.revertWithCustomErrorWithArgs(
      ferry.fill(signed, { value: amount }),
      ferry.attestedReceiver,
      "AlreadyFilled",
      [signed.attestation.requestId],
    );
  });

  it("fills with a real ERC-20 (FORK_TOKEN, FORK_TOKEN_HOLDER)", async function () {
    const token = process.env.FORK_TOKEN as Address | undefined;
    const holder = process.env.FORK_TOKEN_HOLDER as Address | undefined;
    if (!token || !holder) {
      console.log("    skipped: set FORK_TOKEN and FORK_TOKEN_HOLDER to fill with a real token");
      this.skip();
    }
    const testClient = await connection!.viem.getTestClient();
    const [solver] = await connection!.viem.getWalletClients();
    const recipient = "0x000000000000000000000000000000000000f11d" as Address;
    const amount = ((await ferry.publicClient.readContract({ address: token, abi: erc20Abi, functionName: "balanceOf", args: [holder] })) / 1000n) || 1n;

    await testClient.impersonateAccount({ address: holder });
    await testClient.setBalance({ address: holder, value: parseEther("1") });
    const holderClient = await connection!.viem.getWalletClient(holder);
    await holderClient.writeContract({ address: token, abi: erc20Abi, functionName: "transfer", args: [solver!.account.address, amount] });
    await solver!.writeContract({ address: token, abi: erc20Abi, functionName: "approve", args: [ferry.addresses.attestedReceiver, amount] });

    const before = await ferry.publicClient.readContract({ address: token, abi: erc20Abi, functionName: "balanceOf", args: [recipient] });
    const signed = await ferry.attest({ destinationUser: recipient, destinationCurrency: token, destinationAmount: amount });
    await ferry.fill(signed, { account: solver!.account });
    const after = await ferry.publicClient.readContract({ address: token, abi: erc20Abi, functionName: "balanceOf", args: [recipient] });
    expect(after - before).to.equal(amount);
  });
});
