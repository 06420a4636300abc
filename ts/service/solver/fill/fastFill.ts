/**
 * POST /fast-fill (../../http/routes/fastFill.ts): an app asks the solver to fill a request as soon as
 * its origin deposit transaction is seen, before it is final, and fronts the value on its app balance.
 *
 * In order, each refusal writing nothing and sending nothing:
 * 1. the request exists and was quoted with the caller's key — else 404 REQUEST_NOT_FOUND (another
 *    app's request is not revealed, let alone charged to it);
 * 2. already fast-filled → "already queued or executed" (idempotent); moved on by the indexer
 *    (pending or later without a fast fill) → 409 FAST_FILL_REQUEST_IN_PROGRESS;
 * 3. its deposit transaction was seen (`waiting`/`depositing` with an inTxHash) and, read again from
 *    the origin chain now (mined or in the mempool), is a deposit for this order in the quoted chain
 *    and currency of at least the quoted amount — else 400 FAST_FILL_DEPOSIT_NOT_SEEN /
 *    FAST_FILL_DEPOSIT_MISMATCH (an allowance-form ERC-20 call not yet mined names no amount: refused);
 * 4. the fronted value — the destination amount at the destination currency's configured `usdPrice`
 *    (an operator's price: no transaction moves it), in USD micro-units, rounded up — is within the
 *    caller's `maxFillAmountUsd` (400 FAST_FILL_ABOVE_MAX) and priced at all (400 FAST_FILL_PRICE_UNAVAILABLE);
 * 5. in one store transaction: the app balance hold (purpose `fastFill`, reference the requestId; 403
 *    FAST_FILL_BALANCE_TOO_LOW, 429 EXPOSURE_BUDGET_EXCEEDED) and the request `waiting → pending` with
 *    `solver.fastFill`. The solver's ordinary fill step then fills it (./fillPending.ts), its lease and
 *    the transition being the one claim (one fill), the receiver's replay guard the last line.
 */
import { TransactionNotFoundError as ViemTransactionNotFoundError } from "viem";
import type { ChainClients } from "../../chains/chainClients.ts";
import { readTransaction } from "../../chains/readTransaction.ts";
import type { ChainConfig } from "../../config/configSchema.ts";
import { ServiceError } from "../../errors/serviceError.ts";
import type { FastFillState } from "../../model/solverState.ts";
import { requireSolverState, type StoredRequest } from "../../model/storedRequest.ts";
import { ZERO_ADDRESS, type Bytes32 } from "../../model/values.ts";
import type { Store } from "../../store/createStore.ts";
import { receiptOrNull } from "../chainReads.ts";
import { decodeDepositCall } from "../indexer/depositEvent.ts";
import { depositMismatch } from "../indexer/depositMatch.ts";
import { depositsInReceipt } from "../indexer/observeDeposits.ts";
import { fastFillValueUsd } from "./fastFillValue.ts";

export type FastFillInput = { apiKeyId: string; requestId: Bytes32; maxFillAmountUsd?: bigint };
export type FastFillResult = { message: string; requestId: Bytes32; amountUsd: bigint };

export const FAST_FILL_QUEUED = "fast fill queued";
export const FAST_FILL_ALREADY = "fast fill already queued or executed";

export function createFastFiller(deps: { store: Store; clients: ChainClients; chains: readonly ChainConfig[] }): { fastFill(input: FastFillInput): Promise<FastFillResult> } {
  return { fastFill: (input) => fastFill(deps, input) };
}

export async function fastFill(deps: { store: Store; clients: ChainClients; chains: readonly ChainConfig[] }, input: FastFillInput): Promise<FastFillResult> {
  const request = await deps.store.getRequest(input.requestId);
  if (!request || request.apiKeyId !== input.apiKeyId) throw new ServiceError("REQUEST_NOT_FOUND", `no request ${input.requestId} quoted with this API key`);
  const { intent } = requireSolverState(request);
  const already = alreadyFastFilled(request);
  if (already) return already;
  if (request.status !== "waiting" && request.status !== "depositing") {
    throw new ServiceError("FAST_FILL_REQUEST_IN_PROGRESS", `request ${request.id} is ${request.status}: its deposit is already being processed`);
  }
  const seen = await seenDeposit(deps, request);
  const amountUsd = fastFillValueUsd(intent, deps.chains);
  if (input.maxFillAmountUsd !== undefined && amountUsd > input.maxFillAmountUsd) {
    throw new ServiceError("FAST_FILL_ABOVE_MAX", `the fill is worth ${amountUsd} USD micro-units, above maxFillAmountUsd ${input.maxFillAmountUsd}`);
  }
  return deps.store.transaction(async (tx) => {
    const locked = await tx.lockRequest(request.id);
    if (!locked) throw new ServiceError("REQUEST_NOT_FOUND", `no request ${request.id}`);
    const again = alreadyFastFilled(locked);
    if (again) return again;
    if (locked.status !== "waiting" && locked.status !== "depositing") {
      throw new ServiceError("FAST_FILL_REQUEST_IN_PROGRESS", `request ${request.id} is ${locked.status}: its deposit is already being processed`);
    }
    let holdId: string;
    try {
      ({ holdId } = await tx.appBalances.hold({
        apiKeyId: input.apiKeyId,
        amountUsd,
        purpose: "fastFill",
        reference: request.id,
        exposure: { chainId: intent.destinationChainId, currency: intent.destinationCurrency },
      }));
    } catch (error) {
      if (error instanceof ServiceError && error.code === "SPONSOR_BALANCE_TOO_LOW") {
        throw new ServiceError("FAST_FILL_BALANCE_TOO_LOW", `the app balance does not cover the fast fill (${amountUsd} USD micro-units)`, { cause: error });
      }
      throw error;
    }
    const state: FastFillState = { apiKeyId: input.apiKeyId, holdId, amountUsd, seen, hold: "held" };
    await tx.transitionRequest(request.id, "pending", { solver: { fastFill: state } });
    return { message: FAST_FILL_QUEUED, requestId: request.id, amountUsd };
  });
}

function alreadyFastFilled(request: StoredRequest): FastFillResult | null {
  const state = request.solver?.fastFill;
  return state ? { message: FAST_FILL_ALREADY, requestId: request.id, amountUsd: state.amountUsd } : null;
}

/** The request's deposit transaction as the origin chain shows it now: mined (its `Deposited` log) or pending (its call). */
async function seenDeposit(deps: { clients: ChainClients }, request: StoredRequest): Promise<FastFillState["seen"]> {
  const { intent } = requireSolverState(request);
  const txHash = request.inTxHashes.at(-1);
  if (!txHash) throw new ServiceError("FAST_FILL_DEPOSIT_NOT_SEEN", `request ${request.id} has no deposit transaction yet: send it and POST /transactions/index first`);
  const client = deps.clients.get(intent.originChainId);
  const receipt = await receiptOrNull(client.publicClient, txHash);
  let terms: { token: typeof ZERO_ADDRESS; amount: bigint | null; orderId: Bytes32; reclaimAt?: bigint } | undefined;
  let blockTimestamp: number;
  if (receipt) {
    if (receipt.status !== "success") throw new ServiceError("FAST_FILL_DEPOSIT_NOT_SEEN", `the deposit transaction ${txHash} reverted`);
    const deposits = await depositsInReceipt(client, receipt);
    const found = deposits.find((d) => d.orderId === intent.orderId);
    terms = found && { token: found.token, amount: found.amount, orderId: found.orderId, ...(found.reclaimAt !== undefined && { reclaimAt: found.reclaimAt }) };
    blockTimestamp = found?.blockTimestamp ?? 0;
  } else {
    let tx;
    try {
      tx = await readTransaction(client.publicClient, txHash);
    } catch (error) {
      if (error instanceof ViemTransactionNotFoundError) throw new ServiceError("FAST_FILL_DEPOSIT_NOT_SEEN", `the deposit transaction ${txHash} is unknown to chain ${intent.originChainId} (dropped?)`);
      throw error;
    }
    const call = tx.to === client.config.contracts.depository ? decodeDepositCall(tx.input, tx.value) : null;
    terms = call ?? undefined;
    blockTimestamp = Number((await client.publicClient.getBlock({ blockTag: "latest" })).timestamp);
  }
  if (!terms || terms.orderId !== intent.orderId) throw new ServiceError("FAST_FILL_DEPOSIT_MISMATCH", `the transaction ${txHash} deposits nothing for order ${intent.orderId}`);
  if (terms.amount === null) throw new ServiceError("FAST_FILL_DEPOSIT_MISMATCH", `the deposit ${txHash} names no amount until it is mined (an allowance-form ERC-20 deposit): fast fill it once mined`);
  const mismatch = depositMismatch(intent, { chainId: intent.originChainId, token: terms.token, amount: terms.amount, ...(terms.reclaimAt !== undefined && { reclaimAt: terms.reclaimAt }) });
  if (mismatch) throw new ServiceError("FAST_FILL_DEPOSIT_MISMATCH", `the deposit ${txHash} does not match the quote: ${mismatch}`);
  return { txHash, chainId: intent.originChainId, token: terms.token, amount: terms.amount, blockTimestamp };
}
