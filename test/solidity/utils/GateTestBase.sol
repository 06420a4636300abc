// SPDX-License-Identifier: MIT
pragma solidity 0.8.30;

import {Test} from "forge-std/Test.sol";

import {AttestationGate} from "../../../contracts/AttestationGate.sol";
import {FillAttestation, RequestAttestation} from "../../../contracts/libraries/AttestationLib.sol";

/// @notice Exposes AttestationGate's internal hooks and consumers, unguarded, for tests.
contract GateHarness is AttestationGate {
    function setSigner(address signer, bool allowed) external {
        _setSigner(signer, allowed);
    }

    function setRecipient(address recipient, bool allowed) external {
        _setRecipient(recipient, allowed);
    }

    function setRecipientAllowListEnabled(bool enabled) external {
        _setRecipientAllowListEnabled(enabled);
    }

    function consumeFill(
        FillAttestation calldata att,
        bytes calldata signature,
        address payer,
        address currency,
        uint256 amount
    ) external {
        _consumeFill(att, signature, payer, currency, amount);
    }

    function consumeRequest(
        RequestAttestation calldata att,
        bytes calldata signature,
        address payer,
        address currency,
        uint256 amount
    ) external {
        _consumeRequest(att, signature, payer, currency, amount);
    }
}

/// @notice Attestation builders and signing helpers. Digests are recomputed here from the formats in
/// docs/architecture.md (not through AttestationLib), so these tests also pin the library's encoding.
abstract contract GateTestBase is Test {
    bytes32 internal constant FILL_TYPEHASH = keccak256(
        "FillAttestation(bytes32 requestId,bytes32 orderId,uint256 originChainId,bytes32 originUser,bytes32 originCurrency,uint256 originAmount,uint256 destinationChainId,bytes32 destinationUser,bytes32 destinationCurrency,uint256 destinationAmount,uint256 deadline,address receiver)"
    );
    bytes32 internal constant GATE_TYPEHASH =
        keccak256("GateAttestation(bytes32 attestation,address gate,uint256 chainId)");
    /// @dev secp256k1 group order.
    uint256 internal constant SECP256K1_N = 0xFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFEBAAEDCE6AF48A03BBFD25E8CD0364141;

    uint256 internal constant SIGNER_KEY = 0xA11CE;
    uint256 internal constant OTHER_KEY = 0xB0B;
    uint256 internal constant DESTINATION_CHAIN_ID = 31338;
    uint256 internal constant START_TIME = 1_750_000_000;

    address internal signer = vm.addr(SIGNER_KEY);
    address internal otherSigner = vm.addr(OTHER_KEY);
    address internal user = makeAddr("user");
    address internal recipient = makeAddr("recipient");
    address internal payer = makeAddr("payer");
    address internal receiverContract = makeAddr("AttestedReceiver");
    /// @dev The gate `_signFill` / `_signRequest` sign for (set where the gate under test is deployed).
    address internal boundGate;

    // ---------------------------------------------------------------- builders

    function _fill(bytes32 requestId, address currency, uint256 amount)
        internal
        view
        returns (FillAttestation memory att)
    {
        att = FillAttestation({
            requestId: requestId,
            orderId: keccak256(abi.encode("order", requestId)),
            originChainId: block.chainid,
            originUser: _pad(user),
            originCurrency: _pad(currency),
            originAmount: amount,
            destinationChainId: DESTINATION_CHAIN_ID,
            destinationUser: _pad(recipient),
            destinationCurrency: bytes32(0),
            destinationAmount: amount,
            deadline: block.timestamp + 10 minutes,
            receiver: receiverContract
        });
    }

    function _request(bytes32 requestId, address currency, uint256 amount)
        internal
        view
        returns (RequestAttestation memory att)
    {
        att = RequestAttestation({
            requestId: requestId,
            originChainId: block.chainid,
            originUser: _pad(user),
            originCurrency: _pad(currency),
            originAmount: amount,
            destinationChainId: DESTINATION_CHAIN_ID,
            destinationUser: _pad(recipient)
        });
    }

    // ---------------------------------------------------------------- digests and signatures

    function _fillDigest(FillAttestation memory att) internal pure returns (bytes32) {
        // All twelve fields are static, so abi.encode of the struct is abi.encode of its fields.
        return keccak256(abi.encode(FILL_TYPEHASH, att));
    }

    function _requestDigest(RequestAttestation memory att) internal pure returns (bytes32) {
        return keccak256(abi.encode(att));
    }

    function _personal(bytes32 digest) internal pure returns (bytes32) {
        return keccak256(abi.encodePacked("\x19Ethereum Signed Message:\n32", digest));
    }

    function _sign(uint256 key, bytes32 digest) internal pure returns (bytes memory) {
        (uint8 v, bytes32 r, bytes32 s) = vm.sign(key, _personal(digest));
        return abi.encodePacked(r, s, v);
    }

    /// @dev The gate attestation of `att` for `boundGate` on this chain (what a gate accepts).
    function _signFill(uint256 key, FillAttestation memory att) internal view returns (bytes memory) {
        return _sign(key, _boundFillDigest(att));
    }

    /// @dev The digest a gate at `boundGate` checks a v2 signature against.
    function _boundFillDigest(FillAttestation memory att) internal view returns (bytes32) {
        return _gateDigest(_fillDigest(att), boundGate, block.chainid);
    }

    /// @dev The digest a gate at `boundGate` checks a v1 signature against.
    function _boundRequestDigest(RequestAttestation memory att) internal view returns (bytes32) {
        return _gateDigest(_requestDigest(att), boundGate, block.chainid);
    }

    /// @dev The gate attestation of `att` (v1) for `boundGate` on this chain.
    function _signRequest(uint256 key, RequestAttestation memory att) internal view returns (bytes memory) {
        return _sign(key, _boundRequestDigest(att));
    }

    /// @dev A gate attestation: the attestation's digest bound to `gate` and this chain.
    function _gateDigest(bytes32 digest, address gate, uint256 chainId) internal pure returns (bytes32) {
        return keccak256(abi.encode(GATE_TYPEHASH, digest, gate, chainId));
    }

    /// @dev What the signer gives an integrator for its gate `gate` (v2).
    function _signFillFor(uint256 key, FillAttestation memory att, address gate) internal view returns (bytes memory) {
        return _sign(key, _gateDigest(_fillDigest(att), gate, block.chainid));
    }

    /// @dev What the signer gives an integrator for its gate `gate` (v1).
    function _signRequestFor(uint256 key, RequestAttestation memory att, address gate) internal view returns (bytes memory) {
        return _sign(key, _gateDigest(_requestDigest(att), gate, block.chainid));
    }

    /// @dev The high-s twin of a valid signature: (r, n - s, v ^ 1) recovers the same signer.
    function _highS(bytes memory signature) internal pure returns (bytes memory twin, bytes32 highS) {
        (bytes32 r, bytes32 s, uint8 v) = _split(signature);
        highS = bytes32(SECP256K1_N - uint256(s));
        twin = abi.encodePacked(r, highS, v == 27 ? uint8(28) : uint8(27));
    }

    /// @dev What a signature recovers to for a given digest (used to predict SignerNotAllowed args).
    function _recover(bytes32 digest, bytes memory signature) internal pure returns (address) {
        (bytes32 r, bytes32 s, uint8 v) = _split(signature);
        return ecrecover(_personal(digest), v, r, s);
    }

    function _split(bytes memory signature) internal pure returns (bytes32 r, bytes32 s, uint8 v) {
        assembly ("memory-safe") {
            r := mload(add(signature, 0x20))
            s := mload(add(signature, 0x40))
            v := byte(0, mload(add(signature, 0x60)))
        }
    }

    function _pad(address a) internal pure returns (bytes32) {
        return bytes32(uint256(uint160(a)));
    }
}
