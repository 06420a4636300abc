/**
 * POST /transactions/index {chainId, txHash, referrer?} — a client's nudge to index its deposit now
 * (the solver's ../../solver/indexer/indexTransaction.ts, injected). 200 `{message, requestIds}`:
 * - mined with enough confirmations: its deposits are recorded (`pending`) through the indexer's path;
 * - sent but not mined or not yet confirmed: the request is created in `waiting` with the inTxHash
 *   (when the input is a deposit for a known quote); the indexer finishes;
 * - a deposit whose orderId has no quote: `requestIds` is empty (nothing to match the funds to).
 *
 * 400 `UNKNOWN_CHAIN` (chain not configured), `TRANSACTION_NOT_FOUND` (the chain knows no such
 * transaction: retry once it has propagated), `NOT_A_DEPOSIT` (reverted, not sent to the
 * Depository, or not a deposit call); 503 `CHAIN_UNAVAILABLE` when the chain's RPC fails. Malformed
 * bodies are 400 INVALID_REQUEST naming the field. `chainId` may be a number or a decimal string and
 * `referrer` is accepted and ignored: @relayprotocol/relay-sdk sends `{txHash, chainId: "31337", referrer}`.
 */
import { Type } from "typebox";
import type { Hex } from "viem";
import { isFerryError } from "../../../core/errors.ts";
import { ServiceError } from "../../errors/serviceError.ts";
import type { Logger } from "../../logging/logger.ts";
import { CanonicalHexOf } from "../../model/values.ts";
import { NoQuery, type FerryApp } from "../ferryApp.ts";
import { bodyErrorResponses, commonErrorResponses, ErrorBody } from "../httpErrors.ts";

/**
 * What the route asks of the deposit indexer, injected by the process that owns both
 * (../../server.ts; the solver's `createTransactionIndexer` is one).
 */
export type TransactionIndexer = {
  supports(chainId: number): boolean;
  /** Throws TRANSACTION_NOT_FOUND / NOT_A_DEPOSIT (the caller's errors) or, for an RPC failure, the client's error. */
  index(chainId: number, txHash: Hex, log: Logger): Promise<{ state: "indexed" | "waiting"; requestIds: string[] }>;
};

export const TransactionsIndexBody = Type.Object(
  {
    chainId: Type.Union([Type.Integer({ minimum: 1, maximum: Number.MAX_SAFE_INTEGER }), Type.String({ pattern: "^[1-9][0-9]{0,15}$" })], {
      description: "The chain the transaction was sent on: a number, or its decimal string (what @relayprotocol/relay-sdk sends)",
    }),
    txHash: CanonicalHexOf(Type.String({ pattern: "^0x[0-9a-fA-F]{64}$", description: "The deposit transaction's hash" })),
    referrer: Type.Optional(Type.String({ maxLength: 256, description: "Accepted and ignored (the SDK sends its source)" })),
  },
  { additionalProperties: false },
);

export const TransactionsIndexResponse = Type.Object(
  {
    message: Type.String({ description: "What was done: indexed now, or waiting for confirmation" }),
    requestIds: Type.Array(Type.String(), { description: "The requests of the transaction's deposits; empty when no deposit matches a quote" }),
  },
  { additionalProperties: false },
);

export const transactionsIndexSchema = {
  summary: "Index a deposit transaction now",
  description:
    "A client's nudge after sending its deposit. 400 UNKNOWN_CHAIN, TRANSACTION_NOT_FOUND or NOT_A_DEPOSIT; 503 CHAIN_UNAVAILABLE when the chain's RPC fails.",
  tags: ["Transactions"],
  querystring: NoQuery,
  body: TransactionsIndexBody,
  response: { 200: TransactionsIndexResponse, 503: ErrorBody, ...bodyErrorResponses, ...commonErrorResponses },
};

export function registerTransactionsIndexRoute(app: FerryApp, options: { indexer: TransactionIndexer }): void {
  const { indexer } = options;
  app.post("/transactions/index", { schema: transactionsIndexSchema }, async (request) =>
    indexTransactionNow(indexer, Number(request.body.chainId), request.body.txHash, request.log as Logger),
  );
}

/** Indexes one transaction through `indexer` and says what happened (shared with POST /transactions/single). */
export async function indexTransactionNow(indexer: TransactionIndexer, chainId: number, txHash: Hex, log: Logger): Promise<{ message: string; requestIds: string[] }> {
  {
    if (!indexer.supports(chainId)) throw new ServiceError("UNKNOWN_CHAIN", `chain ${chainId} is not supported`);
    try {
      const result = await indexer.index(chainId, txHash, log);
      const message =
        result.state === "indexed"
          ? result.requestIds.length > 0
            ? "deposit indexed"
            : "deposit indexed: no quote matches its orderId"
          : "transaction seen; it is indexed once confirmed";
      return { message, requestIds: result.requestIds };
    } catch (error) {
      if (isFerryError(error)) throw error;
      log.warn({ chainId, err: { message: (error as { shortMessage?: string }).shortMessage ?? "rpc error" } }, "transactions/index: chain read failed");
      throw new ServiceError("CHAIN_UNAVAILABLE", `chain ${chainId} is unavailable; retry later`, { cause: error });
    }
  }
}
