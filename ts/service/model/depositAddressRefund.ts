/**
 * A refund out of a deposit address (a mis-routed payment: too little, late, another token, a payment
 * after the address's decision, or a payment on another chain than the quote's), as the solver plans it and follows it
 * (`deposit_addresses.refunds`, migration 0018): which token, how
 * much, why, under which instruction id, and how far it got. Planned once, with the amounts the address
 * held at one final block; each entry then moves `planned` → `sent` in the store transaction of its
 * transaction's nonce, and to `confirmed` (with the transaction that executed it) once its instruction
 * is executed at a final block. `ignored`: below the currency's `strayRefundMinimum`, recorded and left
 * at the address (as a stray deposit below it is).
 */
import { Type, type StaticDecode } from "typebox";
import { DepositAddressPayment } from "./depositAddressPayment.ts";
import { Address, Bytes32, Uint256 } from "./values.ts";

/** The spec's failReasons a mis-routed payment is refunded with. */
export const MisrouteReason = Type.Union([
  /** Some of the bound currency arrived, less than the quoted amount, and the quote expired. */
  Type.Literal("DEPOSITED_AMOUNT_TOO_LOW_TO_FILL"),
  /** The bound amount arrived, but in a block after the quote's expiry. */
  Type.Literal("ORDER_EXPIRED"),
  /** A currency the address is not bound to (native at an ERC-20 address, another configured ERC-20). */
  Type.Literal("INCORRECT_DEPOSIT_CURRENCY"),
  /** The bound currency beyond the quoted amount, held when the amount was forwarded (an overpayment's excess). */
  Type.Literal("INCORRECT_PAYMENT"),
  /** A payment into an open address that could not be re-quoted (below the minimum, the route off, the price guard…). */
  Type.Literal("NO_QUOTES"),
  /** The bound currency paid again after the address's payment was forwarded (../solver/depositAddress/laterPayments.ts). */
  Type.Literal("DOUBLE_SPEND"),
  /** Paid on a chain other than the quote's origin, where the same factory sits (../solver/depositAddress/otherChainPayments.ts): refunded there. */
  Type.Literal("DEPOSIT_CHAIN_MISMATCH"),
]);
export type MisrouteReason = StaticDecode<typeof MisrouteReason>;

export const DepositAddressRefund = Type.Object(
  {
    token: Address,
    amount: Uint256,
    reason: MisrouteReason,
    instructionId: Bytes32,
    /** `reverted`: its transaction was mined and reverted without executing the instruction (../solver/depositAddress/revertedRefund.ts): left for an operator. */
    state: Type.Union([Type.Literal("planned"), Type.Literal("ignored"), Type.Literal("sent"), Type.Literal("confirmed"), Type.Literal("reverted")]),
    /** Why an `ignored` refund is not made (AMOUNT_TOO_LOW_TO_REFUND). */
    ignoredReason: Type.Optional(Type.Literal("AMOUNT_TOO_LOW_TO_REFUND")),
    /** The final block the plan read the balance at (the Forwarded event is searched from there). */
    plannedAtBlock: Type.Integer({ minimum: 0 }),
    /** The refund transaction: the first broadcast once sent, the one that executed once confirmed. */
    txHash: Type.Union([Bytes32, Type.Null()]),
    /** The nonce of the refund transaction (the solver's key), once sent: how its receipt is found, whichever attempt was mined. */
    txNonce: Type.Optional(Type.Integer({ minimum: 0, maximum: Number.MAX_SAFE_INTEGER })),
    /** A `reverted` refund: the spec's failReason and the contract's error name (null when the revert carried no decodable error). */
    failReason: Type.Optional(Type.String({ maxLength: 80 })),
    revertError: Type.Optional(Type.Union([Type.String({ maxLength: 120 }), Type.Null()])),
    /** The payment refunded (who paid, which transaction), as far as it can be told. */
    payment: DepositAddressPayment,
  },
  { additionalProperties: false },
);
export type DepositAddressRefund = StaticDecode<typeof DepositAddressRefund>;
