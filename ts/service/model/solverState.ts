/**
 * The solver's private state of a request (`requests.solver_state`): what was quoted, the deposit it
 * credited, its fill and its payouts. Never served: public records are built from the request's
 * public columns and `data` (./publicRecords.ts). Decoded once per row by the store; the solver works
 * on these typed values only.
 */
import { DepositAddressPayment } from "./depositAddressPayment.ts";
import { Type, type StaticDecode } from "typebox";
import { Payout } from "./payout.ts";
import { QuotedIntent } from "./quotedIntent.ts";
import { Address, BlockNumber, Bytes32, ChainId, LogIndex, Uint256, UnixSeconds } from "./values.ts";

/** The onchain deposit the request was credited with (the `Deposited` log that matched the quote). */
export const CreditedDeposit = Type.Object(
  {
    chainId: ChainId,
    depository: Address,
    txHash: Bytes32,
    logIndex: LogIndex,
    block: BlockNumber,
    blockTimestamp: UnixSeconds,
    depositor: Address,
    /** Zero address = native. */
    token: Address,
    amount: Uint256,
    /**
     * A reclaimable deposit (`DepositedReclaimable`): its depositor may take it back from this time on
     * unless the allocator `release`s it first — so its repayment or refund is a release. Absent: a plain deposit.
     * The event's uint256 as it is (a depositor may choose any).
     */
    reclaimAt: Type.Optional(Uint256),
  },
  { additionalProperties: false },
);
export type CreditedDeposit = StaticDecode<typeof CreditedDeposit>;

/** The solver's fill transaction: its hash is recorded before it is broadcast. */
export const FillState = Type.Object(
  {
    hash: Bytes32,
    status: Type.Union([Type.Literal("sent"), Type.Literal("confirmed"), Type.Literal("reverted")]),
    block: Type.Optional(BlockNumber),
    /** A resent fill: the hash it replaced (unknown to the chain). */
    replaced: Type.Optional(Type.Union([Bytes32, Type.Null()])),
    /** The nonce of the solver's transaction carrying the fill (`solver_transactions`): every attempt of it shares it. */
    txNonce: Type.Optional(Type.Integer({ minimum: 0, maximum: Number.MAX_SAFE_INTEGER })),
    /**
     * The v2 digest of the attestation the service signed for this fill; once confirmed, the receiver's
     * `filledDigest` was checked equal to it (../solver/fill/verifyOnchainFill.ts).
     */
    digest: Type.Optional(Bytes32),
  },
  { additionalProperties: false },
);
export type FillState = StaticDecode<typeof FillState>;

/**
 * The attester's `cancel(requestId)` on the destination receiver, sent before a refund while the fill
 * deadline has not passed (../solver/payout/cancelBeforeRefund.ts); its hash is recorded before broadcast.
 */
export const CancelState = Type.Object(
  {
    hash: Bytes32,
    status: Type.Union([Type.Literal("sent"), Type.Literal("confirmed"), Type.Literal("reverted")]),
    block: Type.Optional(BlockNumber),
  },
  { additionalProperties: false },
);
export type CancelState = StaticDecode<typeof CancelState>;

/**
 * A fast fill (POST /fast-fill, ../solver/fill/fastFill.ts): an app asked the solver to fill before
 * the origin deposit is final, fronting the destination value on its app balance (hold `holdId`,
 * purpose `fastFill`, reference the requestId). `seen` is the deposit transaction the service saw (its
 * terms decoded from the call or receipt) and the origin chain's latest block time then. The hold is
 * `released` once the deposit is credited, `settled` (the app bears `amountUsd`) when no deposit was
 * credited by the quote's expiry on the origin chain's indexed, final blocks.
 */
export const FastFillState = Type.Object(
  {
    apiKeyId: Type.String({ minLength: 1, maxLength: 128 }),
    holdId: Type.String({ minLength: 1, maxLength: 128 }),
    /** The fronted value (the destination amount) in USD micro-units. */
    amountUsd: Uint256,
    seen: Type.Object(
      { txHash: Bytes32, chainId: ChainId, token: Address, amount: Uint256, blockTimestamp: UnixSeconds },
      { additionalProperties: false },
    ),
    hold: Type.Union([Type.Literal("held"), Type.Literal("released"), Type.Literal("settled")]),
  },
  { additionalProperties: false },
);
export type FastFillState = StaticDecode<typeof FastFillState>;

export const SolverState = Type.Object(
  {
    intent: QuotedIntent,
    deposit: Type.Optional(CreditedDeposit),
    fill: Type.Optional(FillState),
    cancel: Type.Optional(CancelState),
    repayment: Type.Optional(Payout),
    /**
     * Batched repayment (../solver/payout/repaymentBatch.ts): when (unix ms) the fill was verified to be
     * the solver's own and the repayment queued for a batch. Only a request with it may join a batch.
     */
    repaymentQueuedAt: Type.Optional(Type.Integer({ minimum: 0, maximum: Number.MAX_SAFE_INTEGER })),
    refund: Type.Optional(Payout),
    fastFill: Type.Optional(FastFillState),
    /** Paid through a deposit address: the payment the solver forwarded (./depositAddressPayment.ts). */
    depositPayment: Type.Optional(DepositAddressPayment),
  },
  { additionalProperties: false },
);
export type SolverState = StaticDecode<typeof SolverState>;

/** What a write may change of the solver state: whole top-level fields (merged key by key). */
export const SolverStatePatch = Type.Partial(SolverState);
export type SolverStatePatch = StaticDecode<typeof SolverStatePatch>;

/**
 * Why the solver stopped working on a request (`requests.parked`): a non-retryable error in one of
 * its steps. Parked requests leave the work list until an operator clears the column.
 */
export const Parked = Type.Object(
  { code: Type.String({ maxLength: 64 }), message: Type.String({ maxLength: 1000 }), at: Type.String({ maxLength: 40 }) },
  { additionalProperties: false },
);
export type Parked = StaticDecode<typeof Parked>;

/**
 * A decoded revert, in the shape of the spec's simulation error `details.revert`: `type` errorString
 * (`Error(string)`), panic (`Panic(uint256)`), customError (decoded from a known ABI), unknownCustomError
 * (label `UNKNOWN_CUSTOM_ERROR_<selector>`, `rawArgsHex` the encoded arguments) or empty (no data).
 */
export const RevertDetails = Type.Object(
  {
    type: Type.Union([Type.Literal("errorString"), Type.Literal("panic"), Type.Literal("customError"), Type.Literal("unknownCustomError"), Type.Literal("empty")]),
    label: Type.String({ maxLength: 200 }),
    message: Type.String({ maxLength: 2000 }),
    selector: Type.Optional(Type.String({ maxLength: 10 })),
    name: Type.Optional(Type.String({ maxLength: 200 })),
    args: Type.Optional(Type.Record(Type.String(), Type.String({ maxLength: 2000 }))),
    rawArgsHex: Type.Optional(Type.String({ maxLength: 20_000 })),
  },
  { additionalProperties: false },
);
export type RevertDetails = StaticDecode<typeof RevertDetails>;

/**
 * One frame of a failing call, the spec's simulation frame (../transactions/callFrames.ts builds it
 * from a `callTracer` frame): its call type, the address called (and the configured contract name
 * there), the function (named from a known ABI) and selector, the tracer's error and revert reason,
 * and the gas it used (decimal string).
 */
export const CallFrame = Type.Object(
  {
    type: Type.String({ maxLength: 32 }),
    address: Type.Optional(Type.String({ maxLength: 42 })),
    contract: Type.Optional(Type.String({ maxLength: 200 })),
    function: Type.Optional(Type.String({ maxLength: 200 })),
    selector: Type.Optional(Type.String({ maxLength: 10 })),
    error: Type.Optional(Type.String({ maxLength: 500 })),
    revertReason: Type.Optional(Type.String({ maxLength: 2000 })),
    gasUsed: Type.Optional(Type.String({ maxLength: 80 })),
  },
  { additionalProperties: false },
);
export type CallFrame = StaticDecode<typeof CallFrame>;

/** The EVM's call depth bounds a failing path. */
export const MAX_CALL_PATH = 1025;

/**
 * Status-record `details`: decoded revert data (flat fields, and `revert` for a destination call's),
 * a reverted fill's frames (`topLevel`, `innermost`, `path`) and check failures, public.
 */
export const Details = Type.Record(
  Type.String(),
  Type.Union([Type.String(), Type.Number(), Type.Null(), RevertDetails, CallFrame, Type.Array(CallFrame, { maxItems: MAX_CALL_PATH })]),
);
export type Details = StaticDecode<typeof Details>;
