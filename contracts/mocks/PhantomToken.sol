// SPDX-License-Identifier: MIT
pragma solidity 0.8.30;

/// @notice Hostile test "currency": `transferFrom` and `transfer` report success and move nothing, and
/// `balanceOf` says whatever the attacker wants. A fill in it pays the recipient nothing.
contract PhantomToken {
    function transferFrom(address, address, uint256) external pure returns (bool) {
        return true;
    }

    function transfer(address, uint256) external pure returns (bool) {
        return true;
    }

    function balanceOf(address) external pure returns (uint256) {
        return type(uint128).max;
    }
}
