// ts/core/permitDeposit.ts: the typed data of signature-authorised deposits (the onchain test has the
// Depository, the token and the canonical Permit2 accept signatures made from them).
import { expect } from "chai";
import { encodeAbiParameters, hashStruct, keccak256, recoverTypedDataAddress, stringToHex, type Address, type Hex } from "viem";
import { privateKeyToAccount } from "viem/accounts";
import {
  FERRY_DEPOSIT_WITNESS_TYPE_STRING,
  PERMIT2_ADDRESS,
  PERMIT2_DEPOSIT_TYPES,
  permit2DepositTypedData,
  permit2Nonce,
  permitDepositTypedData,
  signPermitDeposit,
} from "../../ts/core/permitDeposit.ts";

const TOKEN = `0x${"aa".repeat(20)}` as Address;
const DEPOSITORY = `0x${"44".repeat(20)}` as Address;
const ORDER = `0x${"0f".repeat(32)}` as Hex;

describe("permitDeposit", () => {
  it("the Permit2 witness type is the one the Depository hands Permit2 (PermitWitnessTransferFrom stub + witness type string)", () => {
    const stub = "PermitWitnessTransferFrom(TokenPermissions permitted,address spender,uint256 nonce,uint256 deadline,";
    const witness = { orderId: ORDER };
    const data = { permitted: { token: TOKEN, amount: 5n }, spender: DEPOSITORY, nonce: 1n, deadline: 2n, witness };
    const viaViem = hashStruct({ types: PERMIT2_DEPOSIT_TYPES, primaryType: "PermitWitnessTransferFrom", data });
    // Permit2 hashes with keccak256(stub ++ witnessTypeString) as the typehash.
    const typehash = keccak256(stringToHex(stub + FERRY_DEPOSIT_WITNESS_TYPE_STRING));
    const permissions = keccak256(encodeAbiParameters([{ type: "bytes32" }, { type: "address" }, { type: "uint256" }], [keccak256(stringToHex("TokenPermissions(address token,uint256 amount)")), TOKEN, 5n]));
    const witnessHash = keccak256(encodeAbiParameters([{ type: "bytes32" }, { type: "bytes32" }], [keccak256(stringToHex("FerryDeposit(bytes32 orderId)")), ORDER]));
    const expected = keccak256(
      encodeAbiParameters(
        [{ type: "bytes32" }, { type: "bytes32" }, { type: "address" }, { type: "uint256" }, { type: "uint256" }, { type: "bytes32" }],
        [typehash, permissions, DEPOSITORY, 1n, 2n, witnessHash],
      ),
    );
    expect(viaViem).to.equal(expected);
  });

  it("permit2DepositTypedData uses Permit2's domain (no version) at the canonical address, nonce = the orderId", () => {
    const typed = permit2DepositTypedData({ chainId: 31337, deposit: { token: TOKEN, amount: 5n, depository: DEPOSITORY, orderId: ORDER, nonce: permit2Nonce(ORDER), deadline: 9n } });
    expect(typed.domain).to.deep.equal({ name: "Permit2", chainId: 31337n, verifyingContract: PERMIT2_ADDRESS });
    expect(typed.message.nonce).to.equal(BigInt(ORDER));
    expect(typed.message.witness).to.deep.equal({ orderId: ORDER });
  });

  it("signPermitDeposit recovers to the allocator and binds the orderId", async () => {
    const allocator = privateKeyToAccount(keccak256(stringToHex("allocator")));
    const deposit = { depositor: TOKEN, token: TOKEN, amount: 5n, id: ORDER, deadline: 9n };
    const params = { chainId: 31337, depository: DEPOSITORY, deposit };
    const signature = await signPermitDeposit({ account: allocator, ...params });
    expect(await recoverTypedDataAddress({ ...permitDepositTypedData(params), signature })).to.equal(allocator.address);
    const other = permitDepositTypedData({ ...params, deposit: { ...deposit, id: `0x${"01".repeat(32)}` as Hex } });
    expect(await recoverTypedDataAddress({ ...other, signature })).to.not.equal(allocator.address);
  });
});
