// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

/// @title IDepository
/// @notice Origin-chain escrow. Users deposit native currency or ERC-20 tokens under the protocol
/// `orderId` of their quote; funds leave only through payouts signed by the allocator (solver
/// repayment and refunds).
/// @dev Payout calls are typed transfers, never arbitrary calls: users' ERC-20 approvals point at
/// this contract, so an arbitrary call could spend them.
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

    // ---------------------------------------------------------------- errors

    /// @notice A deposit credited nothing (zero value, zero amount, or zero balance delta).
    error ZeroDeposit();
    /// @notice The request's expiration timestamp has passed.
    error RequestExpired(uint256 expiration);
    /// @notice The request was signed by someone other than the allocator.
    error SignerNotAllocator(address signer);
    /// @notice The request (by its EIP-712 struct hash) was already executed.
    error RequestAlreadyExecuted(bytes32 requestHash);
    /// @notice Payout number `index` failed (native transfer reverted).
    error CallFailed(uint256 index, bytes returnData);
    /// @notice The allocator may not be the zero address.
    error ZeroAllocator();

    // ---------------------------------------------------------------- events

    /// @notice A deposit of `amount` of `token` (zero = native) was received under `id`
    /// (the protocol orderId) for `depositor`. `amount` is what the contract actually received.
    event Deposited(bytes32 indexed id, address indexed depositor, address token, uint256 amount);
    /// @notice An allocator-signed request was executed.
    event RequestExecuted(bytes32 indexed requestHash, uint256 nonce);
    /// @notice The allocator was rotated.
    event AllocatorUpdated(address indexed previousAllocator, address indexed newAllocator);

    // ---------------------------------------------------------------- admin

    /// @notice Owner only: rotate the allocator key.
    function setAllocator(address newAllocator) external;

    // ---------------------------------------------------------------- depositor

    /// @notice Deposit `msg.value` of native currency under `id`; depositor 0 credits msg.sender.
    function depositNative(address depositor, bytes32 id) external payable;

    /// @notice Pull `amount` of `token` from msg.sender and credit the balance delta under `id`;
    /// depositor 0 credits msg.sender. A fee-on-transfer token is credited what actually arrived.
    /// @dev Reverts ZeroDeposit when nothing arrived; token failures bubble up (SafeERC20).
    function depositErc20(address depositor, address token, uint256 amount, bytes32 id) external;

    /// @notice Pull msg.sender's whole allowance of `token` to this contract and credit the balance
    /// delta under `id`; depositor 0 credits msg.sender.
    /// @dev Pulls exactly `allowance(msg.sender, this)`, so an unlimited approval reverts unless the
    /// balance covers it: approve the deposit amount for this form, or use the amount form.
    function depositErc20(address depositor, address token, bytes32 id) external;

    // ---------------------------------------------------------------- allocator

    /// @notice Execute an allocator-signed payout request. Checks, in order: expiration → signature
    /// (must recover to the allocator) → not yet executed → mark executed → payouts.
    /// @dev Anyone may submit. Malformed signatures revert with AttestationLib's errors
    /// (InvalidSignatureLength, SignatureMalleable, InvalidSignature) before SignerNotAllocator.
    /// Payouts run in order and are all-or-nothing: a failing native payout reverts CallFailed, a
    /// failing ERC-20 payout bubbles the token's (or SafeERC20's) error.
    function execute(CallRequest calldata request, bytes calldata signature) external;

    // ---------------------------------------------------------------- views

    /// @notice The key whose signature releases funds.
    function allocator() external view returns (address);

    /// @notice Whether the request with this EIP-712 struct hash was executed.
    function executed(bytes32 requestHash) external view returns (bool);

    /// @notice EIP-712 struct hash of a request (what the replay guard is keyed on).
    function hashCallRequest(CallRequest calldata request) external view returns (bytes32);

    /// @notice EIP-712 digest the allocator signs for a request.
    function callRequestDigest(CallRequest calldata request) external view returns (bytes32);
}
