// SPDX-License-Identifier: MIT
pragma solidity ^0.8.23;

/// @notice A library to store static values that are used across contracts
library Static {
    /// @notice The address of EntryPoint v0.8 deployed across all compatible chains
    address public constant ENTRY_POINT_V_0_8 = 0x4337084D9E255Ff0702461CF8895CE9E3b5Ff108;
}
