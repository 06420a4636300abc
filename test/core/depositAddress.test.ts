// ts/core/depositAddress.ts: the deposit address computed in TypeScript is the factory's `predict` and
// where `deployAndForward` deploys; an instruction signed in TypeScript is accepted onchain.
import { expect } from "chai";
import { network } from "hardhat";
import { keccak256, padHex, parseEther, stringToHex, type Address, type Hex } from "viem";
import { privateKeyToAccount } from "viem/accounts";
import {
  depositAddressArgs,
  forwardInstructionArgs,
  forwardInstructionDigest,
  forwarderImplementation,
  openDepositAddress,
  predictDepositAddress,
  routeKey,
  signForwardInstruction,
  strictDepositAddress,
  type ForwardInstruction,
} from "../../ts/core/depositAddress.ts";

const ALLOCATOR = privateKeyToAccount(keccak256(stringToHex("deposit-address allocator")));
const ORDER: Hex = keccak256(stringToHex("order"));

describe("depositAddress", () => {
  it("routeKey is keccak256(abi.encode(uint256, bytes32, bytes32)) and distinguishes routes", () => {
    const a = routeKey({ destinationChainId: 31338, destinationCurrency: padHex("0x00", { size: 32 }), recipient: padHex("0x01", { size: 32 }) });
    const b = routeKey({ destinationChainId: 31339, destinationCurrency: padHex("0x00", { size: 32 }), recipient: padHex("0x01", { size: 32 }) });
    expect(a).to.not.equal(b);
  });

  it("computes the factory's addresses and digests, and an instruction signed here deploys and forwards onchain", async () => {
    const { viem } = await network.create();
    const [owner, payer, refundee] = await viem.getWalletClients();
    const publicClient = await viem.getPublicClient();
    const depository = await viem.deployContract("Depository", [owner!.account.address, ALLOCATOR.address]);
    const factory = await viem.deployContract("DepositAddressFactory", [depository.address]);
    const chainId = await publicClient.getChainId();
    expect(forwarderImplementation(factory.address)).to.equal(await factory.read.implementation());

    const refundTo = refundee!.account.address;
    const strict = strictDepositAddress({ refundTo, orderId: ORDER, currency: "0x0000000000000000000000000000000000000000", amount: parseEther("1") });
    const open = openDepositAddress({ refundTo, destinationChainId: 31338, destinationCurrency: padHex("0x00", { size: 32 }), recipient: padHex(refundTo, { size: 32 }) });
    const predict = (params: typeof strict): Address => predictDepositAddress({ factory: factory.address, depository: depository.address, params });
    expect(predict(strict)).to.equal(await factory.read.predict([depositAddressArgs(strict)]));
    expect(predict(strict)).to.equal(await factory.read.predictStrict([refundTo, ORDER, strict.currency, strict.amount]));
    expect(predict(open)).to.equal(await factory.read.predict([depositAddressArgs(open)]));
    expect(predict(open)).to.equal(await factory.read.predictOpen([refundTo, 31338n, padHex("0x00", { size: 32 }), padHex(refundTo, { size: 32 })]));

    // The user pays the undeployed strict address; the allocator's TS-signed instruction deposits it.
    const forwarder = predict(strict);
    await payer!.sendTransaction({ to: forwarder, value: parseEther("1") });
    const instruction: ForwardInstruction = { action: "deposit", orderId: ORDER, token: strict.currency, amount: parseEther("1"), id: keccak256(stringToHex("i1")), deadline: 4_102_444_800n };
    expect(forwardInstructionDigest({ chainId, factory: factory.address, forwarder, instruction })).to.equal(
      await factory.read.instructionDigest([forwarder, forwardInstructionArgs(instruction)]),
    );
    const signature = await signForwardInstruction({ account: ALLOCATOR, chainId, factory: factory.address, forwarder, instruction });
    const hash = await factory.write.deployAndForward([depositAddressArgs(strict), forwardInstructionArgs(instruction), signature]);
    expect((await publicClient.waitForTransactionReceipt({ hash })).status).to.equal("success");
    expect(await publicClient.getCode({ address: forwarder })).to.not.equal(undefined);
    expect(await publicClient.getBalance({ address: depository.address })).to.equal(parseEther("1"));
    expect(await publicClient.getBalance({ address: forwarder })).to.equal(0n);
  });
});
