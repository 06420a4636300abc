// The comparison behind "is this onchain fill the solver's own?" (pure): every field of the Filled
// event and the receiver's filledDigest (which commits to the orderId) against what the service signed.
import { expect } from "chai";
import type { Address, Hex } from "viem";
import { callsFillDigest, fillDigest } from "../../../../ts/core/attestationDigest.ts";
import { fillAttestationOf } from "../../../../ts/service/model/attestations.ts";
import { fillMismatches, signedFillOf, type OnchainFill } from "../../../../ts/service/solver/fill/verifyOnchainFill.ts";
import { testIntent } from "../../fixtures/testIntent.ts";
import { canonicalAddress, canonicalHex } from "../../../../ts/service/model/values.ts";

const RECEIVER = canonicalAddress(`0x${"ab".repeat(20)}`);
const SOLVER = canonicalAddress(`0x${"5a".repeat(20)}`);

describe("verifyOnchainFill", () => {
  const intent = testIntent(1);
  const signed = signedFillOf(intent, RECEIVER, SOLVER);
  const own: OnchainFill = {
    txHash: canonicalHex(`0x${"01".repeat(32)}`),
    digest: signed.digest,
    event: { recipient: intent.recipient, filler: SOLVER, currency: intent.destinationCurrency, amount: intent.destinationAmount },
  };

  it("signedFillOf_isTheV2DigestOfTheIntentsAttestationOnThatReceiver", () => {
    expect(signed.digest).to.equal(fillDigest(fillAttestationOf(intent, RECEIVER)));
    expect(signedFillOf(intent, canonicalHex(`0x${"ac".repeat(20)}`), SOLVER).digest).to.not.equal(signed.digest);
  });

  it("signedFillOf_anIntentWithCalls_isItsCallsAttestationDigest (what fillWithCalls stores)", () => {
    const withCalls = { ...intent, calls: [{ to: RECEIVER, data: "0x" as const, value: 0n }] };
    const att = fillAttestationOf(withCalls, RECEIVER);
    expect(signedFillOf(withCalls, RECEIVER, SOLVER).digest).to.equal(callsFillDigest(att));
    expect(signedFillOf(withCalls, RECEIVER, SOLVER).digest).to.not.equal(fillDigest(att));
  });

  it("fillMismatches_ownFill_isEmpty", () => {
    expect(fillMismatches(signed, own)).to.deep.equal([]);
  });

  it("fillMismatches_namesEveryDifferingField_inOrder", () => {
    const other = canonicalAddress(`0x${"77".repeat(20)}`);
    expect(fillMismatches(signed, { ...own, digest: canonicalHex(`0x${"02".repeat(32)}`) })).to.deep.equal(["digest"]);
    expect(fillMismatches(signed, { ...own, event: { ...own.event!, filler: other } })).to.deep.equal(["filler"]);
    expect(fillMismatches(signed, { ...own, event: { ...own.event!, recipient: other } })).to.deep.equal(["recipient"]);
    expect(fillMismatches(signed, { ...own, event: { ...own.event!, currency: other } })).to.deep.equal(["currency"]);
    expect(fillMismatches(signed, { ...own, event: { ...own.event!, amount: 1n } })).to.deep.equal(["amount"]);
    expect(fillMismatches(signed, { ...own, digest: canonicalHex(`0x${"02".repeat(32)}`), event: { ...own.event!, filler: other, amount: 1n } })).to.deep.equal(["digest", "filler", "amount"]);
  });

  it("fillMismatches_anotherOrderIdWithTheSameEvent_isCaughtByTheDigest", () => {
    // Filled does not carry the orderId: a fill of an attestation that differs only there shows the
    // same event and a different filledDigest.
    const otherOrder = fillDigest({ ...fillAttestationOf(intent, RECEIVER), orderId: `0x${"03".repeat(32)}` });
    expect(otherOrder).to.not.equal(signed.digest);
    expect(fillMismatches(signed, { ...own, digest: canonicalHex(otherOrder) })).to.deep.equal(["digest"]);
  });

  it("fillMismatches_aTransactionWithoutTheRequestsFilledLog_isNeverOurFill", () => {
    expect(fillMismatches(signed, { ...own, event: null })).to.deep.equal(["event"]);
  });
});
