/**
 * TicketOffice against a real Ferry on Hardhat's simulated chain: deployFerry() from ferry/testing
 * deploys the Depository and friends; the attestations are built and signed with ferry/core, as the
 * service's signer does; the contract accepts each one once and forwards the payment to the Depository.
 */
import { expect } from "chai";
import { network } from "hardhat";
import { keccak256, parseEther, toHex, type Address, type Hex, type LocalAccount } from "viem";
import { generatePrivateKey, privateKeyToAccount } from "viem/accounts";
import { fillDigest, gateDigest, normalizeFillAttestation, signAttestation, signAttestationDigest, verifyAttestation, type FillAttestation } from "ferry/core";
import { depositoryAbi } from "ferry/abi";
import { deployFerry } from "ferry/testing";

const { viem, networkHelpers } = await network.create();
const [, buyer] = await viem.getWalletClients();
const publicClient = await viem.getPublicClient();

async function deployTicketOffice() {
  const ferry = await deployFerry(viem, { stablecoin: false });
  const office = await viem.deployContract("TicketOffice", [ferry.addresses.depository, ferry.signer.address]);
  return { ferry, office };
}

/**
 * The v2 attestation of a payment on this chain, signed by `account` with ferry/core: `fillSignature`
 * over the v2 digest (what a backend verifies offchain) and `signature`, the gate attestation for the
 * office at `gate` (what an AttestationGate accepts: the digest bound to that contract and chain).
 */
async function attestPayment(account: LocalAccount, amount: bigint, label: string, gate: Address) {
  const chainId = await publicClient.getChainId();
  const now = await networkHelpers.time.latest();
  const attestation: FillAttestation = normalizeFillAttestation({
    requestId: keccak256(toHex(`request ${label}`)),
    orderId: keccak256(toHex(`order ${label}`)),
    originChainId: chainId,
    originUser: buyer!.account.address,
    originCurrency: "0x0000000000000000000000000000000000000000",
    originAmount: amount,
    destinationChainId: chainId,
    destinationUser: buyer!.account.address,
    destinationCurrency: "0x0000000000000000000000000000000000000000",
    destinationAmount: amount,
    deadline: now + 600,
    receiver: "0x0000000000000000000000000000000000000001",
  });
  const { signature: fillSignature } = await signAttestation({ account, format: "v2", attestation });
  const signature = await signAttestationDigest(account, gateDigest({ digest: fillDigest(attestation), gate, chainId: BigInt(chainId) }));
  return { attestation, signature: signature as Hex, fillSignature: fillSignature as Hex };
}

describe("TicketOffice (AttestationGate) with deployFerry()", () => {
  it("sells a ticket against a signed attestation and deposits the payment under its orderId", async () => {
    const { ferry, office } = await networkHelpers.loadFixture(deployTicketOffice);
    const amount = parseEther("0.5");
    const { attestation, signature, fillSignature } = await attestPayment(ferry.signer, amount, "a", office.address);

    // What a backend would check before showing "paid": the attestation, offchain, with ferry/core.
    const now = await networkHelpers.time.latest();
    const check = await verifyAttestation({ format: "v2", attestation, signature: fillSignature, signers: [ferry.signer.address], now });
    expect(check.valid).to.equal(true);
    // The plain v2 signature is not a gate attestation: the office refuses it.
    await viem.assertions.revertWithCustomError(
      office.write.buy([attestation, fillSignature], { account: buyer!.account, value: amount }),
      office,
      "SignerNotAllowed",
    );

    await viem.assertions.emitWithArgs(
      office.write.buy([attestation, signature], { account: buyer!.account, value: amount }),
      { abi: depositoryAbi, address: ferry.addresses.depository },
      "Deposited",
      [attestation.orderId, buyer!.account.address, "0x0000000000000000000000000000000000000000", amount],
    );
    expect(await office.read.tickets([buyer!.account.address])).to.equal(1n);
    expect(await office.read.consumed([attestation.requestId])).to.equal(true);
    expect(await publicClient.getBalance({ address: ferry.addresses.depository })).to.equal(amount);
  });

  it("accepts an attestation once", async () => {
    const { ferry, office } = await networkHelpers.loadFixture(deployTicketOffice);
    const amount = parseEther("0.1");
    const { attestation, signature } = await attestPayment(ferry.signer, amount, "b", office.address);
    await office.write.buy([attestation, signature], { account: buyer!.account, value: amount });
    await viem.assertions.revertWithCustomErrorWithArgs(
      office.write.buy([attestation, signature], { account: buyer!.account, value: amount }),
      office,
      "AttestationAlreadyConsumed",
      [attestation.requestId],
    );
  });

  it("refuses another amount, an unknown signer and an expired attestation", async () => {
    const { ferry, office } = await networkHelpers.loadFixture(deployTicketOffice);
    const amount = parseEther("0.1");
    const paid = await attestPayment(ferry.signer, amount, "c", office.address);
    await viem.assertions.revertWithCustomErrorWithArgs(
      office.write.buy([paid.attestation, paid.signature], { account: buyer!.account, value: amount - 1n }),
      office,
      "AmountMismatch",
      [amount - 1n, amount],
    );

    const stranger = privateKeyToAccount(generatePrivateKey());
    const forged = await attestPayment(stranger, amount, "d", office.address);
    await viem.assertions.revertWithCustomErrorWithArgs(
      office.write.buy([forged.attestation, forged.signature], { account: buyer!.account, value: amount }),
      office,
      "SignerNotAllowed",
      [stranger.address],
    );

    await networkHelpers.time.increase(601);
    await viem.assertions.revertWithCustomErrorWithArgs(
      office.write.buy([paid.attestation, paid.signature], { account: buyer!.account, value: amount }),
      office,
      "AttestationExpired",
      [paid.attestation.deadline],
    );
  });

  it("works with the fixture's own attest() helper too", async () => {
    const { ferry, office } = await networkHelpers.loadFixture(deployTicketOffice);
    const amount = parseEther("0.2");
    // attest() defaults originAmount/originUser to the destination ones and the chain to this one.
    const signed = await ferry.attest({ destinationUser: buyer!.account.address, destinationAmount: amount });
    await office.write.buy([signed.attestation, await signed.gateSignature(office.address)], { account: buyer!.account, value: amount });
    expect(await office.read.tickets([buyer!.account.address])).to.equal(1n);
  });
});
