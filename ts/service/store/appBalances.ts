/**
 * App balances (migration 0014): the ledger of what each app (API key) funded onchain, holds for
 * spends in flight and was debited, in USD micro-units (../balances/usdMicros.ts). Every method runs
 * in one store transaction and joins the caller's when called inside one (`Db.transaction`), so a
 * debit commits together with the request state change it pays for.
 *
 * - `credit` is idempotent on its source log (chainId, txHash, logIndex): a log indexed again after a
 *   restart or a re-read of the unconfirmed window credits once.
 * - `hold` locks the app's `app_balances` row (`SELECT … FOR UPDATE`), so two replicas cannot both
 *   pass the check; it is idempotent on (purpose, reference); short of funds it throws
 *   SPONSOR_BALANCE_TOO_LOW, past an exposure budget EXPOSURE_BUDGET_EXCEEDED, writing nothing.
 * - `settle` debits what was spent (≤ the hold) and gives the rest back; `release` gives it all back;
 *   both are idempotent, and a hold ends once (a settled hold is not released, nor the reverse).
 *
 * Lock order, everywhere: the app's balance row, then the hold, then the exposure windows (by scope).
 */
import { randomBytes } from "node:crypto";
import { exposureScopes, exposureWindowStart, NO_EXPOSURE_BUDGETS, type ExposureBudgets } from "../balances/exposureBudget.ts";
import { isHoldPurpose, type HoldPurpose } from "../balances/holdPurpose.ts";
import { requireUsdMicros } from "../balances/usdMicros.ts";
import { ServiceError } from "../errors/serviceError.ts";
import { isoColumn, type Db } from "./engine.ts";

export type AppBalance = { creditedUsd: bigint; debitedUsd: bigint; heldUsd: bigint; availableUsd: bigint };

/** The log a credit comes from: a funding deposit's `Deposited` log. */
export type CreditSource = { chainId: number; txHash: string; logIndex: number };

export type NewCredit = {
  apiKeyId: string;
  amountUsd: bigint;
  source: CreditSource;
  /** The deposited currency (canonical lowercase address) and amount in its smallest units, for the ledger line. */
  currency: string;
  amount: bigint;
};

export type NewHold = {
  apiKeyId: string;
  amountUsd: bigint;
  purpose: HoldPurpose;
  /** The spend's own id (a request id, a withdrawal id…): (purpose, reference) is the hold's idempotency key. */
  reference: string;
  /** The solver currency the service spends for this hold, for its per-currency exposure budget. */
  exposure?: { chainId: number; currency: string };
};

export type HoldState = "held" | "settled" | "released";

export type AppBalanceHold = {
  holdId: string;
  apiKeyId: string;
  purpose: HoldPurpose;
  reference: string;
  amountUsd: bigint;
  state: HoldState;
  /** What was debited: set once settled. */
  spentUsd: bigint | null;
  createdAt: string;
  endedAt: string | null;
};

export type LedgerEntryKind = "credit" | "hold" | "debit" | "release";

export type LedgerEntry = {
  id: number;
  kind: LedgerEntryKind;
  amountUsd: bigint;
  holdId: string | null;
  purpose: HoldPurpose | null;
  reference: string | null;
  source: CreditSource | null;
  currency: string | null;
  amount: bigint | null;
  createdAt: string;
};

/** What the ledger tells a metrics observer (../http/metrics): committed or not, once per call that did it. */
export type LedgerObservation =
  | { kind: "held" | "debited" | "released"; purpose: HoldPurpose; amountUsd: bigint }
  | { kind: "refused"; purpose: HoldPurpose; amountUsd: bigint; code: "SPONSOR_BALANCE_TOO_LOW" | "EXPOSURE_BUDGET_EXCEEDED" };

export type AppBalanceOptions = {
  /** The store's clock: stamps and exposure windows. */
  now?: () => Date;
  exposure?: ExposureBudgets;
  observe?: (observation: LedgerObservation) => void;
};

export type AppBalanceStore = {
  balance(apiKeyId: string): Promise<AppBalance>;
  /** Credits the app once per source log; `credited` false when that log was credited already. */
  credit(credit: NewCredit): Promise<{ credited: boolean }>;
  hold(hold: NewHold): Promise<{ holdId: string; amountUsd: bigint }>;
  settle(settlement: { holdId: string; spentUsd: bigint }): Promise<AppBalanceHold>;
  release(holdId: string): Promise<AppBalanceHold>;
  getHold(holdId: string): Promise<AppBalanceHold | null>;
  /** The app's ledger lines, newest first (default 50, at most 500). */
  entries(apiKeyId: string, options?: { limit?: number }): Promise<LedgerEntry[]>;
};

export class SponsorBalanceTooLowError extends ServiceError {
  readonly availableUsd: bigint;
  readonly amountUsd: bigint;
  constructor(availableUsd: bigint, amountUsd: bigint) {
    super("SPONSOR_BALANCE_TOO_LOW", `the app balance has ${availableUsd} USD micro-units available, ${amountUsd} are needed`);
    this.availableUsd = availableUsd;
    this.amountUsd = amountUsd;
  }
}

export class ExposureBudgetExceededError extends ServiceError {
  readonly scope: string;
  readonly purpose: HoldPurpose;
  readonly limitUsd: bigint;
  readonly usedUsd: bigint;
  constructor(scope: string, purpose: HoldPurpose, limitUsd: bigint, usedUsd: bigint) {
    super("EXPOSURE_BUDGET_EXCEEDED", `the hourly ${purpose} exposure budget of ${scope} (${limitUsd} USD micro-units, ${usedUsd} used) does not cover this; retry in the next hour`);
    this.scope = scope;
    this.purpose = purpose;
    this.limitUsd = limitUsd;
    this.usedUsd = usedUsd;
  }
}

type BalanceRow = { credited_usd: string; debited_usd: string; held_usd: string };
type HoldRow = {
  id: string;
  api_key_id: string;
  purpose: string;
  reference: string;
  amount_usd: string;
  state: HoldState;
  spent_usd: string | null;
  exposure_scopes: string[];
  window_start: string;
  created_at: string;
  ended_at: string | null;
};
type EntryRow = {
  id: number;
  kind: LedgerEntryKind;
  amount_usd: string;
  hold_id: string | null;
  purpose: string | null;
  reference: string | null;
  source_chain_id: number | null;
  source_tx_hash: string | null;
  source_log_index: number | null;
  currency: string | null;
  amount: string | null;
  created_at: string;
};

const BALANCE_COLUMNS = "credited_usd::text AS credited_usd, debited_usd::text AS debited_usd, held_usd::text AS held_usd";
const HOLD_COLUMNS = `id, api_key_id, purpose, reference, amount_usd::text AS amount_usd, state, spent_usd::text AS spent_usd, exposure_scopes, ${isoColumn("window_start")}, ${isoColumn("created_at")}, ${isoColumn("ended_at")}`;

const MAX_ENTRIES = 500;

function balanceOf(row: BalanceRow | undefined): AppBalance {
  if (!row) return { creditedUsd: 0n, debitedUsd: 0n, heldUsd: 0n, availableUsd: 0n };
  const creditedUsd = BigInt(row.credited_usd);
  const debitedUsd = BigInt(row.debited_usd);
  const heldUsd = BigInt(row.held_usd);
  const available = creditedUsd - debitedUsd - heldUsd;
  return { creditedUsd, debitedUsd, heldUsd, availableUsd: available > 0n ? available : 0n };
}

function holdOf(row: HoldRow): AppBalanceHold {
  if (!isHoldPurpose(row.purpose)) throw new ServiceError("STORED_VALUE_INVALID", `app_balance_holds.purpose: ${row.purpose}`);
  return {
    holdId: row.id,
    apiKeyId: row.api_key_id,
    purpose: row.purpose,
    reference: row.reference,
    amountUsd: BigInt(row.amount_usd),
    state: row.state,
    spentUsd: row.spent_usd === null ? null : BigInt(row.spent_usd),
    createdAt: row.created_at,
    endedAt: row.ended_at,
  };
}

function entryOf(row: EntryRow): LedgerEntry {
  return {
    id: row.id,
    kind: row.kind,
    amountUsd: BigInt(row.amount_usd),
    holdId: row.hold_id,
    purpose: row.purpose !== null && isHoldPurpose(row.purpose) ? row.purpose : null,
    reference: row.reference,
    source:
      row.source_chain_id !== null && row.source_tx_hash !== null && row.source_log_index !== null
        ? { chainId: row.source_chain_id, txHash: row.source_tx_hash, logIndex: row.source_log_index }
        : null,
    currency: row.currency,
    amount: row.amount === null ? null : BigInt(row.amount),
    createdAt: row.created_at,
  };
}

function requireKeyId(apiKeyId: string): string {
  if (typeof apiKeyId !== "string" || apiKeyId.length === 0 || apiKeyId.length > 128) throw new ServiceError("INVALID_INPUT", "apiKeyId must be a key id");
  return apiKeyId;
}

/** The app ledger on `db` (a store's Db, or a transaction's: every method joins it). */
export function appBalanceStore(db: Db, options: AppBalanceOptions = {}): AppBalanceStore {
  const now = options.now ?? (() => new Date());
  const budgets = options.exposure ?? NO_EXPOSURE_BUDGETS;
  const observe = (o: LedgerObservation) => {
    try {
      options.observe?.(o);
    } catch {
      // An observer's failure is its own.
    }
  };

  const lockHold = async (tx: Db, holdId: string): Promise<HoldRow> => {
    const { rows: found } = await tx.query<{ api_key_id: string }>("SELECT api_key_id FROM app_balance_holds WHERE id = $1", [holdId]);
    if (!found[0]) throw new ServiceError("APP_BALANCE_HOLD_NOT_FOUND", `no app balance hold ${holdId}`);
    // Lock order: the balance row first (as `hold` does), then the hold.
    await tx.query("SELECT 1 FROM app_balances WHERE api_key_id = $1 FOR UPDATE", [found[0].api_key_id]);
    const { rows } = await tx.query<HoldRow>(`SELECT ${HOLD_COLUMNS} FROM app_balance_holds WHERE id = $1 FOR UPDATE`, [holdId]);
    return rows[0]!;
  };

  /** Ends a held hold: `spent` debited, the rest back to available and to its exposure windows. */
  const endHold = async (tx: Db, row: HoldRow, state: "settled" | "released", spent: bigint): Promise<AppBalanceHold> => {
    const at = now();
    const amount = BigInt(row.amount_usd);
    const back = amount - spent;
    const { rows } = await tx.query<HoldRow>(
      `UPDATE app_balance_holds SET state = $2, spent_usd = $3::numeric, ended_at = $4 WHERE id = $1 RETURNING ${HOLD_COLUMNS}`,
      [row.id, state, state === "settled" ? spent.toString() : null, at],
    );
    await tx.query("UPDATE app_balances SET held_usd = held_usd - $2::numeric, debited_usd = debited_usd + $3::numeric, updated_at = $4 WHERE api_key_id = $1", [
      row.api_key_id,
      amount.toString(),
      spent.toString(),
      at,
    ]);
    const line = (kind: LedgerEntryKind, value: bigint) =>
      tx.query("INSERT INTO app_balance_entries (api_key_id, kind, amount_usd, hold_id, purpose, reference, created_at) VALUES ($1, $2, $3::numeric, $4, $5, $6, $7)", [
        row.api_key_id,
        kind,
        value.toString(),
        row.id,
        row.purpose,
        row.reference,
        at,
      ]);
    if (state === "settled") await line("debit", spent);
    if (back > 0n) {
      await line("release", back);
      for (const scope of [...row.exposure_scopes].sort()) {
        await tx.query("UPDATE app_exposure_windows SET used_usd = GREATEST(used_usd - $4::numeric, 0) WHERE scope = $1 AND purpose = $2 AND window_start = $3", [
          scope,
          row.purpose,
          row.window_start,
          back.toString(),
        ]);
      }
    }
    const ended = holdOf(rows[0]!);
    if (spent > 0n) observe({ kind: "debited", purpose: ended.purpose, amountUsd: spent });
    if (back > 0n) observe({ kind: "released", purpose: ended.purpose, amountUsd: back });
    return ended;
  };

  return {
    async balance(apiKeyId) {
      const { rows } = await db.query<BalanceRow>(`SELECT ${BALANCE_COLUMNS} FROM app_balances WHERE api_key_id = $1`, [requireKeyId(apiKeyId)]);
      return balanceOf(rows[0]);
    },

    async credit(credit) {
      const apiKeyId = requireKeyId(credit.apiKeyId);
      const amountUsd = requireUsdMicros(credit.amountUsd, "amountUsd", { allowZero: true });
      const { chainId, txHash, logIndex } = credit.source;
      if (!Number.isSafeInteger(chainId) || !Number.isSafeInteger(logIndex) || logIndex < 0) throw new ServiceError("INVALID_INPUT", "a credit's source needs a chainId and a logIndex");
      const at = now();
      return db.transaction(async (tx) => {
        const { rowCount } = await tx.query(
          `INSERT INTO app_balance_entries (api_key_id, kind, amount_usd, source_chain_id, source_tx_hash, source_log_index, currency, amount, created_at)
           VALUES ($1, 'credit', $2::numeric, $3, $4, $5, $6, $7::numeric, $8)
           ON CONFLICT (source_chain_id, source_tx_hash, source_log_index) WHERE kind = 'credit' DO NOTHING`,
          [apiKeyId, amountUsd.toString(), chainId, txHash, logIndex, credit.currency, credit.amount.toString(), at],
        );
        if (rowCount === 0) return { credited: false };
        await tx.query(
          `INSERT INTO app_balances (api_key_id, credited_usd, updated_at) VALUES ($1, $2::numeric, $3)
           ON CONFLICT (api_key_id) DO UPDATE SET credited_usd = app_balances.credited_usd + EXCLUDED.credited_usd, updated_at = EXCLUDED.updated_at`,
          [apiKeyId, amountUsd.toString(), at],
        );
        return { credited: true };
      });
    },

    async hold(hold) {
      const apiKeyId = requireKeyId(hold.apiKeyId);
      const amountUsd = requireUsdMicros(hold.amountUsd, "amountUsd");
      if (!isHoldPurpose(hold.purpose)) throw new ServiceError("INVALID_INPUT", `unknown hold purpose ${String(hold.purpose)}`);
      if (typeof hold.reference !== "string" || hold.reference.length === 0 || hold.reference.length > 256) throw new ServiceError("INVALID_INPUT", "a hold's reference is 1–256 characters");
      const { purpose, reference } = hold;
      const at = now();
      const windowStart = exposureWindowStart(at);
      return db.transaction(async (tx) => {
        const { rows: balanceRows } = await tx.query<BalanceRow>(`SELECT ${BALANCE_COLUMNS} FROM app_balances WHERE api_key_id = $1 FOR UPDATE`, [apiKeyId]);
        const { rows: existing } = await tx.query<HoldRow>(`SELECT ${HOLD_COLUMNS} FROM app_balance_holds WHERE purpose = $1 AND reference = $2`, [purpose, reference]);
        if (existing[0]) {
          if (existing[0].api_key_id !== apiKeyId) throw new ServiceError("APP_BALANCE_HOLD_CONFLICT", `the ${purpose} hold for ${reference} belongs to another app`);
          return { holdId: existing[0].id, amountUsd: BigInt(existing[0].amount_usd) };
        }
        const available = balanceOf(balanceRows[0]).availableUsd;
        if (available < amountUsd) {
          observe({ kind: "refused", purpose, amountUsd, code: "SPONSOR_BALANCE_TOO_LOW" });
          throw new SponsorBalanceTooLowError(available, amountUsd);
        }
        const scopes = exposureScopes(budgets, { apiKeyId, purpose, ...(hold.exposure && { exposure: hold.exposure }) }).sort((a, b) => (a.scope < b.scope ? -1 : 1));
        for (const s of scopes) {
          if (amountUsd > s.limit) {
            observe({ kind: "refused", purpose, amountUsd, code: "EXPOSURE_BUDGET_EXCEEDED" });
            throw new ExposureBudgetExceededError(s.scope, purpose, s.limit, 0n);
          }
        }
        for (const s of scopes) {
          await tx.query("INSERT INTO app_exposure_windows (scope, purpose, window_start) VALUES ($1, $2, $3) ON CONFLICT DO NOTHING", [s.scope, purpose, windowStart]);
          const { rows } = await tx.query<{ used_usd: string }>(
            "SELECT used_usd::text AS used_usd FROM app_exposure_windows WHERE scope = $1 AND purpose = $2 AND window_start = $3 FOR UPDATE",
            [s.scope, purpose, windowStart],
          );
          const used = BigInt(rows[0]!.used_usd);
          if (used + amountUsd > s.limit) {
            observe({ kind: "refused", purpose, amountUsd, code: "EXPOSURE_BUDGET_EXCEEDED" });
            throw new ExposureBudgetExceededError(s.scope, purpose, s.limit, used);
          }
        }
        const holdId = `hold_${randomBytes(12).toString("hex")}`;
        const { rowCount } = await tx.query(
          `INSERT INTO app_balance_holds (id, api_key_id, purpose, reference, amount_usd, state, exposure_chain_id, exposure_currency, exposure_scopes, window_start, created_at)
           VALUES ($1, $2, $3, $4, $5::numeric, 'held', $6, $7, $8::jsonb, $9, $10) ON CONFLICT (purpose, reference) DO NOTHING`,
          [holdId, apiKeyId, purpose, reference, amountUsd.toString(), hold.exposure?.chainId ?? null, hold.exposure?.currency ?? null, JSON.stringify(scopes.map((s) => s.scope)), windowStart, at],
        );
        // Another app's hold took this (purpose, reference) meanwhile (it locked another balance row).
        if (rowCount === 0) throw new ServiceError("APP_BALANCE_HOLD_CONFLICT", `the ${purpose} hold for ${reference} belongs to another app`);
        for (const s of scopes) {
          await tx.query("UPDATE app_exposure_windows SET used_usd = used_usd + $4::numeric WHERE scope = $1 AND purpose = $2 AND window_start = $3", [
            s.scope,
            purpose,
            windowStart,
            amountUsd.toString(),
          ]);
        }
        await tx.query("UPDATE app_balances SET held_usd = held_usd + $2::numeric, updated_at = $3 WHERE api_key_id = $1", [apiKeyId, amountUsd.toString(), at]);
        await tx.query("INSERT INTO app_balance_entries (api_key_id, kind, amount_usd, hold_id, purpose, reference, created_at) VALUES ($1, 'hold', $2::numeric, $3, $4, $5, $6)", [
          apiKeyId,
          amountUsd.toString(),
          holdId,
          purpose,
          reference,
          at,
        ]);
        observe({ kind: "held", purpose, amountUsd });
        return { holdId, amountUsd };
      });
    },

    async settle({ holdId, spentUsd }) {
      const spent = requireUsdMicros(spentUsd, "spentUsd", { allowZero: true });
      return db.transaction(async (tx) => {
        const row = await lockHold(tx, holdId);
        if (row.state === "settled") return holdOf(row);
        if (row.state === "released") throw new ServiceError("APP_BALANCE_HOLD_ENDED", `the hold ${holdId} was released: it cannot be settled`);
        if (spent > BigInt(row.amount_usd)) {
          throw new ServiceError("APP_BALANCE_SPEND_EXCEEDS_HOLD", `settling ${spent} USD micro-units on the hold ${holdId} of ${row.amount_usd}: a spend never exceeds its hold`);
        }
        return endHold(tx, row, "settled", spent);
      });
    },

    async release(holdId) {
      return db.transaction(async (tx) => {
        const row = await lockHold(tx, holdId);
        if (row.state === "released") return holdOf(row);
        if (row.state === "settled") throw new ServiceError("APP_BALANCE_HOLD_ENDED", `the hold ${holdId} was settled: it cannot be released`);
        return endHold(tx, row, "released", 0n);
      });
    },

    async getHold(holdId) {
      const { rows } = await db.query<HoldRow>(`SELECT ${HOLD_COLUMNS} FROM app_balance_holds WHERE id = $1`, [holdId]);
      return rows[0] ? holdOf(rows[0]) : null;
    },

    async entries(apiKeyId, { limit = 50 } = {}) {
      if (!Number.isSafeInteger(limit) || limit < 1 || limit > MAX_ENTRIES) throw new ServiceError("INVALID_INPUT", `limit must be 1–${MAX_ENTRIES}`);
      const { rows } = await db.query<EntryRow>(
        `SELECT id, kind, amount_usd::text AS amount_usd, hold_id, purpose, reference, source_chain_id, source_tx_hash, source_log_index, currency, amount::text AS amount, ${isoColumn("created_at")}
         FROM app_balance_entries WHERE api_key_id = $1 ORDER BY id DESC LIMIT $2`,
        [requireKeyId(apiKeyId), limit],
      );
      return rows.map(entryOf);
    },
  };
}
