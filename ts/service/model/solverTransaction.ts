/**
 * A transaction the solver sends, as the nonce manager stores it (`solver_transactions`, one row per
 * (chain, sender, nonce)): what it is for, the call, and every signed attempt of its nonce — the first
 * broadcast, re-broadcasts of the same bytes, fee-bumped replacements. At most one attempt of a nonce
 * can ever be mined, which is why a replacement can never make a fill or a payout happen twice.
 */
import { Type, type StaticDecode } from "typebox";
import { Address, Bytes32, ChainId, HexData, Nullable, Uint256 } from "./values.ts";

/**
 * What the transaction does for whom: a fill or a payout of a request, a stray refund, an approval, a
 * permit deposit submitted for a user (POST /execute/permits), a call relayed for an app (POST /execute,
 * sent from the relayer's key).
 */
export const TxPurpose = Type.Union([
  Type.Literal("fill"),
  Type.Literal("repayment"),
  Type.Literal("refund"),
  Type.Literal("stray-refund"),
  Type.Literal("approve"),
  Type.Literal("permit-deposit"),
  Type.Literal("execute"),
  Type.Literal("deposit-address-forward"),
  Type.Literal("deposit-address-refund"),
]);
export type TxPurpose = StaticDecode<typeof TxPurpose>;

/** A signed EIP-7702 authorization carried by a type-4 transaction (the authority's own signature: re-sent unchanged by every attempt). */
export const TxAuthorization = Type.Object(
  {
    chainId: Type.Integer({ minimum: 0, maximum: Number.MAX_SAFE_INTEGER }),
    address: Address,
    nonce: Type.Integer({ minimum: 0, maximum: Number.MAX_SAFE_INTEGER }),
    yParity: Type.Integer({ minimum: 0, maximum: 1 }),
    r: Bytes32,
    s: Bytes32,
  },
  { additionalProperties: false },
);
export type TxAuthorization = StaticDecode<typeof TxAuthorization>;

/**
 * The call every attempt of the nonce makes (a replacement re-signs the same call with higher fees).
 * With `authorizationList` it is an EIP-7702 (type 4) transaction, else EIP-1559 (type 2).
 */
export const TxCall = Type.Object(
  { to: Address, data: HexData, value: Uint256, gas: Uint256, authorizationList: Type.Optional(Type.Array(TxAuthorization, { minItems: 1, maxItems: 16 })) },
  { additionalProperties: false },
);
export type TxCall = StaticDecode<typeof TxCall>;

/** One signed attempt: its hash, the raw bytes (re-broadcast as they are), its EIP-1559 fees. */
export const TxAttempt = Type.Object(
  { hash: Bytes32, raw: HexData, maxFeePerGas: Uint256, maxPriorityFeePerGas: Uint256, sentAt: Type.String({ maxLength: 40 }) },
  { additionalProperties: false },
);
export type TxAttempt = StaticDecode<typeof TxAttempt>;

/** pending → mined (one attempt landed) | superseded (the nonce went to a transaction that is none of them). */
export const TxState = Type.Union([Type.Literal("pending"), Type.Literal("mined"), Type.Literal("superseded")]);
export type TxState = StaticDecode<typeof TxState>;

export const SolverTransaction = Type.Object(
  {
    chainId: ChainId,
    address: Address,
    nonce: Type.Integer({ minimum: 0, maximum: Number.MAX_SAFE_INTEGER }),
    purpose: TxPurpose,
    subject: Type.String({ maxLength: 200 }),
    call: TxCall,
    attempts: Type.Array(TxAttempt, { minItems: 1 }),
    state: TxState,
    minedHash: Nullable(Bytes32),
    createdAt: Type.String(),
    updatedAt: Type.String(),
  },
  { additionalProperties: false },
);
export type SolverTransaction = StaticDecode<typeof SolverTransaction>;
