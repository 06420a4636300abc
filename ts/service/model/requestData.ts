/**
 * The public `data` of a request record (the spec's "Request record → data"), as stored in
 * `requests.data` and served by GET /requests/v2. It holds only fields the spec defines; solver state
 * lives elsewhere (./solverState.ts) and `failReason`/`refundFailReason` are projected from their
 * columns when the record is served (./publicRecords.ts). Every field is optional: a request gains
 * them as it advances (quote fields at creation, `inTxs` with the deposit, `outTxs` with the fill).
 */
import { Type, type Static } from "typebox";
import { AddressString, BpsString, Bytes32String, HexDataString, UintString } from "./values.ts";

const Text = Type.String({ maxLength: 256 });

export const CurrencyObject = Type.Object(
  {
    chainId: Type.Integer(),
    address: AddressString,
    symbol: Text,
    name: Text,
    decimals: Type.Integer({ minimum: 0, maximum: 255 }),
    metadata: Type.Object({ logoURI: Type.String({ maxLength: 2048 }), verified: Type.Boolean(), isNative: Type.Optional(Type.Boolean()) }),
  },
  { additionalProperties: false },
);
export type CurrencyObject = Static<typeof CurrencyObject>;

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

const WeiFees = Type.Object({ gas: UintString, fixed: UintString, price: UintString, gateway: UintString }, { additionalProperties: false });

export const RequestData = Type.Object(
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
    currencyObject: Type.Optional(CurrencyObject),
    feeCurrencyObject: Type.Optional(CurrencyObject),
    appFeeCurrencyObject: Type.Optional(CurrencyObject),
    refundCurrencyData: Type.Optional(
      Type.Object(
        { currency: CurrencyObject, amount: UintString, amountFormatted: Text, amountUsd: Text, minimumAmount: UintString },
        { additionalProperties: false },
      ),
    ),
    appFees: Type.Optional(
      Type.Array(
        Type.Object({ recipient: AddressString, bps: BpsString, amount: UintString, amountUsd: Text, amountUsdCurrent: Text }, { additionalProperties: false }),
      ),
    ),
  },
  { additionalProperties: false },
);
export type RequestData = Static<typeof RequestData>;

/**
 * Every field name of the spec's request-record `data` (including those Ferry never fills), for the
 * test that holds served records to it.
 */
export const SPEC_REQUEST_DATA_FIELDS = [
  "slippageTolerance", "failReason", "refundFailReason", "supersededByRequestId", "failedTxHash", "failedTxBlockNumber",
  "failedCallData", "subsidizedRequest", "fees", "feesUsd", "inTxs", "outTxs", "currency", "feeCurrency", "currencyObject",
  "feeCurrencyObject", "appFeeCurrencyObject", "refundCurrencyData", "appFees", "subsidizedFee", "feeSponsorship",
] as const;
