// The SQL forms of the public status and of an outbox event's payload (ts/service/store/publicStatusSql.ts,
// ts/service/store/outbox.ts `eventPayloadSql`) against the TypeScript they stand for
// (ts/service/model/publicStatus.ts `publicStatus`, ts/service/model/publicRecords.ts `statusFactsOf`),
// on every kind of request whose public facts differ: waiting, credited, filled, a refund in progress with
// and without a fill, refunded, a refund that cannot be made or whose payout reverted, parked, relayed
// without a quote, paid through a strict or an open deposit address (paid or not yet), with details.
import { expect } from "chai";
import type { RequestStatus } from "../../../ts/service/model/requestStatus.ts";
import type { NewRequest, StoredRequest } from "../../../ts/service/model/storedRequest.ts";
import { publicStatus } from "../../../ts/service/model/publicStatus.ts";
import { statusFactsOf } from "../../../ts/service/model/publicRecords.ts";
import type { Store } from "../../../ts/service/store/createStore.ts";
import { eventPayloadSql } from "../../../ts/service/store/outbox.ts";
import { publicStatusCondition, publicStatusSql } from "../../../ts/service/store/publicStatusSql.ts";
import { canonicalAddress, type Bytes32 } from "../../../ts/service/model/values.ts";
import { describeEachEngine } from "./engines.ts";
import { hex, testNewRequest } from "../fixtures/testRequest.ts";

const STATUSES: RequestStatus[] = ["waiting", "depositing", "pending", "submitted", "success", "failure", "refund"];
const address = (byte: string) => canonicalAddress(`0x${byte.repeat(20)}`);

describeEachEngine("outbox payload and public status in SQL", (engine) => {
  /** Requests of every kind; each is built through the store's own writes where one exists. */
  async function everyKind(store: Store, afterWrite: (before: StoredRequest | null, after: StoredRequest) => Promise<void> = async () => {}): Promise<StoredRequest[]> {
    let n = 0;
    const make = async (overrides: Partial<NewRequest> = {}, ...steps: Array<(id: Bytes32) => Promise<unknown>>): Promise<StoredRequest> => {
      const request = testNewRequest(++n, overrides);
      let current = await store.createRequest(request);
      await afterWrite(null, current);
      for (const step of steps) {
        await step(request.id);
        const next = (await store.getRequest(request.id))!;
        await afterWrite(current, next);
        current = next;
      }
      return current;
    };
    const to = (status: RequestStatus, patch = {}) => (id: Bytes32) => store.transitionRequest(id, status, patch);
    const patch = (p: Parameters<Store["patchRequest"]>[1]) => (id: Bytes32) => store.patchRequest(id, p);
    const fill = { hash: hex(0xf1), status: "sent" as const };
    const base = testNewRequest(0).solver!;
    const viaAddress = (mode: "strict" | "open") => ({ ...base.intent, depositAddress: { address: address("dd"), mode, factory: address("fa"), forwardGas: 0n } });
    const revertedRefund = {
      chainId: 31337,
      depository: address("dd"),
      nonce: 7n,
      expiration: 100,
      calls: [{ to: address("ee"), token: address("00"), amount: 5n }],
      requestHash: hex(0x99),
      status: "reverted" as const,
    };
    const payment = { chainId: 31337, address: address("dd"), token: address("00"), amount: 5n, depositor: address("ee"), txHash: hex(0xe1), blockNumber: 3, blockTimestamp: 1_700_000_000 };
    return [
      await make(),
      await make({ status: "depositing", inTxHashes: [hex(0xa1)] }),
      await make({}, to("pending", { inTxHashes: [hex(0xa2)], originBlock: 9 })),
      await make({}, to("pending"), to("submitted", { txHashes: [hex(0xb1)], solver: { fill } })),
      await make({}, to("pending"), to("submitted", { txHashes: [hex(0xb2)] }), to("success", { details: { note: "filled" } })),
      await make({}, to("pending"), to("failure", { failReason: "SOLVER_CAPACITY_EXCEEDED", details: { reason: "capacity" } })),
      await make({}, to("pending"), to("submitted", { txHashes: [hex(0xb3)], solver: { fill } }), to("failure", { failReason: "FILL_REVERTED", details: { revert: "0x" } })),
      await make({}, to("pending"), to("failure", { failReason: "NO_QUOTES" }), to("refund", { txHashes: [hex(0xc1)] })),
      await make({}, to("pending"), to("failure", { failReason: "NO_QUOTES" }), patch({ refundFailReason: "AMOUNT_TOO_LOW_TO_REFUND" })),
      await make({}, to("pending"), to("failure", { failReason: "NO_QUOTES" }), patch({ solver: { refund: revertedRefund } })),
      await make({}, to("pending"), to("failure", { failReason: "NO_QUOTES" }), (id) => store.parkRequest(id, { code: "X", message: "parked" })),
      await make({ solver: null, status: "depositing" }, to("success", { inTxHashes: [hex(0xa3)] })),
      await make({ solver: null, status: "depositing" }, to("failure", { failReason: "EXECUTION_REVERTED" })),
      await make({ solver: { intent: viaAddress("strict") } }),
      await make({ solver: { intent: viaAddress("strict"), depositPayment: payment } }, to("pending")),
      await make({ solver: { intent: viaAddress("open"), depositPayment: { ...payment, depositor: null, txHash: null } } }, to("pending"), to("failure", { failReason: "NO_QUOTES" })),
    ];
  }

  it("publicStatusSql_and_eventPayloadSql_agreeWithTheTypeScript_onEveryKindOfRequest", async () => {
    const { store } = engine;
    const requests = await everyKind(store);
    // The kinds above reach every public status the TypeScript can show, and a refund in progress.
    expect(new Set(requests.map((r) => publicStatus(r)))).to.deep.equal(new Set(["waiting", "depositing", "pending", "submitted", "success", "failure", "refund"]));
    expect(requests.some((r) => publicStatus(r) !== r.status)).to.equal(true);
    for (const request of requests) {
      for (const previous of [null, "waiting"] as const) {
        const { rows } = await store.engine.query<{ status: string; payload: unknown }>(
          `SELECT ${publicStatusSql("r.")} AS status, ${eventPayloadSql("r.", "$2::text")} AS payload FROM requests r WHERE r.id = $1`,
          [request.id, previous],
        );
        const expected = JSON.parse(JSON.stringify({ requestId: request.id, previousStatus: previous, ...statusFactsOf(request) }));
        expect(rows[0]!.status, request.id).to.equal(publicStatus(request));
        expect(rows[0]!.payload, request.id).to.deep.equal(expected);
      }
    }
    // The filter of GET /requests/v2?status= finds each request under its public status and no other.
    for (const status of STATUSES) {
      const { rows } = await store.engine.query<{ id: string }>(`SELECT id FROM requests WHERE ${publicStatusCondition(status)} ORDER BY id`);
      expect(rows.map((r) => r.id), status).to.deep.equal(requests.filter((r) => publicStatus(r) === status).map((r) => r.id).sort());
    }
  });

  it("eachWrite_storesTheEventTheTypeScriptWouldHaveBuilt_exactlyWhenThePublicStatusChanges", async () => {
    const { store } = engine;
    let seen = 0;
    let changes = 0;
    await everyKind(store, async (before, after) => {
      const { rows } = await store.engine.query<{ id: number; request_id: string; status: string; payload: unknown }>(
        "SELECT id, request_id, status, payload FROM request_events WHERE id > $1 ORDER BY id",
        [seen],
      );
      seen = rows.length > 0 ? Number(rows.at(-1)!.id) : seen;
      const previous = before === null ? null : publicStatus(before);
      if (previous === publicStatus(after)) return void expect(rows, after.id).to.deep.equal([]);
      changes++;
      expect(rows.map((e) => [e.request_id, e.status]), after.id).to.deep.equal([[after.id, publicStatus(after)]]);
      expect(rows[0]!.payload, after.id).to.deep.equal(JSON.parse(JSON.stringify({ requestId: after.id, previousStatus: previous, ...statusFactsOf(after) })));
    });
    expect(changes).to.be.greaterThan(30);
  });
});
