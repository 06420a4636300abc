/**
 * ts/deploy/multicall3.ts: the published presigned deployment of Multicall3 is the canonical one (its
 * signer and address recovered, not trusted), and `ensureMulticall3` puts it at its canonical address on
 * real EDR chains: on a dev chain; on a chain treated as real only with `fund` (the deployer funds the
 * keyless sender); never where the keyless sender's nonce 0 is used up.
 */
import { expect } from "chai";
import { network } from "hardhat";
import { getContractAddress, keccak256, parseEther, parseGwei, parseTransaction, recoverTransactionAddress, type TransactionSerializedLegacy } from "viem";
import { ensureMulticall3, MULTICALL3_ADDRESS, MULTICALL3_DEPLOYER, MULTICALL3_FUNDING, MULTICALL3_TRANSACTION } from "../../ts/deploy/multicall3.ts";

const multicall3Abi = [{ type: "function", name: "getChainId", stateMutability: "view", inputs: [], outputs: [{ type: "uint256" }] }] as const;

describe("multicall3", function () {
  this.timeout(120_000);

  it("the presigned transaction is keyless, pre-EIP-155, signed by the canonical deployer and creates 0xcA11…CA11", async function () {
    const tx = parseTransaction(MULTICALL3_TRANSACTION);
    expect(tx.type).to.equal("legacy");
    expect(tx.chainId).to.equal(undefined);
    expect(tx.nonce ?? 0).to.equal(0);
    expect(tx.gas).to.equal(1_000_000n);
    expect(tx.gasPrice).to.equal(parseGwei("100"));
    expect(tx.gas! * tx.gasPrice!).to.equal(MULTICALL3_FUNDING);
    const signer = await recoverTransactionAddress({ serializedTransaction: MULTICALL3_TRANSACTION as TransactionSerializedLegacy });
    expect(signer).to.equal(MULTICALL3_DEPLOYER);
    expect(getContractAddress({ from: signer, nonce: 0n })).to.equal(MULTICALL3_ADDRESS);
    // The same transaction on every chain: its hash is the one of the deployments the Multicall3 README cites (Base).
    expect(keccak256(MULTICALL3_TRANSACTION)).to.equal("0x07471adfe8f4ec553c1199f495be97fc8be8e0626ae307281c22534460184ed1");
  });

  it("on a dev chain: installed by the keyless transaction, then found there; it answers as Multicall3", async function () {
    const connection = await network.create("origin");
    try {
      const publicClient = await connection.viem.getPublicClient();
      const testClient = await connection.viem.getTestClient();
      expect(await publicClient.getCode({ address: MULTICALL3_ADDRESS })).to.equal(undefined);
      const installed = await ensureMulticall3({ publicClient, testClient });
      expect(installed.status).to.equal("deployed");
      expect(installed).to.include({ method: "keyless-transaction" });
      expect(await publicClient.readContract({ address: MULTICALL3_ADDRESS, abi: multicall3Abi, functionName: "getChainId" })).to.equal(BigInt(await publicClient.getChainId()));
      expect(await ensureMulticall3({ publicClient, testClient })).to.deep.equal({ status: "present" });
    } finally {
      await connection.close();
    }
  });

  it("on a chain treated as real: nothing sent without fund; with it the deployer funds the keyless sender and it is deployed", async function () {
    const connection = await network.create("destination");
    try {
      const publicClient = await connection.viem.getPublicClient();
      const [walletClient] = await connection.viem.getWalletClients();
      const before = await publicClient.getBlockNumber();
      const absent = await ensureMulticall3({ publicClient, walletClient: walletClient! });
      expect(absent.status).to.equal("absent");
      expect(absent).to.have.property("reason").that.contains("--multicall3");
      expect(await publicClient.getBlockNumber(), "nothing sent").to.equal(before);

      const deployed = await ensureMulticall3({ publicClient, walletClient: walletClient!, fund: true });
      expect(deployed).to.include({ status: "deployed", method: "keyless-transaction" });
      expect(await publicClient.getTransactionCount({ address: MULTICALL3_DEPLOYER })).to.equal(1);
      expect((await publicClient.getCode({ address: MULTICALL3_ADDRESS }))?.length).to.be.greaterThan(2);
    } finally {
      await connection.close();
    }
  });

  it("where the keyless sender's nonce 0 is used up: absent on a real chain (no funds sent), setCode on a dev chain", async function () {
    const connection = await network.create("origin");
    try {
      const publicClient = await connection.viem.getPublicClient();
      const testClient = await connection.viem.getTestClient();
      const [walletClient] = await connection.viem.getWalletClients();
      await testClient.setBalance({ address: MULTICALL3_DEPLOYER, value: parseEther("1") });
      await testClient.impersonateAccount({ address: MULTICALL3_DEPLOYER });
      await testClient.request({ method: "eth_sendTransaction", params: [{ from: MULTICALL3_DEPLOYER, to: MULTICALL3_DEPLOYER, value: "0x0" }] } as never);
      await testClient.stopImpersonatingAccount({ address: MULTICALL3_DEPLOYER });
      await testClient.mine({ blocks: 1 });
      const funder = await publicClient.getBalance({ address: walletClient!.account.address });

      const absent = await ensureMulticall3({ publicClient, walletClient: walletClient!, fund: true });
      expect(absent.status).to.equal("absent");
      expect(absent).to.have.property("reason").that.contains("nonce 0");
      expect(await publicClient.getBalance({ address: walletClient!.account.address }), "no funds sent").to.equal(funder);

      expect(await ensureMulticall3({ publicClient, testClient })).to.deep.equal({ status: "deployed", method: "set-code" });
      expect(await publicClient.readContract({ address: MULTICALL3_ADDRESS, abi: multicall3Abi, functionName: "getChainId" })).to.equal(BigInt(await publicClient.getChainId()));
    } finally {
      await connection.close();
    }
  });
});
