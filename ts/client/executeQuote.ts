/**
 * `executeQuote`: executes a quote's steps with a viem wallet — sends its transactions, signs its
 * permit signatures — and follows the request to a terminal status.
 *
 * 1. Plans the steps (./quoteExecutionPlan.ts) and, against GET /chains, verifies the deposit step with
 *    ts/core's `verifyQuote` and every signature step with ./permitSignature.ts (the typed data must be
 *    the permit the quote commits to, for the origin chain's Depository): a quote that does not verify,
 *    a step of another kind, a transaction or signature for another account or chain than the wallet's
 *    is refused before anything is sent or signed.
 * 2. For each transaction, in order: send, wait for the receipt (reverted → TRANSACTION_REVERTED),
 *    nudge POST /transactions/index (its failure is ignored: the indexer finds the deposit anyway).
 *    For each signature: `signTypedData` of the verified typed data, then POST /execute/permits with the
 *    signature and the step's `post.body` (a non-2xx answer throws FerryApiError); the service submits
 *    the deposit (its hash is listed in `txHashes` with `sentBy: "service"`).
 * 3. For the items of the last step, poll `check.endpoint` (every `pollIntervalMs`, default 1 s, the
 *    spec's recommendation) until `success` (resolves) or `failure`/`refund`/`fallback`
 *    (RequestFailedError with the status record); TIMEOUT after `timeoutMs` (default 10 min).
 *    Transient answers (404 before the request is stored, 429, 5xx, network errors) are retried.
 * `onProgress` is called on every change: each phase of each transaction or signature and every new status.
 */
import { publicActions, type Account, type Chain, type Hash, type PublicClient, type Transport, type WalletClient } from "viem";
import type { ChainRecord, Quote, StatusRecord, Step, StepItem } from "./apiTypes.ts";
import { ExecuteQuoteError, ExecuteQuoteErrorCode } from "./clientErrors.ts";
import type { FerryApi } from "./ferryApi.ts";
import { verifyPermitSignature, type VerifiedPermitSignature } from "./permitSignature.ts";
import { assertSendable, planQuoteExecution, verifyDepositStep, type PlannedAction, type PlannedTransaction } from "./quoteExecutionPlan.ts";
import { waitForRequest } from "./waitForRequest.ts";

export type SentTransaction = {
  chainId: number;
  txHash: Hash;
  stepId: string;
  /** `service`: the deposit the service submitted for a signature step (POST /execute/permits); absent: the wallet sent it. */
  sentBy?: "service";
};

export type ExecuteProgress = {
  /**
   * What just happened. A transaction: `sending`, `sent`, `confirmed`, `indexed`; a signature:
   * `signing`, `signed`, `submitted` (the service accepted it); then `status` for each new status.
   */
  phase: "sending" | "sent" | "confirmed" | "indexed" | "signing" | "signed" | "submitted" | "status";
  step: Step;
  item: StepItem;
  stepIndex: number;
  itemIndex: number;
  /** Every transaction sent so far, in order. */
  txHashes: SentTransaction[];
  /** The new status (phase `status` only). */
  status?: StatusRecord;
};

export type ExecuteQuoteOptions = {
  client: FerryApi;
  quote: Quote;
  walletClient: WalletClient<Transport, Chain | undefined, Account>;
  /** Reads receipts on its chain. Default: the wallet's own transport. */
  publicClient?: PublicClient;
  /** Per-chain public clients (chain id → client); take precedence over `publicClient`. */
  publicClients?: Record<number, PublicClient>;
  onProgress?: (progress: ExecuteProgress) => void;
  pollIntervalMs?: number;
  timeoutMs?: number;
  /** The chains for verifyQuote's chain check. Default: GET /chains. */
  chains?: readonly ChainRecord[];
  /** Who the deposit must credit (verifyQuote's `depositor`). Default: the quote's `details.sender`. */
  depositor?: string;
};

export type ExecuteQuoteResult = { requestId: string; status: StatusRecord; txHashes: SentTransaction[] };

export async function executeQuote(options: ExecuteQuoteOptions): Promise<ExecuteQuoteResult> {
  const { client, quote, walletClient } = options;
  const pollIntervalMs = options.pollIntervalMs ?? 1_000;
  const deadline = Date.now() + (options.timeoutMs ?? 600_000);
  const txHashes: SentTransaction[] = [];
  const emit = (progress: Omit<ExecuteProgress, "txHashes">) => options.onProgress?.({ ...progress, txHashes: [...txHashes] });

  // Everything that can be refused is refused before the first transaction or signature.
  const plan = planQuoteExecution(quote);
  const chains = options.chains ?? (await client.getChains()).chains;
  const wallet = { address: walletClient.account.address, chainId: await walletClient.getChainId() };
  // A permit quote has no deposit step (the service deposits): its signatures are what is verified.
  const signs = quote.steps.some((step) => step.kind === "signature");
  if (!signs || quote.steps.some((step) => step.id === "deposit")) verifyDepositStep(quote, chains, options.depositor);
  const permits = new Map<PlannedAction, VerifiedPermitSignature>();
  for (const action of plan) {
    assertSendable(action, wallet);
    if (action.kind !== "signature") continue;
    const path = `steps[${action.stepIndex}].items[${action.itemIndex}].data`;
    const permit = verifyPermitSignature({ quote, step: action.step, item: action.item, path, chains, account: wallet.address });
    if (permit.chainId !== wallet.chainId) {
      throw new ExecuteQuoteError(
        ExecuteQuoteErrorCode.CHAIN_MISMATCH,
        `step ${action.step.id} signs for chain ${permit.chainId}, the wallet is on chain ${wallet.chainId}`,
      );
    }
    permits.set(action, permit);
  }

  let final: { requestId: string; status: StatusRecord } | undefined;
  const follow = async (action: PlannedAction, where: Omit<ExecuteProgress, "txHashes" | "phase">) => {
    if (action.followRequestId === undefined) return;
    const status = await waitForRequest({
      client,
      requestId: action.followRequestId,
      pollIntervalMs,
      deadline,
      onStatus: (status) => emit({ ...where, phase: "status", status }),
    });
    final = { requestId: action.followRequestId, status };
  };
  for (const action of plan) {
    const where = { step: action.step, item: action.item, stepIndex: action.stepIndex, itemIndex: action.itemIndex };
    if (action.kind === "signature") {
      const permit = permits.get(action)!;
      emit({ ...where, phase: "signing" });
      const signature = await walletClient.signTypedData({ account: walletClient.account, ...permit.typedData } as Parameters<typeof walletClient.signTypedData>[0]);
      emit({ ...where, phase: "signed" });
      const submitted = await client.executePermit({ signature, body: permit.body });
      if (submitted.txHash !== undefined) txHashes.push({ chainId: permit.chainId, txHash: submitted.txHash as Hash, stepId: action.step.id, sentBy: "service" });
      emit({ ...where, phase: "submitted" });
      await follow(action, where);
      continue;
    }
    const tx = action;
    emit({ ...where, phase: "sending" });
    const txHash = await send(walletClient, tx);
    txHashes.push({ chainId: tx.request.chainId, txHash, stepId: tx.step.id });
    emit({ ...where, phase: "sent" });

    const receipt = await publicClientFor(options, tx.request.chainId).waitForTransactionReceipt({ hash: txHash, pollingInterval: 100 });
    if (receipt.status !== "success") {
      throw new ExecuteQuoteError(ExecuteQuoteErrorCode.TRANSACTION_REVERTED, `step ${tx.step.id}: transaction ${txHash} reverted`, { txHash });
    }
    emit({ ...where, phase: "confirmed" });

    // A nudge only: the indexer finds the transaction without it.
    try {
      await client.indexTransaction({ chainId: tx.request.chainId, txHash });
      emit({ ...where, phase: "indexed" });
    } catch {
      // ignored
    }

    await follow(tx, where);
  }
  if (final === undefined) {
    // Nothing left to send (every item complete): follow the last step's request.
    const requestId = quote.steps[quote.steps.length - 1]!.requestId;
    final = { requestId, status: await waitForRequest({ client, requestId, pollIntervalMs, deadline }) };
  }
  return { ...final, txHashes };
}

async function send(walletClient: ExecuteQuoteOptions["walletClient"], tx: PlannedTransaction): Promise<Hash> {
  const { request } = tx;
  return walletClient.sendTransaction({
    account: walletClient.account,
    chain: walletClient.chain ?? null,
    to: request.to,
    data: request.data,
    value: request.value,
    ...(request.gas !== undefined && { gas: request.gas }),
    ...(request.maxFeePerGas !== undefined && { maxFeePerGas: request.maxFeePerGas }),
    ...(request.maxPriorityFeePerGas !== undefined && { maxPriorityFeePerGas: request.maxPriorityFeePerGas }),
  } as Parameters<typeof walletClient.sendTransaction>[0]);
}

function publicClientFor(options: ExecuteQuoteOptions, chainId: number): Pick<PublicClient, "waitForTransactionReceipt"> {
  return options.publicClients?.[chainId] ?? options.publicClient ?? options.walletClient.extend(publicActions);
}
