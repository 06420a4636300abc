import { expect } from "chai";
import { RECEIPT_VERSION, requestReceiptFromJson, requestReceiptToJson } from "../../ts/core/requestReceipt.ts";
import { validReceipt, validReceiptJson } from "./receiptFixture.ts";

describe("requestReceipt (ferry.receipt.v1)", () => {
  it("round-trips: JSON → typed → JSON is the same document, with and without credits", async () => {
    for (const options of [{}, { appFee: 1n }]) {
      const json = await validReceiptJson(options);
      expect(JSON.parse(JSON.stringify(requestReceiptToJson(requestReceiptFromJson(json))))).to.deep.equal(json);
    }
  });

  it("writes amounts, nonces and times as decimal strings and places as numbers", async () => {
    const json = await validReceiptJson();
    expect(json.version).to.equal(RECEIPT_VERSION);
    expect(json.deposit.fields.amount).to.equal("25000000");
    expect(json.deposit.blockNumber).to.be.a("number");
    expect(json.fill.blockTimestamp).to.equal("1700000000");
    expect(json.repayment.request.nonce).to.match(/^[0-9]+$/);
    expect(json.attestation.fields.originChainId).to.equal("31337");
    expect(json.repayment.request).to.not.have.property("credits");
  });

  it("refuses what is not a receipt, naming the field", async () => {
    const json = await validReceiptJson();
    const broken = [
      [{ ...json, version: "ferry.receipt.v2" }, "version"],
      [{ ...json, deposit: { ...json.deposit, blockNumber: 2 ** 53 } }, "deposit.blockNumber"],
      [{ ...json, attestation: { ...json.attestation, type: "Other" } }, "attestation.type"],
      [{ ...json, attestation: { ...json.attestation, fields: { ...json.attestation.fields, deadline: "-1" } } }, "attestation.fields"],
      [{ ...json, signerSet: { ...json.signerSet, signers: ["0x1234"] } }, "signerSet.signers[0]"],
    ] as const;
    for (const [input, path] of broken) expect(() => requestReceiptFromJson(input), path).to.throw(path);
    expect((await validReceipt()).version).to.equal(RECEIPT_VERSION);
  });
});
