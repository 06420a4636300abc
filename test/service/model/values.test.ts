/**
 * The canonical value types (ts/service/model/values.ts). The type-level half is checked by `tsc`
 * (`npx tsc --noEmit` covers test/): each `@ts-expect-error` below must meet an error, so a canonical
 * type that started accepting viem's checksummed `Address`/`Hex` again fails the type check. The
 * runtime half checks that the one function per type and the codecs give the canonical form.
 */
import { expect } from "chai";
import { getAddress, keccak256, toHex, type Address as ViemAddress, type Hex } from "viem";
import {
  Address,
  Bytes32,
  bytes32Of,
  canonicalAddress,
  canonicalFields,
  canonicalHex,
  HexData,
  ZERO_ADDRESS,
  type Address as CanonicalAddress,
  type Bytes32 as CanonicalBytes32,
  type CanonicalHex,
} from "../../../ts/service/model/values.ts";
import { decodeStored, encodeStored } from "../../../ts/service/model/storedValue.ts";

const decode = <S extends Parameters<typeof decodeStored>[0]>(schema: S, value: unknown) => decodeStored(schema, value, "test", "value");

const CHECKSUMMED: ViemAddress = getAddress("0x15d34aaf54267db7d7c367839aaf71a00a2c6a65");
const HASH: Hex = keccak256(toHex("ferry"));

describe("model/values", () => {
  describe("types", () => {
    it("rejects viem's Address and Hex where a canonical one is expected", () => {
      // @ts-expect-error a viem (checksummed, any-case) Address is not a canonical Address
      const address: CanonicalAddress = CHECKSUMMED;
      // @ts-expect-error a viem Hex is not a canonical Bytes32
      const id: CanonicalBytes32 = HASH;
      // @ts-expect-error a mixed-case literal is not canonical either
      const literal: CanonicalAddress = "0x15d34AAf54267DB7D7c367839AAf71A00a2C6A65";
      const takesCanonical = (value: CanonicalHex) => value;
      // @ts-expect-error a function that takes canonical hex refuses viem's Hex
      takesCanonical(HASH);
      expect([address, id, literal]).to.have.length(3);
    });

    it("accepts what went through the one function, and lowercase literals", () => {
      const address: CanonicalAddress = canonicalAddress(CHECKSUMMED);
      const id: CanonicalBytes32 = canonicalHex(HASH);
      const zero: CanonicalAddress = "0x0000000000000000000000000000000000000000";
      // A canonical value is still a viem Address/Hex: it goes to viem unchanged.
      const toViem: ViemAddress = address;
      const toViemHex: Hex = id;
      expect([toViem, toViemHex, zero]).to.deep.equal([CHECKSUMMED.toLowerCase(), HASH.toLowerCase(), ZERO_ADDRESS]);
    });
  });

  describe("the functions and codecs", () => {
    it("canonicalAddress and canonicalHex lowercase", () => {
      expect(canonicalAddress(CHECKSUMMED)).to.equal("0x15d34aaf54267db7d7c367839aaf71a00a2c6a65");
      expect(canonicalHex("0xABCDEF")).to.equal("0xabcdef");
    });

    it("bytes32Of is the 32 bytes as a lowercase id", () => {
      const bytes = Uint8Array.from({ length: 32 }, (_, i) => 0xe0 + (i % 16));
      const id: CanonicalBytes32 = bytes32Of(bytes);
      expect(id).to.equal(toHex(bytes)).and.to.match(/^0x[0-9a-f]{64}$/);
    });

    it("decodes any case to the canonical form and encodes it back as it is", () => {
      expect(decode(Address, CHECKSUMMED)).to.equal(CHECKSUMMED.toLowerCase());
      expect(decode(Bytes32, HASH.toUpperCase().replace("0X", "0x"))).to.equal(HASH.toLowerCase());
      expect(decode(HexData, "0xDEADbeef")).to.equal("0xdeadbeef");
      expect(encodeStored(Address, canonicalAddress(CHECKSUMMED))).to.equal(CHECKSUMMED.toLowerCase());
    });

    it("canonicalFields lowercases every hex field of a decoded record and keeps the rest", () => {
      const args = { id: HASH.toUpperCase().replace("0X", "0x") as Hex, depositor: CHECKSUMMED, amount: 5n, label: "ABC", index: 2 };
      const canonical = canonicalFields(args);
      const depositor: CanonicalAddress = canonical.depositor;
      expect(canonical).to.deep.equal({ id: HASH.toLowerCase(), depositor: CHECKSUMMED.toLowerCase(), amount: 5n, label: "ABC", index: 2 });
      expect(depositor).to.equal(CHECKSUMMED.toLowerCase());
    });

    it("refuses what is not an address or a 32-byte id", () => {
      expect(() => decode(Address, "0x1234")).to.throw().with.property("code", "STORED_VALUE_INVALID");
      expect(() => decode(Bytes32, CHECKSUMMED)).to.throw().with.property("code", "STORED_VALUE_INVALID");
    });
  });
});
