/**
 * Reclaimable deposits end to end on a real local chain, through what users and the allocator run: the
 * deposit built by ts/core (`encodeReclaimableDeposit`) records the commitment ts/core computes
 * (`reclaimCommitment`); the allocator's release signed in TypeScript (`signRelease`) is accepted by
 * `release` and settles it; the depositor's reclaim goes through ts/client `reclaimDeposit`, which
 * refuses early, by someone else, and once released — and the contract refuses the same.
 */
import { expect } from "chai";
import { network } from "hardhat";
import { decodeEventLog, keccak256, parseEther, stringToHex, zeroAddress, type Hex } from "viem";
import { privateKeyToAccount } from "viem/accounts";
import { depositoryAbi } from "../../ts/abi/Depository.ts";
import { reclaimDeposit, ReclaimErrorCode } from "../../ts/client/reclaimDeposit.ts";
import { isFerryError } from "../../ts/core/errors.ts";
import { encodeReclaim, encodeReclaimableDeposit, reclaimCommitment } from "../../ts/core/reclaimableDeposit.ts";
import { releaseRequestHash, signRelease } from "../../ts/core/releaseRequest.ts";

const ALLOCATOR = privateKeyToAccount(keccak256(stringToHex("ferry/test/allocator")));

async function rejectsWith(promise: Promise<unknown>, code: string): Promise<void> {
  try {
    await promise;
  } catch (error) {
    expect(isFerryError(error, code), `${(error as Error).message}`).to.equal(true);
    return;
  }
  expect.fail(`did not reject (${code})`);
}

describe("reclaimable deposits (ts/core + ts/client against the Depository)", () => {
  async function fixture() {
    const { viem } = await network.create();
    const publicClient = await viem.getPublicClient();
    const testClient = await viem.getTestClient();
    const [deployer, user, solver, stranger] = await viem.getWalletClients();
    const depository = await viem.deployContract("Depository", [deployer!.account.address, ALLOCATOR.address]);
    const chainId = await publicClient.getChainId();
    const now = BigInt((await publicClient.getBlock()).timestamp);
    const deposit = async (id: Hex, amount: bigint, reclaimAt: bigint) => {
      const { data, value } = encodeReclaimableDeposit({ currency: zeroAddress, amount, id, reclaimAt });
      const hash = await user!.sendTransaction({ to: depository.address, data, value, account: user!.account, chain: user!.chain });
      return publicClient.waitForTransactionReceipt({ hash });
    };
    return { publicClient, testClient, depository, user: user!, solver: solver!, stranger: stranger!, chainId, now, deposit };
  }

  it("a deposit the allocator never releases is reclaimed by its depositor after its time, once", async () => {
    const { publicClient, testClient, depository, user, stranger, now, deposit } = await fixture();
    const id = keccak256(stringToHex("never released"));
    const amount = parseEther("0.25");
    const reclaimAt = now + 3600n;
    const receipt = await deposit(id, amount, reclaimAt);
    const event = decodeEventLog({ abi: depositoryAbi, ...receipt.logs[0]! });
    expect(event.eventName).to.equal("DepositedReclaimable");
    expect(await depository.read.reclaimCommitment([id])).to.equal(reclaimCommitment({ depositor: user.account.address, currency: zeroAddress, amount, reclaimAt }));

    await rejectsWith(reclaimDeposit({ walletClient: user, publicClient, depository: depository.address, id }), ReclaimErrorCode.RECLAIM_NOT_YET);
    await testClient.setNextBlockTimestamp({ timestamp: reclaimAt });
    await testClient.mine({ blocks: 1 });
    await rejectsWith(reclaimDeposit({ walletClient: stranger, publicClient, depository: depository.address, id }), ReclaimErrorCode.RECLAIM_NOT_DEPOSITOR);

    const before = await publicClient.getBalance({ address: user.account.address });
    const { txHash } = await reclaimDeposit({ walletClient: user, publicClient, depository: depository.address, id });
    const reclaimed = await publicClient.waitForTransactionReceipt({ hash: txHash });
    const after = await publicClient.getBalance({ address: user.account.address });
    expect(after - before + reclaimed.gasUsed * reclaimed.effectiveGasPrice).to.equal(amount);
    expect(await publicClient.getBalance({ address: depository.address })).to.equal(0n);
    await rejectsWith(reclaimDeposit({ walletClient: user, publicClient, depository: depository.address, id }), ReclaimErrorCode.RECLAIM_NOT_LIVE);
  });

  it("a deposit released (repaid) before its time cannot be reclaimed after it", async () => {
    const { publicClient, testClient, depository, user, solver, chainId, now, deposit } = await fixture();
    const id = keccak256(stringToHex("released"));
    const amount = parseEther("0.5");
    const reclaimAt = now + 3600n;
    await deposit(id, amount, reclaimAt);

    const request = { id, calls: [{ to: solver.account.address, token: zeroAddress, amount }], credits: [], nonce: 1n, expiration: now + 600n };
    const signature = await signRelease({ account: ALLOCATOR, chainId, depository: depository.address, request });
    const hash = await depository.write.release([request, signature], { account: solver.account });
    const released = await publicClient.waitForTransactionReceipt({ hash });
    const executed = released.logs.map((log) => decodeEventLog({ abi: depositoryAbi, ...log })).find((e) => e.eventName === "RequestExecuted");
    expect(executed?.args).to.deep.include({ requestHash: releaseRequestHash(request), nonce: 1n });
    expect(await depository.read.reclaimCommitment([id])).to.equal(`0x${"00".repeat(32)}`);

    await testClient.setNextBlockTimestamp({ timestamp: reclaimAt + 1n });
    await testClient.mine({ blocks: 1 });
    await rejectsWith(reclaimDeposit({ walletClient: user, publicClient, depository: depository.address, id }), ReclaimErrorCode.RECLAIM_NOT_LIVE);
    // Sent anyway, past the client's checks: the contract refuses it too (the node reports the revert).
    try {
      await user.sendTransaction({ to: depository.address, data: encodeReclaim({ id, currency: zeroAddress, amount, reclaimAt }), gas: 100_000n, account: user.account, chain: user.chain });
      expect.fail("the Depository paid a released deposit's reclaim");
    } catch (error) {
      expect(String(error)).to.include("NoReclaimCommitment");
    }
  });
});
