/**
 * Whether the solver can fill a quoted amount now, from its inventory line on the destination chain
 * (../chains/solverInventory.ts). Pure. A quote the solver could not fill is refused up front (400)
 * rather than turned into a deposit that ends in a refund:
 * - the balance itself is below the amount → `SOLVER_BALANCE_TOO_LOW`;
 * - the balance covers it but the fills in flight hold too much of it → `SOLVER_CAPACITY_EXCEEDED`.
 * Both are the spec's failReasons too: a deposit that still arrives when capacity is gone fails with
 * the same reason at fill time (../store/solver/solverReservations.ts), and is refunded.
 */
import type { InventoryLine } from "../chains/solverInventory.ts";

export type CapacityShortfall = "SOLVER_BALANCE_TOO_LOW" | "SOLVER_CAPACITY_EXCEEDED";

export function capacityShortfall(line: Pick<InventoryLine, "balance" | "available">, amount: bigint): CapacityShortfall | null {
  if (amount <= line.available) return null;
  return amount > line.balance ? "SOLVER_BALANCE_TOO_LOW" : "SOLVER_CAPACITY_EXCEEDED";
}
