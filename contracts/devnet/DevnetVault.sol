// SPDX-License-Identifier: MIT
pragma solidity 0.8.30;

import {IERC20} from "@openzeppelin/contracts/token/ERC20/IERC20.sol";
import {ERC20} from "@openzeppelin/contracts/token/ERC20/ERC20.sol";
import {ERC4626} from "@openzeppelin/contracts/token/ERC20/extensions/ERC4626.sol";

/// @title DevnetVault
/// @notice An ERC-4626 vault over one asset (OpenZeppelin's ERC4626, nothing added): the devnet's
/// destination for "bridge and call" intents (deposit the bridged fUSD into a vault in one intent).
/// @dev Devnet and test contract: no fees, no strategy. `deposit(assets, receiver)` pulls `assets`
/// from the caller (the Multicaller, which the calls approve first) and mints shares to `receiver`.
contract DevnetVault is ERC4626 {
    /// @notice A deposit above this reverts with ERC4626ExceededMaxDeposit (lets tests make a
    /// destination call revert with a known custom error).
    uint256 public immutable depositCap;

    constructor(IERC20 asset_, uint256 depositCap_) ERC20("Ferry Devnet Vault", "fvUSD") ERC4626(asset_) {
        depositCap = depositCap_;
    }

    /// @inheritdoc ERC4626
    function maxDeposit(address) public view override returns (uint256) {
        return depositCap;
    }

    /// @inheritdoc ERC4626
    function maxMint(address receiver) public view override returns (uint256) {
        return convertToShares(maxDeposit(receiver));
    }
}
