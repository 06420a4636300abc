/**
 * ts/deploy/ferryDeployment.ts on real in-process chains: two chains with different chain ids get the
 * same addresses; a second run sends nothing; the check passes, then fails on what changed; the
 * two-step ownership handover.
 */
import { depositAddressFactoryAbi } from "../../ts/abi/DepositAddressFactory.ts";
import { forwarderImplementation } from "../../ts/core/depositAddress.ts";
import { expect } from "chai";
import { network } from "hardhat";
import { getAddress, keccak256, stringToBytes, zeroAddress, type Address } from "viem";
import { isFerryError } from "../../ts/core/errors.ts";
import { DeployErrorCode } from "../../ts/deploy/deployErrors.ts";
import { checkFerryDeployment, deployFerryContracts, predictFerryAddresses, probeEntryPoints } from "../../ts/deploy/ferryDeployment.ts";
import { compareFerryState } from "../../ts/deploy/ferryStateCheck.ts";
import { DEFAULT_FERRY_SALT } from "../../ts/deploy/ferryPlan.ts";
import { FERRY_ABIS } from "../../ts/deploy/ferryArtifacts.ts";
import { ENTRY_POINT_PROBES } from "../../ts/deploy/entryPoints.ts";
import { DEPOSIT_NATIVE_FUNCTION } from "../../ts/core/depositoryAbi.ts";

async function chain(name: "origin" | "destination") {
  const connection = await network.create(name);
  const { viem } = connection;
  const publicClient = await viem.getPublicClient();
  const wallets = await viem.getWalletClients();
  const testClient = await viem.getTestClient();
  return { connection, publicClient, wallets, testClient };
}

type Chain = Awaited<ReturnType<typeof chain>>;

/** Nonce of the deployer and head block: a run that sends nothing changes neither. */
async function snapshot(c: Chain) {
  return {
    nonce: await c.publicClient.getTransactionCount({ address: c.wallets[0]!.account.address }),
    block: await c.publicClient.getBlockNumber(),
  };
}

describe("deployFerryContracts", function () {
  let origin: Chain;
  let destination: Chain;
  let deployer: Address;
  let allocator: Address;
  let signer: Address;

  before(async function () {
    origin = await chain("origin");
    destination = await chain("destination");
    // Checksummed, as the library returns them (hardhat-viem's accounts are lower case).
    deployer = getAddress(origin.wallets[0]!.account.address);
    allocator = getAddress(origin.wallets[1]!.account.address);
    signer = getAddress(origin.wallets[2]!.account.address);
  });
  after(async function () {
    await origin.connection.close();
    await destination.connection.close();
  });

  const deploy = (c: Chain, options: Parameters<typeof deployFerryContracts>[0]["options"]) =>
    deployFerryContracts({
      publicClient: c.publicClient,
      walletClient: c.wallets[0]!,
      testClient: c.testClient,
      options,
    });

  it("deploys to two chains with different chain ids at identical, predicted addresses", async function () {
    const options = { allocator, signers: [signer] };
    const first = await deploy(origin, options);
    const second = await deploy(destination, options);

    expect(first.chainId).to.equal(31337);
    expect(second.chainId).to.equal(31338);
    const predicted = predictFerryAddresses({ deployer, allocator });
    expect(first.addresses).to.deep.equal(predicted);
    expect(second.addresses).to.deep.equal(predicted);
    expect(first.alreadyDeployed).to.equal(false);
    expect(second.alreadyDeployed).to.equal(false);
    // proxy install + 4 contracts + setSigner (the allocator is the Depository's constructor argument)
    expect(first.transactions).to.have.length(6);
    expect(Object.keys(first.record.transactions)).to.include.members(["Multicaller", "AttestedReceiver", "Depository", "DepositAddressFactory"]);
    // The factory serves this Depository, and its forwarder implementation is where ts/core derives
    // every deposit address from: the same on both chains.
    for (const c of [origin, destination]) {
      const factory = { address: predicted.depositAddressFactory, abi: depositAddressFactoryAbi } as const;
      expect(getAddress(await c.publicClient.readContract({ ...factory, functionName: "depository" }))).to.equal(getAddress(predicted.depository));
      expect(getAddress(await c.publicClient.readContract({ ...factory, functionName: "implementation" }))).to.equal(getAddress(forwarderImplementation(predicted.depositAddressFactory)));
    }
    expect(Object.keys(first.record.transactions)).to.not.include("Depository.setAllocator");
    for (const c of [origin, destination]) {
      for (const address of Object.values(predicted)) expect(await c.publicClient.getCode({ address })).to.not.equal(undefined);
    }
  });

  it("sends no transaction on a second run and reports alreadyDeployed", async function () {
    const options = { allocator, signers: [signer] };
    for (const c of [origin, destination]) {
      const before = await snapshot(c);
      const again = await deploy(c, options);
      expect(await snapshot(c)).to.deep.equal(before);
      expect(again.alreadyDeployed).to.equal(true);
      expect(again.transactions).to.deep.equal([]);
      expect(again.addresses).to.deep.equal(predictFerryAddresses({ deployer, allocator }));
      // Found onchain without a previous record: the block the contracts appeared in.
      expect(again.record.blockNumber).to.be.greaterThan(0);
      expect(again.record.blockNumber).to.be.lessThan(Number(before.block));
    }
  });

  it("records deployer, salt, constructor arguments, configuration and compiler settings", async function () {
    const { record } = await deploy(origin, { allocator, signers: [signer] });
    const addresses = predictFerryAddresses({ deployer, allocator });
    expect(record.chainId).to.equal(31337);
    expect(record.deployer).to.equal(deployer);
    expect(record.salt).to.equal(DEFAULT_FERRY_SALT);
    expect(record.constructorArgs).to.deep.equal({
      Multicaller: [],
      AttestedReceiver: [deployer, addresses.multicaller],
      Depository: [deployer, allocator], // the allocator is set and locked by the constructor
      DepositAddressFactory: [addresses.depository], // deposit addresses of that Depository
    });
    expect(record.configuration).to.deep.equal({ owner: deployer, allocator, signers: [signer] });
    expect(record.compiler.solcVersion).to.equal("0.8.30");
    expect(record.compiler.settings).to.deep.equal({ optimizer: { enabled: true, runs: 1_000_000 }, evmVersion: "prague" });
    expect(record.compiler.contracts.Depository!.viaIR).to.equal(true);
    expect(record.compiler.contracts.AttestedReceiver!.viaIR).to.equal(true);
    expect(record.compiler.contracts.Multicaller!.viaIR).to.equal(false);
    expect(record.compiler.contracts.DepositAddressFactory!.sourceName).to.equal("contracts/DepositAddressFactory.sol");
    // The compact entry points the solver and the quote steps call, by signature.
    expect(record.entryPoints).to.deep.equal(Object.fromEntries(ENTRY_POINT_PROBES.map((p) => [p.signature, p.selector])));
    expect(Object.keys(record.entryPoints!)).to.deep.equal([
      "fill_7hVe()",
      "fillAndCall(bytes,(address,bool,uint256,bytes)[],address[])",
      `${DEPOSIT_NATIVE_FUNCTION}(bytes32)`,
      "depositErc20_6R0X4(address,uint256,bytes32)",
      "execute_kJ9b8(((address,address,uint256)[],uint256,uint256),(bytes32,bytes32))",
    ]);
    expect(record.entryPoints!["fill_7hVe()"]).to.equal("0x00000026");
  });

  it("check probes every compact entry point and names the one a contract does not answer", async function () {
    const addresses = predictFerryAddresses({ deployer, allocator });
    const expected = { owner: deployer, allocator, signers: [signer] };
    const passing = await checkFerryDeployment({ publicClient: origin.publicClient, addresses, expected });
    const entries = passing.rows.filter((row) => row.field.startsWith("entry "));
    expect(entries.map((row) => [row.contract, row.field.slice("entry ".length), row.actual, row.ok])).to.deep.equal(
      ENTRY_POINT_PROBES.map((p) => [p.contract, p.signature, `reverts ${p.expectedError.split("(")[0]}`, true]),
    );
    // Code without these functions (receiver and depository swapped) answers each probe with an empty
    // revert, and the comparison turns that into a failing row naming the entry point.
    const swapped = { ...addresses, depository: addresses.attestedReceiver, attestedReceiver: addresses.depository };
    const observed = await probeEntryPoints(origin.publicClient, swapped, ["AttestedReceiver", "Depository"]);
    expect(observed.map((entry) => entry.verdict)).to.deep.equal(ENTRY_POINT_PROBES.map(() => "empty revert"));
    const rows = compareFerryState({ addresses, expected, observed: { chainId: 31337, code: { Multicaller: undefined, AttestedReceiver: undefined, Depository: undefined, DepositAddressFactory: undefined }, entryPoints: observed } });
    const failingEntries = rows.filter((row) => row.field.startsWith("entry "));
    expect(failingEntries.map((row) => [row.field, row.ok, row.actual])).to.deep.equal(
      ENTRY_POINT_PROBES.map((p) => [`entry ${p.signature}`, false, "empty revert"]),
    );
  });

  it("check passes after a deploy, and fails naming the field when a signer or the allocator changes", async function () {
    const addresses = predictFerryAddresses({ deployer, allocator });
    const expected = { owner: deployer, allocator, signers: [signer] };
    const passing = await checkFerryDeployment({ publicClient: destination.publicClient, addresses, expected });
    expect(passing.ok, JSON.stringify(passing.rows)).to.equal(true);
    expect(passing.rows.map((row) => `${row.contract}.${row.field}`)).to.include.members([
      "Multicaller.code",
      "AttestedReceiver.code",
      "Depository.code",
      "AttestedReceiver.multicaller",
      "AttestedReceiver.owner",
      "AttestedReceiver.pendingOwner",
      `AttestedReceiver.signer ${signer.toLowerCase()}`,
      "Depository.eip712Domain",
      "Depository.owner",
      "Depository.pendingOwner",
      "Depository.allocator",
      "Depository.pendingAllocatorChange",
      "chain.evm (PUSH0, MCOPY, TSTORE)",
      ...ENTRY_POINT_PROBES.map((p) => `${p.contract}.entry ${p.signature}`),
    ]);

    const wallet = destination.wallets[0]!;
    const other = getAddress(destination.wallets[4]!.account.address);
    const send = async (request: Parameters<typeof wallet.writeContract>[0]) =>
      destination.publicClient.waitForTransactionReceipt({ hash: await wallet.writeContract(request) });
    const failingFields = async () =>
      (await checkFerryDeployment({ publicClient: destination.publicClient, addresses, expected })).rows
        .filter((row) => !row.ok)
        .map((row) => `${row.contract}.${row.field}`);
    const depository = { address: addresses.depository, abi: FERRY_ABIS.Depository } as const;
    const waitOutDelay = async () => {
      await destination.testClient.increaseTime({ seconds: 2 * 24 * 3600 });
      await destination.testClient.mine({ blocks: 1 });
    };

    await send({ address: addresses.attestedReceiver, abi: FERRY_ABIS.AttestedReceiver, functionName: "setSigner", args: [signer, false] } as never);
    // The allocator is locked since construction: a change is proposed first, and --check flags it.
    await send({ ...depository, functionName: "proposeAllocator", args: [other] } as never);
    expect(await failingFields()).to.deep.equal([`AttestedReceiver.signer ${signer.toLowerCase()}`, "Depository.pendingAllocatorChange"]);
    await waitOutDelay();
    await send({ ...depository, functionName: "applyAllocator", args: [] } as never);
    expect(await failingFields()).to.deep.equal([`AttestedReceiver.signer ${signer.toLowerCase()}`, "Depository.allocator"]);

    // A re-run does not swap a locked allocator at once: it names the calls the owner must make.
    try {
      await deploy(destination, { allocator, signers: [signer] });
      expect.fail("expected ALLOCATOR_CHANGE_DELAYED");
    } catch (error) {
      expect(isFerryError(error, DeployErrorCode.ALLOCATOR_CHANGE_DELAYED), String(error)).to.equal(true);
      expect((error as Error).message).to.include(`proposeAllocator(${allocator})`);
    }
    await send({ ...depository, functionName: "proposeAllocator", args: [allocator] } as never);
    await waitOutDelay();
    await send({ ...depository, functionName: "applyAllocator", args: [] } as never);

    // Then a re-run puts the signer back (the deployer still owns the contracts).
    const repaired = await deploy(destination, { allocator, signers: [signer] });
    expect(repaired.alreadyDeployed).to.equal(false);
    expect(repaired.transactions).to.have.length(1);
    expect(await failingFields()).to.deep.equal([]);
  });

  it("check reports missing code at the addresses of another deployer (the Multicaller, argument-free, is shared)", async function () {
    const addresses = predictFerryAddresses({ deployer: origin.wallets[9]!.account.address, allocator });
    expect(addresses.multicaller).to.equal(predictFerryAddresses({ deployer, allocator }).multicaller);
    const result = await checkFerryDeployment({ publicClient: origin.publicClient, addresses, expected: { owner: deployer, allocator, signers: [] } });
    expect(result.ok).to.equal(false);
    expect(result.rows.map((row) => [row.contract, row.field, row.actual, row.ok])).to.deep.equal([
      ["chain", "evm (PUSH0, MCOPY, TSTORE)", "ok", true],
      ["Multicaller", "code", result.rows[1]!.expected, true],
      ["AttestedReceiver", "code", "no code", false],
      ["Depository", "code", "no code", false],
      ["DepositAddressFactory", "code", "no code", false],
    ]);
  });

  it("hands ownership over in two steps: pending owner set, the new owner accepts", async function () {
    const salt = keccak256(stringToBytes("ferry/handover-test"));
    const newOwner = origin.wallets[3]!;
    const newOwnerAddress = getAddress(newOwner.account.address);
    const options = { allocator, signers: [signer], owner: newOwnerAddress, salt };
    const addresses = predictFerryAddresses({ deployer, allocator, salt });
    expect(addresses.depository).to.not.equal(predictFerryAddresses({ deployer, allocator }).depository);

    const result = await deploy(origin, options);
    expect(result.addresses).to.deep.equal(addresses);
    expect(result.pendingOwnership).to.deep.equal({
      newOwner: newOwnerAddress,
      contracts: [
        { contract: "Depository", address: addresses.depository },
        { contract: "AttestedReceiver", address: addresses.attestedReceiver },
      ],
    });
    for (const [address, abi] of [
      [addresses.depository, FERRY_ABIS.Depository],
      [addresses.attestedReceiver, FERRY_ABIS.AttestedReceiver],
    ] as const) {
      expect(await origin.publicClient.readContract({ address, abi, functionName: "owner" })).to.equal(deployer);
      expect(await origin.publicClient.readContract({ address, abi, functionName: "pendingOwner" })).to.equal(newOwnerAddress);
    }
    const expected = { owner: newOwnerAddress, allocator, signers: [signer], handoverFrom: deployer };
    const pending = await checkFerryDeployment({ publicClient: origin.publicClient, addresses, expected });
    expect(pending.ok, JSON.stringify(pending.rows)).to.equal(true);
    expect(pending.rows.find((row) => row.contract === "Depository" && row.field === "owner")!.expected).to.match(/handover pending/);

    // Re-running while the handover is pending sends nothing and still reports it.
    const before = await snapshot(origin);
    const again = await deploy(origin, options);
    expect(again.alreadyDeployed).to.equal(true);
    expect(again.pendingOwnership?.contracts).to.have.length(2);
    expect(await snapshot(origin)).to.deep.equal(before);

    for (const [address, abi] of [
      [addresses.depository, FERRY_ABIS.Depository],
      [addresses.attestedReceiver, FERRY_ABIS.AttestedReceiver],
    ] as const) {
      const hash = await newOwner.writeContract({ address, abi, functionName: "acceptOwnership" });
      await origin.publicClient.waitForTransactionReceipt({ hash });
      expect(await origin.publicClient.readContract({ address, abi, functionName: "owner" })).to.equal(newOwnerAddress);
      expect(await origin.publicClient.readContract({ address, abi, functionName: "pendingOwner" })).to.equal(zeroAddress);
    }
    const accepted = await checkFerryDeployment({ publicClient: origin.publicClient, addresses, expected });
    expect(accepted.ok, JSON.stringify(accepted.rows)).to.equal(true);

    const done = await deploy(origin, options);
    expect(done.alreadyDeployed).to.equal(true);
    expect(done.pendingOwnership).to.equal(undefined);

    // The deployer can no longer configure: a new signer is an error that says who must act.
    const extra = getAddress(origin.wallets[5]!.account.address);
    try {
      await deploy(origin, { ...options, signers: [signer, extra] });
      expect.fail("expected DEPLOYER_NOT_OWNER");
    } catch (error) {
      expect(isFerryError(error, DeployErrorCode.DEPLOYER_NOT_OWNER), String(error)).to.equal(true);
      expect((error as Error).message).to.include(`setSigner(${extra}, true)`);
    }
  });
});
