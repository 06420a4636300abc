// SPDX-License-Identifier: MIT
pragma solidity 0.8.30;

import {ECDSA} from "@openzeppelin/contracts/utils/cryptography/ECDSA.sol";

/// @notice Test smart-contract wallet (a 1-of-1 multisig): accepts, through EIP-1271, signatures of
/// its owner key over the hash it is asked about, 65-byte (r, s, v) or 64-byte EIP-2098 (r, vs).
contract MockERC1271Wallet {
    address public immutable owner;

    constructor(address owner_) {
        owner = owner_;
    }

    function isValidSignature(bytes32 hash, bytes calldata signature) external view returns (bytes4) {
        address recovered;
        if (signature.length == 64) {
            (recovered,,) = ECDSA.tryRecover(hash, bytes32(signature[:32]), bytes32(signature[32:]));
        } else {
            (recovered,,) = ECDSA.tryRecover(hash, signature);
        }
        return recovered == owner ? bytes4(0x1626ba7e) : bytes4(0xffffffff);
    }
}
