// SPDX-License-Identifier: MIT
pragma solidity 0.8.30;

/// @notice Hostile test recipient: when it receives native currency it calls back `target` with
/// `payload` (e.g. the same fill, or another payout) and records whether the re-entry succeeded.
contract ReentrantRecipient {
    address public target;
    bytes public payload;
    bool public attempted;
    bool public reentrySucceeded;
    bytes public reentryReturnData;

    function arm(address target_, bytes calldata payload_) external {
        target = target_;
        payload = payload_;
        attempted = false;
    }

    receive() external payable {
        if (attempted || target == address(0)) return;
        attempted = true;
        (bool ok, bytes memory ret) = target.call(payload);
        reentrySucceeded = ok;
        reentryReturnData = ret;
    }
}
