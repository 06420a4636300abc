// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

/// @title IMulticaller
/// @notice Runs destination calls for the solver. It holds no approvals and keeps no balance: after
/// the calls, every wei of native currency and every listed token it holds goes to `refundTo`.
/// Arbitrary calls run here, never from a contract that holds approvals or funds.
interface IMulticaller {
    /// @notice One call: `target.call{value: value}(data)`; when `allowFailure` a revert is recorded
    /// instead of bubbling up.
    struct Call {
        address target;
        bool allowFailure;
        uint256 value;
        bytes data;
    }

    /// @notice One call's outcome.
    struct Result {
        bool success;
        bytes returnData;
    }

    /// @notice Call number `index` reverted and did not allow failure.
    error CallReverted(uint256 index, bytes returnData);
    /// @notice The calls' values add up to more than msg.value plus what the contract holds.
    error InsufficientValue(uint256 available, uint256 required);
    /// @notice Sending the leftover to `refundTo` failed.
    error RefundFailed(address refundTo);
    /// @notice `refundTo` may not be the zero address.
    error ZeroRefundRecipient();
    /// @notice Native currency arrived outside a multicall (it would sit here until the next sweep).
    error UnexpectedNativeTransfer();

    /// @notice The calls ran; leftovers were swept to `refundTo`.
    event Multicalled(address indexed caller, address indexed refundTo, uint256 calls);

    /// @notice Run `calls` in order, then send all native currency and every `sweepTokens` balance
    /// this contract holds to `refundTo`. Not re-entrant. The native sweep forwards at most 50,000
    /// gas to `refundTo` (the caller chose it; one that cannot receive within that reverts the whole
    /// multicall with RefundFailed, so the caller keeps its funds). An empty `sweepTokens` sweeps
    /// native currency only.
    function multicall(Call[] calldata calls, address refundTo, address[] calldata sweepTokens)
        external
        payable
        returns (Result[] memory results);

    /// @notice Accepts native currency only while a multicall runs (a call handing back unused value,
    /// e.g. a swap's refund); it is swept to `refundTo` with the rest. Reverts otherwise.
    receive() external payable;
}
