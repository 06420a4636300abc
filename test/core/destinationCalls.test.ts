/**
 * ts/core destinationCalls: the calls commitment equals AttestedReceiver.callsRequestId on a real EDR
 * chain (random calls, empty lists, large values), and the order encoding of a call is the one
 * orderData.output.calls carries.
 */
import { expect } from "chai";
import { network } from "hardhat";
import { concat, decodeAbiParameters, keccak256, maxUint256, numberToHex, toHex, zeroAddress, type Address, type Hex } from "viem";
import { callsRequestId, encodeOrderCall, multicallerCalls, type DestinationCall } from "../../ts/core/destinationCalls.ts";

describe("ts/core destinationCalls", () => {
  const word = (seed: string, i: number): Hex => keccak256(concat([toHex(seed), numberToHex(i, { size: 32 })]));
  const address = (seed: string, i: number): Address => `0x${word(seed, i).slice(26)}` as Address;

  it("callsRequestId equals the receiver's, for empty and random calls", async () => {
    const { viem } = await network.create();
    const [owner] = await viem.getWalletClients();
    const multicaller = await viem.deployContract("Multicaller");
    const receiver = await viem.deployContract("AttestedReceiver", [owner!.account.address, multicaller.address]);
    const cases: { calls: DestinationCall[]; sweep: Address[] }[] = [
      { calls: [], sweep: [] },
      { calls: [{ to: zeroAddress, data: "0x", value: maxUint256 }], sweep: [zeroAddress] },
    ];
    for (let i = 0; i < 6; i++) {
      const calls = Array.from({ length: i % 4 }, (_, k) => ({
        to: address("to", i * 10 + k),
        data: `0x${word("data", i * 10 + k).slice(2).repeat(k)}` as Hex,
        value: BigInt(word("value", i)) % 10n ** BigInt(18 + k),
      }));
      cases.push({ calls, sweep: Array.from({ length: i % 3 }, (_, k) => address("sweep", i * 10 + k)) });
    }
    for (const [i, { calls, sweep }] of cases.entries()) {
      const orderId = word("order", i);
      const onchain = await receiver.read.callsRequestId([orderId, multicallerCalls(calls), sweep]);
      expect(callsRequestId(orderId, calls, sweep), `case ${i}`).to.equal(onchain);
    }
  });

  it("the commitment changes with every call field, the order of calls and the sweep list", () => {
    const orderId = word("order", 1);
    const calls: DestinationCall[] = [
      { to: address("a", 1), data: "0x1234", value: 1n },
      { to: address("a", 2), data: "0x", value: 0n },
    ];
    const base = callsRequestId(orderId, calls, []);
    expect(callsRequestId(word("order", 2), calls, [])).to.not.equal(base);
    expect(callsRequestId(orderId, [{ ...calls[0]!, value: 2n }, calls[1]!], [])).to.not.equal(base);
    expect(callsRequestId(orderId, [{ ...calls[0]!, data: "0x1235" }, calls[1]!], [])).to.not.equal(base);
    expect(callsRequestId(orderId, [calls[1]!, calls[0]!], [])).to.not.equal(base);
    expect(callsRequestId(orderId, calls, [address("t", 1)])).to.not.equal(base);
  });

  it("encodeOrderCall is abi.encode((address to), (bytes data), (uint256 value))", () => {
    const call: DestinationCall = { to: address("to", 7), data: "0xdeadbeef", value: 42n };
    const encoded = encodeOrderCall(call);
    const [to, data, value] = decodeAbiParameters(
      [
        { type: "tuple", components: [{ name: "to", type: "address" }] },
        { type: "tuple", components: [{ name: "data", type: "bytes" }] },
        { type: "tuple", components: [{ name: "value", type: "uint256" }] },
      ],
      encoded,
    );
    expect(to.to.toLowerCase()).to.equal(call.to);
    expect(data.data).to.equal(call.data);
    expect(value.value).to.equal(42n);
  });
});
