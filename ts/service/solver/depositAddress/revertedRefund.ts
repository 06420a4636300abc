/**
 * A deposit-address refund whose transaction was mined and reverted (issue 23): found, recorded and
 * alerted instead of being waited for forever. The nonce manager's estimate keeps a refund that would
 * revert from being sent at all, so a mined revert means the chain changed between the estimate and
 * the block: the instruction's deadline passed while the transaction waited (InstructionExpired), the
 * Depository's allocator was rotated (SignerNotAllocator), the address no longer holds the amount
 * (InsufficientBalance), a token refused the transfer.
 *
 * A `sent` refund whose instruction is not executed at the final block is looked up by its nonce
 * (`txNonce`, through the nonce manager's `follow`, so whichever attempt of the nonce was mined is
 * found): mined, reverted, in a final block, and still not executed → the entry becomes `reverted` with
 * the spec's failReason and the factory's error name, in one store transaction (`advanceDepositAddressRefund`,
 * `sent` → `reverted`, so it is recorded once), and then:
 * - `ferry_deposit_address_refunds_reverted_total{chain_id}` goes up (../solverMetrics.ts; an alert to
 *   page on, docs/security.md), and an error is logged with the address, request, token and reason —
 *   as a reverted payout is logged and recorded `reverted` (../payout/advancePayout.ts);
 * - the address is no longer in the refund work list while nothing else is under way, and its request
 *   is not moved to `refund`: the money is still at the address, which only ever pays the Depository or
 *   `refundTo`. An operator fixes the cause and the refund is planned again (docs/operations.md).
 * A nonce taken by another transaction (superseded) executed nothing either; it is left to the nonce
 * manager's own alerting (`ferry_solver_superseded_transactions`).
 */
import { decodeErrorResult, type Hex } from "viem";
import { depositAddressFactoryAbi } from "../../../abi/DepositAddressFactory.ts";
import type { ChainClient } from "../../chains/chainClients.ts";
import type { DepositAddressRefund } from "../../model/depositAddressRefund.ts";
import { revertDataOf } from "../../transactions/revertReason.ts";
import type { StoredDepositAddress } from "../../store/depositAddresses.ts";
import type { SolverContext } from "../solverContext.ts";

/** The factory's (and its forwarder's) errors as the spec's failReasons; anything else TRANSACTION_REVERTED. */
const FAIL_REASON_BY_FACTORY_ERROR: Record<string, string> = {
  InstructionExpired: "SIGNATURE_EXPIRED",
  SignerNotAllocator: "INVALID_SIGNER",
  InstructionAlreadyUsed: "INVALID_NONCE",
  InsufficientBalance: "TRANSFER_AMOUNT_EXCEEDS_BALANCE",
  SafeERC20FailedOperation: "TRANSFER_FAILED",
};

/** The revert of a refund `data` would make at `blockNumber`: the spec's failReason and the error's name. */
export function decodeRefundRevert(data: Hex | null): { failReason: string; revertError: string | null } {
  if (!data || data.length < 10) return { failReason: "TRANSACTION_REVERTED", revertError: null };
  try {
    const { errorName } = decodeErrorResult({ abi: depositAddressFactoryAbi, data });
    return { failReason: FAIL_REASON_BY_FACTORY_ERROR[errorName] ?? "TRANSACTION_REVERTED", revertError: errorName };
  } catch {
    return { failReason: "TRANSACTION_REVERTED", revertError: `UNKNOWN_CUSTOM_ERROR_${data.slice(0, 10)}` };
  }
}

/**
 * For a `sent` refund not executed at `final`: true when its transaction was mined, reverted, at or
 * before `final` — then it is recorded `reverted`, counted and logged (once: the store's `sent` → `reverted`).
 */
export async function recordRevertedRefund(ctx: SolverContext, client: ChainClient, row: StoredDepositAddress, refund: DepositAddressRefund, final: bigint): Promise<boolean> {
  if (refund.txNonce === undefined) return false;
  const followed = await ctx.transactions.follow({ chainId: row.chainId, txNonce: refund.txNonce }, { requestId: row.requestId, depositAddress: row.address });
  if (followed.state !== "mined" || followed.receipt.status !== "reverted" || followed.receipt.blockNumber > final) return false;
  const { failReason, revertError } = await replayRefund(client, followed.hash, followed.receipt.blockNumber);
  const txHash = followed.hash;
  const recorded = await ctx.store.transaction((tx) =>
    tx.advanceDepositAddressRefund({ chainId: row.chainId, address: row.address }, refund.instructionId, "sent", { state: "reverted", txHash, failReason, revertError }),
  );
  if (!recorded) return false;
  ctx.metrics.depositAddressRefundsReverted.inc({ chain_id: String(row.chainId) });
  ctx.log.error(
    { chainId: row.chainId, depositAddress: row.address, requestId: row.requestId, token: refund.token, amount: refund.amount.toString(), txHash, failReason, revertError },
    "deposit address refund reverted",
  );
  return true;
}

/** Replays the mined transaction's call at its block for the revert data (a receipt carries none). */
async function replayRefund(client: ChainClient, hash: Hex, blockNumber: bigint): Promise<{ failReason: string; revertError: string | null }> {
  const tx = await client.publicClient.getTransaction({ hash });
  try {
    await client.publicClient.call({ account: tx.from, to: tx.to!, data: tx.input, blockNumber });
    return { failReason: "TRANSACTION_REVERTED", revertError: null };
  } catch (error) {
    return decodeRefundRevert(revertDataOf(error));
  }
}
