// SPDX-License-Identifier: MIT
pragma solidity 0.8.30;

/// @notice Hostile test payee: its `receive` burns `burn` gas (or everything it is given, when that
/// is less) and then accepts the payment, so a payer that forwards all gas pays for the burn.
contract GasBurningRecipient {
    uint256 public immutable burn;
    uint256 public received;

    constructor(uint256 burn_) {
        burn = burn_;
    }

    receive() external payable {
        uint256 stopAt = gasleft() > burn + 5_000 ? gasleft() - burn : 5_000;
        while (gasleft() > stopAt) {}
        received += msg.value;
    }
}
