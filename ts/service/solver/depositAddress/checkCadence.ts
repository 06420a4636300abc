/**
 * How often the solver reads a deposit address whose payment may still come (pure). A strict address
 * is read on every pass while its quote is live and for a grace after its `expiresAt` (a payer may pay
 * until the expiry; a payment in the last block must be judged quickly). After that a payment is late
 * anyway — it can only be refunded — so minutes do not matter, and reading every expired unpaid address
 * on every pass would grow without bound: it is read once an hour for a week after the expiry, then once
 * a day, for as long as the row exists. A late payment is therefore still found and refunded, at most
 * an hour (a day, after the first week) after it is final. The same cadence applies to an address after
 * its decision (forwarded or refunded), which is read for payments that arrive later
 * (./laterPayments.ts).
 *
 * The time is the service's clock (`ctx.now()`), the next check is stored on the row
 * (`deposit_addresses.next_check_at`, migration 0020), so replicas and restarts share it.
 */

/** After `expiresAt`, addresses are still read on every pass for this long (seconds). */
export const CHECK_GRACE_SECONDS = 3600;

/** Then once per `hourly` interval until a week past the expiry, then once per `daily` interval. */
export const CHECK_INTERVAL_SECONDS = { hourly: 3600, daily: 86_400 } as const;

const WEEK_SECONDS = 7 * 86_400;

/** When the address must be read next, after a read at `now`: null = on the next pass. */
export function nextDepositAddressCheck(expiresAt: string, now: Date): Date | null {
  const sinceExpiry = (now.getTime() - Date.parse(expiresAt)) / 1000;
  if (sinceExpiry < CHECK_GRACE_SECONDS) return null;
  const interval = sinceExpiry < WEEK_SECONDS ? CHECK_INTERVAL_SECONDS.hourly : CHECK_INTERVAL_SECONDS.daily;
  return new Date(now.getTime() + interval * 1000);
}
