// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

/// @notice v1 request attestation: the spec's `GET /requests/{requestId}/signature` record.
/// @dev Users and currencies are left-padded bytes32 so that non-EVM values fit; native is zero.
struct RequestAttestation {
    bytes32 requestId;
    uint256 originChainId;
    bytes32 originUser;
    bytes32 originCurrency;
    uint256 originAmount;
    uint256 destinationChainId;
    bytes32 destinationUser;
}

/// @notice v2 fill attestation: binds the deposit's orderId, the destination payment, an expiry
/// and the destination receiver contract.
struct FillAttestation {
    bytes32 requestId;
    bytes32 orderId;
    uint256 originChainId;
    bytes32 originUser;
    bytes32 originCurrency;
    uint256 originAmount;
    uint256 destinationChainId;
    bytes32 destinationUser;
    bytes32 destinationCurrency;
    uint256 destinationAmount;
    uint256 deadline;
    address receiver;
}

/// @notice An EIP-2098 compact ECDSA signature: `r`, and `vs` = (v - 27) << 255 | s. Every 65-byte
/// signature with a low s has exactly one compact form (two static words instead of a `bytes`
/// argument's offset, length and three padded words).
struct CompactSignature {
    bytes32 r;
    bytes32 vs;
}

/// @title AttestationLib
/// @notice The only onchain place where Ferry's attestation digests are computed, and the strict
/// signature recovery every consumer uses. Its TypeScript twin is `ts/core/attestationDigest.ts`.
library AttestationLib {
    /// @notice secp256k1 n / 2: a larger s is the malleable twin of a valid signature.
    uint256 internal constant HALF_CURVE_ORDER = 0x7FFFFFFFFFFFFFFFFFFFFFFFFFFFFFFF5D576E7357A4501DDFE92F46681B20A0;

    /// @notice keccak256 of the v2 type string.
    bytes32 internal constant FILL_TYPEHASH = keccak256(
        "FillAttestation(bytes32 requestId,bytes32 orderId,uint256 originChainId,bytes32 originUser,bytes32 originCurrency,uint256 originAmount,uint256 destinationChainId,bytes32 destinationUser,bytes32 destinationCurrency,uint256 destinationAmount,uint256 deadline,address receiver)"
    );

    /// @notice keccak256 of the type string a calls attestation is signed under: a v2 attestation whose
    /// requestId is `callsRequestId(orderId, calls, sweepTokens)` (AttestedReceiver), i.e. commits to
    /// destination calls. The same twelve fields under another name, so its digest differs from the
    /// plain fill digest of the same values: no path that rebuilds the plain digest (`fill_7hVe`,
    /// `fillAndCall`, the full-ABI `fill`) accepts it, and only `fillWithCalls`, which runs the calls
    /// it commits to, does.
    bytes32 internal constant CALLS_FILL_TYPEHASH = keccak256(
        "CallsFillAttestation(bytes32 requestId,bytes32 orderId,uint256 originChainId,bytes32 originUser,bytes32 originCurrency,uint256 originAmount,uint256 destinationChainId,bytes32 destinationUser,bytes32 destinationCurrency,uint256 destinationAmount,uint256 deadline,address receiver)"
    );

    /// @notice keccak256 of the type string of a gate attestation: an attestation's digest (v1 or v2)
    /// bound to the AttestationGate that may consume it and that gate's chain.
    bytes32 internal constant GATE_TYPEHASH = keccak256("GateAttestation(bytes32 attestation,address gate,uint256 chainId)");

    // ------------------------------------------------------------ packed fill
    //
    // What `AttestedReceiver.fill_7hVe` reads after its selector (and `fillAndCall` in its `fill` bytes):
    // a v2 fill attestation without `destinationChainId` and `receiver` — the receiver supplies
    // `block.chainid` and `address(this)` when it rebuilds the digest, so an attestation for another
    // chain or receiver recovers to an unrelated address — each field in the bytes it needs, then the
    // EIP-2098 signature. Big-endian, no padding, 277 bytes:
    //
    //   offset  bytes  field
    //        0     32  requestId
    //       32     32  orderId
    //       64      8  originChainId        (uint64)
    //       72     32  originUser           (bytes32: any chain's account)
    //      104     32  originCurrency       (bytes32)
    //      136     16  originAmount         (uint128)
    //      152     20  destinationUser      (an EVM address)
    //      172     20  destinationCurrency  (an EVM address; zero = native)
    //      192     16  destinationAmount    (uint128)
    //      208      5  deadline             (uint40, unix seconds)
    //      213     32  r                    (EIP-2098)
    //      245     32  vs                   (EIP-2098: (v - 27) << 255 | s)
    //
    // An attestation whose values do not fit (a chain id above 2^64, an amount above 2^128, a 32-byte
    // destination user or currency, a deadline after year 36812) has no packed form: ts/core's
    // `encodeFill` refuses it. Zero bytes are what the 32-byte ABI words would mostly have been: on L1 a
    // zero calldata byte costs 4 gas, and rollups price the compressed transaction.

    /// @notice Length in bytes of a packed fill.
    uint256 internal constant PACKED_FILL_LENGTH = 277;
    uint256 internal constant PACKED_REQUEST_ID = 0;
    uint256 internal constant PACKED_ORDER_ID = 32;
    uint256 internal constant PACKED_ORIGIN_CHAIN_ID = 64;
    uint256 internal constant PACKED_ORIGIN_USER = 72;
    uint256 internal constant PACKED_ORIGIN_CURRENCY = 104;
    uint256 internal constant PACKED_ORIGIN_AMOUNT = 136;
    uint256 internal constant PACKED_DESTINATION_USER = 152;
    uint256 internal constant PACKED_DESTINATION_CURRENCY = 172;
    uint256 internal constant PACKED_DESTINATION_AMOUNT = 192;
    uint256 internal constant PACKED_DEADLINE = 208;
    uint256 internal constant PACKED_R = 213;
    uint256 internal constant PACKED_VS = 245;

    /// @notice The signature is not exactly 65 bytes.
    error InvalidSignatureLength(uint256 length);
    /// @notice The signature's s value is in the upper half of the curve order (malleable form).
    error SignatureMalleable(bytes32 s);
    /// @notice The signature recovers to no address (bad v, or r/s not on the curve).
    error InvalidSignature();

    /// @notice v1 digest: keccak256(abi.encode(requestId, originChainId, originUser, originCurrency,
    /// originAmount, destinationChainId, destinationUser)). Signed as an EIP-191 personal message.
    function requestDigest(RequestAttestation calldata att) internal pure returns (bytes32 digest) {
        // Seven static words, laid out in calldata exactly as abi.encode lays them out.
        assembly ("memory-safe") {
            let m := mload(0x40)
            calldatacopy(m, att, 0xe0)
            digest := keccak256(m, 0xe0)
        }
    }

    /// @notice v2 digest: keccak256(abi.encode(FILL_TYPEHASH, ...all twelve fields in order)).
    function fillDigest(FillAttestation calldata att) internal pure returns (bytes32 digest) {
        return fillDigestOfType(att, FILL_TYPEHASH);
    }

    /// @notice Calls attestation digest: keccak256(abi.encode(CALLS_FILL_TYPEHASH, ...the same twelve
    /// fields)). What the signer signs for an intent with destination calls (`fillWithCalls`).
    function callsFillDigest(FillAttestation calldata att) internal pure returns (bytes32 digest) {
        return fillDigestOfType(att, CALLS_FILL_TYPEHASH);
    }

    /// @notice Gate attestation digest: keccak256(abi.encode(GATE_TYPEHASH, digest, gate, chainId)), where
    /// `digest` is a v1 `requestDigest` or a v2 `fillDigest`. Signed as an EIP-191 personal message.
    function gateDigest(bytes32 digest, address gate, uint256 chainId) internal pure returns (bytes32 bound) {
        bytes32 typehash = GATE_TYPEHASH;
        assembly ("memory-safe") {
            let m := mload(0x40)
            mstore(m, typehash)
            mstore(add(m, 0x20), digest)
            mstore(add(m, 0x40), and(gate, 0xffffffffffffffffffffffffffffffffffffffff))
            mstore(add(m, 0x60), chainId)
            bound := keccak256(m, 0x80)
        }
    }

    /// @dev The twelve fields of `att` hashed under `typehash` (FILL_TYPEHASH or CALLS_FILL_TYPEHASH).
    function fillDigestOfType(FillAttestation calldata att, bytes32 typehash) private pure returns (bytes32 digest) {
        assembly ("memory-safe") {
            let m := mload(0x40)
            mstore(m, typehash)
            calldatacopy(add(m, 0x20), att, 0x180)
            // `receiver` is an address: clean its upper bits as abi.encode would.
            mstore(add(m, 0x180), and(calldataload(add(att, 0x160)), 0xffffffffffffffffffffffffffffffffffffffff))
            digest := keccak256(m, 0x1a0)
        }
    }

    /// @notice The v2 digest of a packed fill (see "Packed fill" above) that starts at calldata offset
    /// `offset`, completed with the two fields it leaves out: the same bytes as `fillDigest` of the full
    /// attestation. The caller checks the length (PACKED_FILL_LENGTH); the fields are read as laid out.
    function packedFillDigest(uint256 offset, uint256 destinationChainId, address receiver)
        internal
        pure
        returns (bytes32 digest)
    {
        bytes32 typehash = FILL_TYPEHASH;
        assembly ("memory-safe") {
            let m := mload(0x40)
            mstore(m, typehash)
            calldatacopy(add(m, 0x20), offset, 0x40) // requestId, orderId
            mstore(add(m, 0x60), shr(192, calldataload(add(offset, PACKED_ORIGIN_CHAIN_ID))))
            calldatacopy(add(m, 0x80), add(offset, PACKED_ORIGIN_USER), 0x40) // originUser, originCurrency
            mstore(add(m, 0xc0), shr(128, calldataload(add(offset, PACKED_ORIGIN_AMOUNT))))
            mstore(add(m, 0xe0), destinationChainId)
            mstore(add(m, 0x100), shr(96, calldataload(add(offset, PACKED_DESTINATION_USER))))
            mstore(add(m, 0x120), shr(96, calldataload(add(offset, PACKED_DESTINATION_CURRENCY))))
            mstore(add(m, 0x140), shr(128, calldataload(add(offset, PACKED_DESTINATION_AMOUNT))))
            mstore(add(m, 0x160), shr(216, calldataload(add(offset, PACKED_DEADLINE))))
            mstore(add(m, 0x180), and(receiver, 0xffffffffffffffffffffffffffffffffffffffff))
            digest := keccak256(m, 0x1a0)
        }
    }

    /// @notice The EIP-191 personal-sign hash of a 32-byte digest:
    /// keccak256("\x19Ethereum Signed Message:\n32" || digest).
    function toPersonalSignHash(bytes32 digest) internal pure returns (bytes32 hash) {
        assembly ("memory-safe") {
            mstore(0x00, "\x19Ethereum Signed Message:\n32")
            mstore(0x1c, digest)
            hash := keccak256(0x00, 0x3c)
        }
    }

    /// @notice Recovers the signer of `hash` from a 65-byte (r, s, v) signature. Reverts on any other
    /// length, on a high-s (malleable) signature and when recovery yields the zero address (bad v,
    /// r or s off the curve). The same rules as OpenZeppelin's ECDSA.tryRecover, in assembly: measured
    /// 506 gas cheaper per fill than going through ECDSA.tryRecoverCalldata and its error enum.
    /// @dev `view` because it calls the ecrecover precompile from assembly.
    function recoverStrict(bytes32 hash, bytes calldata signature) internal view returns (address signer) {
        if (signature.length != 65) revert InvalidSignatureLength(signature.length);
        bytes32 s;
        assembly ("memory-safe") {
            s := calldataload(add(signature.offset, 0x20))
        }
        if (uint256(s) > HALF_CURVE_ORDER) revert SignatureMalleable(s);
        assembly ("memory-safe") {
            let m := mload(0x40)
            mstore(m, hash)
            mstore(add(m, 0x20), byte(0, calldataload(add(signature.offset, 0x40)))) // v
            calldatacopy(add(m, 0x40), signature.offset, 0x40) // r, s
            mstore(0x00, 0) // ecrecover writes nothing on failure
            pop(staticcall(gas(), 0x01, m, 0x80, 0x00, 0x20))
            signer := mload(0x00)
        }
        if (signer == address(0)) revert InvalidSignature();
    }

    /// @notice Recovers the signer of `hash` from an EIP-2098 compact signature (r, vs), with the same
    /// rules as the 65-byte form: reverts SignatureMalleable on a high s, InvalidSignature when recovery
    /// yields the zero address (r or s off the curve, or zero). Every `vs` encodes a valid v (27 or
    /// 28), so there is no length or v to reject.
    function recoverStrict(bytes32 hash, bytes32 r, bytes32 vs) internal view returns (address signer) {
        bytes32 s = vs & bytes32(type(uint256).max >> 1);
        if (uint256(s) > HALF_CURVE_ORDER) revert SignatureMalleable(s);
        assembly ("memory-safe") {
            let m := mload(0x40)
            mstore(m, hash)
            mstore(add(m, 0x20), add(27, shr(255, vs))) // v
            mstore(add(m, 0x40), r)
            mstore(add(m, 0x60), s)
            mstore(0x00, 0) // ecrecover writes nothing on failure
            pop(staticcall(gas(), 0x01, m, 0x80, 0x00, 0x20))
            signer := mload(0x00)
        }
        if (signer == address(0)) revert InvalidSignature();
    }

    /// @notice `recoverStrict(hash, r, vs)` of a CompactSignature struct.
    function recoverStrict(bytes32 hash, CompactSignature calldata signature) internal view returns (address) {
        return recoverStrict(hash, signature.r, signature.vs);
    }

    /// @notice Converts a left-padded bytes32 into an EVM address, or reverts when the upper 12
    /// bytes are not zero.
    function toAddress(bytes32 value) internal pure returns (address) {
        if (uint256(value) >> 160 != 0) revert NotAnEvmAddress(value);
        return address(uint160(uint256(value)));
    }

    /// @notice A bytes32 user or currency does not hold a left-padded EVM address.
    error NotAnEvmAddress(bytes32 value);
}
