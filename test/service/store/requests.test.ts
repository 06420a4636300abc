import { expect } from "chai";
import { isFerryError } from "../../../ts/core/errors.ts";
import { InvalidTransitionError, TRANSITIONS } from "../../../ts/service/lifecycle/transitions.ts";
import type { RequestStatus } from "../../../ts/service/model/requestStatus.ts";
import type { NewRequest } from "../../../ts/service/model/storedRequest.ts";
import type { Payout } from "../../../ts/service/model/payout.ts";
import { StoredValueInvalidError } from "../../../ts/service/model/storedValue.ts";
import { describeEachEngine } from "./engines.ts";
import { hex, testNewRequest } from "../fixtures/testRequest.ts";
import { canonicalAddress, canonicalHex } from "../../../ts/service/model/values.ts";

const newRequest = (n: number, overrides: Partial<NewRequest> = {}): NewRequest =>
  testNewRequest(n, { user: canonicalAddress(`0x${"Aa".repeat(20)}`), recipient: canonicalAddress(`0x${"Bb".repeat(20)}`), ...overrides });

/** The path from `waiting` (or `depositing`) that ends in `to`. */
const PATHS: Record<RequestStatus, RequestStatus[]> = {
  waiting: [],
  depositing: [],
  pending: ["pending"],
  submitted: ["pending", "submitted"],
  success: ["pending", "submitted", "success"],
  failure: ["pending", "failure"],
  refund: ["pending", "failure", "refund"],
};

describeEachEngine("store requests", (engine) => {
  it("createRequest_roundTrips_withCanonicalAddressesAndHashes", async () => {
    const { store, clock } = engine;
    const created = await store.createRequest(
      newRequest(1, { inTxHashes: [canonicalHex(`0x${hex(0xabc).slice(2).toUpperCase()}`)], data: { slippageTolerance: "50" }, referrer: "app", originBlock: 7 }),
    );
    const expected = {
      id: hex(1),
      orderId: hex(1001),
      status: "waiting",
      user: canonicalAddress(`0x${"aa".repeat(20)}`),
      recipient: canonicalAddress(`0x${"bb".repeat(20)}`),
      originChainId: 31337,
      destinationChainId: 31338,
      inTxHashes: [hex(0xabc)],
      txHashes: [],
      failReason: null,
      refundFailReason: null,
      data: { slippageTolerance: "50" },
      details: null,
      solver: { intent: { ...newRequest(1).solver!.intent, user: canonicalAddress(`0x${"aa".repeat(20)}`), recipient: canonicalAddress(`0x${"bb".repeat(20)}`) } },
      parked: null,
      referrer: "app",
      apiKeyId: null,
      originBlock: 7,
      createdAt: new Date(clock.ms).toISOString(),
      updatedAt: new Date(clock.ms).toISOString(),
    };
    expect(created).to.deep.equal(expected);
    expect(await store.getRequest(hex(1))).to.deep.equal(expected);
    expect(await store.getRequestByOrderId(canonicalHex(hex(1001).toUpperCase().replace("0X", "0x")))).to.deep.equal(expected);
  });

  for (const initial of ["waiting", "depositing"] as const) {
    it(`createCreditedRequest_from_${initial}_writesWhatCreateThenTransitionToPendingWrite_rowAndBothEventsInOrder`, async () => {
      const { store } = engine;
      const deposit = {
        chainId: 31337,
        depository: canonicalAddress(`0x${"dd".repeat(20)}`),
        txHash: hex(0x5001),
        logIndex: 3,
        block: 12,
        blockTimestamp: 1_700_000_000,
        depositor: canonicalAddress(`0x${"aa".repeat(20)}`),
        token: canonicalAddress(`0x${"00".repeat(20)}`),
        amount: 10n ** 18n,
      };
      const credit = (n: number) => ({
        inTxHashes: [hex(n * 10), hex(0x5001)],
        originBlock: 12,
        data: { slippageTolerance: "75" },
        solver: { deposit },
      });
      const request = (n: number) => newRequest(n, { status: initial, inTxHashes: [hex(n * 10)], data: { slippageTolerance: "50" }, originBlock: 11 });
      // The two writes it stands for, on one request…
      await store.createRequest(request(8101));
      const transitioned = await store.transitionRequest(hex(8101), "pending", credit(8101));
      // …and the one write, on another.
      const created = await store.createCreditedRequest(request(8102), credit(8102));
      const sameAs = (r: Record<string, unknown>, n: number) => JSON.parse(JSON.stringify(r, (_, v) => (typeof v === "bigint" ? v.toString() : v)).replaceAll(hex(n), "ID").replaceAll(hex(n * 10), "TX").replaceAll(hex(1000 + n), "ORDER"));
      expect(sameAs(created, 8102)).to.deep.equal(sameAs(transitioned, 8101));
      expect(sameAs((await store.getRequest(hex(8102)))!, 8102)).to.deep.equal(sameAs(transitioned, 8101));
      const events = async (n: number) => (await store.requestEvents(hex(n))).map((e) => sameAs({ status: e.status, payload: e.payload }, n));
      expect(await events(8102)).to.deep.equal(await events(8101));
      expect((await events(8102)).map((e) => e.status)).to.deep.equal([initial === "waiting" ? "waiting" : "depositing", "pending"]);
      const ids = (await store.requestEvents(hex(8102))).map((e) => e.id);
      expect(ids[1]! > ids[0]!, "the initial status's event first").to.equal(true);
    });
  }

  it("createCreditedRequest_aRequestThatWouldNotStartWaitingOrDepositing_isRefused_andWritesNothing", async () => {
    const { store } = engine;
    const error = await store.createCreditedRequest(newRequest(8103, { status: "pending" }), {}).then(() => null, (e: unknown) => e);
    expect(isFerryError(error) && (error as { code: string }).code).to.equal("INVALID_INPUT");
    expect(await store.getRequest(hex(8103))).to.equal(null);
  });

  it("getRequest_throwsATypedErrorNamingTheField_whenTheRowIsCorrupted", async () => {
    const { store } = engine;
    await store.createRequest(newRequest(1));
    await store.transitionRequest(hex(1), "pending");
    await store.engine.query(`UPDATE requests SET solver_state = jsonb_set(solver_state, '{intent,originAmount}', '"-5"') WHERE id = $1`, [hex(1)]);
    for (const read of [() => store.getRequest(hex(1)), () => store.listRequests({}), () => store.transitionRequest(hex(1), "submitted")]) {
      let thrown: unknown;
      try {
        await read();
      } catch (error) {
        thrown = error;
      }
      {
        const error = thrown;
        expect(error).to.be.instanceOf(StoredValueInvalidError);
        expect((error as StoredValueInvalidError).code).to.equal("STORED_VALUE_INVALID");
        expect((error as StoredValueInvalidError).where).to.equal("requests");
        expect((error as StoredValueInvalidError).field).to.equal("solver_state.intent.originAmount");
      }
    }
    // The solver's work list reads ids only: the corrupted request is still listed (its step parks it).
    expect((await store.listSolverWork()).map((w) => w.id)).to.deep.equal([hex(1)]);
  });

  it("patchRequest_mergesSolverStateFieldByField_withoutAnOutboxEvent", async () => {
    const { store } = engine;
    const created = await store.createRequest(newRequest(1));
    const payout: Payout = {
      chainId: 31337,
      depository: canonicalAddress(`0x${"dd".repeat(20)}`),
      nonce: 7n,
      expiration: 100,
      calls: [{ to: canonicalAddress(`0x${"ee".repeat(20)}`), token: canonicalAddress(`0x${"00".repeat(20)}`), amount: 5n }],
      requestHash: hex(0x99),
      status: "prepared",
    };
    const patched = await store.patchRequest(hex(1), { solver: { repayment: payout } });
    expect(patched.solver).to.deep.equal({ ...created.solver, repayment: payout });
    expect((await store.patchRequest(hex(1), { solver: { repayment: { ...payout, status: "sent", hash: hex(0x77) } } })).solver!.repayment!.status).to.equal("sent");
    expect((await store.getRequest(hex(1)))!.solver!.intent).to.deep.equal(created.solver!.intent);
    expect((await store.requestEvents(hex(1))).length).to.equal(1);
  });

  it("getRequest_returnsNull_forUnknownId", async () => {
    expect(await engine.store.getRequest(hex(404))).to.equal(null);
  });

  it("createRequest_writesItsFirstOutboxEvent", async () => {
    await engine.store.createRequest(newRequest(1, { status: "depositing" }));
    const events = await engine.store.requestEvents(hex(1));
    expect(events.map((e) => [e.status, e.payload.previousStatus])).to.deep.equal([["depositing", null]]);
  });

  it("createRequest_rejectsANonInitialStatus_andWritesNothing", async () => {
    try {
      await engine.store.createRequest(newRequest(1, { status: "pending" }));
      expect.fail("expected INVALID_INPUT");
    } catch (error) {
      expect(isFerryError(error, "INVALID_INPUT")).to.equal(true);
    }
    expect(await engine.store.getRequest(hex(1))).to.equal(null);
    expect(await engine.store.pendingOutboxEvents()).to.deep.equal([]);
  });

  // Events follow the public status (ts/service/model/publicStatus.ts): a failure whose refund is in
  // progress keeps showing the status before it — no event — and the refund's event follows that one.
  const PUBLIC_EVENT: Record<string, [status: string, previous: string] | null> = {
    "waiting→pending": ["pending", "waiting"],
    // A strict deposit address's mis-routed payment: its refund from the address is coming.
    "waiting→failure": ["pending", "waiting"],
    "depositing→pending": ["pending", "depositing"],
    "depositing→success": ["success", "depositing"],
    // (A quoted request: its refund would be coming. Only executions without a quote take this path.)
    "depositing→failure": ["pending", "depositing"],
    "pending→submitted": ["submitted", "pending"],
    "pending→failure": null,
    "submitted→success": ["success", "submitted"],
    "submitted→failure": null,
    "failure→refund": ["refund", "pending"],
  };
  for (const { from, to } of TRANSITIONS) {
    const expected = PUBLIC_EVENT[`${from}→${to}`];
    it(`transitionRequest_moves_${from}_to_${to}_andWrites${expected ? "One" : "No"}OutboxEvent`, async () => {
      const { store, clock } = engine;
      await store.createRequest(newRequest(1, { status: from === "depositing" ? "depositing" : "waiting" }));
      for (const step of from === "depositing" || from === "waiting" ? [] : PATHS[from]) {
        clock.ms += 1000;
        await store.transitionRequest(hex(1), step, step === "submitted" ? { txHashes: [hex(0xf1)] } : {});
      }
      const before = await store.requestEvents(hex(1));
      clock.ms += 1000;
      const moved = await store.transitionRequest(hex(1), to);
      expect(moved.status).to.equal(to);
      expect(moved.updatedAt).to.equal(new Date(clock.ms).toISOString());
      const after = await store.requestEvents(hex(1));
      expect(after.length).to.equal(before.length + (expected ? 1 : 0));
      if (!expected) return;
      const event = after[after.length - 1];
      expect([event.status, event.payload.status, event.payload.previousStatus, event.payload.updatedAt]).to.deep.equal([expected[0], expected[0], expected[1], clock.ms]);
    });
  }

  it("anExecutionWithoutAQuote_hasNoSolverState_endsInAPublicFailure_andIsNeverSolverWork", async () => {
    const { store } = engine;
    await store.createRequest({ ...newRequest(1, { status: "depositing" }), solver: null });
    await store.createRequest({ ...newRequest(2, { status: "depositing" }), solver: null });
    // A patch without solver state keeps it null (it does not become an empty, undecodable object).
    await store.patchRequest(hex(1), { inTxHashes: [hex(0xe1)] });
    expect((await store.getRequest(hex(1)))?.solver).to.equal(null);
    const failed = await store.transitionRequest(hex(1), "failure");
    const succeeded = await store.transitionRequest(hex(2), "success");
    expect([failed.solver, succeeded.solver]).to.deep.equal([null, null]);
    // No deposit, so no refund is coming: the failure shows as such, with its event.
    expect((await store.requestEvents(hex(1))).map((e) => e.status)).to.deep.equal(["depositing", "failure"]);
    expect((await store.requestEvents(hex(2))).map((e) => e.status)).to.deep.equal(["depositing", "success"]);
    expect((await store.listRequests({ status: "failure" })).requests.map((r) => r.id)).to.deep.equal([hex(1)]);
    expect((await store.listSolverWork()).map((w) => w.id)).to.deep.equal([]);
  });

  it("aFailureWhoseRefundCannotBeMade_orIsParked_showsFailure_withItsEvent", async () => {
    const { store } = engine;
    for (const [n, end] of [
      [1, () => store.patchRequest(hex(1), { refundFailReason: "AMOUNT_TOO_LOW_TO_REFUND" })],
      [2, () => store.parkRequest(hex(2), { code: "FILLED_REQUEST_NOT_REFUNDABLE", message: "filled" })],
    ] as const) {
      await store.createRequest(newRequest(n));
      await store.transitionRequest(hex(n), "pending");
      await store.transitionRequest(hex(n), "failure", { failReason: "ORDER_EXPIRED", details: { reason: "late" } });
      expect((await store.requestEvents(hex(n))).map((e) => e.status)).to.deep.equal(["waiting", "pending"]);
      await end();
      const events = await store.requestEvents(hex(n));
      expect(events.map((e) => e.status)).to.deep.equal(["waiting", "pending", "failure"]);
      expect(events[2]!.payload).to.deep.include({ previousStatus: "pending", failReason: "ORDER_EXPIRED", details: { reason: "late" } });
    }
  });

  it("transitionRequest_appendsHashes_mergesData_andKeepsReasons", async () => {
    const { store } = engine;
    await store.createRequest(newRequest(1, { inTxHashes: [hex(0xa1)], data: { fees: { gas: "1", fixed: "0", price: "0", gateway: "0" }, slippageTolerance: "0" } }));
    await store.transitionRequest(hex(1), "pending", { inTxHashes: [hex(0xa1), hex(0xa2)], originBlock: 12 });
    await store.transitionRequest(hex(1), "failure", { failReason: "ORDER_EXPIRED", data: { fees: { gas: "2", fixed: "0", price: "0", gateway: "0" } } });
    const refunded = await store.transitionRequest(hex(1), "refund", { txHashes: [hex(0xb1)], refundFailReason: "AMOUNT_TOO_LOW_TO_REFUND" });
    expect(refunded).to.include({ status: "refund", failReason: "ORDER_EXPIRED", refundFailReason: "AMOUNT_TOO_LOW_TO_REFUND", originBlock: 12 });
    expect(refunded.inTxHashes).to.deep.equal([hex(0xa1), hex(0xa2)]);
    expect(refunded.txHashes).to.deep.equal([hex(0xb1)]);
    expect(refunded.data).to.deep.equal({ fees: { gas: "2", fixed: "0", price: "0", gateway: "0" }, slippageTolerance: "0" });
    const events = await store.requestEvents(hex(1));
    // The failure (refund in progress) shows as pending: no event of its own.
    expect(events.map((e) => e.status)).to.deep.equal(["waiting", "pending", "refund"]);
    expect(events[2].payload).to.include({ failReason: "ORDER_EXPIRED", refundFailReason: "AMOUNT_TOO_LOW_TO_REFUND" });
  });

  it("transitionRequest_throwsInvalidTransition_andWritesNothing", async () => {
    const { store, clock } = engine;
    const created = await store.createRequest(newRequest(1));
    clock.ms += 1000;
    try {
      await store.transitionRequest(hex(1), "success", { txHashes: [hex(0xb1)], failReason: "UNKNOWN" });
      expect.fail("expected INVALID_TRANSITION");
    } catch (error) {
      expect(error).to.be.instanceOf(InvalidTransitionError);
      expect(isFerryError(error, "INVALID_TRANSITION")).to.equal(true);
    }
    expect(await store.getRequest(hex(1))).to.deep.equal(created);
    expect((await store.requestEvents(hex(1))).length).to.equal(1);
  });

  it("transitionRequest_throwsRequestNotFound_forUnknownId", async () => {
    try {
      await engine.store.transitionRequest(hex(404), "pending");
      expect.fail("expected REQUEST_NOT_FOUND");
    } catch (error) {
      expect(isFerryError(error, "REQUEST_NOT_FOUND")).to.equal(true);
    }
    expect(await engine.store.pendingOutboxEvents()).to.deep.equal([]);
  });

  it("transitionRequest_rollsBackTheStatusChange_whenTheCallersTransactionFails", async () => {
    const { store } = engine;
    const created = await store.createRequest(newRequest(1));
    const boom = new Error("boom");
    try {
      await store.transaction(async (tx) => {
        const moved = await tx.transitionRequest(hex(1), "pending");
        expect(moved.status).to.equal("pending");
        throw boom;
      });
      expect.fail("expected the transaction to throw");
    } catch (error) {
      expect(error).to.equal(boom);
    }
    expect(await store.getRequest(hex(1))).to.deep.equal(created);
    expect((await store.requestEvents(hex(1))).map((e) => e.status)).to.deep.equal(["waiting"]);
  });

  it("transitionRequest_rollsBackTheStatusChange_whenTheOutboxInsertFails", async () => {
    const { store } = engine;
    const created = await store.createRequest(newRequest(1));
    // A real failure of the second write, in the database itself: a trigger rejecting the event.
    await store.engine.exec(`
      CREATE FUNCTION reject_pending_event() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN IF NEW.status = 'pending' THEN RAISE EXCEPTION 'outbox unavailable'; END IF; RETURN NEW; END $$;
      CREATE TRIGGER reject_pending_event BEFORE INSERT ON request_events FOR EACH ROW EXECUTE FUNCTION reject_pending_event();`);
    try {
      let failed = false;
      await store.transitionRequest(hex(1), "pending").catch(() => (failed = true));
      expect(failed).to.equal(true);
      expect(await store.getRequest(hex(1))).to.deep.equal(created);
      expect((await store.requestEvents(hex(1))).map((e) => e.status)).to.deep.equal(["waiting"]);
    } finally {
      await store.engine.exec("DROP TRIGGER reject_pending_event ON request_events; DROP FUNCTION reject_pending_event();");
    }
    expect((await store.transitionRequest(hex(1), "pending")).status).to.equal("pending");
  });

  it("transitionRequest_serialisesConcurrentChanges_soOnlyOneWins", async () => {
    const { store } = engine;
    await store.createRequest(newRequest(1));
    await store.transitionRequest(hex(1), "pending");
    // Two workers race to submit the same fill; the row lock makes the second see `submitted` and fail.
    const results = await Promise.allSettled([store.transitionRequest(hex(1), "submitted"), store.transitionRequest(hex(1), "submitted")]);
    const fulfilled = results.filter((r) => r.status === "fulfilled");
    const rejected = results.filter((r) => r.status === "rejected") as PromiseRejectedResult[];
    expect(fulfilled.length).to.equal(1);
    expect(rejected.length).to.equal(1);
    expect(isFerryError(rejected[0].reason, "INVALID_TRANSITION")).to.equal(true);
    expect((await store.requestEvents(hex(1))).length).to.equal(3);
  });

  it("pendingOutboxEvents_listsUndeliveredOldestFirst_andMarkOutboxDeliveredRemovesThem", async () => {
    const { store } = engine;
    await store.createRequest(newRequest(1));
    await store.createRequest(newRequest(2));
    await store.transitionRequest(hex(1), "pending");
    const pending = await store.pendingOutboxEvents();
    expect(pending.map((e) => [e.requestId, e.status])).to.deep.equal([
      [hex(1), "waiting"],
      [hex(2), "waiting"],
      [hex(1), "pending"],
    ]);
    expect((await store.pendingOutboxEvents(2)).length).to.equal(2);
    await store.markOutboxDelivered(pending[0].id);
    const rest = await store.pendingOutboxEvents();
    expect(rest.map((e) => e.id)).to.deep.equal([pending[1].id, pending[2].id]);
    expect((await store.requestEvents(hex(1)))[0].deliveredAt).to.equal(new Date(engine.clock.ms).toISOString());
  });

  describe("onOutboxCommit", () => {
    it("onOutboxCommit_isCalledAfterEachCommittedStatusChange_onceForATransaction_andNotAfterARollback", async () => {
      let calls = 0;
      const stop = engine.store.onOutboxCommit(() => calls++);
      try {
        const id = hex(9001);
        await engine.store.createRequest(newRequest(9001));
        expect(calls, "after createRequest").to.equal(1);
        await engine.store.transitionRequest(id, "pending");
        expect(calls, "after transitionRequest").to.equal(2);
        await engine.store.transaction(async (tx) => {
          await tx.transitionRequest(id, "submitted");
          await tx.transitionRequest(id, "success");
          expect(calls, "not before the commit").to.equal(2);
        });
        expect(calls, "once for the transaction").to.equal(3);
        await engine.store.transaction(async (tx) => tx.getRequest(id));
        expect(calls, "a transaction without status changes").to.equal(3);
        const rolledBack = engine.store.transaction(async (tx) => {
          await tx.transitionRequest(id, "failure").catch(() => {});
          throw new Error("abort");
        });
        await rolledBack.catch(() => {});
        expect(calls, "no call for a rolled-back transaction").to.equal(3);
      } finally {
        stop();
      }
      await engine.store.createRequest(newRequest(9002));
      expect(calls, "unsubscribed").to.equal(3);
    });

    it("onOutboxChange_aStatusChangeCommittedByAnotherStore_wakesTheListenerInMilliseconds_onPostgres", async function () {
      if (engine.kind !== "postgres") this.skip(); // PGlite is one process: its own commits are all there is
      const db = await engine.freshDatabase();
      const [writer, reader] = [await db.open(), await db.open()];
      try {
        let calls = 0;
        const stop = reader.onOutboxChange(() => calls++);
        // The LISTEN connection calls back once it is connected.
        await until(() => calls > 0);
        const before = calls;
        const started = Date.now();
        await writer.createRequest(newRequest(9101));
        await until(() => calls > before);
        const elapsed = Date.now() - started;
        expect(elapsed, "wake-up latency (ms)").to.be.below(1000);
        stop();
      } finally {
        await writer.close();
        await reader.close();
      }
    });

    it("onOutboxChange_aStatusChangeThisStoreCommitted_wakesTheListenerOnce_notAgainByItsOwnNotification_onPostgres", async function () {
      if (engine.kind !== "postgres") this.skip(); // PGlite has no notifications
      const db = await engine.freshDatabase();
      const [store, other] = [await db.open(), await db.open()];
      try {
        let calls = 0;
        const stop = store.onOutboxChange(() => calls++);
        await until(() => calls > 0); // connected
        // Another process's write arrives over the LISTEN connection: the notification path works.
        const connected = calls;
        await other.createRequest(newRequest(9201));
        await until(() => calls > connected);
        await new Promise((resolve) => setTimeout(resolve, 300));
        const before = calls;
        // Each write's own NOTIFY reaches the LISTEN connection within milliseconds: give it time to arrive.
        await store.createRequest(newRequest(9202));
        await new Promise((resolve) => setTimeout(resolve, 500));
        expect(calls, "once for the create: the echo of its own notification is not passed on").to.equal(before + 1);
        await store.transitionRequest(hex(9202), "pending");
        await new Promise((resolve) => setTimeout(resolve, 500));
        expect(calls, "once for the transition").to.equal(before + 2);
        stop();
      } finally {
        await store.close();
        await other.close();
      }
    });

    it("onOutboxCommit_aParkedRequestsEventAndARefundEndingPatch_tellTheListener", async () => {
      let calls = 0;
      const stop = engine.store.onOutboxCommit(() => calls++);
      try {
        const id = hex(9301);
        await engine.store.createRequest(newRequest(9301));
        await engine.store.transitionRequest(id, "pending");
        const before = calls;
        await engine.store.parkRequest(id, { code: "TEST", message: "parked" });
        expect(calls, "after parkRequest").to.equal(before + 1);
        await engine.store.patchRequest(id, { refundFailReason: "NO_ROUTE" });
        expect(calls, "after a patch that may end a refund").to.equal(before + 2);
        await engine.store.patchRequest(id, { txHashes: [hex(9302)] });
        expect(calls, "not after a bookkeeping patch").to.equal(before + 2);
        await engine.store.transaction(async (tx) => tx.parkRequest(id, { code: "TEST", message: "again" }));
        expect(calls, "after a transaction that parked").to.equal(before + 3);
      } finally {
        stop();
      }
    });

    it("onOutboxCommit_aThrowingListener_doesNotFailTheWrite", async () => {
      const stop = engine.store.onOutboxCommit(() => {
        throw new Error("listener bug");
      });
      try {
        const created = await engine.store.createRequest(newRequest(9003));
        expect(created.status).to.equal("waiting");
      } finally {
        stop();
      }
    });
  });
});

async function until(check: () => boolean, timeoutMs = 10_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > deadline) throw new Error("timed out");
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
}

describeEachEngine("store requests: a solver step's first read", (engine) => {
  it("getStepRequest_isTheRequestAndTheHaltedChains_asTheirOwnReadsSayInOneStatement", async () => {
    const { store } = engine;
    expect(await store.getStepRequest(hex(77))).to.equal(null);
    await store.createRequest(newRequest(77));
    expect(await store.getStepRequest(hex(77))).to.deep.equal({ request: await store.getRequest(hex(77)), halted: [] });
    const depository = canonicalAddress(`0x${"5f".repeat(20)}`);
    const block = (n: number) => canonicalHex(`0x${n.toString(16).padStart(64, "0")}`);
    for (const chainId of [31338, 31337, 2 ** 40]) {
      await store.setCheckpoint(chainId, depository, 30, block(30));
      await store.haltIndexer(chainId, depository, { at: "2026-11-24T00:00:00.000Z", block: 30, expectedHash: block(30), actualHash: block(31), lastGood: { block: 20, hash: block(20) }, depth: 10 });
    }
    const read = await store.getStepRequest(hex(77));
    expect(read?.halted).to.deep.equal(await store.listHaltedChains());
    expect(read?.halted).to.deep.equal([31337, 31338, 2 ** 40]);
    expect(read?.request).to.deep.equal(await store.getRequest(hex(77)));
  });
});
