// SPDX-License-Identifier: MIT
pragma solidity 0.8.30;

import {SafeTransferLib} from "solady/src/utils/SafeTransferLib.sol";
import {IUniswapV2PairMinimal} from "./PackedV2Router.sol";

/// @notice A swap router with ABI-encoded calldata whose route is a packed `bytes` path, as Uniswap V3
/// routers take it: `tokenIn (20 bytes) ‖ fee (3 bytes) ‖ tokenOut (20 bytes)`. It swaps through its one
/// Uniswap V2 pair (fixed at construction; the path's tokens must be the pair's, the fee is the pair's
/// 0.3% and must read 3000): pulls `amountIn` of `tokenIn` from the caller (who approved this router)
/// into the pair and has the pair send the constant-product output to `to`. The output token is named
/// only inside the packed path, never as an ABI word of its own.
contract PackedPathRouter {
    /// @notice The path is not `tokenIn ‖ 3000 ‖ tokenOut` over this router's pair.
    error UnsupportedPath(bytes path);
    /// @notice The output is below the caller's minimum.
    error InsufficientOutput(uint256 amountOut, uint256 minOut);

    IUniswapV2PairMinimal public immutable pair;

    constructor(IUniswapV2PairMinimal pair_) {
        pair = pair_;
    }

    /// @notice Swaps exactly `amountIn` of the path's first token for at least `minOut` of its last, sent to `to`.
    function exactInput(uint256 amountIn, uint256 minOut, bytes calldata path, address to) external returns (uint256 amountOut) {
        if (path.length != 43 || uint24(bytes3(path[20:23])) != 3000) revert UnsupportedPath(path);
        address tokenIn = address(bytes20(path[0:20]));
        bool zeroForOne = _direction(tokenIn, address(bytes20(path[23:43])), path);
        amountOut = _amountOut(zeroForOne, amountIn);
        if (amountOut == 0 || amountOut < minOut) revert InsufficientOutput(amountOut, minOut);
        SafeTransferLib.safeTransferFrom(tokenIn, msg.sender, address(pair), amountIn);
        (uint256 amount0Out, uint256 amount1Out) = zeroForOne ? (uint256(0), amountOut) : (amountOut, uint256(0));
        pair.swap(amount0Out, amount1Out, to, "");
    }

    /// @dev Whether the path swaps the pair's token0 for its token1 (else token1 for token0; else it reverts).
    function _direction(address tokenIn, address tokenOut, bytes calldata path) private view returns (bool zeroForOne) {
        address token0 = pair.token0();
        address token1 = pair.token1();
        zeroForOne = tokenIn == token0 && tokenOut == token1;
        if (!zeroForOne && !(tokenIn == token1 && tokenOut == token0)) revert UnsupportedPath(path);
    }

    /// @dev The pair's constant-product output for `amountIn` (0.3% fee), as UniswapV2Library.getAmountOut.
    function _amountOut(bool zeroForOne, uint256 amountIn) private view returns (uint256) {
        (uint112 reserve0, uint112 reserve1,) = pair.getReserves();
        (uint256 reserveIn, uint256 reserveOut) = zeroForOne ? (uint256(reserve0), uint256(reserve1)) : (uint256(reserve1), uint256(reserve0));
        uint256 inWithFee = amountIn * 997;
        return (inWithFee * reserveOut) / (reserveIn * 1000 + inWithFee);
    }
}
