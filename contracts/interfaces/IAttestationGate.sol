// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

/// @title IAttestationGate
/// @notice What an integrator contract that gates payments on Ferry attestations exposes.
interface IAttestationGate {
    // ---------------------------------------------------------------- errors (in check order)

    /// @notice v2 only: the attestation's deadline has passed.
    error AttestationExpired(uint256 deadline);
    /// @notice The attestation is for another origin chain.
    error WrongOriginChain(uint256 originChainId);
    /// @notice The recovered signer is not on the signer allow-list. An attestation made for another
    /// gate or chain lands here: the signature is checked over the gate attestation digest rebuilt
    /// with this gate's address and chain (AttestationLib.gateDigest), so it recovers to an unrelated
    /// address; so does a bare v2 fill signature or the spec's v1 record signature.
    error SignerNotAllowed(address signer);
    /// @notice The recipient (destinationUser) is not allowed while the allow-list is on.
    error RecipientNotAllowed(address recipient);
    /// @notice The requestId was already consumed.
    error AttestationAlreadyConsumed(bytes32 requestId);
    /// @notice The payment's currency differs from the attested origin currency.
    error CurrencyMismatch(address paid, bytes32 attested);
    /// @notice The payment's amount differs from the attested origin amount.
    error AmountMismatch(uint256 paid, uint256 attested);
    /// @notice The zero address cannot be a signer.
    error ZeroSigner();

    // ---------------------------------------------------------------- events

    /// @notice An attestation was consumed (its requestId can never be used again here).
    event AttestationConsumed(bytes32 indexed requestId, address indexed payer, uint8 version);
    /// @notice A signer was added to or removed from the allow-list.
    event SignerUpdated(address indexed signer, bool allowed);
    /// @notice A recipient was added to or removed from the allow-list.
    event RecipientUpdated(address indexed recipient, bool allowed);
    /// @notice The recipient allow-list was switched on or off.
    event RecipientAllowListEnabled(bool enabled);

    // ---------------------------------------------------------------- views

    /// @notice Whether `requestId` was consumed.
    function consumed(bytes32 requestId) external view returns (bool);
    /// @notice Whether `signer` may sign attestations this gate accepts.
    function isSigner(address signer) external view returns (bool);
    /// @notice Whether `recipient` is on the recipient allow-list.
    function isRecipientAllowed(address recipient) external view returns (bool);
    /// @notice Whether the recipient allow-list is enforced.
    function recipientAllowListEnabled() external view returns (bool);
}
