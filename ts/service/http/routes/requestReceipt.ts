/**
 * GET /requests/{requestId}/receipt — the request receipt (`ferry.receipt.v1`, ts/core/requestReceipt.ts;
 * docs/api.md "Request receipts"): a self-contained bundle of a filled and repaid request that anyone
 * verifies offline with ts/core's `verifyReceipt` (`ferry requests verify-receipt <file>`), trusting
 * nothing the service says. Built from the chains by ../buildRequestReceipt.ts.
 *
 * 404 REQUEST_NOT_FOUND for an unknown id; 409 RECEIPT_UNAVAILABLE while the request is not final
 * (not `success` with a confirmed repayment — a refunded request has no receipt); 503
 * RECEIPT_DATA_MISSING when a chain no longer returns a log the request's record points at; 503
 * CHAIN_UNAVAILABLE when a chain's RPC does not answer.
 */
import { Type } from "typebox";
import { requestReceiptToJson } from "../../../core/requestReceipt.ts";
import type { ChainClients } from "../../chains/chainClients.ts";
import type { ChainConfig } from "../../config/configSchema.ts";
import { RequestId } from "../../model/publicRecords.ts";
import { CanonicalHexOf } from "../../model/values.ts";
import type { Store } from "../../store/createStore.ts";
import { buildRequestReceipt } from "../buildRequestReceipt.ts";
import type { FerryApp } from "../ferryApp.ts";
import { NoQuery } from "../ferryApp.ts";
import { commonErrorResponses, ErrorBody } from "../httpErrors.ts";

const Hex = (description?: string) => Type.String({ pattern: "^0x[0-9a-fA-F]*$", ...(description ? { description } : {}) });
const Decimal = (description?: string) => Type.String({ pattern: "^[0-9]+$", ...(description ? { description } : {}) });
const Int = (description: string) => Type.Integer({ minimum: 0, description });
const strict = { additionalProperties: false } as const;

const Log = Type.Object({ address: Hex("the emitting contract"), topics: Type.Array(Hex("topic")), data: Hex("the log's data") }, { ...strict, description: "The log exactly as the chain returned it" });
const placeFields = {
  chainId: Int("the chain of the transaction"),
  txHash: Hex("the transaction"),
  blockNumber: Int("its block"),
  blockHash: Hex("its block's hash: compare it with a node you trust"),
  logIndex: Int("the log's index in the block"),
  log: Log,
};
const Call = Type.Object({ to: Hex("payee"), token: Hex("currency (zero = native)"), amount: Decimal("amount") }, strict);
const Chain = Type.Object({ id: Int("EVM chain id"), name: Type.String({ description: "the chain's name in the order" }) }, strict);

export const RequestReceiptSchema = Type.Object(
  {
    version: Type.Literal("ferry.receipt.v1"),
    requestId: Hex("the request"),
    chains: Type.Object({ origin: Chain, destination: Chain }, strict),
    order: Type.Object({ orderId: Hex("the protocol orderId"), orderData: Type.Unknown({ description: "the quote's protocol.v2.orderData" }) }, strict),
    deposit: Type.Object(
      {
        ...placeFields,
        depository: Hex("the Depository"),
        fields: Type.Object(
          { id: Hex("orderId"), depositor: Hex("depositor"), token: Hex("token"), amount: Decimal("amount"), reclaimAt: Type.Optional(Decimal("a reclaimable deposit's reclaim time")) },
          strict,
        ),
      },
      { ...strict, description: "The Depository's Deposited (or, reclaimable, DepositedReclaimable) log that credited the request" },
    ),
    attestation: Type.Object(
      {
        type: Type.Union([Type.Literal("FillAttestation"), Type.Literal("CallsFillAttestation")]),
        fields: Type.Object(
          {
            requestId: Hex(),
            orderId: Hex(),
            originChainId: Decimal(),
            originUser: Hex(),
            originCurrency: Hex(),
            originAmount: Decimal(),
            destinationChainId: Decimal(),
            destinationUser: Hex(),
            destinationCurrency: Hex(),
            destinationAmount: Decimal(),
            deadline: Decimal(),
            receiver: Hex(),
          },
          strict,
        ),
        digest: Hex("the digest signed (fill or calls attestation)"),
        signature: Hex("the attester's 65-byte signature, as the fill transaction carried it"),
      },
      { ...strict, description: "The v2 attestation the fill transaction carried" },
    ),
    signerSet: Type.Object(
      { chainId: Int("destination chain"), receiver: Hex("AttestedReceiver"), blockNumber: Int("the fill's block"), signers: Type.Array(Hex("signer")) },
      { ...strict, description: "The receiver's signers() at the fill's block" },
    ),
    fill: Type.Object(
      {
        ...placeFields,
        receiver: Hex("the AttestedReceiver"),
        blockTimestamp: Decimal("the fill block's time (unix seconds)"),
        filledDigest: Hex("the receiver's filledDigest(requestId) at the fill block"),
        fields: Type.Object({ requestId: Hex(), recipient: Hex(), filler: Hex(), currency: Hex(), amount: Decimal() }, strict),
      },
      { ...strict, description: "The receiver's Filled log" },
    ),
    repayment: Type.Object(
      {
        ...placeFields,
        depository: Hex("the Depository"),
        request: Type.Object(
          {
            calls: Type.Array(Call),
            credits: Type.Optional(Type.Array(Call)),
            release: Type.Optional(Hex("the orderId whose reclaim commitment the release ended (a reclaimable deposit)")),
            nonce: Decimal(),
            expiration: Decimal(),
          },
          { ...strict, description: "The allocator's CallRequest (a SettlementRequest with credits, a ReleaseRequest with release)" },
        ),
        fields: Type.Object({ requestHash: Hex(), nonce: Decimal() }, strict),
        batch: Type.Optional(
          Type.Object(
            { calls: Type.Array(Type.Integer({ minimum: 0 })), credits: Type.Array(Type.Integer({ minimum: 0 })) },
            { ...strict, description: "A batched repayment (one request repaying several requests): this request's call and credit indexes in request" },
          ),
        ),
      },
      { ...strict, description: "The Depository's RequestExecuted log of the solver's repayment" },
    ),
  },
  { ...strict, description: "Request receipt (ferry.receipt.v1): verify it offline with ferry/core verifyReceipt" },
);

export const requestReceiptSchema = {
  summary: "Request receipt",
  description:
    "A self-contained, offline-verifiable receipt of a filled and repaid request: the order, the deposit log, the fill attestation and its signature, " +
    "the receiver's signer set, the fill log and the repayment (ferry/core verifyReceipt, or ferry requests verify-receipt). " +
    "404 REQUEST_NOT_FOUND; 409 RECEIPT_UNAVAILABLE while the request is not filled and repaid; 503 RECEIPT_DATA_MISSING when a chain lost a log, CHAIN_UNAVAILABLE when one does not answer.",
  tags: ["Requests"],
  params: Type.Object({ requestId: CanonicalHexOf(RequestId) }, strict),
  querystring: NoQuery,
  response: { 200: RequestReceiptSchema, 404: ErrorBody, 409: ErrorBody, 503: ErrorBody, ...commonErrorResponses },
};

export function registerRequestReceiptRoute(app: FerryApp, options: { store: Store; chains: readonly ChainConfig[]; clients: ChainClients }): void {
  app.get("/requests/:requestId/receipt", { schema: requestReceiptSchema }, async (request) => {
    const receipt = await buildRequestReceipt(options, request.params.requestId);
    return requestReceiptToJson(receipt);
  });
}
