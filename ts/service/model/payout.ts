/**
 * A Depository payout as the solver stores it before anything is signed: the allocator-signed
 * `CallRequest` (calls, nonce, expiration — exactly what is re-signed on a retry), or the
 * `SettlementRequest` when it also credits app fees, and how sending it went. Used for a request's repayment and refund (./solverState.ts) and a stray deposit's refund.
 */
import { Type, type StaticDecode } from "typebox";
import { Address, BlockNumber, Bytes32, ChainId, Uint256, UnixSeconds } from "./values.ts";

export const PayoutStatus = Type.Union([Type.Literal("prepared"), Type.Literal("sent"), Type.Literal("confirmed"), Type.Literal("reverted")]);

export const PayoutCall = Type.Object({ to: Address, token: Address, amount: Uint256 }, { additionalProperties: false });

/** A call of a landed payout that the Depository made claimable (`PayoutClaimable`): the payee withdraws it with `claim`. */
export const ClaimablePayout = Type.Object({ index: Type.Integer({ minimum: 0, maximum: 1_000_000 }), to: Address, token: Address, amount: Uint256 }, { additionalProperties: false });
export type ClaimablePayout = StaticDecode<typeof ClaimablePayout>;

export const Payout = Type.Object(
  {
    chainId: ChainId,
    depository: Address,
    nonce: Uint256,
    expiration: UnixSeconds,
    calls: Type.Array(PayoutCall),
    /**
     * App fees credited to their recipients' claimable balances by the same signed request: present
     * (non-empty) → a `SettlementRequest` sent to `Depository.settle`; absent → a `CallRequest` sent to
     * `execute`.
     */
    credits: Type.Optional(Type.Array(PayoutCall)),
    /**
     * The orderId of a reclaimable deposit this payout is paid from: present → a `ReleaseRequest` sent
     * to `Depository.release`, which deletes the deposit's reclaim commitment in the same transaction
     * (release and the depositor's reclaim can never both pay).
     */
    release: Type.Optional(Bytes32),
    /** EIP-712 struct hash (of the CallRequest, the SettlementRequest or the ReleaseRequest): in RequestExecuted. */
    requestHash: Bytes32,
    status: PayoutStatus,
    hash: Type.Optional(Bytes32),
    /** The nonce of the solver's transaction that carries the payout (`solver_transactions`), not the Depository's `nonce`. */
    txNonce: Type.Optional(Type.Integer({ minimum: 0, maximum: Number.MAX_SAFE_INTEGER })),
    block: Type.Optional(BlockNumber),
    /** A spec failReason when the payout reverted. */
    failReason: Type.Optional(Type.String({ maxLength: 64 })),
    /** Once confirmed: the calls that became claimable instead of being paid (payee could not receive). */
    claimable: Type.Optional(Type.Array(ClaimablePayout)),
    /**
     * A request's repayment paid by a batch (../solver/payout/repaymentBatch.ts): the fields above are the
     * batch's struct (calls, credits, nonce, expiration, requestHash: `repayment_batches`, stored once
     * with every member's copy in one transaction before signing) and its transaction; these are this
     * request's calls and credits in it (indexes). Never stepped on its own: the batch is.
     */
    batch: Type.Optional(
      Type.Object(
        {
          calls: Type.Array(Type.Integer({ minimum: 0, maximum: 1_000 }), { maxItems: 16 }),
          credits: Type.Array(Type.Integer({ minimum: 0, maximum: 1_000 }), { maxItems: 64 }),
        },
        { additionalProperties: false },
      ),
    ),
  },
  { additionalProperties: false },
);
export type Payout = StaticDecode<typeof Payout>;
export type PayoutKind = "repayment" | "refund";
