/**
 * The solver's step for a `pending` request:
 * 1. already filled onchain (a previous process sent the fill and died before recording it)? record
 *    that fill instead of sending again;
 * 2. the checks of ./fillChecks.ts, in order → `failure` with their failReason;
 * 3. otherwise send the fill (./sendFill.ts), recording `pending → submitted` with the hash before
 *    the broadcast; a fill whose simulation reverts → `failure` with the decoded reason;
 * 4. when the receipt is already there (automine, fast chains), finish right away (./confirmFill.ts).
 */
import { erc20Abi, type Hex } from "viem";
import type { StoredRequest } from "../store/requests.ts";
import type { ChainClient } from "./chainClients.ts";
import { findFillTx, isFilled } from "./chainReads.ts";
import { checkFill } from "./fillChecks.ts";
import { readSolverData, type SolverRequestData } from "./fillAttestation.ts";
import { confirmFill } from "./confirmFill.ts";
import { sendFill } from "./sendFill.ts";
import type { SolverContext } from "./solverContext.ts";
import { FillLogNotFoundError } from "./solverErrors.ts";

/** Gas a fill may use, for the balance check (a fill measures ~60–90k; calls are not used by the solver). */
export const FILL_GAS_ALLOWANCE = 200_000n;

const ZERO = "0x0000000000000000000000000000000000000000";

export async function fillPending(ctx: SolverContext, request: StoredRequest): Promise<StoredRequest> {
  const data = readSolverData(request);
  const dest = ctx.clients.get(request.destinationChainId);
  const requestId = request.id as Hex;

  if (await isFilled(dest, requestId)) {
    const hash = await findFillTx(dest, requestId);
    if (hash) {
      const submitted = await ctx.store.transitionRequest(request.id, "submitted", { txHashes: [hash], data: { fill: { hash, status: "sent" } } });
      ctx.log.info({ requestId, hash }, "fill found onchain: recording it");
      return confirmFill(ctx, submitted);
    }
    throw new FillLogNotFoundError(requestId);
  }

  const check = checkFill(await fillCheckInput(dest, data, request.originChainId));
  if (!check.ok) {
    ctx.log.info({ requestId, failReason: check.failReason }, "fill check failed");
    return ctx.store.transitionRequest(request.id, "failure", { failReason: check.failReason, data: { details: check.details } });
  }

  let submitted: StoredRequest | undefined;
  const result = await sendFill(ctx, request, data, dest, async (hash) => {
    submitted = await ctx.store.transitionRequest(request.id, "submitted", { txHashes: [hash], data: { fill: { hash, status: "sent" } } });
  });
  if (!result.sent) {
    // Filled between the check and the simulation: the next step records that fill (never a refund).
    if (result.revert.failReason === "ORDER_ALREADY_FILLED") throw new FillLogNotFoundError(requestId);
    ctx.log.warn({ requestId, failReason: result.revert.failReason }, "fill simulation reverted");
    return ctx.store.transitionRequest(request.id, "failure", {
      failReason: result.revert.failReason,
      data: { failedCallData: result.callData, details: { error: result.revert.errorName, revertData: result.revert.data } },
    });
  }
  ctx.log.info({ requestId, hash: result.hash }, "fill sent");
  return confirmFill(ctx, submitted!);
}

/** Reads what ./fillChecks.ts needs from the destination chain. */
export async function fillCheckInput(dest: ChainClient, data: SolverRequestData, originChainId: number) {
  const wallet = dest.solverWallet!;
  const native = data.destinationCurrency.toLowerCase() === ZERO;
  const [block, nativeBalance, tokenBalance, gasPrice] = await Promise.all([
    dest.publicClient.getBlock({ blockTag: "latest" }),
    dest.publicClient.getBalance({ address: wallet.account.address }),
    native
      ? Promise.resolve(0n)
      : dest.publicClient.readContract({ address: data.destinationCurrency, abi: erc20Abi, functionName: "balanceOf", args: [wallet.account.address] }),
    dest.publicClient.getGasPrice(),
  ]);
  return {
    quote: {
      originChainId,
      originCurrency: data.originCurrency,
      originAmount: data.originAmount,
      expiresAt: data.quoteExpiresAt,
      fillDeadline: data.fillDeadline,
    },
    deposit: data.deposit,
    destination: {
      latestBlockTime: Number(block.timestamp),
      currency: data.destinationCurrency,
      amount: data.destinationAmount,
      solverNativeBalance: nativeBalance,
      solverTokenBalance: tokenBalance,
      gasCost: FILL_GAS_ALLOWANCE * gasPrice,
    },
  };
}
