// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

import {CompactSignature} from "../libraries/AttestationLib.sol";

/// @title IDepository
/// @notice Origin-chain escrow. Users deposit native currency or ERC-20 tokens under the protocol
/// `orderId` of their quote; funds leave only through payouts signed by the allocator (solver
/// repayment and refunds), or as a claimable balance the payee of a failed payout withdraws itself.
/// @dev Payout calls are typed transfers, never arbitrary calls: users' ERC-20 approvals point at
/// this contract, so an arbitrary call could spend them.
///
/// Payouts are bounded and independent. A native payout forwards at most `NATIVE_PAYOUT_GAS`
/// (50,000) to its payee and an ERC-20 payout at most `TOKEN_PAYOUT_GAS` (100,000) to the token, so
/// a payee (a `refundTo`, a stray deposit's depositor) that burns gas costs the submitter a bounded
/// amount. A payout that fails within that gas (the payee rejects native currency or needs more gas,
/// the token blocklists the payee, returns false or reverts) does not revert the request: its amount
/// becomes `claimable[to][token]`, which only `to` can withdraw, to any address, with `claim`. So a
/// refund never holds the solver's repayment hostage, and nothing is lost.
///
/// Allocator changes wait `ALLOCATOR_CHANGE_DELAY` (2 days): the owner proposes, anyone can watch
/// `AllocatorChangeProposed`, and the owner applies it after the delay (or cancels it) and within
/// `ALLOCATOR_CHANGE_WINDOW` (7 days) after it: a proposal not applied by then expires. The allocator
/// is given to the constructor and is locked from the start: no change is ever immediate. During the
/// delay the current allocator can still pay out (e.g. refund every open deposit). The allocator may
/// be a contract (EIP-1271: a multisig or an MPC wallet).
///
/// Claimable balances are reserved: the Depository keeps the sum owed per token (`totalClaimable`), and
/// a payout or a settlement credit may use only what it holds beyond that sum, so funds owed to a payee
/// of a failed payout or credited as an app fee are never spent by `execute` nor backed twice by
/// `settle`.
interface IDepository {
    /// @notice One payout: `amount` of `token` (zero address = native) to `to`.
    struct Call {
        address to;
        address token;
        uint256 amount;
    }

    /// @notice An allocator-signed batch of payouts (EIP-712 typed data, domain
    /// name "FerryDepository", version "1", this chain id and this contract).
    struct CallRequest {
        Call[] calls;
        uint256 nonce;
        uint256 expiration;
    }

    /// @notice An allocator-signed settlement: `calls` are paid out exactly as `execute` pays them, and
    /// each of `credits` adds `amount` of `token` to `claimable[to][token]` without moving funds (app
    /// fees: the app withdraws them with `claim`). EIP-712 typed data in the same domain as `CallRequest`;
    /// it shares the nonce space of `execute`, so a nonce is spent once by either.
    struct SettlementRequest {
        Call[] calls;
        Call[] credits;
        uint256 nonce;
        uint256 expiration;
    }

    /// @notice A deposit authorised by the depositor's EIP-2612 permit signature and submitted by anyone
    /// holding the allocator's authorisation of these exact fields (EIP-712, same domain as `CallRequest`):
    /// the permit alone does not name the order, so the allocator's signature binds `id`.
    struct PermitDeposit {
        address depositor;
        address token;
        uint256 amount;
        bytes32 id;
        uint256 deadline;
    }

    /// @notice An allocator-signed release of a reclaimable deposit's commitment (see
    /// `depositNativeReclaimable`), atomic with its payouts and credits: the commitment under `id` is
    /// deleted, then `calls` are paid and `credits` credited exactly as `settle` does. EIP-712 typed data
    /// in the same domain as `CallRequest`; it shares the nonce space of `execute` and `settle`.
    struct ReleaseRequest {
        bytes32 id;
        Call[] calls;
        Call[] credits;
        uint256 nonce;
        uint256 expiration;
    }

    // ---------------------------------------------------------------- errors

    /// @notice A deposit named orderId 0 (checked first).
    error ZeroOrderId();
    /// @notice A deposit credited nothing (zero value, zero amount, or zero balance delta).
    error ZeroDeposit();
    /// @notice The request's expiration timestamp has passed.
    error RequestExpired(uint256 expiration);
    /// @notice The signature is not the allocator's: `signer` is what it recovers to as an ECDSA
    /// signature (zero when it is not a well-formed one), and the allocator, if it is a contract,
    /// did not accept it through EIP-1271 either.
    error SignerNotAllocator(address signer);
    /// @notice A request with this nonce was already executed (whatever its calls or expiration).
    error NonceAlreadyUsed(uint256 nonce);
    /// @notice Payout number `index` asks for more of `token` than the Depository holds beyond what it
    /// owes as claimable: `balance` is that unreserved amount.
    error InsufficientBalance(uint256 index, address token, uint256 balance, uint256 amount);
    /// @notice The allocator may not be the zero address.
    error ZeroAllocator();
    /// @notice There is no allocator change to apply or cancel.
    error NoPendingAllocatorChange();
    /// @notice The proposed allocator change cannot be applied before `eta`.
    error AllocatorChangeNotReady(uint256 eta);
    /// @notice The proposed allocator change was not applied by `expiredAt` (its eta plus
    /// ALLOCATOR_CHANGE_WINDOW): propose it again.
    error AllocatorChangeExpired(uint256 expiredAt);
    /// @notice `payee` has no claimable balance of `token`.
    error NothingToClaim(address payee, address token);
    /// @notice A claim may not be sent to the zero address.
    error ZeroClaimRecipient();
    /// @notice Sending a native claim to `to` failed.
    error ClaimFailed(address to);
    /// @notice Ownership cannot be renounced (it would freeze the allocator forever).
    error RenounceOwnershipDisabled();
    /// @notice Credit number `index` of a settlement names more of `token` than the Depository holds
    /// beyond what it already owes as claimable (earlier credits of the same settlement included):
    /// `balance` is that unreserved amount.
    error CreditNotBacked(uint256 index, address token, uint256 balance, uint256 amount);
    /// @notice A signature-authorised deposit must name its depositor (the signer whose tokens are pulled).
    error ZeroDepositor();
    /// @notice The permit deposit's `deadline` has passed.
    error PermitDepositExpired(uint256 deadline);
    /// @notice A permit deposit under this orderId was already made (the allocator's authorisation is one-shot).
    error PermitDepositReplayed(bytes32 id);
    /// @notice The token's `permit` reverted and `depositor`'s allowance to the Depository (`allowance`) does
    /// not cover the amount either: the permit was neither usable nor already used.
    error PermitNotUsable(address token, address depositor, uint256 allowance);

    /// @notice A reclaimable deposit was made under `id` while the commitment of an earlier one is still
    /// live (not released, not reclaimed): one commitment per orderId.
    error ReclaimAlreadyCommitted(bytes32 id);
    /// @notice There is no live reclaim commitment under `id` (none was made, or it was released by the
    /// allocator, or reclaimed).
    error NoReclaimCommitment(bytes32 id);
    /// @notice The caller and the fields named do not hash to the commitment under `id`: `commitment` is
    /// what they hash to (only the depositor, with its deposit's exact currency, amount and reclaim time,
    /// can reclaim).
    error ReclaimCommitmentMismatch(bytes32 id, bytes32 commitment);
    /// @notice The deposit cannot be reclaimed before `reclaimAt`.
    error ReclaimNotYet(uint256 reclaimAt);

    // ---------------------------------------------------------------- events

    /// @notice A deposit of `amount` of `token` (zero = native) was received under `id`
    /// (the protocol orderId) for `depositor`. `amount` is what the contract actually received.
    /// @dev The payer (msg.sender) is deliberately not in the event: it is the transaction's sender
    /// (or the integrator contract that called, e.g. GatedCheckout), refunds go to `depositor`, and a
    /// fourth word would cost every deposit 256 gas, which the native deposit's budget does not have.
    event Deposited(bytes32 indexed id, address indexed depositor, address token, uint256 amount);
    /// @notice An allocator-signed request was executed (its nonce is now used).
    event RequestExecuted(bytes32 indexed requestHash, uint256 indexed nonce);
    /// @notice Payout number `index` of request `nonce` could not be paid within its gas cap; its
    /// amount is now claimable by `to` (see `claim`).
    event PayoutClaimable(uint256 indexed nonce, uint256 index, address indexed to, address token, uint256 amount);
    /// @notice `payee` withdrew its claimable `amount` of `token` to `to`.
    event Claimed(address indexed payee, address indexed token, address to, uint256 amount);
    /// @notice The allocator changed (at construction, or when a change is applied).
    event AllocatorUpdated(address indexed previousAllocator, address indexed newAllocator);
    /// @notice The owner proposed `newAllocator`; it can be applied from `eta` on.
    event AllocatorChangeProposed(address indexed newAllocator, uint256 eta);
    /// @notice The owner cancelled the proposed change to `newAllocator`.
    event AllocatorChangeCancelled(address indexed newAllocator);
    /// @notice Credit number `index` of settlement `nonce` added `amount` of `token` to `to`'s claimable
    /// balance (an app fee; `to` withdraws it with `claim`).
    event Credited(uint256 indexed nonce, uint256 index, address indexed to, address token, uint256 amount);

    /// @notice A reclaimable deposit of `amount` of `token` (zero = native) was received under `id` from
    /// `depositor`, who alone can take it back with `reclaim` from `reclaimAt` on unless the allocator
    /// releases it first. The data is the commitment's preimage: `reclaimCommitment(id)` is
    /// `keccak256(abi.encode(depositor, token, amount, reclaimAt))`, the keccak256 of this event's data.
    /// @dev Not `Deposited`: a watcher that knows only plain deposits must not take one its depositor
    /// can take back for a plain one. One event with the depositor in the data, not a topic: 119 gas
    /// less, which the native form's budget (46,500) needs; find a deposit by its `id`.
    event DepositedReclaimable(bytes32 indexed id, address depositor, address token, uint256 amount, uint256 reclaimAt);
    /// @notice The allocator released the reclaim commitment under `id` (`release`, request `nonce`): the
    /// deposit can no longer be reclaimed.
    event ReclaimReleased(bytes32 indexed id, uint256 indexed nonce);
    /// @notice `depositor` reclaimed its deposit under `id`: `amount` of `token` was sent to it, or, when
    /// that payout failed within its gas cap (`claimable` true), made claimable by it (see `claim`).
    event Reclaimed(bytes32 indexed id, address indexed depositor, address token, uint256 amount, bool claimable);

    // ---------------------------------------------------------------- admin

    /// @notice Owner only: propose `newAllocator`, applicable after `ALLOCATOR_CHANGE_DELAY`
    /// (2 days). Replaces any earlier proposal. Reverts ZeroAllocator.
    function proposeAllocator(address newAllocator) external;

    /// @notice Owner only: apply the proposed change once its delay has passed and before it expires
    /// (ALLOCATOR_CHANGE_WINDOW, 7 days, after the eta). Reverts NoPendingAllocatorChange, then
    /// AllocatorChangeNotReady(eta), then AllocatorChangeExpired(eta + window).
    function applyAllocator() external;

    /// @notice Owner only: drop the proposed change. Reverts NoPendingAllocatorChange.
    function cancelAllocatorChange() external;

    /// @notice Always reverts RenounceOwnershipDisabled.
    function renounceOwnership() external;

    // ---------------------------------------------------------------- depositor

    /// @notice Deposit `msg.value` of native currency under `id`; depositor 0 credits msg.sender.
    /// Checks: id not zero (ZeroOrderId) → value not zero (ZeroDeposit).
    function depositNative(address depositor, bytes32 id) external payable;

    /// @notice `depositNative(address(0), id)` in its compact form, the one quotes use: deposit
    /// `msg.value` of native currency under `id`, credited to msg.sender. Checks: id not zero
    /// (ZeroOrderId) → value not zero (ZeroDeposit) → Deposited(id, msg.sender, address(0), msg.value).
    /// @dev The suffix is mined: the selector is 0x00000000, so the dispatcher tries this function
    /// first and the selector costs 4 gas per byte of calldata instead of 16 (36 bytes in all).
    function depositNative_irOEa(bytes32 id) external payable;

    /// @notice `depositErc20(address(0), token, amount, id)` in its compact form, the one quotes use:
    /// pull `amount` of `token` from msg.sender and credit msg.sender what arrived (balance delta).
    /// Checks: id not zero (ZeroOrderId, before anything is read or pulled) → `balanceOf` answers a word
    /// (SafeERC20FailedOperation(token)) → `transferFrom` succeeds (its revert bubbles up) and returns
    /// nothing or true (SafeERC20FailedOperation(token)) → the balance grew (ZeroDeposit) → Deposited.
    /// Under the same reentrancy guard as the other ERC-20 deposits.
    /// @dev Mined suffix: selector 0x000000af, tried second.
    function depositErc20_6R0X4(address token, uint256 amount, bytes32 id) external;

    /// @notice Pull `amount` of `token` from msg.sender and credit the balance delta under `id`;
    /// depositor 0 credits msg.sender. A fee-on-transfer token is credited what actually arrived.
    /// @dev Reverts ZeroOrderId for id 0 (before pulling), ZeroDeposit when nothing arrived; token
    /// failures bubble up (SafeERC20).
    function depositErc20(address depositor, address token, uint256 amount, bytes32 id) external;

    /// @notice Pull msg.sender's whole allowance of `token` to this contract and credit the balance
    /// delta under `id`; depositor 0 credits msg.sender.
    /// @dev Pulls exactly `allowance(msg.sender, this)`, so an unlimited approval reverts unless the
    /// balance covers it: approve the deposit amount for this form, or use the amount form.
    function depositErc20(address depositor, address token, bytes32 id) external;

    /// @notice Deposit `deposit.amount` of `deposit.token` from `deposit.depositor` under `deposit.id`,
    /// authorised by the depositor's EIP-2612 permit (`v`, `r`, `s`, for this contract as spender, the
    /// amount and `deposit.deadline`) and by the allocator's EIP-712 signature over `deposit`
    /// (`authorization`). Anyone may submit (the service's relayer does). Credits the balance delta.
    /// Checks, in order: id not zero (ZeroOrderId) → depositor not zero (ZeroDepositor) → deadline
    /// (PermitDepositExpired) → the allocator's authorisation (SignerNotAllocator) → not yet used for this
    /// id (PermitDepositReplayed) → mark the id → `permit`, and when it reverts (e.g. someone submitted
    /// the same permit to the token first) go on only if the allowance already covers the amount
    /// (PermitNotUsable) → pull from the depositor → something arrived (ZeroDeposit) → Deposited.
    /// @dev The permit itself names no order: without the allocator's binding, anyone who saw the
    /// signature could deposit the depositor's tokens under an order of their own (one paying them).
    function depositErc20Permit(PermitDeposit calldata deposit, uint8 v, bytes32 r, bytes32 s, bytes calldata authorization)
        external;

    /// @notice Deposit `amount` of `token` from `depositor` under `id` through the canonical Permit2's
    /// `permitWitnessTransferFrom`: `signature` is the depositor's over Permit2's
    /// `PermitWitnessTransferFrom` with this contract as spender, `nonce`, `deadline` and the witness
    /// `FerryDeposit(bytes32 orderId)` = `id`, so the signature is good for this order only. Anyone may
    /// submit. Credits the balance delta. Checks, in order: id not zero (ZeroOrderId) → depositor not
    /// zero (ZeroDepositor) → Permit2's checks (deadline → amount → nonce, its replay guard → signature)
    /// and transfer → something arrived (ZeroDeposit) → Deposited.
    function depositPermit2(
        address depositor,
        address token,
        uint256 amount,
        bytes32 id,
        uint256 nonce,
        uint256 deadline,
        bytes calldata signature
    ) external;

    /// @notice A reclaimable deposit: deposit `msg.value` of native currency under `id`, credited to
    /// msg.sender, and record one commitment of (msg.sender, native, msg.value, `reclaimAt`) under `id`. If
    /// the allocator has not released it (`release`) by `reclaimAt`, msg.sender alone takes it back in one
    /// transaction with `reclaim`. Checks: id not zero (ZeroOrderId) → value not zero (ZeroDeposit) → no
    /// live commitment under `id` (ReclaimAlreadyCommitted) → store the commitment → DepositedReclaimable.
    /// @dev Opt-in and its own entry point: the plain deposits neither read nor write the commitment. A
    /// `reclaimAt` in the past is accepted (the depositor may take its deposit back at once); the
    /// service checks it against its quote before filling. Mined suffix: selector 0x00000725, tried
    /// fourth, after the three compact entry points.
    function depositNativeReclaimable_fpifa(bytes32 id, uint256 reclaimAt) external payable;

    /// @notice The ERC-20 form of `depositNativeReclaimable_fpifa`: pull `amount` of `token` from msg.sender,
    /// credit what arrived (balance delta) and commit to (msg.sender, `token`, what arrived, `reclaimAt`).
    /// Checks: id not zero (ZeroOrderId) → no live commitment under `id` (ReclaimAlreadyCommitted, before
    /// anything is pulled) → the pull (token failures bubble up, SafeERC20) → something arrived
    /// (ZeroDeposit) → store the commitment → DepositedReclaimable. Under the ERC-20 deposits' reentrancy
    /// guard.
    function depositErc20Reclaimable(address token, uint256 amount, bytes32 id, uint256 reclaimAt) external;

    /// @notice The depositor takes its reclaimable deposit under `id` back: `token`, `amount` and
    /// `reclaimAt` are those of its deposit (DepositedReclaimable). Checks, in order: a live commitment
    /// under `id` (NoReclaimCommitment) → msg.sender and the fields hash to it (ReclaimCommitmentMismatch)
    /// → `block.timestamp >= reclaimAt` (ReclaimNotYet) → delete the commitment → the Depository holds
    /// `amount` beyond what it owes as claimable (InsufficientBalance(0, …)) → pay msg.sender with the
    /// payouts' bounded gas; a payout that fails within it becomes claimable by msg.sender → Reclaimed.
    /// @dev No operator, oracle or other chain is involved. Deleting the commitment is what makes release
    /// and reclaim exclusive: `release` needs it live, and so does a second `reclaim`.
    function reclaim(bytes32 id, address token, uint256 amount, uint256 reclaimAt) external;

    // ---------------------------------------------------------------- allocator

    /// @notice Execute an allocator-signed payout request. Checks, in order: expiration
    /// (RequestExpired) → signature (SignerNotAllocator: an ECDSA signature of the allocator, or one
    /// its EIP-1271 `isValidSignature` accepts) → nonce not used (NonceAlreadyUsed) → mark the nonce
    /// used → payouts in order → RequestExecuted.
    /// @dev Anyone may submit. The replay guard is the nonce: re-signing a nonce with another
    /// expiration or other calls never pays twice. For each payout, a balance too small for it once
    /// the claimables are set aside (`totalClaimable`) reverts the whole request (InsufficientBalance:
    /// an allocator error, never the payee's); a
    /// payout that fails within its gas cap becomes claimable by its payee (PayoutClaimable) and the
    /// others go on. No return data is copied from a native payee (no return-data bomb).
    function execute(CallRequest calldata request, bytes calldata signature) external;

    /// @notice `execute` with the allocator's signature in EIP-2098 form (r, vs): the same checks in the
    /// same order (RequestExpired → SignerNotAllocator → NonceAlreadyUsed → payouts), the same replay
    /// guard (a nonce executed through either form is used for both). An EIP-1271 allocator is asked
    /// `isValidSignature(digest, r ‖ vs)` (64 bytes); one whose signatures do not fit 64 bytes uses the
    /// `bytes` form. What the solver sends (ts/core `encodeExecute`).
    /// @dev Mined suffix: selector 0x000000c3, tried third; 96 calldata bytes fewer than the `bytes`
    /// form (no offset and length words, no padded 65th byte).
    function execute_kJ9b8(CallRequest calldata request, CompactSignature calldata signature) external;
    /// @notice Execute an allocator-signed settlement: the payouts of `request.calls` exactly as `execute`
    /// makes them, then the credits. Checks, in order: expiration (RequestExpired) → signature
    /// (SignerNotAllocator) → nonce not used by `execute` or `settle` (NonceAlreadyUsed) → mark the nonce
    /// used → payouts in order (InsufficientBalance; a failed payout becomes claimable, PayoutClaimable) →
    /// credits in order, each backed by the Depository's balance of its token beyond what it already owes
    /// as claimable, earlier credits included (CreditNotBacked) →
    /// `claimable[to][token] += amount` → Credited → RequestExecuted(struct hash, nonce).
    /// @dev A credit moves nothing, so a payee that cannot receive (or burns gas) never holds it up: an
    /// app's fee is credited whatever happens to the solver's payout of the same settlement.
    function settle(SettlementRequest calldata request, bytes calldata signature) external;

    /// @notice Release the reclaim commitment under `request.id` and pay out, atomically: the repayment
    /// or the refund of a reclaimable deposit. Checks, in order: expiration (RequestExpired) → signature
    /// (SignerNotAllocator) → nonce not used by `execute`, `settle` or `release` (NonceAlreadyUsed) → mark
    /// the nonce used → a live commitment under `request.id` (NoReclaimCommitment) → delete it →
    /// ReclaimReleased → payouts and credits exactly as `settle` makes them → RequestExecuted(struct hash,
    /// nonce).
    /// @dev A deposit already reclaimed makes the whole request revert, so its repayment never pays too:
    /// the allocator pays a reclaimable deposit's order only through `release`.
    function release(ReleaseRequest calldata request, bytes calldata signature) external;

    // ---------------------------------------------------------------- payee

    /// @notice Withdraw msg.sender's whole claimable balance of `token` (zero = native) to `to`,
    /// forwarding all gas (the payee pays for its own receive). Checks: `to` not zero
    /// (ZeroClaimRecipient) → something to claim (NothingToClaim) → zero the balance → Claimed →
    /// transfer (ClaimFailed for native; the token's error bubbles up for ERC-20).
    function claim(address token, address to) external;

    // ---------------------------------------------------------------- views

    /// @notice The key (EOA or EIP-1271 contract) whose signature releases funds.
    function allocator() external view returns (address);

    /// @notice The proposed allocator and the time from which it can be applied (zeros when none, or
    /// when the proposal expired: it can no longer be applied).
    function pendingAllocatorChange() external view returns (address newAllocator, uint256 eta);

    /// @notice What the Depository owes of `token` (zero = native) as `claimable`, summed over payees:
    /// reserved, never used by a payout or a credit.
    function totalClaimable(address token) external view returns (uint256);

    /// @notice Whether a request with this nonce was executed.
    function executed(uint256 nonce) external view returns (bool);

    /// @notice What `payee` can withdraw of `token` (zero = native) with `claim`.
    function claimable(address payee, address token) external view returns (uint256);

    /// @notice EIP-712 struct hash of a request (in RequestExecuted; the replay guard is the nonce).
    function hashCallRequest(CallRequest calldata request) external view returns (bytes32);

    /// @notice EIP-712 digest the allocator signs for a request.
    function callRequestDigest(CallRequest calldata request) external view returns (bytes32);

    /// @dev No digest views for `SettlementRequest` and `PermitDeposit`: every public function is one more
    /// selector each deposit's dispatch walks past. ts/core builds both digests and the tests check them
    /// against the contract by having it accept the signatures.

    /// @notice Whether a permit deposit was made under this orderId.
    function permitDeposited(bytes32 id) external view returns (bool);

    /// @notice The live reclaim commitment under `id`, `keccak256(abi.encode(depositor, token, amount,
    /// reclaimAt))`, or zero when there is none (never made, released or reclaimed).
    function reclaimCommitment(bytes32 id) external view returns (bytes32);
}
