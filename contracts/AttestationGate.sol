// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

import {IAttestationGate} from "./interfaces/IAttestationGate.sol";
import {AttestationLib, FillAttestation, RequestAttestation} from "./libraries/AttestationLib.sol";

/// @title AttestationGate
/// @notice Base contract for integrators that take a payment only when it matches a Ferry
/// attestation signed by an allowed signer. It holds the signer allow-list, the optional recipient
/// allow-list and the one-shot replay guard; it moves no funds.
/// @dev The inheriting contract decides who may call the admin hooks (`_setSigner`, `_setRecipient`,
/// `_setRecipientAllowListEnabled`) and must call `_consumeFill` / `_consumeRequest` before it
/// moves any funds (checks-effects-interactions): the requestId is marked consumed inside them.
///
/// Check order of `_consumeFill` (v2), each failure a custom error carrying the offending value:
///   1. `block.timestamp <= deadline`                               AttestationExpired(deadline)
///   2. `originChainId == block.chainid`                            WrongOriginChain(originChainId)
///   3. 65-byte, low-s, non-zero signature (AttestationLib) over the
///      GATE attestation digest — the attestation's digest bound to
///      this gate and this chain (AttestationLib.gateDigest) —      InvalidSignatureLength / SignatureMalleable / InvalidSignature
///      whose signer is on the allow-list                           SignerNotAllowed(signer)
///   4. when the recipient allow-list is on, destinationUser is an
///      EVM address (AttestationLib) on that list                   NotAnEvmAddress / RecipientNotAllowed(recipient)
///   5. requestId not consumed                                      AttestationAlreadyConsumed(requestId)
///   6. paid currency == originCurrency                             CurrencyMismatch(paid, attested)
///      paid amount == originAmount                                 AmountMismatch(paid, attested)
///   7. mark consumed, emit AttestationConsumed(requestId, payer, 2)
/// `_consumeRequest` (v1) runs the same order without step 1 and emits version 1.
/// An origin-side gate does not check the v2 `receiver` (that is the destination AttestedReceiver).
///
/// A gate accepts only attestations made for it: the signature must be over
/// `gateDigest(digest, address(this), block.chainid)`, which the service signs for the gate an
/// integrator names (GET /requests/{requestId}/signature?gate=…), so an attestation made for another
/// gate — a stranger's contract trusting the same signer, or a copy at the same address on another
/// chain — recovers to an unrelated address there (SignerNotAllowed) and cannot use up its requestId.
/// Neither the bare v2 fill signature (that one is for the destination AttestedReceiver) nor the spec's
/// v1 record signature (a digest that names no contract, so a gate cannot tell it was made for it) is
/// accepted: v1 terms are consumed only under a gate attestation of the v1 digest.
abstract contract AttestationGate is IAttestationGate {
    // ---------------------------------------------------------------- constants

    /// @notice Version tag of v1 request attestations in `AttestationConsumed`.
    uint8 internal constant VERSION_REQUEST = 1;
    /// @notice Version tag of v2 fill attestations in `AttestationConsumed`.
    uint8 internal constant VERSION_FILL = 2;

    // ---------------------------------------------------------------- storage

    /// @inheritdoc IAttestationGate
    mapping(bytes32 requestId => bool) public consumed;
    /// @inheritdoc IAttestationGate
    mapping(address signer => bool) public isSigner;
    /// @inheritdoc IAttestationGate
    mapping(address recipient => bool) public isRecipientAllowed;
    /// @inheritdoc IAttestationGate
    bool public recipientAllowListEnabled;

    // ---------------------------------------------------------------- internal: admin hooks

    /// @notice Adds `signer` to (or removes it from) the signer allow-list.
    /// @dev Unguarded: the inheriting contract restricts who reaches it. Reverts ZeroSigner for 0,
    /// so that a failed recovery can never be mistaken for an allowed signer.
    function _setSigner(address signer, bool allowed) internal {
        if (signer == address(0)) revert ZeroSigner();
        isSigner[signer] = allowed;
        emit SignerUpdated(signer, allowed);
    }

    /// @notice Adds `recipient` to (or removes it from) the recipient allow-list.
    /// @dev Unguarded: the inheriting contract restricts who reaches it.
    function _setRecipient(address recipient, bool allowed) internal {
        isRecipientAllowed[recipient] = allowed;
        emit RecipientUpdated(recipient, allowed);
    }

    /// @notice Switches enforcement of the recipient allow-list on or off.
    /// @dev Unguarded: the inheriting contract restricts who reaches it.
    function _setRecipientAllowListEnabled(bool enabled) internal {
        recipientAllowListEnabled = enabled;
        emit RecipientAllowListEnabled(enabled);
    }

    // ---------------------------------------------------------------- internal: consumers

    /// @notice Consumes a v2 fill attestation for a payment of `amount` of `currency` (zero =
    /// native) by `payer`, or reverts. `signature` is the signer's over the gate attestation digest
    /// `gateDigest(fillDigest(att), address(this), block.chainid)`.
    /// @dev Checks, in this order: deadline (AttestationExpired) → originChainId == block.chainid
    /// (WrongOriginChain) → strict recovery (InvalidSignatureLength / SignatureMalleable /
    /// InvalidSignature) and signer allowed (SignerNotAllowed) → destinationUser allowed while the
    /// recipient allow-list is on (NotAnEvmAddress / RecipientNotAllowed) → requestId not consumed
    /// (AttestationAlreadyConsumed) → currency (CurrencyMismatch) → amount (AmountMismatch); then
    /// marks the requestId consumed and emits AttestationConsumed(requestId, payer, 2).
    /// The deadline is inclusive: an attestation is valid at `block.timestamp == deadline`.
    /// `receiver` is not checked: it names the destination AttestedReceiver, not this contract.
    /// Call it before moving any funds.
    function _consumeFill(
        FillAttestation calldata att,
        bytes calldata signature,
        address payer,
        address currency,
        uint256 amount
    ) internal {
        if (block.timestamp > att.deadline) revert AttestationExpired(att.deadline);
        _checkAndConsume(
            att.requestId,
            att.originChainId,
            att.destinationUser,
            att.originCurrency,
            att.originAmount,
            AttestationLib.gateDigest(AttestationLib.fillDigest(att), address(this), block.chainid),
            signature,
            payer,
            currency,
            amount,
            VERSION_FILL
        );
    }

    /// @notice Consumes a v1 request attestation for a payment of `amount` of `currency` (zero =
    /// native) by `payer`, or reverts. `signature` is the signer's over the gate attestation digest
    /// `gateDigest(requestDigest(att), address(this), block.chainid)`: the spec's v1 record signature
    /// (over the bare digest, which names no contract) is not accepted.
    /// @dev v1 binds NO expiry: a v1 attestation stays valid until its requestId is consumed here,
    /// so a v1 gate cannot hold the caller to a deadline. It also binds no orderId; an integrator
    /// that forwards a v1 payment must take the id from elsewhere. Prefer `_consumeFill`.
    /// Checks, in this order: originChainId == block.chainid (WrongOriginChain) → strict recovery
    /// and signer allowed (SignerNotAllowed) → destinationUser allowed while the recipient
    /// allow-list is on (NotAnEvmAddress / RecipientNotAllowed) → requestId not consumed
    /// (AttestationAlreadyConsumed) → currency (CurrencyMismatch) → amount (AmountMismatch); then
    /// marks the requestId consumed and emits AttestationConsumed(requestId, payer, 1).
    /// Call it before moving any funds.
    function _consumeRequest(
        RequestAttestation calldata att,
        bytes calldata signature,
        address payer,
        address currency,
        uint256 amount
    ) internal {
        _checkAndConsume(
            att.requestId,
            att.originChainId,
            att.destinationUser,
            att.originCurrency,
            att.originAmount,
            AttestationLib.gateDigest(AttestationLib.requestDigest(att), address(this), block.chainid),
            signature,
            payer,
            currency,
            amount,
            VERSION_REQUEST
        );
    }

    /// @dev The checks both versions share, in the documented order, then the effect. The replay
    /// guard is keyed on the requestId, never on the signature bytes.
    function _checkAndConsume(
        bytes32 requestId,
        uint256 originChainId,
        bytes32 destinationUser,
        bytes32 originCurrency,
        uint256 originAmount,
        bytes32 digest,
        bytes calldata signature,
        address payer,
        address currency,
        uint256 amount,
        uint8 version
    ) private {
        if (originChainId != block.chainid) revert WrongOriginChain(originChainId);

        address signer = AttestationLib.recoverStrict(AttestationLib.toPersonalSignHash(digest), signature);
        if (!isSigner[signer]) revert SignerNotAllowed(signer);

        if (recipientAllowListEnabled) {
            // Converted only here: with the list off, a non-EVM destination user is fine.
            address recipient = AttestationLib.toAddress(destinationUser);
            if (!isRecipientAllowed[recipient]) revert RecipientNotAllowed(recipient);
        }

        if (consumed[requestId]) revert AttestationAlreadyConsumed(requestId);

        // Compared padded, so an attested currency that is not an EVM address is a plain mismatch.
        if (bytes32(uint256(uint160(currency))) != originCurrency) revert CurrencyMismatch(currency, originCurrency);
        if (amount != originAmount) revert AmountMismatch(amount, originAmount);

        consumed[requestId] = true;
        emit AttestationConsumed(requestId, payer, version);
    }
}
