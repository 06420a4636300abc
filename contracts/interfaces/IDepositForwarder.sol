// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

/// @title IDepositForwarder
/// @notice The code behind a deposit address: a clone deployed by the DepositAddressFactory at a
/// CREATE2 address anyone can recompute (IDepositAddressFactory), and only once funds must move. Its
/// only powers are the two below, and only its factory may use them (the factory checks the service's
/// signed instruction first): move `amount` of a token into the Depository under an order, credited to
/// the refund recipient, or send it to the refund recipient. No other address can ever receive from it,
/// and it holds no key.
/// @dev Per-address data live in the clone's code (its immutable args), not in storage: the args are
/// the refund recipient's 20 bytes, appended after the 51-byte runtime. The runtime is Solady's
/// LibClone "clone with immutable args" (an ERC-1167 proxy with args after the code) behind a 6-byte
/// prefix: a call without calldata (a plain native transfer) stops at once and keeps the value, without
/// the delegatecall, so a transfer with the 2,300 gas stipend (Solidity `transfer`) succeeds; every
/// call with calldata is delegated to the implementation. None of LibClone's own flavours has such a
/// path: their delegatecall to a cold implementation alone costs 2,600 gas (EIP-2929), so a stipend
/// transfer to them reverts (test/solidity/DepositForwarder.t.sol shows both).
///
/// Tokens: ERC-20 calls go through Solady's SafeTransferLib (tokens that return false revert, tokens
/// that return nothing work). The amount moved is exactly the instruction's; a balance below it
/// reverts InsufficientBalance with both values. A fee-on-transfer token is credited by the Depository
/// with what actually arrived (its balance delta).
interface IDepositForwarder {
    /// @notice Only the factory that deployed the implementation may move funds; `caller` tried.
    error CallerNotFactory(address caller);
    /// @notice The forwarder holds `balance` of `token` (zero = native), less than the `amount` asked.
    error InsufficientBalance(address token, uint256 balance, uint256 amount);

    /// @notice Factory only: deposit `amount` of `token` (zero = native) into the Depository under
    /// `orderId`, with `depositor = refundTo()` (a Depository refund of that deposit goes back to the
    /// same recipient). Native: `depositNative{value: amount}(refundTo, orderId)`; ERC-20: approve the
    /// Depository for `amount`, then `depositErc20(refundTo, token, amount, orderId)` (the Depository
    /// pulls the tokens and checks the order id is not zero). Checks, in order: caller
    /// (CallerNotFactory) → balance (InsufficientBalance) → the deposit.
    function deposit(bytes32 orderId, address token, uint256 amount) external;

    /// @notice Factory only: send `amount` of `token` (zero = native) to `refundTo()`, and nobody else.
    /// Native goes with at most REFUND_GAS (50,000) forwarded and, when the recipient does not take it
    /// within that (it reverts or needs more gas), is force-sent (Solady `forceSafeTransferETH`: a
    /// one-off contract self-destructs to it), so a recipient can neither block its refund nor make the
    /// submitter pay for a gas burn. ERC-20: `transfer` (SafeTransferLib). Checks, in order: caller
    /// (CallerNotFactory) → balance (InsufficientBalance) → the transfer.
    function refund(address token, uint256 amount) external;

    /// @notice The refund recipient: the only address a refund pays, and the depositor of every deposit
    /// (read from the clone's immutable args).
    function refundTo() external view returns (address);

    /// @notice The factory allowed to move funds (the deployer of the implementation).
    function factory() external view returns (address);

    /// @notice The Depository deposits go to.
    function depository() external view returns (address);
}
