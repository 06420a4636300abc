import { expect } from "chai";
import {
  AttestationExpiredError,
  DepositMismatchError,
  FerryError,
  FerryErrorCode,
  FillTargetMismatchError,
  InvalidAddressError,
  InvalidInputError,
  InvalidSignatureError,
  InvalidSignatureLengthError,
  OrderIdMismatchError,
  ReceiptInvalidError,
  SignatureMalleableError,
  SignerNotAllowedError,
  UnsupportedVmError,
  WebhookHeaderInvalidError,
  WebhookHeaderMissingError,
  WebhookSignatureMismatchError,
  WebhookTimestampOutOfToleranceError,
  isFerryError,
} from "../../ts/core/errors.ts";

describe("errors", () => {
  const cases: [FerryError, string][] = [
    [new InvalidInputError("bad", { path: "x" }), "INVALID_INPUT"],
    [new InvalidAddressError("0x1"), "INVALID_ADDRESS"],
    [new InvalidSignatureError(), "INVALID_SIGNATURE"],
    [new InvalidSignatureLengthError(64), "INVALID_SIGNATURE_LENGTH"],
    [new SignatureMalleableError("0x01"), "SIGNATURE_MALLEABLE"],
    [new SignerNotAllowedError("0x0000000000000000000000000000000000000001"), "SIGNER_NOT_ALLOWED"],
    [new AttestationExpiredError(1n, 2n), "ATTESTATION_EXPIRED"],
    [new UnsupportedVmError("solana", "svm"), "UNSUPPORTED_VM"],
    [new OrderIdMismatchError("0x01", "0x02"), "ORDER_ID_MISMATCH"],
    [new DepositMismatchError("amount", "x"), "DEPOSIT_MISMATCH"],
    [new FillTargetMismatchError("receiver", "0x01", "0x02"), "FILL_TARGET_MISMATCH"],
    [new ReceiptInvalidError("fill.amount", "x"), "RECEIPT_INVALID"],
    [new WebhookHeaderMissingError("x-signature-sha256"), "WEBHOOK_HEADER_MISSING"],
    [new WebhookHeaderInvalidError("x-signature-timestamp", "x"), "WEBHOOK_HEADER_INVALID"],
    [new WebhookSignatureMismatchError(), "WEBHOOK_SIGNATURE_MISMATCH"],
    [new WebhookTimestampOutOfToleranceError(1, 1000, 300), "WEBHOOK_TIMESTAMP_OUT_OF_TOLERANCE"],
  ];

  it("gives every subclass its stable code, its class name and non-retryable by default", () => {
    for (const [error, code] of cases) {
      expect(error.code).to.equal(code);
      expect(error).to.be.instanceOf(FerryError).and.instanceOf(Error);
      expect(error.name).to.equal(error.constructor.name);
      expect(error.retryable).to.equal(false);
      expect(error.message).to.be.a("string").and.not.equal("");
    }
  });

  it("lists every code in FerryErrorCode", () => {
    expect(new Set(cases.map(([, code]) => code))).to.deep.equal(new Set(Object.values(FerryErrorCode)));
  });

  it("carries the cause and the retryable flag", () => {
    const cause = new Error("rpc down");
    const error = new FerryError("RPC_UNAVAILABLE", "rpc unavailable", { cause, retryable: true });
    expect(error.cause).to.equal(cause);
    expect(error.retryable).to.equal(true);
    expect(new InvalidSignatureError(undefined, { cause }).cause).to.equal(cause);
  });

  it("serializes to code, message and retryable only", () => {
    const error = new InvalidInputError("bad", { path: "x", cause: new Error("secret detail") });
    expect(Object.keys(JSON.parse(JSON.stringify(error)))).to.have.members(["code", "message", "retryable"]);
  });

  it("keeps the offending values on the error", () => {
    expect(new InvalidInputError("bad", { path: "output.deadline" }).path).to.equal("output.deadline");
    expect(new InvalidSignatureLengthError(64).length).to.equal(64);
    expect(new AttestationExpiredError(5n, 6n)).to.include({ deadline: 5n, now: 6n });
    expect(new DepositMismatchError("id", "x").field).to.equal("id");
    expect(new UnsupportedVmError("solana", "svm")).to.include({ chain: "solana", vm: "svm" });
  });

  it("isFerryError matches by class and optionally by code", () => {
    expect(isFerryError(new InvalidInputError("x"))).to.equal(true);
    expect(isFerryError(new InvalidInputError("x"), "INVALID_INPUT")).to.equal(true);
    expect(isFerryError(new InvalidInputError("x"), "INVALID_ADDRESS")).to.equal(false);
    expect(isFerryError(new Error("x"))).to.equal(false);
    expect(isFerryError({ code: "INVALID_INPUT" })).to.equal(false);
  });
});
