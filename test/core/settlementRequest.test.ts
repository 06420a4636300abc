// ts/core/settlementRequest.ts: the SettlementRequest typed data (the onchain test has the Depository accept it).
import { expect } from "chai";
import { encodeAbiParameters, hashTypedData, keccak256, recoverTypedDataAddress, stringToHex, type Address } from "viem";
import { privateKeyToAccount } from "viem/accounts";
import { payoutRequestHash } from "../../ts/core/payoutRequest.ts";
import { settlementDigest, settlementRequestHash, settlementTypedData, signSettlement } from "../../ts/core/settlementRequest.ts";

const SOLVER = `0x${"22".repeat(20)}` as Address;
const APP = `0x${"aa".repeat(20)}` as Address;
const DEPOSITORY = `0x${"44".repeat(20)}` as Address;
const request = { calls: [{ to: SOLVER, token: APP, amount: 97n }], credits: [{ to: APP, token: APP, amount: 3n }], nonce: 7n, expiration: 1_800_000_000n };
const callHash = (c: { to: Address; token: Address; amount: bigint }) =>
  keccak256(encodeAbiParameters([{ type: "bytes32" }, { type: "address" }, { type: "address" }, { type: "uint256" }], [keccak256(stringToHex("Call(address to,address token,uint256 amount)")), c.to, c.token, c.amount]));

describe("settlementRequest", () => {
  it("settlementRequestHash is the Depository's encoding: typehash, hashed arrays, nonce, expiration", () => {
    const typehash = keccak256(stringToHex("SettlementRequest(Call[] calls,Call[] credits,uint256 nonce,uint256 expiration)Call(address to,address token,uint256 amount)"));
    const expected = keccak256(
      encodeAbiParameters(
        [{ type: "bytes32" }, { type: "bytes32" }, { type: "bytes32" }, { type: "uint256" }, { type: "uint256" }],
        [typehash, keccak256(callHash(request.calls[0]!)), keccak256(callHash(request.credits[0]!)), 7n, 1_800_000_000n],
      ),
    );
    expect(settlementRequestHash(request)).to.equal(expected);
  });

  it("a settlement never hashes like a CallRequest of the same payouts (no cross-type replay)", () => {
    expect(settlementRequestHash({ ...request, credits: [] })).to.not.equal(payoutRequestHash({ calls: request.calls, nonce: 7n, expiration: 1_800_000_000n }));
  });

  it("signSettlement recovers to the allocator over settlementDigest, in the FerryDepository domain", async () => {
    const allocator = privateKeyToAccount(keccak256(stringToHex("allocator")));
    const params = { chainId: 31337, depository: DEPOSITORY, request };
    const signature = await signSettlement({ account: allocator, ...params });
    expect(settlementDigest(params)).to.equal(hashTypedData(settlementTypedData(params)));
    expect(settlementTypedData(params).domain).to.deep.equal({ name: "FerryDepository", version: "1", chainId: 31337n, verifyingContract: DEPOSITORY });
    expect(await recoverTypedDataAddress({ ...settlementTypedData(params), signature })).to.equal(allocator.address);
  });
});
