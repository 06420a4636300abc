/**
 * ts/service/model/permitTypedData.ts: the typed data of a permit quote is rebuilt from the stored intent's
 * permit alone, and a signature over it recovers to the user — for both kinds.
 */
import { expect } from "chai";
import { recoverTypedDataAddress } from "viem";
import { privateKeyToAccount } from "viem/accounts";
import { PERMIT2_ADDRESS } from "../../../ts/core/permitDeposit.ts";
import { permitTypedData, type QuotedPermit } from "../../../ts/service/model/permitTypedData.ts";

const user = privateKeyToAccount("0x59c6995e998f97a5a0044966f0945389dc9e86dae88c7a8412f4603b6b78690d");
const token = "0x4444444444444444444444444444444444444444";
const depository = "0x5555555555555555555555555555555555555555";
const orderId = `0x${"ab".repeat(32)}` as const;
const base = { chainId: 31337, token, depository, user: user.address, amount: 25_000_000n, orderId } as const;

/** Signs the typed data with the user's key and recovers the signer (the check POST /execute/permits makes). */
async function signerOf(typed: ReturnType<typeof permitTypedData>): Promise<string> {
  const signature = await user.signTypedData(typed as Parameters<typeof user.signTypedData>[0]);
  return recoverTypedDataAddress({ ...typed, signature } as Parameters<typeof recoverTypedDataAddress>[0]);
}

describe("permitTypedData", () => {
  it("permitTypedData_eip2612_isTheTokensPermitToTheDepository_withTheQuotedNonceAndDeadline", async () => {
    const permit: QuotedPermit = { kind: "eip2612", nonce: 3n, deadline: 1_800_000_000, tokenName: "Ferry USD", tokenVersion: "1" };
    const typed = permitTypedData({ ...base, permit });
    expect(typed.primaryType).to.equal("Permit");
    expect(typed.domain).to.deep.include({ name: "Ferry USD", version: "1", chainId: 31337n, verifyingContract: token });
    expect(typed.message).to.deep.equal({ owner: user.address, spender: depository, value: 25_000_000n, nonce: 3n, deadline: 1_800_000_000n });
    expect(await signerOf(typed)).to.equal(user.address);
  });

  it("permitTypedData_permit2_isAWitnessTransferBoundToTheOrder_atPermit2", async () => {
    const permit: QuotedPermit = { kind: "permit2", nonce: 7n, deadline: 1_800_000_000 };
    const typed = permitTypedData({ ...base, permit });
    expect(typed.primaryType).to.equal("PermitWitnessTransferFrom");
    expect(typed.domain.verifyingContract).to.equal(PERMIT2_ADDRESS);
    expect(JSON.stringify(typed.message, (_, v: unknown) => (typeof v === "bigint" ? v.toString() : v))).to.contain(orderId);
    expect(await signerOf(typed)).to.equal(user.address);
  });
});
