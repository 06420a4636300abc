// SPDX-License-Identifier: MIT
pragma solidity 0.8.30;

import {SafeTransferLib} from "solady/src/utils/SafeTransferLib.sol";

interface IUniswapV2PairMinimal {
    function token0() external view returns (address);
    function token1() external view returns (address);
    function getReserves() external view returns (uint112 reserve0, uint112 reserve1, uint32 blockTimestampLast);
    function swap(uint256 amount0Out, uint256 amount1Out, address to, bytes calldata data) external;
}

/// @notice A Uniswap V2 swap router with packed (non-ABI) calldata, as gas-optimised aggregators and
/// MEV routers take it: no selector, `pair (20 bytes) ‖ zeroForOne (1 byte) ‖ amountIn (16 bytes)`.
/// It pulls `amountIn` of the pair's input token from the caller (who approved this router) straight
/// into the pair and has the pair send the constant-product output (0.3% fee) to the caller. The
/// output token is never named in the calldata: only the pair is, and not as an ABI word.
contract PackedV2Router {
    /// @notice The calldata is not the 37 packed bytes.
    error PackedCalldataLength(uint256 length);
    /// @notice The pool's reserves give no output for this input.
    error InsufficientOutput(uint256 amountIn);

    fallback() external {
        if (msg.data.length != 37) revert PackedCalldataLength(msg.data.length);
        address pair = address(bytes20(msg.data[0:20]));
        bool zeroForOne = msg.data[20] != 0;
        uint256 amountIn = uint128(bytes16(msg.data[21:37]));
        (uint112 reserve0, uint112 reserve1,) = IUniswapV2PairMinimal(pair).getReserves();
        (address tokenIn, uint256 reserveIn, uint256 reserveOut) = zeroForOne
            ? (IUniswapV2PairMinimal(pair).token0(), uint256(reserve0), uint256(reserve1))
            : (IUniswapV2PairMinimal(pair).token1(), uint256(reserve1), uint256(reserve0));
        uint256 inWithFee = amountIn * 997;
        uint256 amountOut = (inWithFee * reserveOut) / (reserveIn * 1000 + inWithFee);
        if (amountOut == 0) revert InsufficientOutput(amountIn);
        SafeTransferLib.safeTransferFrom(tokenIn, msg.sender, pair, amountIn);
        (uint256 amount0Out, uint256 amount1Out) = zeroForOne ? (uint256(0), amountOut) : (amountOut, uint256(0));
        IUniswapV2PairMinimal(pair).swap(amount0Out, amount1Out, msg.sender, "");
    }
}
