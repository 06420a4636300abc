// SPDX-License-Identifier: MIT
pragma solidity 0.8.30;

import {IERC20} from "@openzeppelin/contracts/token/ERC20/IERC20.sol";
import {SafeERC20} from "@openzeppelin/contracts/token/ERC20/utils/SafeERC20.sol";
import {ReentrancyGuardTransient} from "@openzeppelin/contracts/utils/ReentrancyGuardTransient.sol";

import {IMulticaller} from "./interfaces/IMulticaller.sol";

/// @title Multicaller
/// @notice Runs the solver's destination calls. Stateless and approval-free: it has no owner, holds no
/// approvals and sweeps every wei and every listed token back to `refundTo` before returning, so
/// arbitrary calls never run from a contract that holds funds or allowances.
/// @dev Anyone may call it. Tokens left behind by a call are swept only when listed in `sweepTokens`;
/// an unlisted balance is up for grabs by the next caller that lists it, which is why nothing of value
/// should ever be left here.
contract Multicaller is IMulticaller, ReentrancyGuardTransient {
    /// @dev Gas forwarded with the native sweep to `refundTo` (no return data is copied).
    uint256 private constant _SWEEP_GAS = 50_000;

    // ---------------------------------------------------------------- caller

    /// @inheritdoc IMulticaller
    function multicall(Call[] calldata calls, address refundTo, address[] calldata sweepTokens)
        external
        payable
        nonReentrant
        returns (Result[] memory results)
    {
        if (refundTo == address(0)) revert ZeroRefundRecipient();

        // The balance already includes msg.value.
        uint256 available = address(this).balance;
        uint256 required;
        for (uint256 i; i < calls.length; ++i) {
            required += calls[i].value;
        }
        if (required > available) revert InsufficientValue(available, required);

        results = new Result[](calls.length);
        for (uint256 i; i < calls.length; ++i) {
            Call calldata c = calls[i];
            (bool success, bytes memory returnData) = c.target.call{value: c.value}(c.data);
            if (!success && !c.allowFailure) revert CallReverted(i, returnData);
            results[i] = Result(success, returnData);
        }

        _sweep(refundTo, sweepTokens);
        emit Multicalled(msg.sender, refundTo, calls.length);
    }

    /// @inheritdoc IMulticaller
    receive() external payable {
        if (!_reentrancyGuardEntered()) revert UnexpectedNativeTransfer();
    }

    // ---------------------------------------------------------------- internal

    /// @dev Sends the whole native balance and every listed token's balance to `refundTo`.
    function _sweep(address refundTo, address[] calldata sweepTokens) private {
        uint256 nativeBalance = address(this).balance;
        if (nativeBalance != 0) {
            bool success;
            assembly ("memory-safe") {
                success := call(_SWEEP_GAS, refundTo, nativeBalance, 0x00, 0x00, 0x00, 0x00)
            }
            if (!success) revert RefundFailed(refundTo);
        }
        for (uint256 i; i < sweepTokens.length; ++i) {
            IERC20 token = IERC20(sweepTokens[i]);
            uint256 balance = token.balanceOf(address(this));
            if (balance != 0 && !SafeERC20.trySafeTransfer(token, refundTo, balance)) revert RefundFailed(refundTo);
        }
    }
}
