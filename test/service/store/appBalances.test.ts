// The app ledger (../../../ts/service/store/appBalances.ts) on both engines: credits once per log,
// holds checked and inserted atomically (two stores on one database racing), idempotent settles and
// releases, exposure windows on the store's clock, and calls joining the caller's transaction.
import { expect } from "chai";
import type { ExposureBudgets } from "../../../ts/service/balances/exposureBudget.ts";
import { isFerryError } from "../../../ts/core/errors.ts";
import { appBalanceStore, type AppBalanceStore, type LedgerObservation } from "../../../ts/service/store/appBalances.ts";
import { engineDb } from "../../../ts/service/store/engine.ts";
import { describeEachEngine } from "./engines.ts";

const APP = "key_00000000000000a1";
const OTHER = "key_00000000000000b2";
const TX = "0x" + "ab".repeat(32);
const USDC = "0x" + "cd".repeat(20);

async function codeOf(promise: Promise<unknown>): Promise<string> {
  try {
    await promise;
  } catch (error) {
    if (isFerryError(error)) return error.code;
    throw error;
  }
  throw new Error("expected a ServiceError, nothing was thrown");
}

describeEachEngine("app balances", (engine) => {
  let ledger: AppBalanceStore;
  beforeEach(() => {
    ledger = engine.store.appBalances;
  });

  const fund = (amountUsd: bigint, logIndex = 0, apiKeyId = APP) =>
    ledger.credit({ apiKeyId, amountUsd, source: { chainId: 31337, txHash: TX, logIndex }, currency: USDC, amount: amountUsd });

  it("appBalances_credit_isOncePerSourceLog", async () => {
    expect(await ledger.balance(APP)).to.deep.equal({ creditedUsd: 0n, debitedUsd: 0n, heldUsd: 0n, availableUsd: 0n });
    expect(await fund(5_000_000n)).to.deep.equal({ credited: true });
    // The same log indexed again (a restart, a re-read window): nothing more.
    expect(await fund(5_000_000n)).to.deep.equal({ credited: false });
    expect(await fund(1_000_000n, 1)).to.deep.equal({ credited: true });
    expect(await ledger.balance(APP)).to.deep.equal({ creditedUsd: 6_000_000n, debitedUsd: 0n, heldUsd: 0n, availableUsd: 6_000_000n });
    const entries = await ledger.entries(APP, { limit: 10 });
    expect(entries.map((e) => [e.kind, e.amountUsd, e.source?.logIndex])).to.deep.equal([
      ["credit", 1_000_000n, 1],
      ["credit", 5_000_000n, 0],
    ]);
  });

  it("appBalances_hold_refusesWhatIsNotAvailable_andWritesNothing", async () => {
    await fund(1_000_000n);
    expect(await codeOf(ledger.hold({ apiKeyId: APP, amountUsd: 1_000_001n, purpose: "execute", reference: "r1" }))).to.equal("SPONSOR_BALANCE_TOO_LOW");
    expect(await codeOf(ledger.hold({ apiKeyId: OTHER, amountUsd: 1n, purpose: "execute", reference: "r2" }))).to.equal("SPONSOR_BALANCE_TOO_LOW");
    expect(await ledger.balance(APP)).to.deep.equal({ creditedUsd: 1_000_000n, debitedUsd: 0n, heldUsd: 0n, availableUsd: 1_000_000n });
    const { rows } = await engine.store.engine.query<{ n: number }>("SELECT count(*)::int AS n FROM app_balance_holds");
    expect(rows[0]!.n).to.equal(0);
    expect((await ledger.entries(APP)).map((e) => e.kind)).to.deep.equal(["credit"]);
  });

  it("appBalances_hold_isIdempotentOnPurposeAndReference", async () => {
    await fund(1_000_000n);
    const first = await ledger.hold({ apiKeyId: APP, amountUsd: 400_000n, purpose: "sponsorship", reference: "req-1" });
    const again = await ledger.hold({ apiKeyId: APP, amountUsd: 400_000n, purpose: "sponsorship", reference: "req-1" });
    expect(again).to.deep.equal(first);
    // Another purpose with the same reference is another hold.
    await ledger.hold({ apiKeyId: APP, amountUsd: 100_000n, purpose: "execute", reference: "req-1" });
    expect((await ledger.balance(APP)).heldUsd).to.equal(500_000n);
    // Another app cannot take over a reference.
    await fund(1_000_000n, 1, OTHER);
    expect(await codeOf(ledger.hold({ apiKeyId: OTHER, amountUsd: 1n, purpose: "sponsorship", reference: "req-1" }))).to.equal("APP_BALANCE_HOLD_CONFLICT");
  });

  it("appBalances_settle_debitsTheSpendAndReleasesTheRest_once", async () => {
    await fund(1_000_000n);
    const { holdId } = await ledger.hold({ apiKeyId: APP, amountUsd: 600_000n, purpose: "execute", reference: "req-1" });
    expect(await ledger.balance(APP)).to.deep.equal({ creditedUsd: 1_000_000n, debitedUsd: 0n, heldUsd: 600_000n, availableUsd: 400_000n });
    expect(await codeOf(ledger.settle({ holdId, spentUsd: 600_001n }))).to.equal("APP_BALANCE_SPEND_EXCEEDS_HOLD");
    const settled = await ledger.settle({ holdId, spentUsd: 250_000n });
    expect(settled).to.include({ state: "settled", spentUsd: 250_000n });
    expect(await ledger.balance(APP)).to.deep.equal({ creditedUsd: 1_000_000n, debitedUsd: 250_000n, heldUsd: 0n, availableUsd: 750_000n });
    // A second settle (a retried step) changes nothing, whatever it says.
    expect(await ledger.settle({ holdId, spentUsd: 600_000n })).to.deep.equal(settled);
    expect(await codeOf(ledger.release(holdId))).to.equal("APP_BALANCE_HOLD_ENDED");
    expect(await ledger.balance(APP)).to.deep.equal({ creditedUsd: 1_000_000n, debitedUsd: 250_000n, heldUsd: 0n, availableUsd: 750_000n });
    expect((await ledger.entries(APP)).map((e) => [e.kind, e.amountUsd])).to.deep.equal([
      ["release", 350_000n],
      ["debit", 250_000n],
      ["hold", 600_000n],
      ["credit", 1_000_000n],
    ]);
  });

  it("appBalances_release_givesTheHoldBack_once_andASettleAfterItIsRefused", async () => {
    await fund(1_000_000n);
    const { holdId } = await ledger.hold({ apiKeyId: APP, amountUsd: 1_000_000n, purpose: "withdrawal", reference: "wd-1" });
    expect((await ledger.balance(APP)).availableUsd).to.equal(0n);
    const released = await ledger.release(holdId);
    expect(released).to.include({ state: "released", spentUsd: null });
    expect(await ledger.release(holdId)).to.deep.equal(released);
    expect(await codeOf(ledger.settle({ holdId, spentUsd: 1n }))).to.equal("APP_BALANCE_HOLD_ENDED");
    expect(await codeOf(ledger.release("hold_missing"))).to.equal("APP_BALANCE_HOLD_NOT_FOUND");
    expect(await ledger.balance(APP)).to.deep.equal({ creditedUsd: 1_000_000n, debitedUsd: 0n, heldUsd: 0n, availableUsd: 1_000_000n });
  });

  it("appBalances_refusesAmountsThatAreNotPositive", async () => {
    await fund(1_000_000n);
    expect(await codeOf(ledger.hold({ apiKeyId: APP, amountUsd: 0n, purpose: "execute", reference: "z" }))).to.equal("INVALID_INPUT");
    expect(await codeOf(ledger.hold({ apiKeyId: APP, amountUsd: -5n, purpose: "execute", reference: "z" }))).to.equal("INVALID_INPUT");
    const { holdId } = await ledger.hold({ apiKeyId: APP, amountUsd: 5n, purpose: "execute", reference: "z" });
    expect(await codeOf(ledger.settle({ holdId, spentUsd: -1n }))).to.equal("INVALID_INPUT");
    expect(await codeOf(ledger.entries(APP, { limit: 0 }))).to.equal("INVALID_INPUT");
  });

  it("appBalances_joinTheCallersTransaction_andRollBackWithIt", async () => {
    await fund(1_000_000n);
    const failed = engine.store.transaction(async (tx) => {
      await tx.appBalances.hold({ apiKeyId: APP, amountUsd: 300_000n, purpose: "execute", reference: "req-rollback" });
      throw new Error("the request's state change failed");
    });
    let rolledBack = false;
    await failed.catch((error: Error) => (rolledBack = /state change failed/.test(error.message)));
    expect(rolledBack).to.equal(true);
    expect((await ledger.balance(APP)).heldUsd).to.equal(0n);
    // And a debit commits with the caller's other write.
    await engine.store.transaction(async (tx) => {
      const { holdId } = await tx.appBalances.hold({ apiKeyId: APP, amountUsd: 300_000n, purpose: "execute", reference: "req-commit" });
      await tx.appBalances.settle({ holdId, spentUsd: 300_000n });
      await tx.recordPermitFailure("0x15d34aaf54267db7d7c367839aaf71a00a2c6a65", 3600_000);
    });
    expect((await ledger.balance(APP)).debitedUsd).to.equal(300_000n);
  });

  it("appBalances_twoStoresOnOneDatabase_cannotBothHoldTheWholeBalance", async function () {
    const db = await engine.freshDatabase();
    const a = await db.open();
    // PGlite's data folder is one process's (its lock): the second "replica" is a second ledger on the same engine.
    const b = engine.kind === "postgres" ? await db.open() : a;
    try {
      const ledgerA = a.appBalances;
      const ledgerB = engine.kind === "postgres" ? b.appBalances : appBalanceStore(engineDb(a.engine), { now: engine.clock.now });
      await ledgerA.credit({ apiKeyId: APP, amountUsd: 1_000_000n, source: { chainId: 1, txHash: TX, logIndex: 0 }, currency: USDC, amount: 1n });
      for (let round = 0; round < 5; round++) {
        const results = await Promise.allSettled([
          ledgerA.hold({ apiKeyId: APP, amountUsd: 1_000_000n, purpose: "withdrawal", reference: `a-${round}` }),
          ledgerB.hold({ apiKeyId: APP, amountUsd: 1_000_000n, purpose: "withdrawal", reference: `b-${round}` }),
        ]);
        const won = results.filter((r) => r.status === "fulfilled");
        const lost = results.filter((r): r is PromiseRejectedResult => r.status === "rejected");
        expect(won, `round ${round}`).to.have.length(1);
        expect(lost.map((r) => (isFerryError(r.reason) ? r.reason.code : String(r.reason)))).to.deep.equal(["SPONSOR_BALANCE_TOO_LOW"]);
        expect(await ledgerA.balance(APP)).to.deep.equal({ creditedUsd: 1_000_000n, debitedUsd: 0n, heldUsd: 1_000_000n, availableUsd: 0n });
        await ledgerB.release((won[0] as PromiseFulfilledResult<{ holdId: string }>).value.holdId);
      }
    } finally {
      if (b !== a) await b.close();
      await a.close();
    }
  });

  describe("exposure budgets", () => {
    const budgets: ExposureBudgets = {
      perApp: { sponsorship: 1_000_000n },
      apps: { [OTHER]: { sponsorship: 3_000_000n } },
      perCurrency: [{ chainId: 31338, currency: USDC, limits: { fastFill: 2_500_000n } }],
    };
    let observed: LedgerObservation[];
    let budgeted: AppBalanceStore;
    beforeEach(async () => {
      observed = [];
      budgeted = appBalanceStore(engineDb(engine.store.engine), { now: engine.clock.now, exposure: budgets, observe: (o) => observed.push(o) });
      await fund(10_000_000n);
      await fund(10_000_000n, 1, OTHER);
    });

    it("exposure_perAppHourlyWindow_onTheStoreClock", async () => {
      engine.clock.ms = Date.UTC(2026, 0, 1, 10, 30);
      await budgeted.hold({ apiKeyId: APP, amountUsd: 600_000n, purpose: "sponsorship", reference: "s1" });
      expect(await codeOf(budgeted.hold({ apiKeyId: APP, amountUsd: 400_001n, purpose: "sponsorship", reference: "s2" }))).to.equal("EXPOSURE_BUDGET_EXCEEDED");
      // Other purposes and apps with their own budget are not held back.
      await budgeted.hold({ apiKeyId: APP, amountUsd: 5_000_000n, purpose: "execute", reference: "e1" });
      await budgeted.hold({ apiKeyId: OTHER, amountUsd: 2_000_000n, purpose: "sponsorship", reference: "o1" });
      // The next hour is a new window.
      engine.clock.ms = Date.UTC(2026, 0, 1, 11, 0);
      await budgeted.hold({ apiKeyId: APP, amountUsd: 1_000_000n, purpose: "sponsorship", reference: "s3" });
      expect(observed.filter((o) => o.kind === "refused")).to.deep.equal([{ kind: "refused", purpose: "sponsorship", amountUsd: 400_001n, code: "EXPOSURE_BUDGET_EXCEEDED" }]);
    });

    it("exposure_unspentPartOfAHold_isGivenBackToItsWindow", async () => {
      engine.clock.ms = Date.UTC(2026, 0, 1, 10, 0);
      const { holdId } = await budgeted.hold({ apiKeyId: APP, amountUsd: 1_000_000n, purpose: "sponsorship", reference: "s1" });
      expect(await codeOf(budgeted.hold({ apiKeyId: APP, amountUsd: 1n, purpose: "sponsorship", reference: "s2" }))).to.equal("EXPOSURE_BUDGET_EXCEEDED");
      await budgeted.settle({ holdId, spentUsd: 700_000n });
      await budgeted.hold({ apiKeyId: APP, amountUsd: 300_000n, purpose: "sponsorship", reference: "s3" });
      expect(await codeOf(budgeted.hold({ apiKeyId: APP, amountUsd: 1n, purpose: "sponsorship", reference: "s4" }))).to.equal("EXPOSURE_BUDGET_EXCEEDED");
    });

    it("exposure_perSolverCurrency_isSharedByEveryApp", async () => {
      const exposure = { chainId: 31338, currency: USDC };
      await budgeted.hold({ apiKeyId: APP, amountUsd: 2_000_000n, purpose: "fastFill", reference: "f1", exposure });
      expect(await codeOf(budgeted.hold({ apiKeyId: OTHER, amountUsd: 600_000n, purpose: "fastFill", reference: "f2", exposure }))).to.equal("EXPOSURE_BUDGET_EXCEEDED");
      // Nothing was written for the refused hold.
      expect((await budgeted.balance(OTHER)).heldUsd).to.equal(0n);
      await budgeted.hold({ apiKeyId: OTHER, amountUsd: 500_000n, purpose: "fastFill", reference: "f3", exposure });
      // Another currency is not counted there.
      await budgeted.hold({ apiKeyId: OTHER, amountUsd: 5_000_000n, purpose: "fastFill", reference: "f4", exposure: { chainId: 31337, currency: USDC } });
    });
  });
});
