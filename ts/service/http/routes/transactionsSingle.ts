/**
 * POST /transactions/single {tx, chainId, requestId, referrer?} — what @relayprotocol/relay-sdk
 * posts after sending a same-chain transaction (relay-sdk 7.0.3, `postSameChainTransactionToSolver`):
 * `tx` is a JSON string of the step item's data plus its `txHash`, `chainId` a decimal string. Ferry
 * treats it as POST /transactions/index for that hash (../routes/transactionsIndex.ts): a same-chain
 * swap or transfer is a Depository deposit like any other, so the nudge indexes it at once. 200
 * `{message, requestIds}`; 400 INVALID_REQUEST when `tx` is not JSON with a `txHash`, and the index
 * route's UNKNOWN_CHAIN / TRANSACTION_NOT_FOUND / NOT_A_DEPOSIT; 503 CHAIN_UNAVAILABLE.
 */
import { Type } from "typebox";
import { ServiceError } from "../../errors/serviceError.ts";
import type { Logger } from "../../logging/logger.ts";
import { decodeChecked } from "../../model/storedValue.ts";
import { Bytes32 } from "../../model/values.ts";
import { NoQuery, type FerryApp } from "../ferryApp.ts";
import { bodyErrorResponses, commonErrorResponses, ErrorBody } from "../httpErrors.ts";
import { indexTransactionNow, TransactionsIndexResponse, type TransactionIndexer } from "./transactionsIndex.ts";

export const TransactionsSingleBody = Type.Object(
  {
    tx: Type.String({ minLength: 2, maxLength: 200_000, description: "JSON of the step item's data and its `txHash`" }),
    chainId: Type.Union([Type.Integer({ minimum: 1, maximum: Number.MAX_SAFE_INTEGER }), Type.String({ pattern: "^[1-9][0-9]{0,15}$" })]),
    requestId: Type.Optional(Type.String({ pattern: "^0x[0-9a-fA-F]{64}$", description: "The quote's requestId (informational)" })),
    referrer: Type.Optional(Type.String({ maxLength: 256, description: "Accepted and ignored" })),
  },
  // A newer client's extra field must not break the nudge.
  { additionalProperties: true },
);

export const transactionsSingleSchema = {
  summary: "Index a same-chain transaction now",
  description:
    "The official client's nudge after a same-chain transaction: indexes `txHash` from `tx` as POST /transactions/index does. " +
    "400 INVALID_REQUEST (tx without txHash), UNKNOWN_CHAIN, TRANSACTION_NOT_FOUND or NOT_A_DEPOSIT; 503 CHAIN_UNAVAILABLE.",
  tags: ["Transactions"],
  querystring: NoQuery,
  body: TransactionsSingleBody,
  response: { 200: TransactionsIndexResponse, 503: ErrorBody, ...bodyErrorResponses, ...commonErrorResponses },
};

/** The `txHash` inside `tx`, or INVALID_REQUEST. */
export function txHashOf(tx: string): Bytes32 {
  let parsed: unknown;
  try {
    parsed = JSON.parse(tx);
  } catch {
    throw new ServiceError("INVALID_REQUEST", "body/tx must be a JSON object with a txHash");
  }
  const hash = (parsed as { txHash?: unknown } | null)?.txHash;
  if (typeof hash !== "string" || !/^0x[0-9a-fA-F]{64}$/.test(hash)) throw new ServiceError("INVALID_REQUEST", "body/tx must carry a txHash (0x + 64 hex digits)");
  return decodeChecked(Bytes32, hash);
}

export function registerTransactionsSingleRoute(app: FerryApp, options: { indexer: TransactionIndexer }): void {
  app.post("/transactions/single", { schema: transactionsSingleSchema }, async (request) =>
    indexTransactionNow(options.indexer, Number(request.body.chainId), txHashOf(request.body.tx), request.log as Logger),
  );
}
