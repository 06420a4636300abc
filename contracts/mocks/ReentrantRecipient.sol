// SPDX-License-Identifier: MIT
pragma solidity 0.8.30;

/// @notice Hostile test recipient: when it receives native currency it calls back `target` with
/// `payload` (e.g. the same fill, or another payout) once, and emits whether the re-entry succeeded.
/// @dev Target and payload live in transient storage (armed in the same transaction, as a test
/// function is) and the outcome is an event, so the whole re-entry fits in the 50,000 gas a bounded
/// payout forwards: the guards are tested, not the gas cap.
contract ReentrantRecipient {
    event Reentered(bool success, bytes returnData);

    function arm(address target, bytes calldata payload) external {
        assembly ("memory-safe") {
            tstore(0, target)
            tstore(1, payload.length)
            for { let i := 0 } lt(mul(i, 0x20), payload.length) { i := add(i, 1) } {
                tstore(add(2, i), calldataload(add(payload.offset, mul(i, 0x20))))
            }
        }
    }

    receive() external payable {
        address target;
        uint256 length;
        assembly ("memory-safe") {
            target := tload(0)
            length := tload(1)
        }
        if (target == address(0)) return;
        bytes memory payload = new bytes(length);
        assembly ("memory-safe") {
            tstore(0, 0) // one re-entry only
            for { let i := 0 } lt(mul(i, 0x20), length) { i := add(i, 1) } {
                mstore(add(add(payload, 0x20), mul(i, 0x20)), tload(add(2, i)))
            }
        }
        (bool success, bytes memory returnData) = target.call(payload);
        emit Reentered(success, returnData);
    }
}
