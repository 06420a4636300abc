/**
 * The spec's Quote (response of POST /quote/v2) as a TypeBox schema: steps, fees (Amount objects),
 * details, protocol.v2, plus Ferry's `expiresAt` and `fillDeadline` (unix seconds) and, on a sponsored
 * quote, `feeSponsorship` (who pays what; the record's `feeSponsorship.quoted`). Built by
 * ../quote/buildQuote.ts; this file only describes it (and so /openapi.json).
 */
import { Type } from "typebox";
import { feeSponsorshipSchema } from "../model/requestData.ts";

const Str = Type.String();

export const CurrencySchema = Type.Object({
  chainId: Type.Integer(),
  address: Type.String({ description: "The zero address is the native currency" }),
  symbol: Str,
  name: Str,
  decimals: Type.Integer(),
  metadata: Type.Object({ logoURI: Str, verified: Type.Boolean(), isNative: Type.Boolean() }),
});

export const AmountSchema = Type.Object(
  {
    currency: CurrencySchema,
    amount: Type.String({ description: "Smallest units" }),
    amountFormatted: Type.String({ description: "Decimal" }),
    amountUsd: Type.String({ description: 'Decimal USD from the operator-configured price; "0" without one' }),
    minimumAmount: Type.String({ description: "Smallest units; on a swap's currencyOut, the amount less the slippage tolerance" }),
  },
  { description: "Amount" },
);

const TransactionDataSchema = Type.Object(
  {
    from: Str,
    to: Str,
    data: Str,
    value: Str,
    chainId: Type.Integer(),
    gas: Type.Optional(Type.String({ description: "Gas limit estimate (decimal): on the deposit item. Fee fields are left to the wallet" })),
    maxFeePerGas: Type.Optional(Str),
    maxPriorityFeePerGas: Type.Optional(Str),
  },
  { description: "A transaction step's item: the transaction to send" },
);

const TypedDataField = Type.Object({ name: Str, type: Str });
const SignatureDataSchema = Type.Object(
  {
    sign: Type.Object({
      signatureKind: Type.String({ description: "`eip712` (EIP-712 typed data)" }),
      domain: Type.Record(Str, Type.Unknown(), { description: "EIP-712 domain (numbers as decimal strings)" }),
      types: Type.Record(Str, Type.Array(TypedDataField), { description: "EIP-712 types (without EIP712Domain)" }),
      primaryType: Str,
      value: Type.Record(Str, Type.Unknown(), { description: "The message to sign (uint256 as decimal strings)" }),
      message: Type.Record(Str, Type.Unknown(), { description: "The same message (viem's / eth_signTypedData_v4's name)" }),
    }),
    post: Type.Object({
      endpoint: Type.String({ description: "`/execute/permits`: post the signature there as `?signature=0x…`" }),
      method: Str,
      body: Type.Object({ kind: Type.String({ description: "`eip2612` or `permit2`" }), requestId: Str, api: Str }),
    }),
  },
  { description: "A signature step's item (usePermit): the message to sign and where to post the signature" },
);

const StepItemSchema = Type.Object({
  status: Type.String({ description: "`incomplete` at quote time" }),
  data: Type.Union([TransactionDataSchema, SignatureDataSchema]),
  check: Type.Optional(
    Type.Object(
      { endpoint: Str, method: Str },
      { description: "Poll until the status is past `waiting`. Absent on the approve step (it completes with its receipt)" },
    ),
  ),
});

const StepSchema = Type.Object({
  id: Type.String({
    description: "`approve` (only when the allowance to the Depository, or to Permit2 for a Permit2 deposit, is short), `deposit`, or `authorize` (the signature of a usePermit quote)",
  }),
  action: Str,
  description: Str,
  kind: Type.String({ description: "`transaction`, or `signature` for `authorize`" }),
  requestId: Str,
  depositAddress: Type.String({ description: "The deposit address to pay by a plain transfer (useDepositAddress: strict or open), else \"\"" }),
  items: Type.Array(StepItemSchema),
});

const Impact = Type.Object({ usd: Str, percent: Str });
const UsdOnly = Type.Object({ usd: Str });
const Slippage = Type.Object({ usd: Str, value: Str, percent: Str });
const PricingSchema = Type.Object(
  {
    source: Type.String({ description: "The price source's id: `uniswap-v2:<chainId>:<pair>` or `fixed:<chainId>:<base>/<quote>`" }),
    reference: Type.String({ description: "What the market's spot was checked against: `twap:<window>s` (the pair's time-weighted average), `chainlink:<feed>`, or `fixed`" }),
    pricedBy: Type.Union([Type.Literal("spot"), Type.Literal("reference")], {
      description: "Which of the two priced the quote: the lower output of the market's spot and the reference, each with the pool's depth and fee",
    }),
  },
  { description: "A swap's pricing (route.destination only): the source, its reference and which of the two priced it" },
);
const RouteSide = Type.Object({ inputCurrency: AmountSchema, outputCurrency: AmountSchema, router: Str, pricing: Type.Optional(PricingSchema) });

export const QuoteSchema = Type.Object(
  {
    steps: Type.Array(StepSchema),
    fees: Type.Object({
      gas: AmountSchema,
      relayer: AmountSchema,
      relayerGas: AmountSchema,
      relayerService: AmountSchema,
      app: AmountSchema,
      subsidized: AmountSchema,
      /** Ferry's addition, permit quotes only: the most a refund keeps for the service's gas (deposit, cancel, refund payout); charged only on refund. */
      refundGas: Type.Optional(AmountSchema),
    }),
    details: Type.Object({
      operation: Type.Union([Type.Literal("bridge"), Type.Literal("swap")], {
        description: "`swap` when the two currencies differ, else `bridge` (also on one chain, and with calls)",
      }),
      sender: Str,
      recipient: Str,
      timeEstimate: Type.Number({ description: "Seconds" }),
      currencyIn: AmountSchema,
      currencyOut: AmountSchema,
      refundCurrency: AmountSchema,
      totalImpact: Impact,
      swapImpact: Impact,
      expandedPriceImpact: Type.Object({ swap: UsdOnly, execution: UsdOnly, relay: UsdOnly, app: UsdOnly }),
      rate: Str,
      slippageTolerance: Type.Object({ origin: Slippage, destination: Slippage }),
      userBalance: Str,
      isFixedRate: Type.Boolean({ description: "True for a currency to itself and for a swap priced by a fixed (configured) price" }),
      route: Type.Object({ origin: RouteSide, destination: RouteSide }),
    }),
    protocol: Type.Object({
      v2: Type.Object({
        orderId: Str,
        orderData: Type.Unknown({ description: "The order hashed into orderId (docs/architecture.md, Protocol order id)" }),
        paymentDetails: Type.Object({ chainId: Str, depository: Str, currency: Str, amount: Str }),
        orderSignature: Type.Optional(
          Type.String({ description: "The solver key's EIP-191 signature over the orderId's 32 bytes; only with includeProtocolData" }),
        ),
      }),
    }),
    expiresAt: Type.Integer({ description: "Unix seconds. A deposit mined after this is refunded (ORDER_EXPIRED)" }),
    fillDeadline: Type.Integer({ description: "Unix seconds. No fill after this (the fill attestation's deadline)" }),
    reclaimAt: Type.Optional(
      Type.Integer({
        description:
          "Ferry: a reclaimable quote only (reclaimable: true). Unix seconds from which the depositor alone may take back, in one transaction (Depository.reclaim), a deposit the service has not released",
      }),
    ),
    feeSponsorship: Type.Optional(feeSponsorshipSchema(AmountSchema)),
  },
  { description: "Quote" },
);
