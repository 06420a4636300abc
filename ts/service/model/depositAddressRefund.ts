/**
 * A refund out of a strict deposit address (a mis-routed payment: too little, late, another token), as
 * the solver plans it and follows it (`deposit_addresses.refunds`, migration 0018): which token, how
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
]);
export type MisrouteReason = StaticDecode<typeof MisrouteReason>;

export const DepositAddressRefund = Type.Object(
  {
    token: Address,
    amount: Uint256,
    reason: MisrouteReason,
    instructionId: Bytes32,
    state: Type.Union([Type.Literal("planned"), Type.Literal("ignored"), Type.Literal("sent"), Type.Literal("confirmed")]),
    /** Why an `ignored` refund is not made (AMOUNT_TOO_LOW_TO_REFUND). */
    ignoredReason: Type.Optional(Type.Literal("AMOUNT_TOO_LOW_TO_REFUND")),
    /** The final block the plan read the balance at (the Forwarded event is searched from there). */
    plannedAtBlock: Type.Integer({ minimum: 0 }),
    /** The refund transaction: the first broadcast once sent, the one that executed once confirmed. */
    txHash: Type.Union([Bytes32, Type.Null()]),
    /** The payment refunded (who paid, which transaction), as far as it can be told. */
    payment: DepositAddressPayment,
  },
  { additionalProperties: false },
);
export type DepositAddressRefund = StaticDecode<typeof DepositAddressRefund>;
