// SPDX-License-Identifier: MIT
pragma solidity 0.8.30;

import {AttestationLib, CompactSignature, FillAttestation, RequestAttestation} from "../libraries/AttestationLib.sol";

/// @notice Test-only: exposes every AttestationLib function externally with calldata arguments, so
/// TypeScript tests and vector tests call the library exactly as a consuming contract would.
/// @dev The recover functions are `view`: AttestationLib calls the ecrecover precompile from assembly.
contract AttestationLibHarness {
    function fillTypehash() external pure returns (bytes32) {
        return AttestationLib.FILL_TYPEHASH;
    }

    function requestDigest(RequestAttestation calldata att) external pure returns (bytes32) {
        return AttestationLib.requestDigest(att);
    }

    function fillDigest(FillAttestation calldata att) external pure returns (bytes32) {
        return AttestationLib.fillDigest(att);
    }

    function callsFillTypehash() external pure returns (bytes32) {
        return AttestationLib.CALLS_FILL_TYPEHASH;
    }

    function gateTypehash() external pure returns (bytes32) {
        return AttestationLib.GATE_TYPEHASH;
    }

    function callsFillDigest(FillAttestation calldata att) external pure returns (bytes32) {
        return AttestationLib.callsFillDigest(att);
    }

    function gateDigest(bytes32 digest, address gate, uint256 chainId) external pure returns (bytes32) {
        return AttestationLib.gateDigest(digest, gate, chainId);
    }

    /// @notice AttestationLib.packedFillDigest of `packed` (which must be PACKED_FILL_LENGTH bytes).
    function packedFillDigest(bytes calldata packed, uint256 destinationChainId, address receiver)
        external
        pure
        returns (bytes32 digest)
    {
        require(packed.length == AttestationLib.PACKED_FILL_LENGTH, "packed fill length");
        uint256 offset;
        assembly ("memory-safe") {
            offset := packed.offset
        }
        return AttestationLib.packedFillDigest(offset, destinationChainId, receiver);
    }

    function recoverStrictCompact(bytes32 hash, CompactSignature calldata signature) external view returns (address) {
        return AttestationLib.recoverStrict(hash, signature);
    }

    /// @notice What AttestedReceiver does with a packed fill: digest completed with the chain and
    /// receiver → personal-sign hash → strict recovery of the EIP-2098 signature it carries.
    function recoverPackedFillSigner(bytes calldata packed, uint256 destinationChainId, address receiver)
        external
        view
        returns (address)
    {
        bytes32 digest = this.packedFillDigest(packed, destinationChainId, receiver);
        bytes32 r = bytes32(packed[AttestationLib.PACKED_R:AttestationLib.PACKED_R + 32]);
        bytes32 vs = bytes32(packed[AttestationLib.PACKED_VS:AttestationLib.PACKED_VS + 32]);
        return AttestationLib.recoverStrict(AttestationLib.toPersonalSignHash(digest), r, vs);
    }

    function toPersonalSignHash(bytes32 digest) external pure returns (bytes32) {
        return AttestationLib.toPersonalSignHash(digest);
    }

    function recoverStrict(bytes32 hash, bytes calldata signature) external view returns (address) {
        return AttestationLib.recoverStrict(hash, signature);
    }

    function toAddress(bytes32 value) external pure returns (address) {
        return AttestationLib.toAddress(value);
    }

    /// @notice What a consumer does with a v1 attestation: digest → personal-sign hash → strict recovery.
    function recoverRequestSigner(RequestAttestation calldata att, bytes calldata signature) external view returns (address) {
        return AttestationLib.recoverStrict(AttestationLib.toPersonalSignHash(AttestationLib.requestDigest(att)), signature);
    }

    /// @notice What a consumer does with a v2 attestation: digest → personal-sign hash → strict recovery.
    function recoverFillSigner(FillAttestation calldata att, bytes calldata signature) external view returns (address) {
        return AttestationLib.recoverStrict(AttestationLib.toPersonalSignHash(AttestationLib.fillDigest(att)), signature);
    }
}
