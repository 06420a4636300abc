/**
 * The gas limit of a transaction the solver sends, bounded by `solver.maxGasPerTransaction`: what the
 * operator can spend on one transaction does not depend on who the payee is.
 *
 * - The node's estimate is the limit when it is within the cap; an estimate above the cap is never
 *   sent (GAS_CAP_EXCEEDED: the step parks the request, an error-level log and
 *   `ferry_solver_gas_cap_exceeded_total` alert the operator). With the contracts' per-payout gas caps
 *   (50,000 native, 100,000 ERC-20) a legitimate fill or payout never comes near it.
 * - A revert in the estimate is passed on unchanged (the caller decodes it: a fill that would revert
 *   is never sent).
 * - Some nodes refuse to estimate a transaction whose inner call runs out of gas whatever the limit
 *   (EDR does by default) — exactly what a gas-burning payee does under the Depository's per-payout
 *   cap, although the transaction itself succeeds (the payout becomes claimable). Then the
 *   transaction is simulated with `eth_call` at the cap: it succeeds → the cap is the limit (only
 *   the gas used is paid); it reverts → that revert is passed on.
 */
import type { Address, Hex, PublicClient, SignedAuthorizationList } from "viem";
import { ServiceError } from "../errors/serviceError.ts";
import { isRevert } from "./revertReason.ts";

/** A transaction whose gas estimate is above the solver's cap: not sent. */
export class GasCapExceededError extends ServiceError {
  readonly chainId: number;
  readonly estimate: bigint;
  readonly cap: bigint;
  constructor(chainId: number, to: string, estimate: bigint, cap: bigint) {
    super("GAS_CAP_EXCEEDED", `transaction to ${to} on chain ${chainId} would need ${estimate} gas, above the cap of ${cap} (solver.maxGasPerTransaction): not sent`);
    this.chainId = chainId;
    this.estimate = estimate;
    this.cap = cap;
  }
}

export async function gasLimitWithin(
  publicClient: PublicClient,
  chainId: number,
  from: Address,
  tx: { to: Address; data: Hex; value?: bigint; authorizationList?: SignedAuthorizationList },
  cap: bigint,
): Promise<bigint> {
  const call = { account: from, to: tx.to, data: tx.data, value: tx.value ?? 0n, ...(tx.authorizationList && { authorizationList: tx.authorizationList }) };
  let estimate: bigint;
  try {
    estimate = await publicClient.estimateGas(call);
  } catch (error) {
    if (isRevert(error)) throw error;
    // No estimate (an inner call runs out of gas at any limit): does it succeed within the cap?
    await publicClient.call({ ...call, gas: cap });
    return cap;
  }
  if (estimate > cap) throw new GasCapExceededError(chainId, tx.to, estimate, cap);
  return estimate;
}
