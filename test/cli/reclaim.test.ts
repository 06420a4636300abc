// `ferry reclaim`: against a real chain over HTTP (an EDR server on a free loopback port), the depositor's
// key from FERRY_DEPOSITOR_KEY; refusals are typed codes.
import { expect } from "chai";
import { readFileSync } from "node:fs";
import { network } from "hardhat";
import { createPublicClient, createTestClient, createWalletClient, http, keccak256, parseEther, stringToHex, toHex, zeroAddress, type Hex } from "viem";
import { mnemonicToAccount } from "viem/accounts";
import { depositoryAbi } from "../../ts/abi/Depository.ts";
import { encodeReclaimableDeposit } from "../../ts/core/reclaimableDeposit.ts";
import { errorLine, runCli, runCliInProcess } from "./runCli.ts";

const MNEMONIC = "test test test test test test test test test test test junk";
const deployer = mnemonicToAccount(MNEMONIC, { addressIndex: 0 });
const depositor = mnemonicToAccount(MNEMONIC, { addressIndex: 5 });
// Hardhat's default account 5 (a public test key): what FERRY_DEPOSITOR_KEY holds in this test.
const DEPOSITOR_KEY = toHex(depositor.getHdKey().privateKey!);

describe("ferry reclaim", () => {
  it("refuses without the key (usage, exit 2) and names a bad orderId (INVALID_INPUT)", async () => {
    const missingKey = runCli(["reclaim", `0x${"11".repeat(32)}`, "--rpc-url", "http://127.0.0.1:1", "--depository", zeroAddress]);
    expect(missingKey.status).to.equal(2);
    expect(missingKey.stderr).to.include("FERRY_DEPOSITOR_KEY");
    const badId = await runCliInProcess(["reclaim", "0x12", "--rpc-url", "http://127.0.0.1:1", "--depository", zeroAddress], { env: { FERRY_DEPOSITOR_KEY: DEPOSITOR_KEY } });
    expect(errorLine(badId)).to.include("INVALID_INPUT");
  });

  it("reclaims a deposit the service never released, after its time; refuses before it and twice", async () => {
    const server = await network.createServer({ network: "origin" }, "127.0.0.1", 0);
    const { address, port } = await server.listen();
    const rpcUrl = `http://${address}:${port}`;
    try {
      const transport = http(rpcUrl);
      const publicClient = createPublicClient({ transport, pollingInterval: 50 });
      const testClient = createTestClient({ transport, mode: "hardhat" });
      const chain = { id: await publicClient.getChainId(), name: "origin", nativeCurrency: { name: "Ether", symbol: "ETH", decimals: 18 }, rpcUrls: { default: { http: [rpcUrl] } } };
      const admin = createWalletClient({ account: deployer, chain, transport });
      const user = createWalletClient({ account: depositor, chain, transport });
      // Compiled by `hardhat test` before the mocha run.
      const { bytecode } = JSON.parse(readFileSync(new URL("../../artifacts/contracts/Depository.sol/Depository.json", import.meta.url), "utf8")) as { bytecode: Hex };
      const deployed = await publicClient.waitForTransactionReceipt({
        hash: await admin.deployContract({ abi: depositoryAbi, bytecode, args: [deployer.address, deployer.address] }),
      });
      const depository = deployed.contractAddress!;
      const id = keccak256(stringToHex("cli reclaim"));
      const reclaimAt = BigInt((await publicClient.getBlock()).timestamp) + 600n;
      const { data, value } = encodeReclaimableDeposit({ currency: zeroAddress, amount: parseEther("1"), id, reclaimAt });
      await publicClient.waitForTransactionReceipt({ hash: await user.sendTransaction({ to: depository, data, value }) });
      const args = ["reclaim", id, "--rpc-url", rpcUrl, "--depository", depository, "--json"];
      const env = { FERRY_DEPOSITOR_KEY: DEPOSITOR_KEY };

      expect(errorLine(await runCliInProcess(args, { env }))).to.include("RECLAIM_NOT_YET");
      await testClient.setNextBlockTimestamp({ timestamp: reclaimAt });
      await testClient.mine({ blocks: 1 });
      const done = await runCliInProcess(args, { env });
      expect(done.status, done.stderr).to.equal(0);
      const result = JSON.parse(done.stdout) as { txHash: string; amount: string; depositor: string };
      expect(result.amount).to.equal(parseEther("1").toString());
      expect(result.depositor).to.equal(depositor.address);
      expect(await publicClient.getBalance({ address: depository })).to.equal(0n);
      expect(errorLine(await runCliInProcess(args, { env }))).to.include("RECLAIM_NOT_LIVE");
    } finally {
      await server.close();
    }
  });
});
