// ts/core/releaseRequest.ts: the ReleaseRequest typed data (test/client/reclaimDeposit.test.ts has the Depository accept it).
import { expect } from "chai";
import { encodeAbiParameters, hashTypedData, keccak256, recoverTypedDataAddress, stringToHex, type Address } from "viem";
import { privateKeyToAccount } from "viem/accounts";
import { releaseDigest, releaseRequestHash, releaseTypedData, signRelease } from "../../ts/core/releaseRequest.ts";
import { settlementRequestHash } from "../../ts/core/settlementRequest.ts";

const SOLVER = `0x${"22".repeat(20)}` as Address;
const APP = `0x${"aa".repeat(20)}` as Address;
const DEPOSITORY = `0x${"44".repeat(20)}` as Address;
const ID = keccak256(stringToHex("reclaimable order"));
const request = { id: ID, calls: [{ to: SOLVER, token: APP, amount: 97n }], credits: [{ to: APP, token: APP, amount: 3n }], nonce: 7n, expiration: 1_800_000_000n };
const callHash = (c: { to: Address; token: Address; amount: bigint }) =>
  keccak256(encodeAbiParameters([{ type: "bytes32" }, { type: "address" }, { type: "address" }, { type: "uint256" }], [keccak256(stringToHex("Call(address to,address token,uint256 amount)")), c.to, c.token, c.amount]));

describe("releaseRequest", () => {
  it("releaseRequestHash is the Depository's encoding: typehash, id, hashed arrays, nonce, expiration", () => {
    const typehash = keccak256(stringToHex("ReleaseRequest(bytes32 id,Call[] calls,Call[] credits,uint256 nonce,uint256 expiration)Call(address to,address token,uint256 amount)"));
    const expected = keccak256(
      encodeAbiParameters(
        [{ type: "bytes32" }, { type: "bytes32" }, { type: "bytes32" }, { type: "bytes32" }, { type: "uint256" }, { type: "uint256" }],
        [typehash, ID, keccak256(callHash(request.calls[0]!)), keccak256(callHash(request.credits[0]!)), 7n, 1_800_000_000n],
      ),
    );
    expect(releaseRequestHash(request)).to.equal(expected);
  });

  it("a release never hashes like a settlement of the same payouts, and names its order", () => {
    expect(releaseRequestHash(request)).to.not.equal(settlementRequestHash({ calls: request.calls, credits: request.credits, nonce: 7n, expiration: 1_800_000_000n }));
    expect(releaseRequestHash(request)).to.not.equal(releaseRequestHash({ ...request, id: keccak256(stringToHex("another order")) }));
  });

  it("signRelease recovers to the allocator over releaseDigest, in the FerryDepository domain", async () => {
    const allocator = privateKeyToAccount(keccak256(stringToHex("allocator")));
    const params = { chainId: 31337, depository: DEPOSITORY, request };
    const signature = await signRelease({ account: allocator, ...params });
    expect(releaseDigest(params)).to.equal(hashTypedData(releaseTypedData(params)));
    expect(releaseTypedData(params).domain).to.deep.equal({ name: "FerryDepository", version: "1", chainId: 31337n, verifyingContract: DEPOSITORY });
    expect(await recoverTypedDataAddress({ ...releaseTypedData(params), signature })).to.equal(allocator.address);
  });
});
