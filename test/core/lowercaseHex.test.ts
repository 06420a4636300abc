import { expect } from "chai";
import { hashStruct, keccak256, toHex } from "viem";
import { keccak256Lowercase, lowercaseHash } from "../../ts/core/lowercaseHex.ts";

describe("lowercaseHex", () => {
  it("keccak256Lowercase is viem's keccak256, and lowercase, for upper-case input as well", () => {
    for (const data of ["0x", "0xABCDEF", "0xabcdef", toHex("ferry"), new Uint8Array([0xff, 0xee])] as const) {
      const hash = keccak256Lowercase(data);
      expect(hash).to.equal(keccak256(data));
      expect(hash).to.equal(hash.toLowerCase());
      expect(hash).to.match(/^0x[0-9a-f]{64}$/);
    }
  });

  it("viem's hashStruct output is lowercase (what lowercaseHash relies on)", () => {
    const types = { Mail: [{ name: "to", type: "address" }, { name: "amount", type: "uint256" }] } as const;
    for (let i = 0n; i < 16n; i++) {
      const hash = lowercaseHash(hashStruct({ types, primaryType: "Mail", data: { to: "0x70997970C51812dc3A010C7d01b50e0d17dc79C8", amount: i } }));
      expect(hash).to.match(/^0x[0-9a-f]{64}$/);
    }
  });
});
