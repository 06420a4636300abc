/**
 * The public `data` of a request record (the spec's "Request record → data"), as stored in
 * `requests.data` and served by GET /requests/v2. It holds only fields the spec defines; solver state
 * lives elsewhere (./solverState.ts) and `failReason`/`refundFailReason` are projected from their
 * columns when the record is served (./publicRecords.ts). Every field is optional: a request gains
 * them as it advances (quote fields at creation, `inTxs` with the deposit, `outTxs` with the fill).
 */
import { Type, type Static, type TSchema } from "typebox";
import { AddressString, BpsString, Bytes32String, HexDataString, UintString } from "./values.ts";

const Text = Type.String({ maxLength: 256 });

function currencySchema<N extends TSchema>(isNative: N) {
  return Type.Object(
    {
      chainId: Type.Integer(),
      address: AddressString,
      symbol: Text,
      name: Text,
      decimals: Type.Integer({ minimum: 0, maximum: 255 }),
      metadata: Type.Object({ logoURI: Type.String({ maxLength: 2048 }), verified: Type.Boolean(), isNative }),
    },
    { additionalProperties: false },
  );
}

/** A Currency object as stored: rows written before `isNative` was recorded lack it. */
export const CurrencyObject = currencySchema(Type.Optional(Type.Boolean()));
export type CurrencyObject = Static<typeof CurrencyObject>;

/** A Currency object as served: `metadata.isNative` always, as in quotes (true for the zero address). */
export const ServedCurrencyObject = currencySchema(Type.Boolean({ description: "true for the chain's native currency (the zero address)" }));
export type ServedCurrencyObject = Static<typeof ServedCurrencyObject>;

/** The spec's `inTxs` / `outTxs` entry. */
export const OnchainTx = Type.Object(
  {
    fee: UintString,
    data: Type.Object(
      {
        from: Type.Optional(AddressString),
        to: Type.Optional(Type.Union([AddressString, Type.Null()])),
        input: Type.Optional(HexDataString),
        value: Type.Optional(UintString),
      },
      { additionalProperties: false },
    ),
    stateChanges: Type.Array(Type.Unknown()),
    hash: Bytes32String,
    block: Type.Integer({ minimum: 0 }),
    type: Type.Literal("onchain"),
    chainId: Type.Integer(),
    timestamp: Type.Integer({ minimum: 0 }),
    status: Type.Union([Type.Literal("success"), Type.Literal("failure")]),
  },
  { additionalProperties: false },
);
export type OnchainTx = Static<typeof OnchainTx>;

/**
 * The spec's `feeSponsorship.quoted` (also the sponsored quote's `feeSponsorship`): the selected
 * components, the cap (USD micro-units) when one was set, whether it was hit, and per component —
 * all four, always — whether it was selected and its total, sponsored part and the user's part.
 */
export function feeSponsorshipSchema<A extends TSchema>(amount: A) {
  const component = Type.Object({ selected: Type.Boolean(), total: amount, sponsored: amount, userPays: amount }, { additionalProperties: false });
  return Type.Object(
    {
      selectedComponents: Type.Array(Type.Union([Type.Literal("execution"), Type.Literal("swap"), Type.Literal("relay"), Type.Literal("app")]), { maxItems: 4 }),
      maxSubsidizationAmount: Type.Optional(Type.String({ pattern: "^[0-9]{1,30}$", description: "USD micro-units" })),
      capHit: Type.Boolean(),
      components: Type.Object({ execution: component, swap: component, relay: component, app: component }, { additionalProperties: false }),
    },
    { additionalProperties: false, description: "Who pays what: the app (sponsored) and the user (userPays), per fee component, in the origin currency" },
  );
}

function amountSchema<C extends TSchema>(currency: C) {
  return Type.Object({ currency, amount: UintString, amountFormatted: Text, amountUsd: Text, minimumAmount: UintString }, { additionalProperties: false });
}

/** The request record's Amount object (the spec's: currency, amount, amountFormatted, amountUsd, minimumAmount). */
export const RecordAmount = amountSchema(CurrencyObject);
export type RecordAmount = Static<typeof RecordAmount>;

const SponsorSide = Type.Object({ amount: UintString, address: AddressString, chainId: Type.Integer({ minimum: 0 }) }, { additionalProperties: false });

const WeiFees = Type.Object({ gas: UintString, fixed: UintString, price: UintString, gateway: UintString }, { additionalProperties: false });

/**
 * The `data` object over a Currency schema: stored (`isNative` optional) or served (`isNative` always,
 * plus the fields the record projects when it is served: `failReason`, `refundFailReason`, `feesUsd`).
 */
function requestDataSchema<C extends TSchema, Served extends Record<string, TSchema>>(currency: C, served: Served) {
  const amount = amountSchema(currency);
  return Type.Object(
    {
      slippageTolerance: Type.Optional(BpsString),
      failReason: Type.Optional(Type.String()),
      refundFailReason: Type.Optional(Type.String()),
      supersededByRequestId: Type.Optional(Type.Union([Bytes32String, Type.Null()])),
      failedTxHash: Type.Optional(Bytes32String),
      failedTxBlockNumber: Type.Optional(Type.Integer({ minimum: 0 })),
      failedCallData: Type.Optional(Type.Object({ from: AddressString, to: Type.String(), data: HexDataString, value: UintString }, { additionalProperties: false })),
      subsidizedRequest: Type.Optional(Type.Boolean()),
      fees: Type.Optional(WeiFees),
      inTxs: Type.Optional(Type.Array(OnchainTx)),
      outTxs: Type.Optional(Type.Array(OnchainTx)),
      currency: Type.Optional(Text),
      feeCurrency: Type.Optional(Text),
      currencyObject: Type.Optional(currency),
      feeCurrencyObject: Type.Optional(currency),
      appFeeCurrencyObject: Type.Optional(currency),
      refundCurrencyData: Type.Optional(amount),
      appFees: Type.Optional(
        Type.Array(
          Type.Object({ recipient: AddressString, bps: BpsString, amount: UintString, amountUsd: Text, amountUsdCurrent: Text }, { additionalProperties: false }),
        ),
      ),
      /**
       * A sponsored request: `origin` is the sponsored amount in the origin currency (what the user did not
       * pay), `sponsor` what the app balance pays for it, in USD micro-units (address zero, chainId 0: the
       * app balance is kept by the service, on no chain); USD at the operator-configured price.
       */
      subsidizedFee: Type.Optional(Type.Object({ origin: SponsorSide, sponsor: SponsorSide, amountUsd: Text, amountUsdCurrent: Text }, { additionalProperties: false })),
      feeSponsorship: Type.Optional(Type.Object({ quoted: feeSponsorshipSchema(amount) }, { additionalProperties: false })),
      ...served,
    },
    { additionalProperties: false },
  );
}

/** `data` as stored in `requests.data` (`failReason`/`refundFailReason` live in their columns). */
export const RequestData = requestDataSchema(CurrencyObject, {});
export type RequestData = Static<typeof RequestData>;

/**
 * `data` as GET /requests/v2 serves it (../model/publicRecords.ts): every Currency object with
 * `isNative`; `failReason` (`N/A` unless failed or refunded) and `refundFailReason` (`N/A` until a refund
 * fails) always; `feesUsd` whenever `fees` is there.
 */
export const ServedRequestData = requestDataSchema(ServedCurrencyObject, {
  failReason: Type.String({ description: "N/A unless failed or refunded; then the recorded reason, or UNKNOWN" }),
  refundFailReason: Type.String({ description: "N/A until a refund fails; then AMOUNT_TOO_LOW_TO_REFUND" }),
  feesUsd: Type.Optional(
    Type.Object(
      { gas: Text, fixed: Text, price: Text, gateway: Text },
      { additionalProperties: false, description: "`fees` in USD at the origin currency's price the quote used (\"0\" each when the quote had no USD price)" },
    ),
  ),
});
export type ServedRequestData = Static<typeof ServedRequestData>;

/**
 * Every field name of the spec's request-record `data` (including those Ferry never fills), for the
 * test that holds served records to it.
 */
export const SPEC_REQUEST_DATA_FIELDS = [
  "slippageTolerance", "failReason", "refundFailReason", "supersededByRequestId", "failedTxHash", "failedTxBlockNumber",
  "failedCallData", "subsidizedRequest", "fees", "feesUsd", "inTxs", "outTxs", "currency", "feeCurrency", "currencyObject",
  "feeCurrencyObject", "appFeeCurrencyObject", "refundCurrencyData", "appFees", "subsidizedFee", "feeSponsorship",
] as const;
