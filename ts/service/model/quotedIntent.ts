/**
 * What a quote commits Ferry to, in one flat record: written by POST /quote/v2 next to the quote,
 * read by the indexer (to match a deposit) and the solver (to fill, repay and refund). It is the only
 * contract between the quote side and the solver side, stored as JSON (the encoded form) and decoded
 * once when its row is read (./storedValue.ts).
 *
 * Decoded: addresses and ids canonical (lowercase), amounts bigint (smallest units), times unix seconds.
 */
import { Type, type StaticDecode, type StaticEncode } from "typebox";
import { Address, BpsString, Bytes32, ChainId, HexData, Uint256, UnixSeconds } from "./values.ts";

/**
 * EXACT_INPUT: `amount` is the deposit. EXACT_OUTPUT: `amount` is exactly what the recipient gets.
 * EXPECTED_OUTPUT: `amount` is the expected output; the minimum is that less the slippage tolerance.
 */
export const TradeType = Type.Union([Type.Literal("EXACT_INPUT"), Type.Literal("EXACT_OUTPUT"), Type.Literal("EXPECTED_OUTPUT")]);
export type TradeType = StaticDecode<typeof TradeType>;

/**
 * A swap's pricing terms (a route between two currencies): what the solver re-prices at fill time.
 * It pays `destinationAmount` from its inventory only while `netInput`, re-priced by the same price
 * source, still buys at least `floorAmount` of the output; otherwise the price moved past the
 * tolerance and the request fails with SLIPPAGE (and is refunded).
 */
export const SwapTerms = Type.Object(
  {
    /** The configured price source that priced it (ts/service/prices/priceSources.ts ids). */
    priceSource: Type.String({ minLength: 1, maxLength: 200 }),
    /** The deposit less every fee, in origin-currency units: what the output is priced from. */
    netInput: Uint256,
    toleranceBps: BpsString,
    /** The least `netInput` must buy at fill time (output units). */
    floorAmount: Uint256,
  },
  { additionalProperties: false },
);
export type SwapTerms = StaticDecode<typeof SwapTerms>;

/** One destination call, run from the Multicaller by AttestedReceiver.fillWithCalls. */
export const IntentCall = Type.Object({ to: Address, data: HexData, value: Uint256 }, { additionalProperties: false });
export type IntentCall = StaticDecode<typeof IntentCall>;

/** At most 16 calls of the body's `txs` plus the gas top-up. */
export const MAX_INTENT_CALLS = 17;

/** One fee component of a sponsored quote, in origin-currency units: its total, the app's part, the user's part. */
const SponsoredComponent = Type.Object({ selected: Type.Boolean(), total: Uint256, sponsored: Uint256, userPays: Uint256 }, { additionalProperties: false });

/**
 * A sponsored quote (`subsidizeFees` with an API key): who pays what (ts/service/quote/feeSponsorship.ts).
 * `amount` (origin-currency units) is what the app pays instead of the user — the deposit is smaller
 * (EXACT_OUTPUT) or the output larger (EXACT_INPUT) by it — and `amountUsdMicro` what its balance is
 * held at quote time (hold `holdId`, reference the requestId) and debited when the request succeeds.
 */
export const QuotedSponsorship = Type.Object(
  {
    selectedComponents: Type.Array(Type.Union([Type.Literal("execution"), Type.Literal("swap"), Type.Literal("relay"), Type.Literal("app")]), { maxItems: 4 }),
    /** The body's `maxSubsidizationAmount` (USD micro-units), when given. */
    maxUsdMicro: Type.Optional(Uint256),
    capHit: Type.Boolean(),
    components: Type.Object(
      { execution: SponsoredComponent, swap: SponsoredComponent, relay: SponsoredComponent, app: SponsoredComponent },
      { additionalProperties: false },
    ),
    amount: Uint256,
    amountUsdMicro: Uint256,
    /** The app balance hold of the sponsored amount (absent only before it is taken). */
    holdId: Type.Optional(Type.String({ minLength: 1, maxLength: 200 })),
  },
  { additionalProperties: false },
);
export type QuotedSponsorship = StaticDecode<typeof QuotedSponsorship>;

/**
 * A quote paid through a deposit address (`useDepositAddress`): where the payer sends a plain transfer
 * and what the address is derived from (ts/core depositAddress.ts), so the solver can forward what
 * arrives there into the Depository without reading anything else. Strict: the address is bound to
 * this quote's orderId, origin currency and origin amount; open: it is the reusable address of
 * `refundTo` and the route (destination chain, currency, recipient), and each payment into it is
 * re-quoted into its own intent (mode `open` too). Refunds go to `refundTo`.
 */
export const QuotedDepositAddress = Type.Object(
  {
    /** The CREATE2 address of the forwarder (not deployed until funds move). */
    address: Address,
    mode: Type.Union([Type.Literal("strict"), Type.Literal("open")]),
    /** The DepositAddressFactory of the origin chain the address is derived from. */
    factory: Address,
    /**
     * What the service spends to forward the payment (`deployAndForward` gas × origin gas price at quote
     * time, origin-currency units): part of the quote's `relayerGas` bucket.
     */
    forwardGas: Uint256,
  },
  { additionalProperties: false },
);
export type QuotedDepositAddress = StaticDecode<typeof QuotedDepositAddress>;

export const QuotedIntent = Type.Object(
  {
    requestId: Bytes32,
    /** The protocol orderId: the `id` of the expected Depository deposit. */
    orderId: Bytes32,
    tradeType: TradeType,
    /** The quote's `user`: sender, origin user of the attestations, the deposit step's `from`. */
    user: Address,
    recipient: Address,
    /** Who gets refunds on the origin chain (the quote's `refundTo`, default `user`). */
    refundTo: Address,
    originChainId: ChainId,
    originCurrency: Address,
    /** The deposit the quote expects: what the deposit step sends. */
    originAmount: Uint256,
    destinationChainId: ChainId,
    destinationCurrency: Address,
    /** What the solver pays the recipient on the destination chain (the quote's currencyOut.amount). */
    destinationAmount: Uint256,
    /** The order's output minimumAmount (currencyOut.minimumAmount). Absent in rows quoted before swaps: = destinationAmount. */
    minimumAmount: Type.Optional(Uint256),
    /** Present when the two currencies differ (a swap). */
    swap: Type.Optional(SwapTerms),
    /**
     * Destination calls, in order: the body's `txs`, then the gas top-up (a plain transfer of
     * `topupGas` to the recipient). With calls the fill is `fillWithCalls`: the amount is paid into
     * the Multicaller, the calls run, and what they leave goes to `recipient` (for `txs`, the refund
     * recipient); the requestId is their commitment (ts/core callsRequestId).
     */
    calls: Type.Optional(Type.Array(IntentCall, { maxItems: MAX_INTENT_CALLS })),
    /**
     * With calls: the tokens the Multicaller sweeps to `recipient` after them (native is always swept):
     * the destination currency (an ERC-20) and every token the calls name (ts/service/quote/callOutputs.ts).
     * Part of the requestId's commitment. Absent in rows quoted before it: the destination ERC-20 only.
     */
    sweepTokens: Type.Optional(Type.Array(Address, { maxItems: 16 })),
    /** Native (destination chain, wei) the recipient gets on top of the output (`topupGas`). */
    topupGas: Type.Optional(Uint256),
    /**
     * With calls: the fill's gas the quote priced (fillWithCalls + the calls' `txsGasLimit` or default
     * + the top-up). A fill whose estimate exceeds it is not sent (failure SWAP_USES_TOO_MUCH_GAS).
     */
    fillGasLimit: Type.Optional(Uint256),
    /** Deposits mined in an origin block with a timestamp after this are refunded (ORDER_EXPIRED). */
    expiresAt: UnixSeconds,
    /** The fill attestation's `deadline` and orderData.output.deadline: no fill after this. */
    fillDeadline: UnixSeconds,
    /**
     * A reclaimable quote (`reclaimable: true`): the deposit step is the Depository's reclaimable form with
     * this reclaim time (`fillDeadline` + `quotes.reclaimWindowSeconds`), and every payout of its deposit
     * is an allocator-signed `release`, which ends the depositor's right to reclaim it. Absent: a plain deposit.
     */
    reclaimAt: Type.Optional(UnixSeconds),
    /** The fee buckets, in the origin currency's smallest units. */
    fees: Type.Object({
      relayerGas: Uint256,
      relayerService: Uint256,
      app: Uint256,
      /** What the gas top-up costs, in origin-currency units (part of the quote's `relayerGas` bucket). */
      topupGas: Type.Optional(Uint256),
      /**
       * A permit quote only: the most a refund keeps for the service's gas (the permit deposit, the
       * attestation's cancel and the refund payout, at twice the quote-time gas prices), in
       * origin-currency units — the quote's `fees.refundGas`. The refund keeps what was actually spent,
       * converted into the origin currency, up to this (../solver/payout/permitRefundCharge.ts).
       */
      refundGas: Type.Optional(Uint256),
    }),
    appFees: Type.Array(Type.Object({ recipient: Address, bps: BpsString, amount: Uint256 })),
    /**
     * The origin currency's USD price the quote used (1e-8 USD per whole unit: the configured `usdPrice`),
     * so the request record's USD figures (`feesUsd`, `refundCurrencyData.amountUsd`, app fees) are the
     * quote's and never re-priced later. Absent when the currency has no configured price (the quote's
     * `amountUsd` were "0") or the quote was made before prices were stored (migration 0015 backfills it).
     */
    originUsdPriceE8: Type.Optional(Uint256),
    /** Present when the app sponsors part of the fees (ts/service/quote/feeSponsorship.ts). */
    sponsorship: Type.Optional(QuotedSponsorship),
    /** Basis points, as quoted ("0" for same-currency routes at a fixed rate; the swap's tolerance otherwise). */
    slippageToleranceBps: BpsString,
    referrer: Type.Union([Type.String({ maxLength: 256 }), Type.Null()]),
    /**
     * A signature-authorised ERC-20 deposit (the quote's `usePermit`): which kind, the nonce and deadline
     * of the message the user signs, and for EIP-2612 the token's EIP-712 domain name and version (read
     * from its `eip712Domain()` at quote time). POST /execute/permits rebuilds the message from this —
     * never from what the client sends — and submits the deposit. Absent: the user deposits itself.
     */
    /** Paid through a deposit address (the quote's `useDepositAddress`); absent: the user deposits itself. */
    depositAddress: Type.Optional(QuotedDepositAddress),
    permit: Type.Optional(
      Type.Object(
        {
          kind: Type.Union([Type.Literal("eip2612"), Type.Literal("permit2")]),
          nonce: Uint256,
          deadline: UnixSeconds,
          tokenName: Type.Optional(Type.String({ maxLength: 256 })),
          tokenVersion: Type.Optional(Type.String({ maxLength: 64 })),
        },
        { additionalProperties: false },
      ),
    ),
  },
  { additionalProperties: false },
);
export type QuotedIntent = StaticDecode<typeof QuotedIntent>;
export type QuotedIntentJson = StaticEncode<typeof QuotedIntent>;
