/**
 * Inventory reservations (migration 0012): the balance each fill in flight holds on its destination
 * chain. `reserveFill` is the fill's last check before it is sent: under a per-chain advisory lock
 * (every process and replica reserving on that chain waits its turn), the balances the caller just
 * read minus what the other fills in flight hold must cover this fill — its amount in its currency and
 * its gas in native — or it is not reserved. The lock, the sums, the check and the write are one
 * statement: migration 0025's `ferry_reserve_fill`, whose header says why it is a function:
 * - the balance alone does not cover it → `SOLVER_BALANCE_TOO_LOW`;
 * - the balance does, but not what the fills in flight leave of it → `SOLVER_CAPACITY_EXCEEDED`.
 * A reservation counts while its request is `pending` or `submitted`; after that the fill is mined
 * (the balance itself is lower) or will not happen. Reserving again for the same request replaces it.
 */
import { Type } from "typebox";
import { decodeStored } from "../../model/storedValue.ts";
import { Address, ChainId, Uint256, ZERO_ADDRESS, type Bytes32 } from "../../model/values.ts";
import type { StoreContext } from "../engine.ts";

export type FillReservation = {
  requestId: Bytes32;
  chainId: number;
  /** Zero address = native. */
  currency: Address;
  amount: bigint;
  /** Native the fill's gas may cost (gas limit × max fee). */
  gas: bigint;
  /** The solver's balances just read on the chain: native, and `currency`'s when it is a token. */
  nativeBalance: bigint;
  tokenBalance: bigint;
};

export type ReservationResult =
  | { ok: true; reservedNative: bigint; reservedToken: bigint }
  | { ok: false; failReason: "SOLVER_BALANCE_TOO_LOW" | "SOLVER_CAPACITY_EXCEEDED"; reservedNative: bigint; reservedToken: bigint };

/** What the fills in flight hold per (chain, currency), gas counted into the native currency. */
export type ReservedAmount = { chainId: number; currency: Address; reserved: bigint };

/** A reservation counts while its request is in one of these (migration 0025's `ferry_reserve_fill` holds the same list). */
const IN_FLIGHT = "r.status IN ('pending', 'submitted')";

export async function reserveFill({ db, now }: StoreContext, r: FillReservation): Promise<ReservationResult> {
  const native = r.currency === ZERO_ADDRESS;
  const needNative = r.gas + (native ? r.amount : 0n);
  const needToken = native ? 0n : r.amount;
  const balanceShort = r.nativeBalance < needNative || r.tokenBalance < needToken;
  // One statement (migration 0025's function): the per-chain lock, then — in a statement of its own
  // inside the function, so under READ COMMITTED it sees every reservation committed before the lock
  // was granted — what the other fills in flight hold, the check, and the reservation written only
  // when it fits. The lock lasts until this call's transaction commits.
  const { rows } = await db.query<{ reserved_native: string; reserved_token: string; reserved: boolean }>(
    "SELECT reserved_native, reserved_token, reserved FROM ferry_reserve_fill($1, $2, $3, $4::numeric, $5::numeric, $6::timestamptz, $7, $8::numeric, $9::numeric, $10::numeric, $11::numeric, $12::boolean)",
    [
      r.requestId,
      r.chainId,
      r.currency,
      r.amount.toString(),
      r.gas.toString(),
      now().toISOString(),
      ZERO_ADDRESS,
      r.nativeBalance.toString(),
      r.tokenBalance.toString(),
      needNative.toString(),
      needToken.toString(),
      balanceShort,
    ],
  );
  const row = rows[0]!;
  const reservedNative = BigInt(row.reserved_native);
  const reservedToken = BigInt(row.reserved_token);
  if (!row.reserved) return { ok: false, failReason: balanceShort ? "SOLVER_BALANCE_TOO_LOW" : "SOLVER_CAPACITY_EXCEEDED", reservedNative, reservedToken };
  return { ok: true, reservedNative, reservedToken };
}

const ReservedRow = Type.Object({ chain_id: ChainId, currency: Address, amount: Uint256, gas: Uint256 });

/** What the fills in flight hold, per chain and currency (gas folded into the native currency). */
export async function reservedAmounts({ db }: StoreContext): Promise<ReservedAmount[]> {
  const { rows } = await db.query(
    `SELECT s.chain_id, s.currency, sum(s.amount)::text AS amount, sum(s.gas)::text AS gas FROM solver_reservations s JOIN requests r ON r.id = s.request_id
     WHERE ${IN_FLIGHT} GROUP BY s.chain_id, s.currency`,
  );
  const totals = new Map<string, ReservedAmount>();
  const add = (chainId: number, currency: Address, amount: bigint) => {
    const key = `${chainId}:${currency}`;
    const line = totals.get(key) ?? { chainId, currency, reserved: 0n };
    line.reserved += amount;
    totals.set(key, line);
  };
  for (const row of rows) {
    const r = decodeStored(ReservedRow, { ...row, chain_id: Number(row.chain_id) }, "solver_reservations", `${String(row.chain_id)}:${String(row.currency)}`);
    add(r.chain_id, r.currency, r.amount);
    add(r.chain_id, ZERO_ADDRESS, r.gas);
  }
  return [...totals.values()];
}
