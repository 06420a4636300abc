import { expect } from "chai";
import { maxUint256 } from "viem";
import type { FerryError } from "../../ts/core/errors.ts";
import {
  isEip55Address,
  parseAddress,
  parseAddressWord,
  parseArray,
  parseBytes32,
  parseHexBytes,
  parseObject,
  parseString,
  parseUint,
} from "../../ts/core/inputParsers.ts";

function codeOf(fn: () => unknown): string {
  try {
    fn();
  } catch (error) {
    return (error as FerryError).code;
  }
  throw new Error("expected a throw");
}

const CHECKSUMMED = "0x70997970C51812dc3A010C7d01b50e0d17dc79C8";

describe("inputParsers", () => {
  describe("parseUint", () => {
    it("accepts bigints, safe JSON numbers and decimal strings up to 2^256-1", () => {
      expect(parseUint(5n, "x")).to.equal(5n);
      expect(parseUint(0, "x")).to.equal(0n);
      expect(parseUint(Number.MAX_SAFE_INTEGER, "x")).to.equal(BigInt(Number.MAX_SAFE_INTEGER));
      expect(parseUint(maxUint256.toString(), "x")).to.equal(maxUint256);
      expect(parseUint("007", "x")).to.equal(7n);
    });

    it("rejects unsafe numbers, negatives, fractions, hex, empty and out-of-range values", () => {
      for (const bad of [2 ** 53, -1, 1.5, "0x10", "", " 1", "1e3", "-1", null, undefined, {}, (maxUint256 + 1n).toString(), -1n]) {
        expect(codeOf(() => parseUint(bad, "x")), String(bad)).to.equal("INVALID_INPUT");
      }
    });

    it("enforces the bit width", () => {
      expect(parseUint(4294967295, "x", 32)).to.equal(4294967295n);
      expect(codeOf(() => parseUint(4294967296, "x", 32))).to.equal("INVALID_INPUT");
    });

    it("names the field in the error", () => {
      expect(() => parseUint("x", "output.deadline")).to.throw().with.property("path", "output.deadline");
    });
  });

  describe("parseBytes32", () => {
    it("lower-cases 32 bytes of hex", () => {
      expect(parseBytes32(`0x${"AB".repeat(32)}`, "x")).to.equal(`0x${"ab".repeat(32)}`);
    });
    it("rejects other lengths and non-hex", () => {
      for (const bad of [`0x${"ab".repeat(31)}`, `0x${"ab".repeat(33)}`, "ab".repeat(32), `0x${"zz".repeat(32)}`, 1]) {
        expect(codeOf(() => parseBytes32(bad, "x"))).to.equal("INVALID_INPUT");
      }
    });
  });

  describe("parseAddress", () => {
    it("accepts lower-case and valid checksums and returns the checksum", () => {
      expect(parseAddress(CHECKSUMMED.toLowerCase(), "x")).to.equal(CHECKSUMMED);
      expect(parseAddress(CHECKSUMMED, "x")).to.equal(CHECKSUMMED);
    });
    it("accepts all-uppercase hex as EIP-55 says (one case carries no checksum)", () => {
      expect(parseAddress(`0x${CHECKSUMMED.slice(2).toUpperCase()}`, "x")).to.equal(CHECKSUMMED);
      expect(isEip55Address(`0x${CHECKSUMMED.slice(2).toUpperCase()}`)).to.equal(true);
      expect(isEip55Address(CHECKSUMMED.toLowerCase())).to.equal(true);
      expect(isEip55Address(CHECKSUMMED)).to.equal(true);
      // Mixed case is a checksum and must be the address's own; the prefix is `0x`, never `0X`.
      expect(isEip55Address(CHECKSUMMED.replace("C51812", "c51812"))).to.equal(false);
      expect(isEip55Address(`0X${CHECKSUMMED.slice(2).toLowerCase()}`)).to.equal(false);
      expect(isEip55Address("0x1234")).to.equal(false);
    });
    it("rejects bad checksums, wrong lengths and non-strings with INVALID_ADDRESS", () => {
      const badChecksum = CHECKSUMMED.replace("C51812", "c51812");
      for (const bad of [badChecksum, "0x1234", `0x${"00".repeat(32)}`, 42, null]) {
        expect(codeOf(() => parseAddress(bad, "x"))).to.equal("INVALID_ADDRESS");
      }
    });
  });

  describe("parseAddressWord", () => {
    it("left-pads a 20-byte address and keeps 32-byte words", () => {
      expect(parseAddressWord(CHECKSUMMED, "x")).to.equal(`0x000000000000000000000000${CHECKSUMMED.slice(2).toLowerCase()}`);
      expect(parseAddressWord(`0x${"CD".repeat(32)}`, "x")).to.equal(`0x${"cd".repeat(32)}`);
    });
    it("rejects anything else with INVALID_ADDRESS", () => {
      for (const bad of ["0x", `0x${"00".repeat(21)}`, `0x${"00".repeat(31)}`, "base58NotHex", 0]) {
        expect(codeOf(() => parseAddressWord(bad, "x"))).to.equal("INVALID_ADDRESS");
      }
    });
  });

  describe("parseHexBytes / parseString / parseObject / parseArray", () => {
    it("accepts their shapes", () => {
      expect(parseHexBytes("0x", "x")).to.equal("0x");
      expect(parseHexBytes("0xABcd", "x")).to.equal("0xabcd");
      expect(parseString("base", "x")).to.equal("base");
      expect(parseObject({ a: 1 }, "x")).to.deep.equal({ a: 1 });
      expect(parseArray([1], "x")).to.deep.equal([1]);
    });
    it("rejects the rest with INVALID_INPUT", () => {
      expect(codeOf(() => parseHexBytes("0xabc", "x"))).to.equal("INVALID_INPUT");
      expect(codeOf(() => parseHexBytes("abcd", "x"))).to.equal("INVALID_INPUT");
      expect(codeOf(() => parseString("", "x"))).to.equal("INVALID_INPUT");
      expect(codeOf(() => parseString(1, "x"))).to.equal("INVALID_INPUT");
      expect(codeOf(() => parseObject([], "x"))).to.equal("INVALID_INPUT");
      expect(codeOf(() => parseObject(null, "x"))).to.equal("INVALID_INPUT");
      expect(codeOf(() => parseArray({}, "x"))).to.equal("INVALID_INPUT");
    });
  });
});
