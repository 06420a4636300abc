import { expect } from "chai";
import { isFerryError } from "../../../ts/core/errors.ts";
import type { Store } from "../../../ts/service/store/createStore.ts";
import { encodeCursor, type RequestFilters } from "../../../ts/service/store/listRequests.ts";
import type { NewRequest } from "../../../ts/service/model/storedRequest.ts";
import { describeEachEngine, type TestClock } from "./engines.ts";
import { withIntent } from "../fixtures/testRequest.ts";
import { canonicalAddress, canonicalHex, type Bytes32 } from "../../../ts/service/model/values.ts";

const T = Date.UTC(2026, 0, 1);
const T_SECONDS = T / 1000;
const hex = (n: number, bytes = 32) => canonicalHex(`0x${n.toString(16).padStart(bytes * 2, "0")}`);
const address = (n: number) => hex(n, 20);
const [U1, U2, U3, R1, R2, R3] = [0xa1, 0xa2, 0xa3, 0xb1, 0xb2, 0xb3].map(address);
const [H1, H2, H3, H3_OUT, H5] = [0x1, 0x2, 0x3, 0x33, 0x5].map((n) => hex(0xf000 + n));

type Step = { at: number; to: "pending" | "submitted" | "success" | "failure"; txHashes?: Bytes32[] };

async function seed(store: Store, clock: TestClock, rows: { n: number; at: number; request: Omit<NewRequest, "id" | "orderId" | "solver">; steps?: Step[] }[]) {
  for (const { n, at, request } of rows) {
    clock.ms = at;
    await store.createRequest(withIntent({ id: hex(n), orderId: hex(1000 + n), ...request }));
  }
  const steps = rows.flatMap(({ n, steps = [] }) => steps.map((s) => ({ n, ...s }))).sort((a, b) => a.at - b.at);
  for (const s of steps) {
    clock.ms = s.at;
    await store.transitionRequest(hex(s.n), s.to, { txHashes: s.txHashes });
  }
}

/** Six requests covering every filter; 4 and 5 share createdAt (the id breaks the tie). */
async function seedFixture(store: Store, clock: TestClock) {
  await store.engine.query("INSERT INTO api_keys (id, key_hash, name, created_at) VALUES ('k1', 'h1', 'one', now()), ('k2', 'h2', 'two', now())");
  await seed(store, clock, [
    { n: 1, at: T, request: { user: U1, recipient: R1, originChainId: 1, destinationChainId: 2, inTxHashes: [H1], originBlock: 100, referrer: "alpha", apiKeyId: "k1" } },
    {
      n: 2,
      at: T + 10_000,
      request: { user: U2, recipient: U1, originChainId: 2, destinationChainId: 1, inTxHashes: [H2], originBlock: 200, referrer: "beta", apiKeyId: "k2" },
      steps: [{ at: T + 100_000, to: "pending" }],
    },
    {
      n: 3,
      at: T + 20_000,
      request: { user: U3, recipient: R3, originChainId: 1, destinationChainId: 3, inTxHashes: [H3], originBlock: 300, referrer: "alpha" },
      steps: [
        { at: T + 21_000, to: "pending" },
        { at: T + 22_000, to: "submitted", txHashes: [H3_OUT] },
        { at: T + 90_000, to: "success" },
      ],
    },
    { n: 4, at: T + 30_000, request: { user: U1, recipient: R1, originChainId: 3, destinationChainId: 2, status: "depositing" } },
    {
      n: 5,
      at: T + 30_000,
      request: { user: U3, recipient: R3, originChainId: 2, destinationChainId: 3, inTxHashes: [H5], originBlock: 400, apiKeyId: "k1" },
      steps: [
        { at: T + 31_000, to: "pending" },
        { at: T + 80_000, to: "failure" },
      ],
    },
    { n: 6, at: T + 40_999, request: { user: U2, recipient: R2, originChainId: 1, destinationChainId: 2, originBlock: 500 } },
  ]);
}

const ids = (page: { requests: { id: string }[] }) => page.requests.map((r) => Number(BigInt(r.id)));

async function expectCode(promise: Promise<unknown>, code: string) {
  try {
    await promise;
  } catch (error) {
    expect(isFerryError(error, code), String(error)).to.equal(true);
    return;
  }
  expect.fail(`expected ${code}`);
}

describeEachEngine("store listRequests", (engine) => {
  it("listRequests_depositAddress_listsTheRequestsOfTheAddressOnly", async () => {
    const { store, clock } = engine;
    await seedFixture(store, clock);
    const DEPOSIT = address(0xd1);
    // Request 3's quote handed out DEPOSIT (on chain 1); request 5's another address.
    const row = (n: number, at: Bytes32 | string) => ({
      chainId: 1,
      address: canonicalAddress(at),
      mode: "strict" as const,
      factory: address(0xfa),
      refundTo: U1,
      requestId: hex(n),
      orderId: hex(1000 + n),
      currency: address(0),
      amount: 1n,
      expiresAt: new Date(T + 300_000),
    });
    await store.saveDepositAddress(row(3, DEPOSIT));
    await store.saveDepositAddress(row(5, address(0xd2)));
    expect(ids(await store.listRequests({ depositAddress: DEPOSIT }))).to.deep.equal([3]);
    expect(ids(await store.listRequests({ depositAddress: address(0xd2), originChainId: 2 }))).to.deep.equal([5]);
    expect(ids(await store.listRequests({ depositAddress: address(0xd3) }))).to.deep.equal([]);
  });

  describe("filters", () => {
    beforeEach(() => seedFixture(engine.store, engine.clock));

    const cases: [string, RequestFilters, number[]][] = [
      ["no filter: everything, newest first", {}, [6, 5, 4, 3, 2, 1]],
      ["user: sender or recipient", { user: U1 }, [4, 2, 1]],
      ["user: case-insensitive", { user: canonicalAddress(U3.toUpperCase().replace("0X", "0x")) }, [5, 3]],
      ["hash: an origin transaction", { hash: H1 }, [1]],
      ["hash: a destination transaction", { hash: H3_OUT }, [3]],
      ["hash: case-insensitive", { hash: canonicalHex(H2.toUpperCase().replace("0X", "0x")) }, [2]],
      ["hash: unknown", { hash: hex(0xdead) }, []],
      ["originChainId", { originChainId: 1 }, [6, 3, 1]],
      ["destinationChainId", { destinationChainId: 2 }, [6, 4, 1]],
      ["originChainId and destinationChainId", { originChainId: 1, destinationChainId: 2 }, [6, 1]],
      ["chainId: either direction", { chainId: 3 }, [5, 4, 3]],
      ["chainId: as a string", { chainId: "3" }, [5, 4, 3]],
      ["chainId: overridden by originChainId", { chainId: 3, originChainId: 2 }, [5, 2]],
      ["chainId: overridden by destinationChainId", { chainId: 3, destinationChainId: 1 }, [2]],
      ["id", { id: hex(3) }, [3]],
      ["orderId", { orderId: hex(1005) }, [5]],
      ["startTimestamp: inclusive", { startTimestamp: T_SECONDS + 30 }, [6, 5, 4]],
      ["endTimestamp: inclusive of its whole second", { endTimestamp: T_SECONDS + 30 }, [5, 4, 3, 2, 1]],
      ["endTimestamp: includes a creation at .999", { endTimestamp: T_SECONDS + 40 }, [6, 5, 4, 3, 2, 1]],
      ["startTimestamp = endTimestamp", { startTimestamp: T_SECONDS + 40, endTimestamp: T_SECONDS + 40 }, [6]],
      ["startBlock: inclusive", { startBlock: 200 }, [6, 5, 3, 2]],
      ["endBlock: inclusive", { endBlock: 300 }, [3, 2, 1]],
      ["startBlock and endBlock (no block: excluded)", { startBlock: 200, endBlock: 400 }, [5, 3, 2]],
      ["referrer", { referrer: "alpha" }, [3, 1]],
      // 5 is a stored failure whose refund is in progress: it shows (and filters) as pending.
      ["status: pending", { status: "pending" }, [5, 2]],
      ["status: success", { status: "success" }, [3]],
      ["status: failure (a refund in progress is not one)", { status: "failure" }, []],
      ["status: depositing", { status: "depositing" }, [4]],
      ["status: refund (none)", { status: "refund" }, []],
      ["apiKey", { apiKey: "k1" }, [5, 1]],
      ["filters combine with AND", { user: U3, status: "success" }, [3]],
    ];
    for (const [name, filters, expected] of cases) {
      it(`listRequests_filters_${name}`, async () => {
        expect(ids(await engine.store.listRequests(filters))).to.deep.equal(expected);
      });
    }

    it("listRequests_filters_status_onThePublicStatus_asTheRecordsShowIt", async () => {
      const { store } = engine;
      await store.patchRequest(hex(5), { refundFailReason: "AMOUNT_TOO_LOW_TO_REFUND" });
      expect(ids(await store.listRequests({ status: "failure" }))).to.deep.equal([5]);
      expect(ids(await store.listRequests({ status: "pending" }))).to.deep.equal([2]);
      // A stored failure after a sent fill shows (and filters) as submitted while its refund is in progress.
      await store.transitionRequest(hex(6), "pending");
      await store.transitionRequest(hex(6), "submitted", { txHashes: [hex(0x6f)] });
      await store.transitionRequest(hex(6), "failure", { failReason: "TRANSACTION_REVERTED" });
      expect(ids(await store.listRequests({ status: "submitted" }))).to.deep.equal([6]);
      for (const status of ["pending", "submitted", "failure", "success"] as const) {
        const page = await store.listRequests({ status });
        const { publicStatus } = await import("../../../ts/service/model/publicStatus.ts");
        for (const request of page.requests) expect(publicStatus(request), `${status}: ${request.id}`).to.equal(status);
      }
    });

    const sorts: [RequestFilters["sortBy"], RequestFilters["sortDirection"], number[]][] = [
      ["createdAt", "desc", [6, 5, 4, 3, 2, 1]],
      ["createdAt", "asc", [1, 2, 3, 4, 5, 6]],
      ["updatedAt", "desc", [2, 3, 5, 6, 4, 1]],
      ["updatedAt", "asc", [1, 4, 6, 5, 3, 2]],
    ];
    for (const [sortBy, sortDirection, expected] of sorts) {
      it(`listRequests_sortsBy_${sortBy}_${sortDirection}`, async () => {
        expect(ids(await engine.store.listRequests({ sortBy, sortDirection }))).to.deep.equal(expected);
      });
    }

    it("listRequests_returnsNoContinuation_onTheLastPage", async () => {
      expect(await engine.store.listRequests({ limit: 6 })).to.not.have.property("continuation");
      expect((await engine.store.listRequests({ limit: 5 })).continuation).to.be.a("string");
    });
  });

  describe("limit and cursor", () => {
    it("listRequests_rejectsLimitsOutOfBounds", async () => {
      for (const limit of [0, 51, -1, 1.5, Number.NaN]) await expectCode(engine.store.listRequests({ limit }), "INVALID_INPUT");
    });

    it("listRequests_honoursLimitBounds_andDefaultsTo20", async () => {
      const { store, clock } = engine;
      await seed(
        store,
        clock,
        Array.from({ length: 55 }, (_, i) => ({ n: i + 1, at: T + i * 1000, request: { user: U1, recipient: R1, originChainId: 1, destinationChainId: 2 } })),
      );
      expect((await store.listRequests()).requests.length).to.equal(20);
      expect((await store.listRequests({ limit: 1 })).requests.length).to.equal(1);
      expect((await store.listRequests({ limit: 50 })).requests.length).to.equal(50);
    });

    it("listRequests_rejectsANonIntegerChainId", async () => {
      await expectCode(engine.store.listRequests({ chainId: "abc" }), "INVALID_INPUT");
    });

    it("listRequests_rejectsAGarbageCursor", async () => {
      for (const continuation of ["%%%", "bm90IGpzb24", Buffer.from("[1,2]").toString("base64url")]) {
        await expectCode(engine.store.listRequests({ continuation }), "INVALID_CURSOR");
      }
    });

    it("listRequests_rejectsACursorOfAnotherSortOrder", async () => {
      const continuation = encodeCursor({ sortBy: "createdAt", sortDirection: "desc", key: new Date(T).toISOString(), id: hex(1) });
      await expectCode(engine.store.listRequests({ continuation, sortBy: "updatedAt" }), "INVALID_CURSOR");
      await expectCode(engine.store.listRequests({ continuation, sortDirection: "asc" }), "INVALID_CURSOR");
    });

    async function seedForPaging(store: Store, clock: TestClock) {
      // 23 requests, three per creation time (ties broken by id); every third one updated later.
      await seed(
        store,
        clock,
        Array.from({ length: 23 }, (_, i) => ({
          n: i + 1,
          at: T + Math.floor(i / 3) * 1000,
          request: { user: U1, recipient: R1, originChainId: 1, destinationChainId: 2 },
          steps: i % 3 === 0 ? [{ at: T + 100_000 + ((i * 7) % 5) * 1000, to: "pending" as const }] : [],
        })),
      );
    }

    for (const sortBy of ["createdAt", "updatedAt"] as const) {
      for (const sortDirection of ["asc", "desc"] as const) {
        it(`listRequests_continuationVisitsEveryRowOnce_${sortBy}_${sortDirection}`, async () => {
          const { store, clock } = engine;
          await seedForPaging(store, clock);
          const all = ids(await store.listRequests({ sortBy, sortDirection, limit: 50 }));
          expect(all.length).to.equal(23);
          const visited: number[] = [];
          let continuation: string | undefined;
          let pages = 0;
          do {
            const page = await store.listRequests({ sortBy, sortDirection, limit: 4, continuation });
            visited.push(...ids(page));
            continuation = page.continuation;
            pages++;
          } while (continuation !== undefined);
          expect(visited).to.deep.equal(all);
          expect(pages).to.equal(6);
        });
      }
    }

    it("listRequests_continuationIsStable_underInserts", async () => {
      const { store, clock } = engine;
      await seedForPaging(store, clock);
      const original = ids(await store.listRequests({ limit: 50 }));
      const first = await store.listRequests({ limit: 5 });
      const visited = ids(first);
      // Newer requests arrive while paging: they sort before the cursor and must not shift what follows.
      await seed(
        store,
        clock,
        [101, 102, 103].map((n) => ({ n, at: T + 500_000 + n, request: { user: U2, recipient: R2, originChainId: 1, destinationChainId: 2 } })),
      );
      let continuation = first.continuation;
      while (continuation !== undefined) {
        const page = await store.listRequests({ limit: 5, continuation });
        visited.push(...ids(page));
        continuation = page.continuation;
      }
      expect(visited).to.deep.equal(original);
    });
  });
});
