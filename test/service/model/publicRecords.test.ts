/**
 * ts/service/model/publicRecords.ts: the Status record carries exactly the fields the spec's Status
 * record section lists — a sponsored request's `subsidizedRequest` / `subsidizedFee` (and
 * `feeSponsorship`) are request-record `data` fields, served by GET /requests/v2, not status fields.
 */
import { expect } from "chai";
import { toRequestRecord, toStatusRecord } from "../../../ts/service/model/publicRecords.ts";
import { createStore } from "../../../ts/service/store/createStore.ts";
import { testNewRequest } from "../fixtures/testRequest.ts";

/** The spec's Status record table, in its order. */
const STATUS_RECORD_FIELDS = ["status", "inTxHashes", "txHashes", "updatedAt", "originChainId", "destinationChainId", "details", "failReason", "refundFailReason", "depositAddress"];

describe("publicRecords", () => {
  it("statusRecord_ofASponsoredRequest_hasExactlyTheSpecsFields_theSponsorshipStaysInTheRequestRecord", async () => {
    const store = await createStore();
    try {
      const zero = "0x0000000000000000000000000000000000000000";
      const subsidizedFee = { origin: { amount: "1000", address: zero, chainId: 31337 }, sponsor: { amount: "250000", address: zero, chainId: 0 }, amountUsd: "0.25", amountUsdCurrent: "0.25" };
      const created = await store.createRequest(testNewRequest(1, { data: { subsidizedRequest: true, subsidizedFee } }));
      const status = toStatusRecord(created);
      expect(Object.keys(status)).to.deep.equal(STATUS_RECORD_FIELDS);
      const record = toRequestRecord(created);
      expect(record.data.subsidizedRequest).to.equal(true);
      expect(record.data.subsidizedFee).to.deep.equal(subsidizedFee);
    } finally {
      await store.close();
    }
  });
});
