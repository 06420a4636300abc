// SPDX-License-Identifier: MIT
pragma solidity 0.8.30;

import {ERC20} from "@openzeppelin/contracts/token/ERC20/ERC20.sol";
import {ERC20Permit} from "@openzeppelin/contracts/token/ERC20/extensions/ERC20Permit.sol";

/// @notice Test-only 6-decimal stablecoin with an open mint (devnet and tests) and EIP-2612 `permit`
/// (OpenZeppelin's ERC20Permit: EIP-712 domain name = the token's name, version "1", EIP-5267
/// `eip712Domain()`), like the stablecoins it stands in for.
contract MockStablecoin is ERC20Permit {
    constructor(string memory name_, string memory symbol_) ERC20(name_, symbol_) ERC20Permit(name_) {}

    function decimals() public pure override returns (uint8) {
        return 6;
    }

    function mint(address to, uint256 amount) external {
        _mint(to, amount);
    }
}
