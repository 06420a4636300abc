// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

import {FillAttestation} from "../libraries/AttestationLib.sol";
import {IMulticaller} from "./IMulticaller.sol";

/// @title IAttestedReceiver
/// @notice Destination-chain entry point of the solver. A fill pays the attested recipient exactly
/// the attested amount, once per requestId, against a v2 attestation signed by an allowed signer.
interface IAttestedReceiver {
    // ---------------------------------------------------------------- errors (in check order)

    /// @notice 1. The attestation's deadline has passed.
    error AttestationExpired(uint256 deadline);
    /// @notice 2. The attestation is for another destination chain.
    error WrongDestinationChain(uint256 destinationChainId);
    /// @notice 2. The attestation names another receiver contract.
    error WrongReceiver(address receiver);
    /// @notice 3. The recovered signer is not on the signer allow-list.
    /// (Malformed signatures revert earlier with AttestationLib's errors.)
    error SignerNotAllowed(address signer);
    /// @notice 4. The recipient is not on the recipient allow-list while the allow-list is on.
    error RecipientNotAllowed(address recipient);
    /// @notice 5. The requestId was already filled.
    error AlreadyFilled(bytes32 requestId);
    /// @notice 6. msg.value does not match what the fill needs.
    error IncorrectNativeAmount(uint256 sent, uint256 expected);
    /// @notice 6. Sending native currency to the recipient failed.
    error NativeTransferFailed(address recipient);
    /// @notice The zero address cannot be a signer.
    error ZeroSigner();

    // ---------------------------------------------------------------- events

    /// @notice `requestId` was filled: `recipient` was paid; `orderId` is the origin deposit's id.
    /// The currency and amount paid are `att.destinationCurrency` and `att.destinationAmount` of the
    /// signed attestation, i.e. part of the transaction's input, so the event does not repeat them
    /// (512 gas per fill).
    event Filled(bytes32 indexed requestId, address indexed recipient, bytes32 orderId);
    /// @notice A signer was added to or removed from the allow-list.
    event SignerUpdated(address indexed signer, bool allowed);
    /// @notice A recipient was added to or removed from the allow-list.
    event RecipientUpdated(address indexed recipient, bool allowed);
    /// @notice The recipient allow-list was switched on or off.
    event RecipientAllowListEnabled(bool enabled);

    // ---------------------------------------------------------------- admin

    /// @notice Owner only.
    function setSigner(address signer, bool allowed) external;
    /// @notice Owner only.
    function setRecipient(address recipient, bool allowed) external;
    /// @notice Owner only.
    function setRecipientAllowListEnabled(bool enabled) external;

    // ---------------------------------------------------------------- solver

    /// @notice Pay the recipient exactly `att.destinationAmount` of `att.destinationCurrency`:
    /// native from msg.value (which must equal the amount), ERC-20 pulled from msg.sender straight to
    /// the recipient (msg.value must then be 0; msg.sender must have approved this contract).
    /// Checks in order: deadline → destination chain and receiver → signature (AttestationLib's
    /// InvalidSignatureLength / SignatureMalleable / InvalidSignature) and signer → recipient
    /// (NotAnEvmAddress when destinationUser is not an EVM address) → not filled → mark filled →
    /// pay (NotAnEvmAddress for a non-EVM destinationCurrency) → emit Filled.
    function fill(FillAttestation calldata att, bytes calldata signature) external payable;

    /// @notice `fill`, then run `calls` through the Multicaller with the remaining msg.value
    /// (msg.value minus the native amount paid; all of msg.value for an ERC-20 fill); the
    /// Multicaller sends its native leftovers back to msg.sender. A native fill needs
    /// msg.value ≥ the amount (else IncorrectNativeAmount). No token is swept: calls that leave
    /// tokens in the Multicaller must move them on themselves.
    function fillAndCall(FillAttestation calldata att, bytes calldata signature, IMulticaller.Call[] calldata calls)
        external
        payable;

    // ---------------------------------------------------------------- views

    /// @notice The approval-free multicall contract destination calls run through.
    function multicaller() external view returns (IMulticaller);
    /// @notice Whether `requestId` was filled.
    function filled(bytes32 requestId) external view returns (bool);
    /// @notice Whether `signer` may sign fill attestations.
    function isSigner(address signer) external view returns (bool);
    /// @notice Whether `recipient` is on the recipient allow-list.
    function isRecipientAllowed(address recipient) external view returns (bool);
    /// @notice Whether the recipient allow-list is enforced.
    function recipientAllowListEnabled() external view returns (bool);
    /// @notice The v2 digest of `att` (before EIP-191 prefixing).
    function fillDigest(FillAttestation calldata att) external pure returns (bytes32);
}
