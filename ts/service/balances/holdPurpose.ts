/**
 * What an app-balance hold is for. Each purpose is a kind of spend the service makes on an app's
 * behalf; exposure budgets (./exposureBudget.ts) are set per purpose.
 */
export const HOLD_PURPOSES = ["execute", "sponsorship", "fastFill", "withdrawal"] as const;
export type HoldPurpose = (typeof HOLD_PURPOSES)[number];

export function isHoldPurpose(value: unknown): value is HoldPurpose {
  return typeof value === "string" && (HOLD_PURPOSES as readonly string[]).includes(value);
}
