/**
 * Sign in TypeScript, verify onchain — the Depository's signature-authorised entry points: a settlement
 * (ts/core settlementRequest.ts) executed by `settle`, an EIP-2612 permit plus the allocator's
 * `PermitDeposit` authorisation (ts/core permitDeposit.ts) accepted by `depositErc20Permit`, and a
 * Permit2 witness transfer accepted by `depositPermit2` through the canonical Permit2 at its canonical
 * address (ts/devnet/devnetPermit2.ts). Each typed-data builder is the TS twin of the contract's hashing:
 * if one drifts, the contract rejects the signature.
 */
import { expect } from "chai";
import { network } from "hardhat";
import { decodeEventLog, keccak256, maxUint256, parseSignature, stringToHex, type Hex } from "viem";
import { privateKeyToAccount } from "viem/accounts";
import { depositoryAbi } from "../../ts/abi/Depository.ts";
import {
  eip2612PermitTypedData,
  PERMIT2_ADDRESS,
  permit2DepositTypedData,
  permit2Nonce,
  signPermitDeposit,
} from "../../ts/core/permitDeposit.ts";
import { settlementRequestHash, signSettlement } from "../../ts/core/settlementRequest.ts";
import { ensurePermit2 } from "../../ts/devnet/devnetPermit2.ts";

const ALLOCATOR = privateKeyToAccount(keccak256(stringToHex("ferry/test/allocator")));
const PAYER = privateKeyToAccount(keccak256(stringToHex("ferry/test/payer")));

describe("sign in TS, verify onchain (Depository signatures)", () => {
  async function fixture() {
    const { viem } = await network.create();
    const publicClient = await viem.getPublicClient();
    const testClient = await viem.getTestClient();
    const [deployer, relayer, solver, app] = await viem.getWalletClients();
    const depository = await viem.deployContract("Depository", [deployer!.account.address, ALLOCATOR.address]);
    const usd = await viem.deployContract("MockStablecoin", ["Ferry Test USD", "fUSD"]);
    await ensurePermit2({ publicClient, testClient });
    await usd.write.mint([PAYER.address, 1_000_000_000n]);
    await testClient.setBalance({ address: PAYER.address, value: 10n ** 18n });
    const chainId = await publicClient.getChainId();
    const now = BigInt((await publicClient.getBlock()).timestamp);
    return { viem, publicClient, depository, usd, relayer: relayer!, solver: solver!, app: app!, chainId, now };
  }

  it("depositErc20Permit accepts a TS-signed EIP-2612 permit (token domain from eip712Domain) and PermitDeposit", async () => {
    const { depository, usd, relayer, chainId, now, publicClient } = await fixture();
    const [, name, version, domainChainId, verifyingContract] = await usd.read.eip712Domain();
    const deadline = now + 300n;
    const amount = 25_000_000n;
    const id = keccak256(stringToHex("order-eip2612"));
    const permit = await PAYER.signTypedData(
      eip2612PermitTypedData(
        { name, version, chainId: domainChainId, verifyingContract },
        { owner: PAYER.address, spender: depository.address, value: amount, nonce: await usd.read.nonces([PAYER.address]), deadline },
      ),
    );
    const deposit = { depositor: PAYER.address, token: usd.address, amount, id, deadline };
    const authorization = await signPermitDeposit({ account: ALLOCATOR, chainId, depository: depository.address, deposit });
    const { v, r, s } = parseSignature(permit);
    const hash = await depository.write.depositErc20Permit([deposit, Number(v), r, s, authorization], { account: relayer.account });
    const receipt = await publicClient.waitForTransactionReceipt({ hash });
    expect(receipt.status).to.equal("success");
    expect(await usd.read.balanceOf([depository.address])).to.equal(amount);
    expect(await depository.read.permitDeposited([id])).to.equal(true);
  });

  it("depositPermit2 accepts a TS-signed Permit2 witness transfer bound to the orderId", async () => {
    const { depository, usd, relayer, chainId, now, publicClient } = await fixture();
    // The payer approves Permit2 once (a plain transaction signed with its own key).
    const approve = await relayer.writeContract({
      address: usd.address,
      abi: usd.abi,
      functionName: "approve",
      args: [PERMIT2_ADDRESS, maxUint256],
      account: PAYER,
      chain: relayer.chain,
    });
    await publicClient.waitForTransactionReceipt({ hash: approve });
    const amount = 40_000_000n;
    const orderId = keccak256(stringToHex("order-permit2"));
    const deadline = now + 300n;
    const nonce = permit2Nonce(orderId);
    const signature = await PAYER.signTypedData(
      permit2DepositTypedData({ chainId, deposit: { token: usd.address, amount, depository: depository.address, orderId, nonce, deadline } }),
    );
    const hash = await depository.write.depositPermit2([PAYER.address, usd.address, amount, orderId, nonce, deadline, signature], { account: relayer.account });
    expect((await publicClient.waitForTransactionReceipt({ hash })).status).to.equal("success");
    expect(await usd.read.balanceOf([depository.address])).to.equal(amount);
  });

  it("settle accepts a TS-signed settlement, and RequestExecuted carries settlementRequestHash", async () => {
    const { depository, usd, relayer, solver, app, chainId, now, publicClient } = await fixture();
    await usd.write.mint([relayer.account.address, 100_000_000n]);
    await usd.write.approve([depository.address, 100_000_000n], { account: relayer.account });
    await depository.write.depositErc20([relayer.account.address, usd.address, 100_000_000n, keccak256(stringToHex("funding"))], { account: relayer.account });
    const request = {
      calls: [{ to: solver.account.address, token: usd.address, amount: 97_000_000n }],
      credits: [{ to: app.account.address, token: usd.address, amount: 3_000_000n }],
      nonce: 42n,
      expiration: now + 600n,
    };
    const signature: Hex = await signSettlement({ account: ALLOCATOR, chainId, depository: depository.address, request });
    const hash = await depository.write.settle([request, signature], { account: relayer.account });
    const receipt = await publicClient.waitForTransactionReceipt({ hash });
    const executed = receipt.logs
      .map((log) => {
        try {
          return decodeEventLog({ abi: depositoryAbi, data: log.data, topics: log.topics });
        } catch {
          return undefined;
        }
      })
      .find((event) => event?.eventName === "RequestExecuted");
    expect(executed?.args).to.deep.equal({ requestHash: settlementRequestHash(request), nonce: 42n });
    expect(await depository.read.claimable([app.account.address, usd.address])).to.equal(3_000_000n);
    expect(await usd.read.balanceOf([solver.account.address])).to.equal(97_000_000n);
  });
});
