import { expect } from "chai";
import { keccak256, parseTransaction } from "viem";
import { privateKeyToAccount } from "viem/accounts";
import { signedTransactionOf } from "../../../ts/service/transactions/signedTransaction.ts";

describe("signedTransactionOf", () => {
  const account = privateKeyToAccount("0x59c6995e998f97a5a0044966f0945389dc9e86dae88c7a8412f4603b6b78690d");

  it("hashes the raw bytes (the hash a node answers) and gives both lowercase", async () => {
    const raw = await account.signTransaction({ chainId: 31337, nonce: 7, to: "0x70997970C51812dc3A010C7d01b50e0d17dc79C8", value: 1n, gas: 21_000n, maxFeePerGas: 2n, maxPriorityFeePerGas: 1n, type: "eip1559" });
    const upper = `0x${raw.slice(2).toUpperCase()}` as const;
    const signed = signedTransactionOf(upper);
    expect(signed.raw).to.equal(raw.toLowerCase());
    expect(signed.hash).to.equal(keccak256(raw));
    expect(signed.hash).to.match(/^0x[0-9a-f]{64}$/);
    expect(parseTransaction(signed.raw).nonce).to.equal(7);
  });
});
