/**
 * `executeQuote`: sends a quote's transactions with a viem wallet and follows the request to a
 * terminal status.
 *
 * 1. Plans the steps (./quoteExecutionPlan.ts) and verifies the deposit step with ts/core's
 *    `verifyQuote` against GET /chains: a quote that does not verify, a signature step, a
 *    transaction from another account or for another chain than the wallet's is refused before
 *    anything is sent.
 * 2. For each transaction, in order: send, wait for the receipt (reverted → TRANSACTION_REVERTED),
 *    nudge POST /transactions/index (its failure is ignored: the indexer finds the deposit anyway).
 * 3. For the items of the last step, poll `check.endpoint` (every `pollIntervalMs`, default 1 s, the
 *    spec's recommendation) until `success` (resolves) or `failure`/`refund`/`fallback`
 *    (RequestFailedError with the status record); TIMEOUT after `timeoutMs` (default 10 min).
 *    Transient answers (404 before the request is stored, 429, 5xx, network errors) are retried.
 * `onProgress` is called on every change: each phase of each transaction and every new status.
 */
import { publicActions, type Account, type Chain, type Hash, type PublicClient, type Transport, type WalletClient } from "viem";
import type { ChainRecord, Quote, StatusRecord, Step, StepItem } from "./apiTypes.ts";
import { ExecuteQuoteError, ExecuteQuoteErrorCode } from "./clientErrors.ts";
import type { FerryClient } from "./createFerryClient.ts";
import { assertSendable, planQuoteExecution, verifyDepositStep, type PlannedTransaction } from "./quoteExecutionPlan.ts";
import { waitForRequest } from "./waitForRequest.ts";

export type SentTransaction = { chainId: number; txHash: Hash; stepId: string };

export type ExecuteProgress = {
  /** What just happened. */
  phase: "sending" | "sent" | "confirmed" | "indexed" | "status";
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
  client: FerryClient;
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

  // Everything that can be refused is refused before the first transaction.
  const plan = planQuoteExecution(quote);
  const chains = options.chains ?? (await client.getChains()).chains;
  verifyDepositStep(quote, chains, options.depositor);
  const wallet = { address: walletClient.account.address, chainId: await walletClient.getChainId() };
  for (const tx of plan) assertSendable(tx, wallet);

  let final: { requestId: string; status: StatusRecord } | undefined;
  for (const tx of plan) {
    const where = { step: tx.step, item: tx.item, stepIndex: tx.stepIndex, itemIndex: tx.itemIndex };
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

    if (tx.followRequestId !== undefined) {
      const status = await waitForRequest({
        client,
        requestId: tx.followRequestId,
        pollIntervalMs,
        deadline,
        onStatus: (status) => emit({ ...where, phase: "status", status }),
      });
      final = { requestId: tx.followRequestId, status };
    }
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
