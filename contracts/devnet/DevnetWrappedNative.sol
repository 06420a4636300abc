// SPDX-License-Identifier: MIT
pragma solidity 0.8.30;

import {ERC20} from "@openzeppelin/contracts/token/ERC20/ERC20.sol";

/// @title DevnetWrappedNative
/// @notice The devnet's wrapped native currency (WETH): `deposit` mints 1:1 for msg.value, `withdraw`
/// burns and sends native back. It stands for ETH in the devnet's Uniswap V2 pool, as WETH does on a
/// real chain. Devnet and test contract.
contract DevnetWrappedNative is ERC20 {
    error WithdrawFailed(address to, uint256 amount);

    constructor() ERC20("Wrapped Ether (devnet)", "WETH") {}

    function deposit() public payable {
        _mint(msg.sender, msg.value);
    }

    function withdraw(uint256 amount) external {
        _burn(msg.sender, amount);
        (bool ok,) = msg.sender.call{value: amount}("");
        if (!ok) revert WithdrawFailed(msg.sender, amount);
    }

    receive() external payable {
        deposit();
    }
}
