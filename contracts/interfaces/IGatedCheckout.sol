// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

import {IDepository} from "./IDepository.sol";
import {FillAttestation} from "../libraries/AttestationLib.sol";

/// @title IGatedCheckout
/// @notice Example integrator contract: takes a payment only when it matches a v2 fill attestation
/// and forwards it into the Depository under the attested orderId, credited to the attested
/// originUser. Gate errors and events are in IAttestationGate.
interface IGatedCheckout {
    /// @notice Fewer tokens arrived than the attestation names (e.g. a fee-on-transfer token), so the
    /// attested amount cannot be forwarded.
    error AmountNotReceived(uint256 received, uint256 attested);
    /// @notice The attested originUser is zero; the Depository would credit this contract instead.
    error ZeroDepositor();
    /// @notice Ownership cannot be renounced (signers could then never be removed).
    error RenounceOwnershipDisabled();

    /// @notice Owner only: add or remove an attestation signer.
    function setSigner(address signer, bool allowed) external;
    /// @notice Owner only: add or remove an allowed recipient (destinationUser).
    function setRecipient(address recipient, bool allowed) external;
    /// @notice Owner only: switch the recipient allow-list on or off.
    function setRecipientAllowListEnabled(bool enabled) external;
    /// @notice Always reverts RenounceOwnershipDisabled.
    function renounceOwnership() external;

    /// @notice Pays the order named by a v2 fill attestation and deposits it into the Depository
    /// under `att.orderId` for `att.originUser`. `signature` is the gate attestation made for this
    /// checkout (AttestationLib.gateDigest of the fill digest, this contract, this chain; the service's
    /// GET /requests/{requestId}/signature?gate=<this contract> serves it as `gateAttestation.signature`).
    /// Native (originCurrency 0): send exactly `att.originAmount` as msg.value.
    /// ERC-20: approve this contract for `att.originAmount` first and send no value; the tokens are
    /// pulled from msg.sender.
    /// Order: the gate's checks (see AttestationGate) → originUser is a non-zero EVM address
    /// (NotAnEvmAddress / ZeroDepositor) → mark consumed → pull (ERC-20; AmountNotReceived when
    /// fewer tokens arrive) → deposit. Any revert undoes the consumption.
    function pay(FillAttestation calldata att, bytes calldata signature) external payable;

    /// @notice Where every accepted payment is deposited.
    function depository() external view returns (IDepository);
}
