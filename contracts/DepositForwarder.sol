// SPDX-License-Identifier: MIT
pragma solidity 0.8.30;

import {SafeTransferLib} from "solady/src/utils/SafeTransferLib.sol";

import {IDepository} from "./interfaces/IDepository.sol";
import {IDepositForwarder} from "./interfaces/IDepositForwarder.sol";

/// @title DepositForwarder
/// @notice The implementation behind every deposit address (see IDepositForwarder). Deployed once, by
/// the DepositAddressFactory's constructor; the clones delegate to it and carry their refund recipient
/// in their code.
/// @dev No storage at all: the factory and the Depository are immutables of this implementation (the
/// same for every clone), the refund recipient is the clone's immutable arg. Called directly, the
/// implementation is useless: only its factory may call it, and the factory only calls clones.
contract DepositForwarder is IDepositForwarder {
    // ---------------------------------------------------------------- constants and immutables

    /// @dev Gas forwarded to a native refund recipient before force-sending instead: the Depository's
    /// NATIVE_PAYOUT_GAS (a Safe's `receive` takes ~7k), bounded so that a recipient chosen by the user
    /// cannot make the submitter pay for a gas burn.
    uint256 internal constant REFUND_GAS = 50_000;
    /// @dev Where the clone's immutable args start in its runtime code (ForwarderCloneLib.RUNTIME_SIZE).
    uint256 internal constant ARGS_OFFSET = 0x33;

    address internal immutable _factory;
    address internal immutable _depository;

    // ---------------------------------------------------------------- constructor

    /// @param depository_ The Depository every clone deposits into; the deployer is the factory.
    constructor(address depository_) {
        _factory = msg.sender;
        _depository = depository_;
    }

    // ---------------------------------------------------------------- factory

    /// @inheritdoc IDepositForwarder
    function deposit(bytes32 orderId, address token, uint256 amount) external {
        if (msg.sender != _factory) revert CallerNotFactory(msg.sender);
        _requireBalance(token, amount);
        address depositor = refundTo();
        if (token == address(0)) {
            IDepository(_depository).depositNative{value: amount}(depositor, orderId);
            return;
        }
        // Exactly `amount`: the Depository pulls it all, so the allowance is back to zero afterwards.
        SafeTransferLib.safeApproveWithRetry(token, _depository, amount);
        IDepository(_depository).depositErc20(depositor, token, amount, orderId);
    }

    /// @inheritdoc IDepositForwarder
    function refund(address token, uint256 amount) external {
        if (msg.sender != _factory) revert CallerNotFactory(msg.sender);
        _requireBalance(token, amount);
        if (token == address(0)) SafeTransferLib.forceSafeTransferETH(refundTo(), amount, REFUND_GAS);
        else SafeTransferLib.safeTransfer(token, refundTo(), amount);
    }

    // ---------------------------------------------------------------- views

    /// @inheritdoc IDepositForwarder
    function refundTo() public view returns (address recipient) {
        assembly ("memory-safe") {
            mstore(0x00, 0)
            extcodecopy(address(), 0x0c, ARGS_OFFSET, 0x14)
            recipient := mload(0x00)
        }
    }

    /// @inheritdoc IDepositForwarder
    function factory() external view returns (address) {
        return _factory;
    }

    /// @inheritdoc IDepositForwarder
    function depository() external view returns (address) {
        return _depository;
    }

    // ---------------------------------------------------------------- internal

    /// @dev Reverts InsufficientBalance when this address holds less than `amount` of `token`.
    function _requireBalance(address token, uint256 amount) internal view {
        uint256 balance = token == address(0) ? address(this).balance : SafeTransferLib.balanceOf(token, address(this));
        if (balance < amount) revert InsufficientBalance(token, balance, amount);
    }
}
