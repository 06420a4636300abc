import { expect } from "chai";
import { network } from "hardhat";
import { getAddress, keccak256, recoverTypedDataAddress, toHex, zeroAddress, type Address } from "viem";
import { generatePrivateKey, privateKeyToAccount } from "viem/accounts";
import {
  PAYOUT_REQUEST_TYPES,
  normalizePayoutRequest,
  payoutDigest,
  payoutRequestHash,
  payoutTypedData,
  signPayoutRequest,
  type PayoutRequest,
} from "../../ts/core/payoutRequest.ts";

const allocator = privateKeyToAccount(generatePrivateKey());
const depository: Address = "0x00000000000000000000000000000000000000de";
const request: PayoutRequest = {
  calls: [
    { to: "0x1111111111111111111111111111111111111111", token: zeroAddress, amount: 10n ** 18n },
    { to: "0x2222222222222222222222222222222222222222", token: "0x3333333333333333333333333333333333333333", amount: 5_000_000n },
  ],
  nonce: 7n,
  expiration: 2_000_000_000n,
};

describe("payoutRequest", () => {
  it("uses the Depository's type strings", () => {
    // Depository.sol: CALL_TYPEHASH and CALL_REQUEST_TYPEHASH (the referenced type appended, EIP-712).
    const encode = (name: keyof typeof PAYOUT_REQUEST_TYPES) =>
      `${name}(${PAYOUT_REQUEST_TYPES[name].map((f) => `${f.type} ${f.name}`).join(",")})`;
    expect(encode("Call")).to.equal("Call(address to,address token,uint256 amount)");
    expect(encode("CallRequest") + encode("Call")).to.equal(
      "CallRequest(Call[] calls,uint256 nonce,uint256 expiration)Call(address to,address token,uint256 amount)",
    );
  });

  it("builds the typed data with domain FerryDepository/1, the chain id and the Depository", () => {
    const typed = payoutTypedData({ chainId: 31337, depository, request });
    expect(typed.domain).to.deep.equal({ name: "FerryDepository", version: "1", chainId: 31337n, verifyingContract: getAddress(depository) });
    expect(typed.primaryType).to.equal("CallRequest");
    expect(typed.message).to.deep.equal({ calls: request.calls, nonce: 7n, expiration: 2_000_000_000n });
  });

  it("signs a request that recovers to the allocator", async () => {
    const signature = await signPayoutRequest({ account: allocator, chainId: 31337n, depository, request });
    expect(signature).to.match(/^0x[0-9a-f]{130}$/);
    const recovered = await recoverTypedDataAddress({ ...payoutTypedData({ chainId: 31337n, depository, request }), signature });
    expect(recovered).to.equal(allocator.address);
  });

  it("binds the chain id and the Depository", () => {
    const base = payoutDigest({ chainId: 31337n, depository, request });
    expect(payoutDigest({ chainId: 31338n, depository, request })).to.not.equal(base);
    expect(payoutDigest({ chainId: 31337n, depository: "0x00000000000000000000000000000000000000df", request })).to.not.equal(base);
    // The replay key has no domain: the same request hashes the same everywhere.
    expect(payoutRequestHash(request)).to.equal(payoutRequestHash({ ...request }));
  });

  it("accepts loose JSON input and rejects a bad field by path", () => {
    const loose = {
      calls: request.calls.map((c) => ({ to: c.to.toLowerCase(), token: c.token, amount: c.amount.toString() })),
      nonce: 7,
      expiration: "2000000000",
    };
    expect(normalizePayoutRequest(loose)).to.deep.equal(request);
    expect(payoutRequestHash(loose)).to.equal(payoutRequestHash(request));
    let error: unknown;
    try {
      normalizePayoutRequest({ ...loose, calls: [{ ...loose.calls[0], amount: -1 }] });
    } catch (e) {
      error = e;
    }
    expect(error).to.include({ code: "INVALID_INPUT", path: "calls[0].amount" });
    expect(() => normalizePayoutRequest({ calls: [], nonce: 0 })).to.throw().with.property("path", "expiration");
    expect(() => normalizePayoutRequest({ calls: [{ to: "0x12", token: zeroAddress, amount: 1 }], nonce: 0, expiration: 0 }))
      .to.throw()
      .with.property("code", "INVALID_ADDRESS");
  });

  describe("against the Depository onchain", () => {
    it("agrees with hashCallRequest and callRequestDigest, and execute accepts the signature", async () => {
      const { viem, networkHelpers } = await network.create();
      const [owner] = await viem.getWalletClients();
      const contract = await viem.deployContract("Depository", [owner!.account.address, allocator.address]);
      const publicClient = await viem.getPublicClient();
      const chainId = await publicClient.getChainId();

      const payee = privateKeyToAccount(generatePrivateKey()).address;
      const orderId = keccak256(toHex("payoutRequest.test"));
      await contract.write.depositNative([zeroAddress, orderId], { value: 3n });
      const live: PayoutRequest = {
        calls: [{ to: payee, token: zeroAddress, amount: 3n }],
        nonce: 1n,
        expiration: BigInt(await networkHelpers.time.latest()) + 3600n,
      };
      for (const r of [request, live]) {
        expect(await contract.read.hashCallRequest([r])).to.equal(payoutRequestHash(r));
        expect(await contract.read.callRequestDigest([r])).to.equal(payoutDigest({ chainId, depository: contract.address, request: r }));
      }

      const signature = await signPayoutRequest({ account: allocator, chainId, depository: contract.address, request: live });
      await contract.write.execute([live, signature]);
      expect(await publicClient.getBalance({ address: payee })).to.equal(3n);
      expect(await contract.read.executed([live.nonce])).to.equal(true);
    });
  });
});
