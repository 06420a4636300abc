/**
 * What the refund of a permit request keeps for the service's gas. A `usePermit` request is deposited
 * by the service (the user sends no transaction), so one that ends in refund — the fill passed the
 * POST /execute/permits simulation but failed later (the state changed in between) — made the operator
 * pay the permit deposit, the attestation's cancel, any fill that reverted and the refund payout while
 * the user got every token back. The refund now keeps that spend:
 *
 * - the deposit transaction's fee (gasUsed × effectiveGasPrice), when the solver sent it (a deposit
 *   relayed by anyone else cost the service nothing);
 * - the cancel's fee (the attester's, destination chain), when one was mined;
 * - a fill the solver sent that reverted (destination chain);
 * - the refund payout itself: `PERMIT_REFUND_PAYOUT_GAS` × the origin chain's current gas price (the
 *   payout is signed before it is sent, so its own fee is estimated);
 *
 * each converted into the deposited token at the configured USD prices (../../prices/usdPrice.ts, as the
 * quote converted them), summed, and capped by the quote's `fees.refundGas` (intent.fees.refundGas)
 * and by the deposit. A quote without `refundGas` (not a permit, or quoted before it) keeps nothing.
 * A spend that cannot be converted (no USD price) is charged at the quote's bound: the quote converted
 * the same gas with the same prices.
 */
import type { Hex } from "viem";
import type { ChainClient } from "../../chains/chainClients.ts";
import { requireSolverState, type StoredRequest } from "../../model/storedRequest.ts";
import { ZERO_ADDRESS, type Address } from "../../model/values.ts";
import { readTransaction } from "../../chains/readTransaction.ts";
import { PERMIT_REFUND_PAYOUT_GAS } from "../../quote/permitSteps.ts";
import { convertCeil } from "../../prices/usdPrice.ts";
import { receiptOrNull } from "../chainReads.ts";
import type { SolverContext } from "../solverContext.ts";

export type RefundCharge = {
  /** Kept from the refund, in the deposited token: min(spent, the quote's bound, the deposit). */
  amount: bigint;
  /** What the service spent, in the deposited token (before the cap). */
  spent: bigint;
  /** The quote's bound (`fees.refundGas`). */
  bound: bigint;
};

export async function permitRefundCharge(ctx: SolverContext, request: StoredRequest): Promise<RefundCharge | undefined> {
  const state = requireSolverState(request);
  const bound = state.intent.fees.refundGas;
  const deposit = state.deposit;
  if (!state.intent.permit || bound === undefined || bound === 0n || !deposit || deposit.token === ZERO_ADDRESS) return undefined;
  const origin = ctx.clients.get(deposit.chainId);
  const token = origin.config.erc20Currencies.find((c) => c.address === deposit.token);
  let spent: bigint;
  try {
    if (!token) throw new Error(`token ${deposit.token} is not configured on chain ${deposit.chainId}`);
    const originWei = (await depositFee(origin, deposit.txHash, ctx.solver)) + PERMIT_REFUND_PAYOUT_GAS * (await origin.publicClient.getGasPrice());
    let destinationWei = 0n;
    if (ctx.clients.has(request.destinationChainId)) {
      const dest = ctx.clients.get(request.destinationChainId);
      if (state.cancel) destinationWei += await minedFee(dest, state.cancel.hash);
      if (state.fill?.status === "reverted") destinationWei += await minedFee(dest, state.fill.hash);
      spent = convertCeil(originWei, origin.config.nativeCurrency, token) + convertCeil(destinationWei, dest.config.nativeCurrency, token);
    } else {
      spent = convertCeil(originWei, origin.config.nativeCurrency, token);
    }
  } catch (error) {
    ctx.log.warn({ requestId: request.id, error: (error as Error).message }, "permit refund: the service's gas could not be converted into the token; the quote's bound is kept");
    spent = bound;
  }
  const capped = spent < bound ? spent : bound;
  return { amount: capped < deposit.amount ? capped : deposit.amount, spent, bound };
}

/** The fee of the deposit transaction when the solver sent it, else 0 (someone else paid for it). */
async function depositFee(client: ChainClient, hash: Hex, solver: Address): Promise<bigint> {
  const tx = await readTransaction(client.publicClient, hash);
  if (tx.from !== solver) return 0n;
  return minedFee(client, hash);
}

/** gasUsed × effectiveGasPrice of a mined transaction (0 when it is not mined). */
async function minedFee(client: ChainClient, hash: Hex): Promise<bigint> {
  const receipt = await receiptOrNull(client.publicClient, hash);
  return receipt ? receipt.gasUsed * receipt.effectiveGasPrice : 0n;
}
