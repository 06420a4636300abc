/**
 * What a quote commits Ferry to, in one flat record: written by POST /quote/v2 next to the quote,
 * read by the indexer (to match a deposit) and the solver (to fill, repay and refund). It is the only
 * contract between the quote side and the solver side, stored as JSON (the encoded form) and decoded
 * once when its row is read (./storedValue.ts).
 *
 * Decoded: addresses and ids canonical (lowercase), amounts bigint (smallest units), times unix seconds.
 */
import { Type, type StaticDecode, type StaticEncode } from "typebox";
import { Address, BpsString, Bytes32, ChainId, Uint256, UnixSeconds } from "./values.ts";

export const TradeType = Type.Union([Type.Literal("EXACT_INPUT"), Type.Literal("EXACT_OUTPUT")]);
export type TradeType = StaticDecode<typeof TradeType>;

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
    /** What the solver pays the recipient on the destination chain. */
    destinationAmount: Uint256,
    /** Deposits mined in an origin block with a timestamp after this are refunded (ORDER_EXPIRED). */
    expiresAt: UnixSeconds,
    /** The fill attestation's `deadline` and orderData.output.deadline: no fill after this. */
    fillDeadline: UnixSeconds,
    /** The fee buckets, in the origin currency's smallest units. */
    fees: Type.Object({ relayerGas: Uint256, relayerService: Uint256, app: Uint256 }),
    appFees: Type.Array(Type.Object({ recipient: Address, bps: BpsString, amount: Uint256 })),
    /** Basis points, as quoted (always "0" for same-currency routes at a fixed rate). */
    slippageToleranceBps: BpsString,
    referrer: Type.Union([Type.String({ maxLength: 256 }), Type.Null()]),
    /**
     * A signature-authorised ERC-20 deposit (the quote's `usePermit`): which kind, the nonce and deadline
     * of the message the user signs, and for EIP-2612 the token's EIP-712 domain name and version (read
     * from its `eip712Domain()` at quote time). POST /execute/permits rebuilds the message from this —
     * never from what the client sends — and submits the deposit. Absent: the user deposits itself.
     */
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
