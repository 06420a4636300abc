// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

/// @title ForwarderCloneLib
/// @notice The init code of a deposit address: Solady's LibClone "clone with immutable args" runtime
/// (an ERC-1167-style proxy with the args appended after the code, byte for byte LibClone's, its one
/// jump target moved by the prefix) behind a 6-byte prefix that stops on empty calldata, so a plain
/// native transfer costs the sender ~15 gas and fits the 2,300 gas stipend of Solidity's `transfer`.
/// LibClone's own flavours delegate every call, and the cold delegatecall alone needs 2,600 gas.
/// @dev Runtime (0x33 bytes, then the args):
///   00 36          CALLDATASIZE
///   01 6005        PUSH1 0x05
///   03 57          JUMPI            calldata? go on at 0x05
///   04 00          STOP             no calldata: keep the value, nothing else
///   05 5b          JUMPDEST
///   06 363d3d37 3d3d3d363d 73<impl> 5af4 3d82803e903d91 6031 57 fd 5b f3    LibClone's CWIA body
/// Creation (10 bytes, LibClone's): PUSH2 runSize, RETURNDATASIZE, DUP2, PUSH1 0x0a, RETURNDATASIZE,
/// CODECOPY, RETURN. The TypeScript twin is ts/core/depositAddress.ts (`forwarderInitCode`).
library ForwarderCloneLib {
    /// @dev Size of the runtime before the args; the args start here in the clone's code.
    uint256 internal constant RUNTIME_SIZE = 0x33;

    /// @dev The clone's init code for `implementation` with immutable `args`.
    function initCode(address implementation, bytes memory args) internal pure returns (bytes memory) {
        return abi.encodePacked(
            hex"61",
            uint16(RUNTIME_SIZE + args.length),
            hex"3d81600a3d39f3", // creation
            hex"36600557005b", // prefix: no calldata → STOP
            hex"363d3d373d3d3d363d73",
            implementation,
            hex"5af43d82803e903d91603157fd5bf3",
            args
        );
    }
}
