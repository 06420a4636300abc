import { expect } from "chai";
import { verifyMessage } from "viem";
import { generatePrivateKey, privateKeyToAccount } from "viem/accounts";
import { recoverOrderSigner, signOrder } from "../../ts/core/orderSignature.ts";
import { loadOrderIdVectors } from "../vectors/vectorFiles.ts";
import { highSTwin } from "./signatureFixtures.ts";

const { orderId } = loadOrderIdVectors().cases[0]!;
const account = privateKeyToAccount(generatePrivateKey());

describe("orderSignature", () => {
  it("personal-signs the 32 raw orderId bytes and recovers the signer", async () => {
    const signature = await signOrder(account, orderId);
    expect(await verifyMessage({ address: account.address, message: { raw: orderId }, signature })).to.equal(true);
    expect(await recoverOrderSigner(orderId, signature)).to.equal(account.address);
  });

  it("recovers someone else for another orderId", async () => {
    const signature = await signOrder(account, orderId);
    const other = loadOrderIdVectors().cases[1]!.orderId;
    expect(await recoverOrderSigner(other, signature)).to.not.equal(account.address);
  });

  it("rejects the high-s twin with SIGNATURE_MALLEABLE", async () => {
    const signature = await signOrder(account, orderId);
    const error = await recoverOrderSigner(orderId, highSTwin(signature)).catch((e: unknown) => e);
    expect(error).to.have.property("code", "SIGNATURE_MALLEABLE");
  });

  it("rejects an orderId that is not bytes32 with INVALID_INPUT", async () => {
    expect(await signOrder(account, "0x01").catch((e: unknown) => e)).to.have.property("code", "INVALID_INPUT");
    expect(await recoverOrderSigner("0x01", "0x").catch((e: unknown) => e)).to.have.property("code", "INVALID_INPUT");
  });
});
