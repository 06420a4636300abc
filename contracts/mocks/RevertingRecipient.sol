// SPDX-License-Identifier: MIT
pragma solidity 0.8.30;

/// @notice Hostile test recipient: rejects every native transfer.
contract RevertingRecipient {
    error Rejected();

    receive() external payable {
        revert Rejected();
    }
}
