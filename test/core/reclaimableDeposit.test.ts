// ts/core/reclaimableDeposit.ts: calldata, commitment and event of reclaimable deposits (the onchain
// round trip is test/client/reclaimDeposit.test.ts; depositoryAbi.test.ts checks the fragments
// against the compiled interface).
import { expect } from "chai";
import { decodeFunctionData, encodeAbiParameters, encodeEventTopics, keccak256, stringToHex, toFunctionSelector, zeroAddress, type Address } from "viem";
import { isFerryError } from "../../ts/core/errors.ts";
import {
  decodeReclaimableDeposit,
  DEPOSIT_NATIVE_RECLAIMABLE_FUNCTION,
  DEPOSITORY_RECLAIM_ABI,
  encodeReclaim,
  encodeReclaimableDeposit,
  reclaimCommitment,
} from "../../ts/core/reclaimableDeposit.ts";

const USER = `0x${"11".repeat(20)}` as Address;
const TOKEN = `0x${"33".repeat(20)}` as Address;
const ID = keccak256(stringToHex("reclaimable order"));

describe("reclaimableDeposit", () => {
  it("the native form's selector is 0x00000725: after the three compact entry points, before every other", () => {
    expect(toFunctionSelector(`${DEPOSIT_NATIVE_RECLAIMABLE_FUNCTION}(bytes32,uint256)`)).to.equal("0x00000725");
  });

  it("reclaimCommitment is keccak256(abi.encode(depositor, currency, amount, reclaimAt))", () => {
    const expected = keccak256(
      encodeAbiParameters([{ type: "address" }, { type: "address" }, { type: "uint256" }, { type: "uint256" }], [USER, TOKEN, 5n, 1_800_000_000n]),
    );
    expect(reclaimCommitment({ depositor: USER, currency: TOKEN, amount: 5n, reclaimAt: 1_800_000_000n })).to.equal(expected);
  });

  it("encodeReclaimableDeposit: native carries the amount as value, ERC-20 in the calldata", () => {
    const native = encodeReclaimableDeposit({ currency: zeroAddress, amount: 9n, id: ID, reclaimAt: 100n });
    expect(native.value).to.equal(9n);
    expect(decodeFunctionData({ abi: DEPOSITORY_RECLAIM_ABI, data: native.data }).args).to.deep.equal([ID, 100n]);
    const erc20 = encodeReclaimableDeposit({ currency: TOKEN, amount: 9n, id: ID, reclaimAt: 100n });
    expect(erc20.value).to.equal(0n);
    expect(decodeFunctionData({ abi: DEPOSITORY_RECLAIM_ABI, data: erc20.data }).args).to.deep.equal([TOKEN, 9n, ID, 100n]);
  });

  it("encodeReclaim names the deposit's fields; bad input is INVALID_INPUT naming the field", () => {
    const data = encodeReclaim({ id: ID, currency: TOKEN, amount: 9n, reclaimAt: 100n });
    expect(decodeFunctionData({ abi: DEPOSITORY_RECLAIM_ABI, data }).args).to.deep.equal([ID, TOKEN, 9n, 100n]);
    try {
      encodeReclaim({ id: "0x12", currency: TOKEN, amount: 9n, reclaimAt: 100n });
      expect.fail("accepted a short id");
    } catch (error) {
      expect(isFerryError(error, "INVALID_INPUT")).to.equal(true);
    }
  });

  it("decodeReclaimableDeposit reads the event; its data hashes to the commitment", () => {
    const topics = encodeEventTopics({ abi: DEPOSITORY_RECLAIM_ABI, eventName: "DepositedReclaimable", args: { id: ID } });
    const data = encodeAbiParameters([{ type: "address" }, { type: "address" }, { type: "uint256" }, { type: "uint256" }], [USER, zeroAddress, 7n, 55n]);
    const deposit = decodeReclaimableDeposit({ topics: topics as `0x${string}`[], data });
    expect(deposit).to.deep.equal({ id: ID, depositor: USER, currency: zeroAddress, amount: 7n, reclaimAt: 55n });
    expect(keccak256(data)).to.equal(reclaimCommitment(deposit));
    try {
      decodeReclaimableDeposit({ topics: [keccak256(stringToHex("Other()"))], data });
      expect.fail("decoded another event");
    } catch (error) {
      expect(isFerryError(error, "INVALID_INPUT")).to.equal(true);
    }
  });
});
