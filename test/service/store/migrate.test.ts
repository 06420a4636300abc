import { expect } from "chai";
import { loadMigrations } from "../../../ts/service/store/migrate.ts";
import { describeEachEngine } from "./engines.ts";
import { canonicalAddress } from "../../../ts/service/model/values.ts";

const TABLES = [
  "api_keys",
  "app_balance_entries",
  "app_balance_holds",
  "app_balances",
  "app_exposure_windows",
  "app_funding_orders",
  "app_withdrawals",
  "deposit_address_payments",
  "deposit_address_quotes",
  "deposit_addresses",
  "indexer_checkpoints",
  "permit_failures",
  "quotes",
  "repayment_batches",
  "request_events",
  "requests",
  "schema_migrations",
  "solver_claims",
  "solver_nonces",
  "solver_reservations",
  "solver_transactions",
  "stray_deposits",
  "stray_tracking",
  "webhook_attempts",
  "worker_leases",
];

describeEachEngine("store migrations", (engine) => {
  it("migrate_appliesEveryNumberedFileOnce", async () => {
    const { rows } = await engine.store.engine.query<{ version: number; name: string }>("SELECT version, name FROM schema_migrations ORDER BY version");
    expect(rows).to.deep.equal(loadMigrations().map((m) => ({ version: m.version, name: m.name })));
  });

  it("migrate_createsEveryTable", async () => {
    const { rows } = await engine.store.engine.query<{ table_name: string }>(
      "SELECT table_name FROM information_schema.tables WHERE table_schema = current_schema() ORDER BY table_name",
    );
    expect(rows.map((r) => r.table_name)).to.deep.equal(TABLES);
  });

  it("migrate_isIdempotent_whenRunTwice", async () => {
    expect(await engine.store.migrate()).to.deep.equal([]);
    expect(await engine.store.migrate()).to.deep.equal([]);
    const { rows } = await engine.store.engine.query<{ n: number }>("SELECT count(*)::int AS n FROM schema_migrations");
    expect(rows[0].n).to.equal(loadMigrations().length);
  });

  it("createStore_reopensAnExistingDatabase_withoutReapplying_andKeepsData", async () => {
    const db = await engine.freshDatabase();
    const first = await db.open();
    await first.setCheckpoint(1, canonicalAddress("0xAbC"), 42);
    await first.close();
    const second = await db.open();
    try {
      expect(await second.migrate()).to.deep.equal([]);
      expect(await second.getCheckpoint(1, "0xabc")).to.equal(42);
    } finally {
      await second.close();
    }
  });

  if (engine.kind === "postgres") {
    it("createStore_migratesOnce_whenReplicasStartConcurrently", async () => {
      const db = await engine.freshDatabase();
      const stores = await Promise.all([db.open(), db.open(), db.open(), db.open()]);
      try {
        const { rows } = await stores[0].engine.query<{ n: number }>("SELECT count(*)::int AS n FROM schema_migrations");
        expect(rows[0].n).to.equal(loadMigrations().length);
      } finally {
        await Promise.all(stores.map((s) => s.close()));
      }
    });
  }
});
