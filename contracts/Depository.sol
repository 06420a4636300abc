// SPDX-License-Identifier: MIT
pragma solidity 0.8.30;

import {Ownable} from "@openzeppelin/contracts/access/Ownable.sol";
import {Ownable2Step} from "@openzeppelin/contracts/access/Ownable2Step.sol";
import {IERC20} from "@openzeppelin/contracts/token/ERC20/IERC20.sol";
import {IERC20Permit} from "@openzeppelin/contracts/token/ERC20/extensions/IERC20Permit.sol";
import {SafeERC20} from "@openzeppelin/contracts/token/ERC20/utils/SafeERC20.sol";
import {SafeCast} from "@openzeppelin/contracts/utils/math/SafeCast.sol";
import {EIP712} from "@openzeppelin/contracts/utils/cryptography/EIP712.sol";
import {ReentrancyGuardTransient} from "solady/src/utils/ReentrancyGuardTransient.sol";
import {ECDSA} from "solady/src/utils/ECDSA.sol";
import {SignatureCheckerLib} from "solady/src/utils/SignatureCheckerLib.sol";

import {IDepository} from "./interfaces/IDepository.sol";
import {CompactSignature} from "./libraries/AttestationLib.sol";
import {IPermit2SignatureTransfer} from "./interfaces/IPermit2SignatureTransfer.sol";
import {AttestationLib} from "./libraries/AttestationLib.sol";

/// @title Depository
/// @notice Origin-chain escrow: deposits in, allocator-signed typed transfers out. Not upgradeable and
/// deliberately not pausable (a pause flag would cost a cold SLOAD on every deposit).
/// @dev ERC-20 deposits carry a transient reentrancy guard: a token with a sender hook (ERC-777 style)
/// could otherwise re-enter a deposit between the two balance reads, and the outer deposit's balance
/// delta would include the inner one, crediting it twice. `execute` needs no guard: it marks the
/// request executed before any payout and keeps no balance reads across external calls.
///
/// Gas: the compact entry points (`depositNative_irOEa`, `depositErc20_6R0X4`, `execute_kJ9b8`) are what
/// quotes and the solver call; their measured gas, budgets and where it goes are in docs/performance.md
/// ("Gas", measured by scripts/bench-gas.ts), the only place absolute figures are kept. Via-IR's
/// dispatcher is a chain of comparisons in selector order, which is why the hot entry points carry
/// mined suffixes that make their selectors the lowest.
contract Depository is IDepository, Ownable2Step, EIP712, ReentrancyGuardTransient {
    using SafeERC20 for IERC20;

    // ---------------------------------------------------------------- constants

    /// @dev EIP-712 typehash of one payout. Constants stay internal: every public getter adds a
    /// selector to the dispatcher that each deposit walks through.
    bytes32 internal constant CALL_TYPEHASH = keccak256("Call(address to,address token,uint256 amount)");
    /// @dev EIP-712 typehash of a payout request (referenced `Call` type appended, per EIP-712).
    bytes32 internal constant CALL_REQUEST_TYPEHASH = keccak256(
        "CallRequest(Call[] calls,uint256 nonce,uint256 expiration)Call(address to,address token,uint256 amount)"
    );

    /// @dev EIP-712 typehash of a settlement: payouts plus credits (same `Call` type for both).
    bytes32 internal constant SETTLEMENT_REQUEST_TYPEHASH = keccak256(
        "SettlementRequest(Call[] calls,Call[] credits,uint256 nonce,uint256 expiration)Call(address to,address token,uint256 amount)"
    );
    /// @dev EIP-712 typehash of the allocator's authorisation of an EIP-2612 permit deposit.
    bytes32 internal constant PERMIT_DEPOSIT_TYPEHASH =
        keccak256("PermitDeposit(address depositor,address token,uint256 amount,bytes32 id,uint256 deadline)");
    /// @dev EIP-712 typehash of a release of a reclaim commitment with its payouts and credits.
    bytes32 internal constant RELEASE_REQUEST_TYPEHASH = keccak256(
        "ReleaseRequest(bytes32 id,Call[] calls,Call[] credits,uint256 nonce,uint256 expiration)Call(address to,address token,uint256 amount)"
    );

    /// @dev The canonical Permit2 (same address on every chain it is deployed to). A constant, not a
    /// constructor argument: the Depository's address must not depend on it, and nothing user-chosen is
    /// ever called with the approvals the Depository holds.
    IPermit2SignatureTransfer internal constant PERMIT2 =
        IPermit2SignatureTransfer(0x000000000022D473030F116dDEE9F6B43aC78BA3);
    /// @dev Permit2 witness: the EIP-712 type a Permit2 deposit signature names the order with, and the
    /// type string Permit2 appends to `PermitWitnessTransferFrom(...,` (referenced types sorted by name).
    bytes32 internal constant FERRY_DEPOSIT_WITNESS_TYPEHASH = keccak256("FerryDeposit(bytes32 orderId)");
    string internal constant FERRY_DEPOSIT_WITNESS_TYPE =
        "FerryDeposit witness)FerryDeposit(bytes32 orderId)TokenPermissions(address token,uint256 amount)";

    /// @dev Gas forwarded to a native payee (see IDepository): enough for a smart-account wallet's
    /// `receive` (a Safe takes ~7k), bounded so that a payee chosen by someone else cannot make the
    /// submitter pay for a gas burn.
    uint256 internal constant NATIVE_PAYOUT_GAS = 50_000;
    /// @dev Gas forwarded to an ERC-20 `transfer` payout: a proxied stablecoin paying a fresh
    /// address takes ~35-60k; a token hook (ERC-777 style) cannot burn more than this.
    uint256 internal constant TOKEN_PAYOUT_GAS = 100_000;
    /// @dev Delay between proposing and applying an allocator change.
    uint256 internal constant ALLOCATOR_CHANGE_DELAY = 2 days;
    /// @dev How long a proposed change stays applicable once its delay has passed: a proposal not applied
    /// within it expires (AllocatorChangeExpired), so an old proposal nobody watches any more cannot be
    /// applied by surprise; the owner proposes again (and waits the delay again).
    uint256 internal constant ALLOCATOR_CHANGE_WINDOW = 7 days;

    // ---------------------------------------------------------------- storage

    /// @inheritdoc IDepository
    address public allocator;
    /// @dev The native currency owed as `claimable` (the sum over payees), in the allocator's slot: a
    /// native payout reads it warm, after the signature check read the allocator (100 gas instead of a
    /// cold 2,100). 96 bits hold 7.9e28 wei; a claimable total above it reverts (SafeCast).
    uint96 internal _claimableNative;
    /// @dev Each ERC-20 owed as `claimable` (the sum over payees).
    mapping(address token => uint256) internal _claimableTokens;
    /// @dev The proposed allocator and when it may be applied (one slot).
    address internal _pendingAllocator;
    uint64 internal _pendingAllocatorEta;

    /// @inheritdoc IDepository
    mapping(uint256 nonce => bool) public executed;

    /// @inheritdoc IDepository
    mapping(address payee => mapping(address token => uint256)) public claimable;

    /// @inheritdoc IDepository
    mapping(bytes32 id => bool) public permitDeposited;

    /// @inheritdoc IDepository
    mapping(bytes32 id => bytes32) public reclaimCommitment;

    // ---------------------------------------------------------------- constructor

    /// @param initialOwner Owner (may change the allocator, only through propose → delay → apply;
    /// ownership moves in two steps and cannot be renounced).
    /// @param allocator_ The key whose EIP-712 signature releases funds, locked from the first block:
    /// there is no immediate replacement, so no deployment can leave a placeholder the owner could swap
    /// at once.
    constructor(address initialOwner, address allocator_) Ownable(initialOwner) EIP712("FerryDepository", "1") {
        _setAllocator(allocator_);
    }

    // ---------------------------------------------------------------- admin

    /// @inheritdoc IDepository
    function proposeAllocator(address newAllocator) external onlyOwner {
        if (newAllocator == address(0)) revert ZeroAllocator();
        uint256 eta = block.timestamp + ALLOCATOR_CHANGE_DELAY;
        _pendingAllocator = newAllocator;
        _pendingAllocatorEta = uint64(eta);
        emit AllocatorChangeProposed(newAllocator, eta);
    }

    /// @inheritdoc IDepository
    function applyAllocator() external onlyOwner {
        address newAllocator = _pendingAllocator;
        if (newAllocator == address(0)) revert NoPendingAllocatorChange();
        uint256 eta = _pendingAllocatorEta;
        if (block.timestamp < eta) revert AllocatorChangeNotReady(eta);
        if (block.timestamp > eta + ALLOCATOR_CHANGE_WINDOW) revert AllocatorChangeExpired(eta + ALLOCATOR_CHANGE_WINDOW);
        delete _pendingAllocator;
        delete _pendingAllocatorEta;
        _setAllocator(newAllocator);
    }

    /// @inheritdoc IDepository
    function cancelAllocatorChange() external onlyOwner {
        address newAllocator = _pendingAllocator;
        if (newAllocator == address(0)) revert NoPendingAllocatorChange();
        delete _pendingAllocator;
        delete _pendingAllocatorEta;
        emit AllocatorChangeCancelled(newAllocator);
    }

    /// @inheritdoc IDepository
    function renounceOwnership() public pure override(IDepository, Ownable) {
        revert RenounceOwnershipDisabled();
    }

    // ---------------------------------------------------------------- depositor

    /// @inheritdoc IDepository
    function depositNative(address depositor, bytes32 id) external payable {
        // Both checks in one branch (the hot path pays one jump); the cold path names the first failure.
        bool rejected;
        assembly ("memory-safe") {
            rejected := or(iszero(id), iszero(callvalue()))
        }
        if (rejected) _revertRejectedNativeDeposit(id);
        if (depositor == address(0)) depositor = msg.sender;
        // `emit Deposited(id, depositor, address(0), msg.value)`, encoded in scratch space instead of
        // at the free-memory pointer. Measured: 37 gas cheaper (via-IR), 44 (legacy).
        bytes32 topic0 = Deposited.selector;
        assembly ("memory-safe") {
            mstore(0x00, 0)
            mstore(0x20, callvalue())
            log3(0x00, 0x40, topic0, id, depositor)
        }
    }

    /// @inheritdoc IDepository
    function depositNative_irOEa(bytes32 id) external payable {
        // The same checks as `depositNative`, written out again: a shared internal function is not
        // inlined by the optimizer and costs this entry 28 gas.
        bool rejected;
        assembly ("memory-safe") {
            rejected := or(iszero(callvalue()), iszero(id))
        }
        if (rejected) _revertRejectedNativeDeposit(id);
        // `emit Deposited(id, msg.sender, address(0), msg.value)`. The first data word (the token, zero
        // for native) is the word at 0x00, which nothing in this call has written (a call's memory
        // starts zeroed; the dispatcher writes only the free memory pointer at 0x40), so only the
        // amount is stored: measured 7 gas cheaper than storing the zero too.
        bytes32 topic0 = Deposited.selector;
        assembly ("memory-safe") {
            mstore(0x20, callvalue())
            log3(0x00, 0x40, topic0, id, caller())
        }
    }

    /// @inheritdoc IDepository
    function depositErc20_6R0X4(address token, uint256 amount, bytes32 id) external nonReentrant {
        // `_depositErc20(msg.sender, token, amount, id)` written out: the optimizer does not inline the
        // shared function, and jumping to it costs this entry 47 gas (measured).
        // Keep the two copies identical but for the depositor (mutation guards cover each).
        bytes32 topic0 = Deposited.selector;
        assembly ("memory-safe") {
            function failed(t) {
                mstore(0x00, 0x5274afe7) // SafeERC20FailedOperation(address)
                mstore(0x20, t)
                revert(0x1c, 0x24)
            }
            // id not zero and balanceOf(this) before, in one branch (this entry's copy): the read has no
            // effect, so ZeroOrderId still comes first. Yul evaluates right to left: the call runs first.
            mstore(0x00, 0x70a08231) // balanceOf(address)
            mstore(0x20, address())
            if or(iszero(id), iszero(and(gt(returndatasize(), 0x1f), staticcall(gas(), token, 0x1c, 0x24, 0x00, 0x20)))) {
                if iszero(id) {
                    mstore(0x00, 0x546fb204) // ZeroOrderId()
                    revert(0x1c, 0x04)
                }
                failed(token)
            }
            let balanceBefore := mload(0x00)
            // transferFrom(msg.sender, this, amount), encoded in 0x1c..0x80 (the free memory pointer and
            // the zero slot are restored after the call, as Solady's SafeTransferLib does).
            let m := mload(0x40)
            mstore(0x60, amount)
            mstore(0x40, address())
            mstore(0x2c, shl(96, caller()))
            mstore(0x0c, 0x23b872dd000000000000000000000000) // transferFrom(address,address,uint256)
            // Succeeded, and returned nothing (the token has code: balanceOf answered) or exactly `true`.
            let pulled := call(gas(), token, 0, 0x1c, 0x64, 0x00, 0x20)
            if iszero(and(or(iszero(returndatasize()), eq(mload(0x00), 1)), pulled)) {
                if iszero(pulled) {
                    returndatacopy(m, 0, returndatasize())
                    revert(m, returndatasize())
                }
                failed(token)
            }
            mstore(0x60, 0)
            mstore(0x40, m)
            // balanceOf(this) after, and something arrived, in one branch (this entry's copy; right to
            // left: the call runs before the mload). The cold path reads again to tell a failed read from
            // nothing having arrived.
            mstore(0x00, 0x70a08231)
            mstore(0x20, address())
            if or(
                iszero(gt(mload(0x00), balanceBefore)),
                iszero(and(gt(returndatasize(), 0x1f), staticcall(gas(), token, 0x1c, 0x24, 0x00, 0x20)))
            ) {
                mstore(0x00, 0x70a08231)
                mstore(0x20, address())
                if iszero(and(gt(returndatasize(), 0x1f), staticcall(gas(), token, 0x1c, 0x24, 0x00, 0x20))) { failed(token) }
                mstore(0x00, 0x56316e87) // ZeroDeposit()
                revert(0x1c, 0x04)
            }
            let balanceAfter := mload(0x00)
            // emit Deposited(id, msg.sender, token, balanceAfter - balanceBefore): the sender is the depositor
            mstore(0x00, token)
            mstore(0x20, sub(balanceAfter, balanceBefore))
            log3(0x00, 0x40, topic0, id, caller())
        }
    }

    /// @inheritdoc IDepository
    function depositErc20(address depositor, address token, uint256 amount, bytes32 id) external nonReentrant {
        _depositErc20(depositor == address(0) ? msg.sender : depositor, token, amount, id);
    }

    /// @inheritdoc IDepository
    function depositErc20(address depositor, address token, bytes32 id) external nonReentrant {
        _depositErc20(
            depositor == address(0) ? msg.sender : depositor,
            token,
            IERC20(token).allowance(msg.sender, address(this)),
            id
        );
    }

    /// @inheritdoc IDepository
    function depositErc20Permit(PermitDeposit calldata deposit, uint8 v, bytes32 r, bytes32 s, bytes calldata authorization)
        external
        nonReentrant
    {
        (address owner_, address token, uint256 amount, bytes32 orderId, uint256 deadline) =
            (deposit.depositor, deposit.token, deposit.amount, deposit.id, deposit.deadline);
        if (orderId == bytes32(0)) revert ZeroOrderId();
        if (owner_ == address(0)) revert ZeroDepositor();
        if (block.timestamp > deadline) revert PermitDepositExpired(deadline);
        _checkAllocatorSignature(
            _hashTypedDataV4(keccak256(abi.encode(PERMIT_DEPOSIT_TYPEHASH, owner_, token, amount, orderId, deadline))),
            authorization
        );
        if (permitDeposited[orderId]) revert PermitDepositReplayed(orderId);
        permitDeposited[orderId] = true;
        // A permit submitted to the token by someone else first (front-run) makes this call revert, but
        // leaves the very allowance it grants: go on when the allowance covers the amount.
        try IERC20Permit(token).permit(owner_, address(this), amount, deadline, v, r, s) {}
        catch {
            uint256 allowance = IERC20(token).allowance(owner_, address(this));
            if (allowance < amount) revert PermitNotUsable(token, owner_, allowance);
        }
        _pullDeposit(owner_, token, amount, orderId);
    }

    /// @inheritdoc IDepository
    function depositPermit2(
        address depositor,
        address token,
        uint256 amount,
        bytes32 id,
        uint256 nonce,
        uint256 deadline,
        bytes calldata signature
    ) external nonReentrant {
        if (id == bytes32(0)) revert ZeroOrderId();
        if (depositor == address(0)) revert ZeroDepositor();
        uint256 before = _balanceOfSelf(token);
        PERMIT2.permitWitnessTransferFrom(
            IPermit2SignatureTransfer.PermitTransferFrom({
                permitted: IPermit2SignatureTransfer.TokenPermissions({token: token, amount: amount}),
                nonce: nonce,
                deadline: deadline
            }),
            IPermit2SignatureTransfer.SignatureTransferDetails({to: address(this), requestedAmount: amount}),
            depositor,
            keccak256(abi.encode(FERRY_DEPOSIT_WITNESS_TYPEHASH, id)),
            FERRY_DEPOSIT_WITNESS_TYPE,
            signature
        );
        _creditArrived(depositor, token, before, id);
    }

    /// @inheritdoc IDepository
    function depositNativeReclaimable_fpifa(bytes32 id, uint256 reclaimAt) external payable {
        bool rejected;
        assembly ("memory-safe") {
            rejected := or(iszero(callvalue()), iszero(id))
        }
        if (rejected) _revertRejectedNativeDeposit(id);
        // `reclaimCommitment[id]` read, checked and written through one slot computation. The commitment's
        // preimage, abi.encode(msg.sender, address(0), msg.value, reclaimAt), is the event's data: one
        // encoding past the free memory pointer (not moved: nothing is kept there).
        bytes32 topic0 = DepositedReclaimable.selector;
        bytes4 committed = ReclaimAlreadyCommitted.selector;
        assembly ("memory-safe") {
            mstore(0x00, id)
            mstore(0x20, reclaimCommitment.slot)
            let slot := keccak256(0x00, 0x40)
            if sload(slot) {
                mstore(0x00, committed)
                mstore(0x04, id)
                revert(0x00, 0x24)
            }
            let m := mload(0x40)
            mstore(m, caller())
            mstore(add(m, 0x20), 0)
            mstore(add(m, 0x40), callvalue())
            mstore(add(m, 0x60), reclaimAt)
            sstore(slot, keccak256(m, 0x80))
            log2(m, 0x80, topic0, id)
        }
    }

    /// @inheritdoc IDepository
    function depositErc20Reclaimable(address token, uint256 amount, bytes32 id, uint256 reclaimAt) external nonReentrant {
        if (id == bytes32(0)) revert ZeroOrderId();
        if (reclaimCommitment[id] != bytes32(0)) revert ReclaimAlreadyCommitted(id);
        uint256 before = _balanceOfSelf(token);
        IERC20(token).safeTransferFrom(msg.sender, address(this), amount);
        uint256 arrived = _balanceOfSelf(token) - before;
        if (arrived == 0) revert ZeroDeposit();
        reclaimCommitment[id] = _reclaimCommitment(msg.sender, token, arrived, reclaimAt);
        emit DepositedReclaimable(id, msg.sender, token, arrived, reclaimAt);
    }

    /// @inheritdoc IDepository
    function reclaim(bytes32 id, address token, uint256 amount, uint256 reclaimAt) external {
        bytes32 stored = reclaimCommitment[id];
        if (stored == bytes32(0)) revert NoReclaimCommitment(id);
        bytes32 commitment = _reclaimCommitment(msg.sender, token, amount, reclaimAt);
        if (commitment != stored) revert ReclaimCommitmentMismatch(id, commitment);
        if (block.timestamp < reclaimAt) revert ReclaimNotYet(reclaimAt);
        delete reclaimCommitment[id];
        uint256 free = _unreserved(token);
        if (amount > free) revert InsufficientBalance(0, token, free, amount);
        bool paid = _tryPay(msg.sender, token, amount);
        if (!paid) _owe(msg.sender, token, amount);
        emit Reclaimed(id, msg.sender, token, amount, !paid);
    }

    // ---------------------------------------------------------------- allocator

    /// @inheritdoc IDepository
    function execute_kJ9b8(CallRequest calldata request, CompactSignature calldata signature) external {
        if (block.timestamp > request.expiration) revert RequestExpired(request.expiration);
        bytes32 requestHash = _hashCallRequest(request);
        _checkAllocatorSignature(_hashTypedDataV4(requestHash), signature);
        _execute(request, requestHash);
    }

    /// @inheritdoc IDepository
    function execute(CallRequest calldata request, bytes calldata signature) external {
        if (block.timestamp > request.expiration) revert RequestExpired(request.expiration);
        bytes32 requestHash = _hashCallRequest(request);
        _checkAllocatorSignature(_hashTypedDataV4(requestHash), signature);
        _execute(request, requestHash);
    }

    /// @inheritdoc IDepository
    function settle(SettlementRequest calldata request, bytes calldata signature) external {
        uint256 expiry = request.expiration;
        if (block.timestamp > expiry) revert RequestExpired(expiry);

        bytes32 settlementHash = _hashSettlementRequest(request);
        _checkAllocatorSignature(_hashTypedDataV4(settlementHash), signature);

        uint256 n = request.nonce;
        if (executed[n]) revert NonceAlreadyUsed(n);
        executed[n] = true;

        Call[] calldata payouts = request.calls;
        for (uint256 i; i < payouts.length; ++i) {
            _payOrMakeClaimable(n, i, payouts[i]);
        }
        _credit(n, request.credits);

        emit RequestExecuted(settlementHash, n);
    }

    /// @inheritdoc IDepository
    function release(ReleaseRequest calldata request, bytes calldata signature) external {
        uint256 expiry = request.expiration;
        if (block.timestamp > expiry) revert RequestExpired(expiry);

        bytes32 releaseHash = _hashReleaseRequest(request);
        _checkAllocatorSignature(_hashTypedDataV4(releaseHash), signature);

        uint256 n = request.nonce;
        if (executed[n]) revert NonceAlreadyUsed(n);
        executed[n] = true;

        bytes32 id = request.id;
        if (reclaimCommitment[id] == bytes32(0)) revert NoReclaimCommitment(id);
        delete reclaimCommitment[id];
        emit ReclaimReleased(id, n);

        Call[] calldata payouts = request.calls;
        for (uint256 i; i < payouts.length; ++i) {
            _payOrMakeClaimable(n, i, payouts[i]);
        }
        _credit(n, request.credits);

        emit RequestExecuted(releaseHash, n);
    }

    // ---------------------------------------------------------------- payee

    /// @inheritdoc IDepository
    function claim(address token, address to) external {
        if (to == address(0)) revert ZeroClaimRecipient();
        uint256 amount = claimable[msg.sender][token];
        if (amount == 0) revert NothingToClaim(msg.sender, token);
        claimable[msg.sender][token] = 0;
        if (token == address(0)) _claimableNative -= uint96(amount);
        else _claimableTokens[token] -= amount;
        emit Claimed(msg.sender, token, to, amount);
        if (token == address(0)) {
            // All gas: the payee pays for its own transaction.
            (bool success,) = to.call{value: amount}("");
            if (!success) revert ClaimFailed(to);
        } else {
            IERC20(token).safeTransfer(to, amount);
        }
    }

    // ---------------------------------------------------------------- views

    /// @inheritdoc IDepository
    function pendingAllocatorChange() external view returns (address newAllocator, uint256 eta) {
        (newAllocator, eta) = (_pendingAllocator, _pendingAllocatorEta);
        if (newAllocator != address(0) && block.timestamp > eta + ALLOCATOR_CHANGE_WINDOW) return (address(0), 0);
    }

    /// @inheritdoc IDepository
    function totalClaimable(address token) external view returns (uint256) {
        return token == address(0) ? _claimableNative : _claimableTokens[token];
    }

    /// @inheritdoc IDepository
    function hashCallRequest(CallRequest calldata request) external pure returns (bytes32) {
        return _hashCallRequest(request);
    }

    /// @inheritdoc IDepository
    function callRequestDigest(CallRequest calldata request) external view returns (bytes32) {
        return _hashTypedDataV4(_hashCallRequest(request));
    }

    // ---------------------------------------------------------------- internal

    /// @dev Solady's guard rather than OpenZeppelin's: 160 gas cheaper per ERC-20 deposit under legacy
    /// codegen, equal under via-IR. Its default falls back to an SSTORE-based guard
    /// on every chain but mainnet; every chain Ferry targets has EIP-1153 (the build targets prague),
    /// so always use transient storage.
    function _useTransientReentrancyGuardOnlyOnMainnet() internal pure override returns (bool) {
        return false;
    }

    /// @dev `execute` after the expiration and signature checks: replay guard, payouts, event.
    function _execute(CallRequest calldata request, bytes32 requestHash) internal {
        uint256 nonce = request.nonce;
        if (executed[nonce]) revert NonceAlreadyUsed(nonce);
        executed[nonce] = true;

        Call[] calldata calls = request.calls;
        for (uint256 i; i < calls.length; ++i) {
            Call calldata payout = calls[i];
            (address to, address token, uint256 amount) = (payout.to, payout.token, payout.amount);
            uint256 free = _unreserved(token);
            if (amount > free) revert InsufficientBalance(i, token, free, amount);
            if (!_tryPay(to, token, amount)) {
                _owe(to, token, amount);
                emit PayoutClaimable(nonce, i, to, token, amount);
            }
        }

        emit RequestExecuted(requestHash, nonce);
    }

    /// @dev The compact form of `_checkAllocatorSignature`: an EIP-2098 signature, recovered or
    /// handed to the allocator's EIP-1271 `isValidSignature` as its 64 bytes (r, vs).
    function _checkAllocatorSignature(bytes32 digest, CompactSignature calldata signature) internal view {
        address allocator_ = allocator;
        (bytes32 r, bytes32 vs) = (signature.r, signature.vs);
        address recovered = ECDSA.tryRecover(digest, r, vs);
        if (recovered == allocator_) return;
        if (SignatureCheckerLib.isValidERC1271SignatureNow(allocator_, digest, r, vs)) return;
        revert SignerNotAllocator(recovered);
    }

    /// @dev The allocator's ECDSA signature (the common case: one ecrecover, no code lookup), or else
    /// one its EIP-1271 `isValidSignature` accepts. Reverts SignerNotAllocator with what the
    /// signature recovers to (zero when it is not a 64/65-byte ECDSA signature).
    function _checkAllocatorSignature(bytes32 digest, bytes calldata signature) internal view {
        address allocator_ = allocator;
        address recovered = ECDSA.tryRecoverCalldata(digest, signature);
        if (recovered == allocator_) return;
        if (SignatureCheckerLib.isValidERC1271SignatureNowCalldata(allocator_, digest, signature)) return;
        revert SignerNotAllocator(recovered);
    }

    /// @dev One payout with bounded gas; false when it did not go through. Native: a value call with
    /// NATIVE_PAYOUT_GAS and no return-data copy. ERC-20: `transfer` with TOKEN_PAYOUT_GAS, success
    /// being "did not revert and returned nothing or true" (tokens without a return value work; the
    /// token has code, `_balanceOfSelf` checked that). A call that ran short of gas because the
    /// submitter gave too little leaves the caller at most 1/64 of the cap (63/64 rule), too little to
    /// record a claimable balance, so the whole transaction reverts instead.
    function _tryPay(address to, address token, uint256 amount) internal returns (bool success) {
        if (token == address(0)) {
            assembly ("memory-safe") {
                success := call(NATIVE_PAYOUT_GAS, to, amount, 0x00, 0x00, 0x00, 0x00)
            }
            return success;
        }
        assembly ("memory-safe") {
            let m := mload(0x40)
            mstore(m, 0xa9059cbb) // transfer(address,uint256)
            mstore(add(m, 0x20), to)
            mstore(add(m, 0x40), amount)
            mstore(0x00, 0)
            success := call(TOKEN_PAYOUT_GAS, token, 0, add(m, 0x1c), 0x44, 0x00, 0x20)
            success := and(success, or(iszero(returndatasize()), and(gt(returndatasize(), 0x1f), eq(mload(0x00), 1))))
        }
    }

    /// @dev What the Depository holds of `token` (zero = native) beyond what it owes as `claimable`: the
    /// most a payout or a credit may use. Native never falls below what is owed (it leaves only through
    /// payouts and credits bounded by this, and claims that release what they take; it can only be
    /// added to from outside), so its subtraction is unchecked: measured 22 gas cheaper per native
    /// withdrawal than the saturating form (bench:gas). A token's balance can fall below (one that rebases down):
    /// then nothing is unreserved and only the claims go out.
    function _unreserved(address token) internal view returns (uint256 free) {
        if (token == address(0)) {
            unchecked {
                return address(this).balance - _claimableNative;
            }
        }
        uint256 held = _balanceOfSelf(token);
        uint256 owed = _claimableTokens[token];
        unchecked {
            free = held > owed ? held - owed : 0;
        }
    }

    /// @dev Makes `amount` of `token` claimable by `payee` and reserves it (the funds stay here).
    function _owe(address payee, address token, uint256 amount) internal {
        claimable[payee][token] += amount;
        if (token == address(0)) _claimableNative = SafeCast.toUint96(_claimableNative + amount);
        else _claimableTokens[token] += amount;
    }

    /// @dev `execute`'s payout step, for `settle`: balance check, bounded payment, claimable on failure.
    /// Its own helper (not a rewrite of `execute`'s loop) so that `execute` stays byte for byte as audited.
    function _payOrMakeClaimable(uint256 n, uint256 index, Call calldata payout) internal {
        (address payee, address asset, uint256 value) = (payout.to, payout.token, payout.amount);
        uint256 free = _unreserved(asset);
        if (value > free) revert InsufficientBalance(index, asset, free, value);
        if (!_tryPay(payee, asset, value)) {
            _owe(payee, asset, value);
            emit PayoutClaimable(n, index, payee, asset, value);
        }
    }

    /// @dev `settle`'s and `release`'s credits: each backed by the unreserved balance of its token (earlier
    /// credits included, as each one reserves what it credits), then owed to its payee.
    function _credit(uint256 n, Call[] calldata credits) internal {
        for (uint256 j; j < credits.length; ++j) {
            (address payee, address asset, uint256 value) = (credits[j].to, credits[j].token, credits[j].amount);
            uint256 free = _unreserved(asset);
            if (value > free) revert CreditNotBacked(j, asset, free, value);
            _owe(payee, asset, value);
            emit Credited(n, j, payee, asset, value);
        }
    }

    /// @dev The reclaim commitment of a deposit: `keccak256(abi.encode(depositor, token, amount, reclaimAt))`.
    function _reclaimCommitment(address depositor, address token, uint256 amount, uint256 reclaimAt)
        internal
        pure
        returns (bytes32)
    {
        return keccak256(abi.encode(depositor, token, amount, reclaimAt));
    }

    /// @dev Pulls `amount` of `token` from `from` (its allowance to this contract) and credits the balance
    /// delta under `id` to `from`.
    function _pullDeposit(address from, address token, uint256 amount, bytes32 id) internal {
        uint256 before = _balanceOfSelf(token);
        IERC20(token).safeTransferFrom(from, address(this), amount);
        _creditArrived(from, token, before, id);
    }

    /// @dev Emits Deposited for what arrived since `before` (the balance delta), or reverts ZeroDeposit.
    function _creditArrived(address depositor, address token, uint256 before, bytes32 id) internal {
        uint256 arrived = _balanceOfSelf(token) - before;
        if (arrived == 0) revert ZeroDeposit();
        emit Deposited(id, depositor, token, arrived);
    }

    function _setAllocator(address newAllocator) internal {
        if (newAllocator == address(0)) revert ZeroAllocator();
        address previousAllocator = allocator;
        allocator = newAllocator;
        emit AllocatorUpdated(previousAllocator, newAllocator);
    }

    /// @dev Cold path of `depositNative`'s checks, in the documented order.
    function _revertRejectedNativeDeposit(bytes32 id) internal pure {
        if (id == bytes32(0)) revert ZeroOrderId();
        revert ZeroDeposit();
    }

    /// @dev Credits what actually arrived (balance delta), never the amount named in the call.
    /// `depositor` is already resolved (never zero). One assembly block, with SafeERC20's rules:
    /// `balanceOf` must return a word (else SafeERC20FailedOperation(token): no code, or not a token);
    /// a reverting `transferFrom` bubbles its revert data up; one that returns something other than
    /// `true` reverts SafeERC20FailedOperation(token) (returning nothing is accepted: the token has code,
    /// `balanceOf` showed it). Nothing arrived, or the balance went down: ZeroDeposit. The ERC-20 deposit
    /// as a whole (`depositErc20_6R0X4` against `depositErc20(0, token, amount, id)`) is measured in
    /// docs/performance.md, calldata and dispatch included; this block's share alone was not measured.
    function _depositErc20(address depositor, address token, uint256 amount, bytes32 id) internal {
        bytes32 topic0 = Deposited.selector;
        assembly ("memory-safe") {
            function failed(t) {
                mstore(0x00, 0x5274afe7) // SafeERC20FailedOperation(address)
                mstore(0x20, t)
                revert(0x1c, 0x24)
            }
            // id not zero, and balanceOf(this) before, in one branch: the read has no effect, so ZeroOrderId
            // still comes first. Yul evaluates right to left: the call runs before returndatasize().
            mstore(0x00, 0x70a08231) // balanceOf(address)
            mstore(0x20, address())
            if or(iszero(id), iszero(and(gt(returndatasize(), 0x1f), staticcall(gas(), token, 0x1c, 0x24, 0x00, 0x20)))) {
                if iszero(id) {
                    mstore(0x00, 0x546fb204) // ZeroOrderId()
                    revert(0x1c, 0x04)
                }
                failed(token)
            }
            let balanceBefore := mload(0x00)
            // transferFrom(msg.sender, this, amount), encoded in 0x1c..0x80 (the free memory pointer and
            // the zero slot are restored after the call, as Solady's SafeTransferLib does).
            let m := mload(0x40)
            mstore(0x60, amount)
            mstore(0x40, address())
            mstore(0x2c, shl(96, caller()))
            mstore(0x0c, 0x23b872dd000000000000000000000000) // transferFrom(address,address,uint256)
            // Succeeded, and returned nothing (the token has code: balanceOf answered) or exactly `true`.
            let pulled := call(gas(), token, 0, 0x1c, 0x64, 0x00, 0x20)
            if iszero(and(or(iszero(returndatasize()), eq(mload(0x00), 1)), pulled)) {
                if iszero(pulled) {
                    returndatacopy(m, 0, returndatasize())
                    revert(m, returndatasize())
                }
                failed(token)
            }
            mstore(0x60, 0)
            mstore(0x40, m)
            // balanceOf(this) after, and something arrived, in one branch (right to left: the call runs
            // before the mload). The cold path reads again to tell a failed read from nothing having arrived.
            mstore(0x00, 0x70a08231)
            mstore(0x20, address())
            if or(
                iszero(gt(mload(0x00), balanceBefore)),
                iszero(and(gt(returndatasize(), 0x1f), staticcall(gas(), token, 0x1c, 0x24, 0x00, 0x20)))
            ) {
                mstore(0x00, 0x70a08231)
                mstore(0x20, address())
                if iszero(and(gt(returndatasize(), 0x1f), staticcall(gas(), token, 0x1c, 0x24, 0x00, 0x20))) { failed(token) }
                mstore(0x00, 0x56316e87) // ZeroDeposit()
                revert(0x1c, 0x04)
            }
            let balanceAfter := mload(0x00)
            // emit Deposited(id, depositor, token, balanceAfter - balanceBefore)
            mstore(0x00, token)
            mstore(0x20, sub(balanceAfter, balanceBefore))
            log3(0x00, 0x40, topic0, id, depositor)
        }
    }

    /// @dev `IERC20(token).balanceOf(address(this))` without the ABI encoder round trip. Reverts
    /// `SafeERC20FailedOperation(token)` when the call fails or returns less than one word (e.g. no
    /// code at `token`), so a broken token can never read as a zero balance. Measured on the ERC-20
    /// deposit (two reads): 324 gas cheaper (via-IR), 261 (legacy).
    function _balanceOfSelf(address token) internal view returns (uint256 amount) {
        bool ok;
        assembly ("memory-safe") {
            mstore(0x00, 0x70a08231) // balanceOf(address)
            mstore(0x20, address())
            // Yul evaluates arguments right to left: the staticcall runs before returndatasize().
            ok := and(gt(returndatasize(), 0x1f), staticcall(gas(), token, 0x1c, 0x24, 0x00, 0x20))
            amount := mload(0x00)
        }
        if (!ok) revert SafeERC20.SafeERC20FailedOperation(token);
    }

    /// @dev EIP-712 hashStruct(SettlementRequest): both arrays encoded as `_hashCallRequest` encodes `calls`.
    function _hashSettlementRequest(SettlementRequest calldata request) internal pure returns (bytes32) {
        return keccak256(
            abi.encode(
                SETTLEMENT_REQUEST_TYPEHASH,
                _hashCalls(request.calls),
                _hashCalls(request.credits),
                request.nonce,
                request.expiration
            )
        );
    }

    /// @dev EIP-712 hashStruct(ReleaseRequest): the arrays encoded as `_hashSettlementRequest` encodes them.
    function _hashReleaseRequest(ReleaseRequest calldata request) internal pure returns (bytes32) {
        return keccak256(
            abi.encode(
                RELEASE_REQUEST_TYPEHASH,
                request.id,
                _hashCalls(request.calls),
                _hashCalls(request.credits),
                request.nonce,
                request.expiration
            )
        );
    }

    /// @dev keccak256 of the concatenated hashStruct(Call) of `calls` (EIP-712 array encoding).
    function _hashCalls(Call[] calldata calls) internal pure returns (bytes32) {
        bytes32[] memory hashes = new bytes32[](calls.length);
        for (uint256 k; k < calls.length; ++k) {
            hashes[k] = keccak256(abi.encode(CALL_TYPEHASH, calls[k].to, calls[k].token, calls[k].amount));
        }
        return keccak256(abi.encodePacked(hashes));
    }

    /// @dev EIP-712 hashStruct(CallRequest); `Call[]` is encoded as keccak256 of the concatenated
    /// hashStruct(Call) of its elements. Each `Call` is three static words in calldata, laid out as its
    /// encodeData, so they are hashed in place instead of through abi.encode and a bytes32[] (its saving
    /// alone was not measured: both `execute` forms use this function). A word with dirty upper bits (an address that is not
    /// one) hashes differently from what any allocator signed, so such a request fails the signature
    /// check.
    function _hashCallRequest(CallRequest calldata request) internal pure returns (bytes32 requestHash) {
        Call[] calldata calls = request.calls;
        bytes32 callTypehash = CALL_TYPEHASH;
        bytes32 requestTypehash = CALL_REQUEST_TYPEHASH;
        assembly ("memory-safe") {
            let m := mload(0x40)
            let hashes := add(m, 0x80)
            mstore(m, callTypehash)
            let end := add(hashes, shl(5, calls.length))
            for { let h := hashes let c := calls.offset } lt(h, end) { h := add(h, 0x20) c := add(c, 0x60) } {
                calldatacopy(add(m, 0x20), c, 0x60)
                mstore(h, keccak256(m, 0x80))
            }
            mstore(add(m, 0x20), keccak256(hashes, shl(5, calls.length)))
            mstore(m, requestTypehash)
            // nonce, expiration: the struct's second and third head words.
            calldatacopy(add(m, 0x40), add(request, 0x20), 0x40)
            requestHash := keccak256(m, 0x80)
        }
    }
}
