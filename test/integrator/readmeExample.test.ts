import { expect } from "chai";
import { network } from "hardhat";
import { parseEther, zeroAddress } from "viem";
import { verifyAttestation } from "ferry/core";
import { deployFerry, ferryId } from "ferry/testing";

const { viem, networkHelpers } = await network.create();
const [, user, solver, recipient] = await viem.getWalletClients();

// A plain async function of the connection: loadFixture runs it once, then every test starts
// from a snapshot of the chain right after it.
const deployFerryFixture = async () => deployFerry(viem);

describe("my integration with Ferry", () => {
  it("deposit → attestation → validated fill → solver repaid", async () => {
    const ferry = await networkHelpers.loadFixture(deployFerryFixture);
    const amount = parseEther("1");
    const orderId = ferryId("order-1"); // in production: the quote's protocol.v2.orderId

    // 1. The user deposits on the origin chain under the order id.
    await viem.assertions.emitWithArgs(
      ferry.depository.write.depositNative([zeroAddress, orderId], { account: user!.account, value: amount }),
      ferry.depository,
      "Deposited",
      [orderId, user!.account.address, zeroAddress, amount],
    );

    // 2. Ferry's signer attests the fill (v2); check it offchain as your backend would.
    const signed = await ferry.attest({
      orderId,
      originUser: user!.account.address,
      destinationUser: recipient!.account.address,
      destinationAmount: amount,
    });
    const now = await networkHelpers.time.latest();
    const check = await verifyAttestation({ format: "v2", attestation: signed.attestation, signature: signed.signature, signers: [ferry.signer.address], now });
    expect(check.valid).to.equal(true);

    // 3. The solver fills through the AttestedReceiver, which validates the attestation onchain
    //    (ferry.fill sends signed.fillData: the packed fill, ts/core encodeFill).
    await viem.assertions.balancesHaveChanged(
      ferry.fill(signed, { account: solver!.account, value: amount }),
      [{ address: recipient!.account.address, amount }],
    );
    await viem.assertions.revertWithCustomErrorWithArgs(
      ferry.fill(signed, { account: solver!.account, value: amount }),
      ferry.attestedReceiver,
      "AlreadyFilled",
      [signed.attestation.requestId],
    );

    // 4. The allocator repays the solver from the deposit.
    const request = { calls: [{ to: solver!.account.address, token: zeroAddress, amount }], nonce: 1n, expiration: BigInt(now + 600) };
    await ferry.depository.write.execute([request, await ferry.signPayout(request)]);
    expect(await ferry.depository.read.executed([request.nonce])).to.equal(true);
  });

  it("pays in the 6-decimal test stablecoin", async () => {
    const ferry = await networkHelpers.loadFixture(deployFerryFixture);
    const usd = ferry.stablecoin!;
    const amount = 25_000_000n; // 25.00
    await usd.write.mint([solver!.account.address, amount]);
    await usd.write.approve([ferry.addresses.attestedReceiver, amount], { account: solver!.account });

    const signed = await ferry.attest({
      destinationUser: recipient!.account.address,
      destinationCurrency: usd.address,
      destinationAmount: amount,
    });
    await viem.assertions.emitWithArgs(
      ferry.fill(signed, { account: solver!.account }),
      ferry.attestedReceiver,
      "Filled",
      [signed.attestation.requestId, recipient!.account.address, solver!.account.address, usd.address, amount],
    );
    expect(await usd.read.balanceOf([recipient!.account.address])).to.equal(amount);
  });
});
