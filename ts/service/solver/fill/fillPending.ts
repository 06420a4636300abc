/**
 * The solver's step for a `pending` request:
 * 1. the checks of ./fillChecks.ts, in order → `failure` with their failReason;
 * 2. already filled onchain (someone else submitted an attestation)? asked only where step 1 or 3 would
 *    end the request, or the simulation reverts with ORDER_ALREADY_FILLED: that fill is recorded
 *    instead — a success only when it is the solver's own (./verifyOnchainFill.ts), else a foreign
 *    fill, parked — never a failure that would refund a filled request;
 * 3. otherwise send the fill (./sendFill.ts), recording `pending → submitted` with the hash before
 *    the broadcast; a fill whose simulation reverts → `failure` with the decoded reason and the
 *    simulation's frames in `details` (./revertedFillDetails.ts);
 * 4. when the receipt is already there (automine, fast chains), finish right away (./confirmFill.ts).
 *
 * A fast-filled request (./fastFill.ts) has no credited deposit yet: the checks read the deposit the
 * service saw instead (its chain, currency, amount, and the origin time it was seen at).
 */
import { erc20Abi } from "viem";
import type { ChainClient } from "../../chains/chainClients.ts";
import { readReceipt } from "../../chains/readReceipt.ts";
import type { QuotedIntent } from "../../model/quotedIntent.ts";
import { requireSolverState, type StoredRequest } from "../../model/storedRequest.ts";
import { StoredValueInvalidError } from "../../model/storedValue.ts";
import { preparedFillOf } from "../../model/attestations.ts";
import { ZERO_ADDRESS } from "../../model/values.ts";
import { fillNotBefore, findFillTx, isFilled } from "../chainReads.ts";
import { confirmFill } from "./confirmFill.ts";
import { checkFill, type FillCheckInput } from "./fillChecks.ts";
import { fillPreflight } from "./fillPreflight.ts";
import { callsNativeValue } from "../../transactions/fillTransaction.ts";
import type { FeeOracle } from "../../transactions/chainFees.ts";
import type { BlockReadCache } from "../../chains/blockReadCache.ts";
import { sendFill } from "./sendFill.ts";
import { revertedFillDetails } from "./revertedFillDetails.ts";
import type { SolverContext } from "../solverContext.ts";
import { FillLogNotFoundError } from "../solverErrors.ts";
import { recordForeignFill, verifyOnchainFill } from "./verifyOnchainFill.ts";

/** Gas a fill may use, for the balance check (a fill measures ~60–90k; calls are not used by the solver). */
export const FILL_GAS_ALLOWANCE = 200_000n;

export async function fillPending(ctx: SolverContext, request: StoredRequest): Promise<StoredRequest> {
  const { intent, deposit: credited, fastFill } = requireSolverState(request);
  // A fast fill (./fastFill.ts) is checked against the deposit seen before it is final; the app's hold fronts it.
  const deposit = credited ?? fastFill?.seen;
  if (!deposit) throw new StoredValueInvalidError("requests.solver_state", request.id, "deposit", "is missing on a pending request");
  const dest = ctx.clients.get(request.destinationChainId);

  // Filled already (someone else submitted an attestation: the service's own never fills a pending
  // request, its send records `submitted` before the broadcast): looked for only where the service would
  // otherwise end the request or its fill's simulation says so, not before every fill (one `filled`
  // read per intent at 200 users; issue 26).
  const fail = async (patch: Parameters<typeof ctx.store.transitionRequest>[2]): Promise<StoredRequest> =>
    (await recordFoundFill(ctx, request, dest)) ?? ctx.store.transitionRequest(request.id, "failure", patch);

  const input = await fillCheckInput(dest, intent, deposit, ctx.settings.fillDeadlineMarginSeconds, ctx.transactions.fees, ctx.blockReads);
  // A deposit-address payment is on time when the payer paid the address on time (the forwarding comes later).
  const paidAt = request.solver?.depositPayment?.blockTimestamp;
  const check = checkFill(paidAt === undefined ? input : { ...input, paidAt });
  if (!check.ok) {
    ctx.log.info({ requestId: request.id, orderId: request.orderId, failReason: check.failReason }, "fill check failed");
    return fail({ failReason: check.failReason, details: check.details });
  }

  // Swaps and calls: the calls' commitment, the fill-time price (./fillPreflight.ts).
  const preflight = await fillPreflight(ctx, intent);
  if (!preflight.ok) {
    ctx.log.info({ requestId: request.id, orderId: request.orderId, failReason: preflight.failReason }, "fill preflight failed");
    return fail({ failReason: preflight.failReason, details: preflight.details });
  }

  // The inventory: what the other fills in flight (every replica's) hold of these balances must leave
  // enough for this one; reserved until the fill is mined. Native held: the gas allowance, plus the
  // native the destination calls carry for an ERC-20 output (the gas top-up; ./fillTransaction.ts).
  const native = intent.destinationCurrency === ZERO_ADDRESS;
  const callsNative = native ? 0n : callsNativeValue(intent);
  const reservation = await ctx.store.reserveFill({
    requestId: request.id,
    chainId: dest.config.id,
    currency: intent.destinationCurrency,
    amount: intent.destinationAmount,
    gas: input.destination.gasCost + callsNative,
    nativeBalance: input.destination.solverNativeBalance,
    tokenBalance: input.destination.solverTokenBalance,
  });
  if (!reservation.ok) {
    const details = { currency: intent.destinationCurrency, amount: intent.destinationAmount.toString(), reservedByFillsInFlight: (native ? reservation.reservedNative : reservation.reservedToken).toString() };
    ctx.log.warn({ requestId: request.id, orderId: request.orderId, failReason: reservation.failReason, ...details }, "fill not reserved: the solver's inventory does not cover it");
    return fail({ failReason: reservation.failReason, details });
  }

  let submitted: StoredRequest | undefined;
  // Built and hashed once: signed and sent by sendFill, its digest recorded with the fill.
  const fill = preparedFillOf(intent, dest.config.contracts.attestedReceiver);
  const result = await sendFill(ctx, intent, dest, fill, async ({ hash, txNonce }, repos) => {
    submitted = await repos.transitionRequest(request.id, "submitted", { txHashes: [hash], solver: { fill: { hash, status: "sent", txNonce, digest: fill.digest } } });
  });
  if (!result.sent) {
    // Filled by someone else: that fill is recorded (never a refund); filled, yet no log found: retried.
    if (result.revert.failReason === "ORDER_ALREADY_FILLED") {
      const found = await recordFoundFill(ctx, request, dest);
      if (found) return found;
      throw new FillLogNotFoundError(request.id);
    }
    ctx.log.warn({ requestId: request.id, failReason: result.revert.failReason }, "fill simulation reverted");
    return fail({ failReason: result.revert.failReason, data: { failedCallData: result.callData }, details: revertedFillDetails(result.revert, result.frames) });
  }
  ctx.log.info({ requestId: request.id, orderId: request.orderId, txHash: result.hash, txNonce: result.txNonce }, "fill sent");
  return confirmFill(ctx, submitted!);
}

/**
 * The fill the receiver already holds for `request`, recorded — a foreign one as such (./verifyOnchainFill.ts),
 * the service's own through `submitted` and ./confirmFill.ts — or null when the request is not filled.
 * Filled with no `Filled` log found: FILL_LOG_NOT_FOUND (retried; never a failure, which would refund).
 */
async function recordFoundFill(ctx: SolverContext, request: StoredRequest, dest: ChainClient): Promise<StoredRequest | null> {
  if (!(await isFilled(dest, request.id))) return null;
  const hash = await findFillTx(dest, request.id, fillNotBefore(requireSolverState(request).intent));
  if (!hash) throw new FillLogNotFoundError(request.id);
  // Someone else's fill never passes through `submitted` (the service submitted nothing).
  const verdict = await verifyOnchainFill(ctx, request, dest, await readReceipt(dest.publicClient, hash));
  if (!verdict.ours) return recordForeignFill(ctx, request, dest, verdict);
  const submitted = await ctx.store.transitionRequest(request.id, "submitted", { txHashes: [hash], solver: { fill: { hash, status: "sent" } } });
  ctx.log.info({ requestId: request.id, hash }, "fill found onchain: recording it");
  return confirmFill(ctx, submitted);
}

/**
 * Reads what ./fillChecks.ts needs from the destination chain: the latest block from the chain's shared
 * head (../../chains/chainHead.ts), the gas price from the fee market the fill will be priced with
 * (`fees`: base + priority fee, what eth_gasPrice answers) when given — neither is a call of its own then
 * — and the solver's balances once per head block with `blockReads` (../../chains/blockReadCache.ts): a
 * burst of fills in one block reads them once, as each would have read them at that block (at 200 users,
 * one eth_getBalance per fill before; the fills in flight are held apart by the reservations, not by
 * the balance read).
 */
export async function fillCheckInput(
  dest: ChainClient,
  intent: QuotedIntent,
  deposit: FillCheckInput["deposit"],
  deadlineMarginSeconds: number,
  fees?: FeeOracle,
  blockReads?: BlockReadCache,
): Promise<FillCheckInput> {
  const wallet = dest.solverWallet!;
  const native = intent.destinationCurrency === ZERO_ADDRESS;
  const chainId = dest.config.id;
  const solver = wallet.account.address;
  const atHead = <T>(key: string, load: (blockNumber: bigint | undefined) => Promise<T>) => (blockReads ? blockReads.read(chainId, key, load) : load(undefined));
  // The head first: the balances are cached under it (a head read after them could key an older block's answer).
  const block = await dest.head.latest();
  const [nativeBalance, tokenBalance, gasPrice] = await Promise.all([
    atHead(`solver-native:${solver}`, (blockNumber) => dest.publicClient.getBalance({ address: solver, ...(blockNumber !== undefined && { blockNumber }) })),
    native
      ? Promise.resolve(0n)
      : atHead(`solver-token:${intent.destinationCurrency}:${solver}`, (blockNumber) =>
          dest.publicClient.readContract({ address: intent.destinationCurrency, abi: erc20Abi, functionName: "balanceOf", args: [solver], ...(blockNumber !== undefined && { blockNumber }) }),
        ),
    fees ? fees.market(chainId).then((m) => m.baseFeePerGas + m.priorityFeePerGas) : dest.publicClient.getGasPrice(),
  ]);
  return {
    intent,
    deposit,
    destination: {
      latestBlockTime: Number(block.timestamp),
      deadlineMarginSeconds,
      solverNativeBalance: nativeBalance,
      solverTokenBalance: tokenBalance,
      gasCost: FILL_GAS_ALLOWANCE * gasPrice,
    },
  };
}
