// SPDX-License-Identifier: MIT
pragma solidity 0.8.30;

import {Ownable} from "@openzeppelin/contracts/access/Ownable.sol";
import {Ownable2Step} from "@openzeppelin/contracts/access/Ownable2Step.sol";
import {IERC20} from "@openzeppelin/contracts/token/ERC20/IERC20.sol";
import {SafeERC20} from "@openzeppelin/contracts/token/ERC20/utils/SafeERC20.sol";

import {AttestationGate} from "../AttestationGate.sol";
import {IDepository} from "../interfaces/IDepository.sol";
import {IGatedCheckout} from "../interfaces/IGatedCheckout.sol";
import {AttestationLib, FillAttestation} from "../libraries/AttestationLib.sol";

/// @title GatedCheckout
/// @notice Example integrator: takes a payment only when it matches a v2 fill attestation and
/// forwards it into the Depository under the ATTESTED orderId, credited to the attested originUser.
/// @dev v1 request attestations are deliberately not accepted here: v1 binds no orderId (the
/// deposit id would have to come from the caller) and no expiry. The gate still offers
/// `_consumeRequest` for integrators that need v1.
/// The contract keeps no balance and no allowance between calls: whatever a payment brings in is
/// forwarded in the same call.
/// Anyone may pay an attestation (e.g. a relayer on the user's behalf); the deposit is always
/// credited to `originUser`, so paying someone else's attestation only spends the payer's funds.
contract GatedCheckout is IGatedCheckout, AttestationGate, Ownable2Step {
    using SafeERC20 for IERC20;

    // ---------------------------------------------------------------- immutables

    /// @inheritdoc IGatedCheckout
    IDepository public immutable depository;

    // ---------------------------------------------------------------- constructor

    constructor(address initialOwner, IDepository depository_) Ownable(initialOwner) {
        depository = depository_;
    }

    // ---------------------------------------------------------------- admin

    /// @inheritdoc IGatedCheckout
    function setSigner(address signer, bool allowed) external onlyOwner {
        _setSigner(signer, allowed);
    }

    /// @inheritdoc IGatedCheckout
    function setRecipient(address recipient, bool allowed) external onlyOwner {
        _setRecipient(recipient, allowed);
    }

    /// @inheritdoc IGatedCheckout
    function setRecipientAllowListEnabled(bool enabled) external onlyOwner {
        _setRecipientAllowListEnabled(enabled);
    }

    /// @inheritdoc IGatedCheckout
    function renounceOwnership() public pure override(IGatedCheckout, Ownable) {
        revert RenounceOwnershipDisabled();
    }

    // ---------------------------------------------------------------- payer

    /// @inheritdoc IGatedCheckout
    /// @dev No re-entrancy lock is needed: the requestId is consumed before any external call, and
    /// every call measures and forwards only its own balance delta, so a re-entering token can
    /// neither replay an attestation nor take another payment's funds.
    function pay(FillAttestation calldata att, bytes calldata signature) external payable {
        // Sending value means paying native; for an ERC-20 attestation that is a CurrencyMismatch.
        bool paysNative = msg.value != 0 || att.originCurrency == bytes32(0);
        // Truncating is safe: the gate compares the padded form, so upper bits make a mismatch.
        address currency = paysNative ? address(0) : address(uint160(uint256(att.originCurrency)));
        uint256 amount = paysNative ? msg.value : att.originAmount;

        _consumeFill(att, signature, msg.sender, currency, amount);

        address depositor = AttestationLib.toAddress(att.originUser);
        if (depositor == address(0)) revert ZeroDepositor();

        if (paysNative) {
            depository.depositNative{value: amount}(depositor, att.orderId);
            return;
        }

        IERC20 token = IERC20(currency);
        uint256 balanceBefore = token.balanceOf(address(this));
        token.safeTransferFrom(msg.sender, address(this), amount);
        uint256 received = token.balanceOf(address(this)) - balanceBefore;
        if (received != amount) revert AmountNotReceived(received, amount);

        // Exactly the amount, and the Depository pulls all of it: no allowance is left behind.
        token.forceApprove(address(depository), amount);
        depository.depositErc20(depositor, address(token), amount, att.orderId);
    }
}
