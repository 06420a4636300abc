// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

/// @title IPermit2SignatureTransfer
/// @notice The part of the canonical Permit2 (Uniswap, `0x000000000022D473030F116dDEE9F6B43aC78BA3` on every
/// chain it is deployed to) that the Depository calls: a one-shot signature transfer with a witness. Written
/// out here rather than imported so that the shipped contracts depend on no Permit2 package; the shapes are
/// Permit2's `ISignatureTransfer`.
/// @dev Permit2 checks, in order: deadline (`SignatureExpired(deadline)`) → requested amount within the
/// permitted one (`InvalidAmount(maxAmount)`) → unordered nonce unused, then marks it (`InvalidNonce()`) →
/// the owner's signature over `PermitWitnessTransferFrom(TokenPermissions permitted, address spender,
/// uint256 nonce, uint256 deadline, <witness type> witness)` with `spender = msg.sender` (ECDSA 64/65 bytes
/// or EIP-1271; `InvalidSigner()`, `InvalidSignature()`, ...) → `transferFrom(owner, to, requestedAmount)`.
interface IPermit2SignatureTransfer {
    /// @notice A token and the most of it the signature permits.
    struct TokenPermissions {
        address token;
        uint256 amount;
    }

    /// @notice The signed permit: token permissions, an unordered nonce and a deadline.
    struct PermitTransferFrom {
        TokenPermissions permitted;
        uint256 nonce;
        uint256 deadline;
    }

    /// @notice Where the tokens go and how many (at most `permitted.amount`).
    struct SignatureTransferDetails {
        address to;
        uint256 requestedAmount;
    }

    /// @notice Transfers `transferDetails.requestedAmount` of `permit.permitted.token` from `owner` to
    /// `transferDetails.to` when `signature` is `owner`'s over the permit, `msg.sender` as spender and the
    /// `witness` (an EIP-712 struct hash of the type `witnessTypeString` names).
    function permitWitnessTransferFrom(
        PermitTransferFrom calldata permit,
        SignatureTransferDetails calldata transferDetails,
        address owner,
        bytes32 witness,
        string calldata witnessTypeString,
        bytes calldata signature
    ) external;
}
