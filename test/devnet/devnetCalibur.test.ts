// Calibur at its canonical address on a local chain (ts/devnet/devnetCalibur.ts): the SDK's executor
// address, a domain whose salt is the one the SDK signs with, and why the constructor has to run at
// that address — runtime code captured from a deployment elsewhere carries the other address in its
// immutables, and every SDK signature would be checked against the wrong domain.
import { expect } from "chai";
import { network } from "hardhat";
import { CALIBUR_ADDRESS as SDK_CALIBUR_ADDRESS, CALIBUR_SALT as SDK_CALIBUR_SALT } from "@relayprotocol/relay-sdk";
import { getAddress, pad, parseAbi, type Hex } from "viem";
import { readCaliburArtifact } from "../../ts/devnet/caliburBuild.ts";
import { CALIBUR_ADDRESS, checkCaliburRuntime, ensureCalibur } from "../../ts/devnet/devnetCalibur.ts";

const DOMAIN_ABI = parseAbi([
  "function eip712Domain() view returns (bytes1 fields, string name, string version, uint256 chainId, address verifyingContract, bytes32 salt, uint256[] extensions)",
  "function CUSTOM_STORAGE_ROOT() view returns (bytes32)",
]);

describe("devnet: Calibur at the SDK's executor address", function () {
  this.timeout(120_000);
  const artifact = readCaliburArtifact();

  it("is the address the SDK delegates to, and the artifact is CaliburEntry v1.0.0 built with solc 0.8.29 via-IR", () => {
    expect(CALIBUR_ADDRESS).to.equal(SDK_CALIBUR_ADDRESS);
    expect(artifact.contractName).to.equal("CaliburEntry");
    expect(artifact.source.commit).to.equal("35d80918e120d177a49d3d90bcd4dd011caedd32");
    expect(artifact.compiler.version).to.match(/^0\.8\.29\+/);
    expect(artifact.compiler.settings.viaIR).to.equal(true);
    expect(artifact.compiler.settings.optimizer.runs).to.equal(10_000);
  });

  it("checkCaliburRuntime accepts other immutables and refuses any other changed byte", () => {
    const bytes = Buffer.from(artifact.deployedBytecode.slice(2), "hex");
    const [first] = Object.values(artifact.immutableReferences)[0]!;
    const filled = Buffer.from(bytes);
    filled.fill(0xab, first!.start, first!.start + first!.length);
    expect(() => checkCaliburRuntime(artifact, `0x${filled.toString("hex")}`)).to.not.throw();
    const tampered = Buffer.from(bytes);
    tampered[first!.start - 1] ^= 0xff;
    expect(() => checkCaliburRuntime(artifact, `0x${tampered.toString("hex")}`)).to.throw(/outside any immutable/);
    expect(() => checkCaliburRuntime(artifact, `0x${bytes.subarray(1).toString("hex")}`)).to.throw(/bytes of runtime code/);
  });

  it("runs the constructor at the canonical address: the domain's salt is the SDK's CALIBUR_SALT; code copied from elsewhere would not be", async () => {
    const { viem } = await network.create();
    const publicClient = await viem.getPublicClient();
    const testClient = await viem.getTestClient();
    const [wallet] = await viem.getWalletClients();

    expect(await ensureCalibur({ publicClient, testClient })).to.equal(getAddress(CALIBUR_ADDRESS));
    const [, name, version, chainId, verifyingContract, salt] = await publicClient.readContract({ address: CALIBUR_ADDRESS, abi: DOMAIN_ABI, functionName: "eip712Domain" });
    expect([name, version]).to.deep.equal(["Calibur", "1.0.0"]);
    expect(chainId).to.equal(BigInt(await publicClient.getChainId()));
    expect(verifyingContract).to.equal(getAddress(CALIBUR_ADDRESS));
    expect(salt).to.equal(SDK_CALIBUR_SALT.toLowerCase());
    expect(await publicClient.readContract({ address: CALIBUR_ADDRESS, abi: DOMAIN_ABI, functionName: "CUSTOM_STORAGE_ROOT" })).to.equal(
      "0x3b86514c5c56b21f08d8e56ab090292e07c2483b3e667a2a45849dcb71368600",
    );
    // Idempotent: a second call leaves the code as it is.
    const code = await publicClient.getCode({ address: CALIBUR_ADDRESS });
    await ensureCalibur({ publicClient, testClient });
    expect(await publicClient.getCode({ address: CALIBUR_ADDRESS })).to.equal(code);

    // The shortcut this avoids: deploy anywhere, copy the runtime code to the canonical address.
    const hash = await wallet!.deployContract({ abi: artifact.abi, bytecode: artifact.bytecode });
    const elsewhere = (await publicClient.waitForTransactionReceipt({ hash })).contractAddress!;
    const copied = (await publicClient.getCode({ address: elsewhere })) as Hex;
    const target = "0x00000000000000000000000000000000c0ffee00";
    await testClient.setCode({ address: target, bytecode: copied });
    const [, , , , , copiedSalt] = await publicClient.readContract({ address: target, abi: DOMAIN_ABI, functionName: "eip712Domain" });
    expect(copiedSalt).to.equal(pad(elsewhere.toLowerCase() as Hex, { size: 32 }));
    expect(copiedSalt).to.not.equal(SDK_CALIBUR_SALT.toLowerCase());
  });
});
