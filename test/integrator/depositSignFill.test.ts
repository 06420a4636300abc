/**
 * What an integrator writes: a Ferry on the test network from `deployFerry()`, the public core API
 * (`ferry/core`) for the order id and attestation checks, and nothing else of Ferry's internals.
 * deposit (Depository, under the orderId) → sign (v2 fill attestation) → validated fill
 * (AttestedReceiver) → the solver is repaid with an allocator-signed payout.
 */
import { expect } from "chai";
import { network } from "hardhat";
import { encodeAbiParameters, parseEther, zeroAddress, type Address, type Hex } from "viem";
import { getOrderId, verifyAttestation } from "../../ts/core/index.ts";
import { deployFerry, type FerryFixture } from "../../ts/testing/index.ts";

const { viem, networkHelpers } = await network.create();
const [, user, solver, recipient] = await viem.getWalletClients();
const publicClient = await viem.getPublicClient();

/** A minimal single-chain order (as a quote's protocol.v2.orderData) and its protocol orderId. */
function orderFor(ferry: FerryFixture, currency: Address, amount: bigint, salt: bigint): Hex {
  const chain = "ferry-test";
  return getOrderId({
    version: "v1",
    solverChainId: chain,
    solver: solver!.account.address,
    salt,
    inputs: [{ payment: { chainId: chain, currency, amount, weight: 1 }, refunds: [] }],
    output: {
      chainId: chain,
      payments: [{ recipient: recipient!.account.address, currency, minimumAmount: amount, expectedAmount: amount }],
      deadline: 4_000_000_000,
      calls: [],
      extraData: encodeAbiParameters([{ type: "address" }], [ferry.addresses.attestedReceiver]),
    },
    fees: [],
  });
}

async function balanceOf(ferry: FerryFixture, currency: Address, owner: Address): Promise<bigint> {
  return currency === zeroAddress ? publicClient.getBalance({ address: owner }) : ferry.stablecoin!.read.balanceOf([owner]);
}

/** The whole flow for one currency; `deposit` sends the user's deposit of `amount` under `orderId`. */
async function depositSignFill(ferry: FerryFixture, currency: Address, amount: bigint, deposit: (orderId: Hex) => Promise<Hex>) {
  // 1. deposit on the origin side, under the protocol orderId
  const orderId = orderFor(ferry, currency, amount, 1n);
  await viem.assertions.emitWithArgs(deposit(orderId), ferry.depository, "Deposited", [
    orderId,
    user!.account.address,
    currency,
    amount,
  ]);

  // 2. the service's signer attests the fill; the integrator can verify it with the core API
  const signed = await ferry.attest({
    orderId,
    originUser: user!.account.address,
    originCurrency: currency,
    originAmount: amount,
    destinationUser: recipient!.account.address,
    destinationCurrency: currency,
    destinationAmount: amount,
  });
  const now = (await publicClient.getBlock()).timestamp;
  const verified = await verifyAttestation({ format: "v2", attestation: signed.attestation, signature: signed.signature, signers: [ferry.signer.address], now });
  expect(verified.valid, JSON.stringify(verified)).to.equal(true);

  // 3. the solver fills through the AttestedReceiver, which validates the attestation
  const before = await balanceOf(ferry, currency, recipient!.account.address);
  const value = currency === zeroAddress ? amount : 0n;
  await viem.assertions.emitWithArgs(
    ferry.fill(signed, { account: solver!.account, value }),
    ferry.attestedReceiver,
    "Filled",
    [signed.attestation.requestId, recipient!.account.address, solver!.account.address, currency, amount],
  );
  expect((await balanceOf(ferry, currency, recipient!.account.address)) - before).to.equal(amount);
  expect(await ferry.attestedReceiver.read.filled([signed.attestation.requestId])).to.equal(true);

  // The same attestation cannot be filled twice.
  await viem.assertions.revertWithCustomErrorWithArgs(
    ferry.fill(signed, { account: solver!.account, value }),
    ferry.attestedReceiver,
    "AlreadyFilled",
    [signed.attestation.requestId],
  );

  // 4. the allocator repays the solver from the deposit
  const request = {
    calls: [{ to: solver!.account.address, token: currency, amount }],
    nonce: 1n,
    expiration: now + 600n,
  };
  const solverBefore = await balanceOf(ferry, currency, solver!.account.address);
  const payout = await ferry.signPayout(request);
  await ferry.depository.write.execute([request, payout], { account: recipient!.account }); // anyone may submit
  expect((await balanceOf(ferry, currency, solver!.account.address)) - solverBefore).to.equal(amount);
  expect(await ferry.depository.read.executed([request.nonce])).to.equal(true);
}

describe("integrator: deposit → sign → validated fill with deployFerry()", () => {
  it("native currency", async () => {
    const ferry = await deployFerry(viem);
    const amount = parseEther("1.5");
    await depositSignFill(ferry, zeroAddress, amount, (orderId) =>
      ferry.depository.write.depositNative([zeroAddress, orderId], { account: user!.account, value: amount }),
    );
  });

  it("the 6-decimal stablecoin", async () => {
    const ferry = await deployFerry(viem, { salt: `0x${"01".repeat(32)}` });
    const usd = ferry.stablecoin!;
    expect(await usd.read.decimals()).to.equal(6);
    const amount = 250_000_000n; // 250.00
    await usd.write.mint([user!.account.address, amount]);
    await usd.write.approve([ferry.addresses.depository, amount], { account: user!.account });
    await usd.write.mint([solver!.account.address, amount]);
    await usd.write.approve([ferry.addresses.attestedReceiver, amount], { account: solver!.account });
    await depositSignFill(ferry, usd.address, amount, (orderId) =>
      ferry.depository.write.depositErc20([user!.account.address, usd.address, amount, orderId], { account: user!.account }),
    );
  });

  describe("with loadFixture", () => {
    const fixture = async () => deployFerry(viem, { salt: `0x${"02".repeat(32)}`, allowedRecipients: [recipient!.account.address] });

    it("fills for an allowed recipient", async () => {
      const ferry = await networkHelpers.loadFixture(fixture);
      expect(await ferry.attestedReceiver.read.recipientAllowListEnabled()).to.equal(true);
      const amount = parseEther("0.25");
      await depositSignFill(ferry, zeroAddress, amount, (orderId) =>
        ferry.depository.write.depositNative([zeroAddress, orderId], { account: user!.account, value: amount }),
      );
    });

    it("starts from the same clean snapshot and refuses a recipient not on the allow-list", async () => {
      const ferry = await networkHelpers.loadFixture(fixture);
      // The previous test's payout and fill were rolled back with the snapshot.
      expect(await publicClient.getBalance({ address: ferry.addresses.depository })).to.equal(0n);
      const stranger = user!.account.address;
      const signed = await ferry.attest({ destinationUser: stranger, destinationAmount: 1n });
      await viem.assertions.revertWithCustomErrorWithArgs(
        ferry.fill(signed, { account: solver!.account, value: 1n }),
        ferry.attestedReceiver,
        "RecipientNotAllowed",
        [stranger],
      );
    });

    it("rejects an attestation from a signer the receiver does not trust", async () => {
      const ferry = await networkHelpers.loadFixture(fixture);
      const other = await deployFerry(viem, { salt: `0x${"03".repeat(32)}`, stablecoin: false });
      // Signed by the other deployment's signer, addressed to this receiver.
      const signed = await other.attest({
        destinationUser: recipient!.account.address,
        destinationAmount: 1n,
        receiver: ferry.addresses.attestedReceiver,
      });
      await viem.assertions.revertWithCustomErrorWithArgs(
        ferry.fill(signed, { account: solver!.account, value: 1n }),
        ferry.attestedReceiver,
        "SignerNotAllowed",
        [other.signer.address],
      );
    });
  });
});
