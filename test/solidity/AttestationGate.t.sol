// SPDX-License-Identifier: MIT
pragma solidity 0.8.30;

import {IAttestationGate} from "../../contracts/interfaces/IAttestationGate.sol";
import {AttestationLib, FillAttestation, RequestAttestation} from "../../contracts/libraries/AttestationLib.sol";

import {GateHarness, GateTestBase} from "./utils/GateTestBase.sol";

/// @notice AttestationGate: one test per revert of `_consumeFill` and `_consumeRequest`, in check order.
/// Each revert test also breaks every later check, so it pins the order, not only the error.
contract AttestationGateTest is GateTestBase {
    GateHarness internal gate;

    address internal token = makeAddr("token");
    bytes32 internal constant REQUEST_ID = keccak256("request-1");
    uint256 internal constant AMOUNT = 250e6;

    function setUp() public {
        vm.warp(START_TIME);
        gate = new GateHarness();
        boundGate = address(gate);
        gate.setSigner(signer, true);
    }

    // ================================================================ _consumeFill (v2), in check order

    function test_consumeFill_revertsIfExpired() public {
        FillAttestation memory att = _fill(REQUEST_ID, token, AMOUNT);
        bytes memory sig = _signFill(SIGNER_KEY, att);
        att.originChainId = 1; // would also fail every later check
        vm.warp(att.deadline + 1);

        vm.expectRevert(abi.encodeWithSelector(IAttestationGate.AttestationExpired.selector, att.deadline));
        gate.consumeFill(att, sig, payer, address(0), 0);
    }

    function test_consumeFill_acceptsAtDeadline() public {
        FillAttestation memory att = _fill(REQUEST_ID, token, AMOUNT);
        vm.warp(att.deadline);
        gate.consumeFill(att, _signFill(SIGNER_KEY, att), payer, token, AMOUNT);
        assertTrue(gate.consumed(REQUEST_ID));
    }

    function test_consumeFill_revertsIfWrongOriginChain() public {
        FillAttestation memory att = _fill(REQUEST_ID, token, AMOUNT);
        att.originChainId = block.chainid + 1;
        bytes memory sig = _signFill(OTHER_KEY, att); // signer not allowed either

        vm.expectRevert(abi.encodeWithSelector(IAttestationGate.WrongOriginChain.selector, block.chainid + 1));
        gate.consumeFill(att, sig, payer, address(0), 0);
    }

    function test_consumeFill_revertsIfSignatureLengthInvalid() public {
        gate.setRecipientAllowListEnabled(true); // recipient not allowed either
        FillAttestation memory att = _fill(REQUEST_ID, token, AMOUNT);
        bytes memory sig = _signFill(SIGNER_KEY, att);
        bytes memory short = new bytes(64);
        for (uint256 i; i < 64; ++i) short[i] = sig[i];

        vm.expectRevert(abi.encodeWithSelector(AttestationLib.InvalidSignatureLength.selector, 64));
        gate.consumeFill(att, short, payer, address(0), 0);
    }

    function test_consumeFill_revertsIfSignatureMalleable() public {
        gate.setRecipientAllowListEnabled(true);
        FillAttestation memory att = _fill(REQUEST_ID, token, AMOUNT);
        (bytes memory twin, bytes32 highS) = _highS(_signFill(SIGNER_KEY, att));

        vm.expectRevert(abi.encodeWithSelector(AttestationLib.SignatureMalleable.selector, highS));
        gate.consumeFill(att, twin, payer, address(0), 0);
    }

    function test_consumeFill_revertsIfSignatureInvalid() public {
        gate.setRecipientAllowListEnabled(true);
        FillAttestation memory att = _fill(REQUEST_ID, token, AMOUNT);
        (bytes32 r, bytes32 s,) = _split(_signFill(SIGNER_KEY, att));
        bytes memory badV = abi.encodePacked(r, s, uint8(29));

        vm.expectRevert(AttestationLib.InvalidSignature.selector);
        gate.consumeFill(att, badV, payer, address(0), 0);
    }

    function test_consumeFill_revertsIfSignerNotAllowed() public {
        gate.setRecipientAllowListEnabled(true);
        FillAttestation memory att = _fill(REQUEST_ID, token, AMOUNT);

        vm.expectRevert(abi.encodeWithSelector(IAttestationGate.SignerNotAllowed.selector, otherSigner));
        gate.consumeFill(att, _signFill(OTHER_KEY, att), payer, address(0), 0);
    }

    function test_consumeFill_revertsIfSignerRemoved() public {
        FillAttestation memory att = _fill(REQUEST_ID, token, AMOUNT);
        gate.setSigner(signer, false);

        vm.expectRevert(abi.encodeWithSelector(IAttestationGate.SignerNotAllowed.selector, signer));
        gate.consumeFill(att, _signFill(SIGNER_KEY, att), payer, token, AMOUNT);
    }

    function test_consumeFill_revertsIfRecipientNotEvmAddress() public {
        gate.setRecipientAllowListEnabled(true);
        FillAttestation memory att = _fill(REQUEST_ID, token, AMOUNT);
        att.destinationUser = keccak256("a Solana account");

        vm.expectRevert(abi.encodeWithSelector(AttestationLib.NotAnEvmAddress.selector, att.destinationUser));
        gate.consumeFill(att, _signFill(SIGNER_KEY, att), payer, address(0), 0);
    }

    function test_consumeFill_revertsIfRecipientNotAllowed() public {
        gate.setRecipient(recipient, true);
        gate.setRecipientAllowListEnabled(true);
        FillAttestation memory att = _fill(REQUEST_ID, token, AMOUNT);
        bytes memory sig = _signFill(SIGNER_KEY, att);
        gate.consumeFill(att, sig, payer, token, AMOUNT);
        gate.setRecipient(recipient, false); // now: consumed AND recipient not allowed

        vm.expectRevert(abi.encodeWithSelector(IAttestationGate.RecipientNotAllowed.selector, recipient));
        gate.consumeFill(att, sig, payer, address(0), 0);
    }

    function test_consumeFill_revertsIfAlreadyConsumed() public {
        FillAttestation memory att = _fill(REQUEST_ID, token, AMOUNT);
        bytes memory sig = _signFill(SIGNER_KEY, att);
        gate.consumeFill(att, sig, payer, token, AMOUNT);

        vm.expectRevert(abi.encodeWithSelector(IAttestationGate.AttestationAlreadyConsumed.selector, REQUEST_ID));
        gate.consumeFill(att, sig, payer, address(0), 0);
    }

    function test_consumeFill_revertsIfCurrencyMismatch() public {
        FillAttestation memory att = _fill(REQUEST_ID, token, AMOUNT);

        vm.expectRevert(
            abi.encodeWithSelector(IAttestationGate.CurrencyMismatch.selector, address(0), _pad(token))
        );
        gate.consumeFill(att, _signFill(SIGNER_KEY, att), payer, address(0), 0);
    }

    function test_consumeFill_revertsIfAttestedCurrencyNotEvmAddress() public {
        FillAttestation memory att = _fill(REQUEST_ID, token, AMOUNT);
        att.originCurrency = bytes32(uint256(1) << 200 | uint256(uint160(token))); // same low 20 bytes

        vm.expectRevert(abi.encodeWithSelector(IAttestationGate.CurrencyMismatch.selector, token, att.originCurrency));
        gate.consumeFill(att, _signFill(SIGNER_KEY, att), payer, token, AMOUNT);
    }

    function test_consumeFill_revertsIfAmountMismatch() public {
        FillAttestation memory att = _fill(REQUEST_ID, token, AMOUNT);

        vm.expectRevert(abi.encodeWithSelector(IAttestationGate.AmountMismatch.selector, AMOUNT - 1, AMOUNT));
        gate.consumeFill(att, _signFill(SIGNER_KEY, att), payer, token, AMOUNT - 1);
    }

    // ---------------------------------------------------------------- _consumeFill: success

    function test_consumeFill_marksConsumedAndEmits() public {
        FillAttestation memory att = _fill(REQUEST_ID, token, AMOUNT);
        assertFalse(gate.consumed(REQUEST_ID));

        vm.expectEmit(true, true, true, true, address(gate));
        emit IAttestationGate.AttestationConsumed(REQUEST_ID, payer, 2);
        gate.consumeFill(att, _signFill(SIGNER_KEY, att), payer, token, AMOUNT);

        assertTrue(gate.consumed(REQUEST_ID));
    }

    function test_consumeFill_acceptsNative() public {
        FillAttestation memory att = _fill(REQUEST_ID, address(0), 1 ether);
        gate.consumeFill(att, _signFill(SIGNER_KEY, att), payer, address(0), 1 ether);
        assertTrue(gate.consumed(REQUEST_ID));
    }

    function test_consumeFill_acceptsAllowedRecipient() public {
        gate.setRecipient(recipient, true);
        gate.setRecipientAllowListEnabled(true);
        FillAttestation memory att = _fill(REQUEST_ID, token, AMOUNT);
        gate.consumeFill(att, _signFill(SIGNER_KEY, att), payer, token, AMOUNT);
        assertTrue(gate.consumed(REQUEST_ID));
    }

    function test_consumeFill_ignoresRecipientWhenListOff() public {
        FillAttestation memory att = _fill(REQUEST_ID, token, AMOUNT);
        att.destinationUser = keccak256("a Solana account"); // not even an EVM address
        gate.consumeFill(att, _signFill(SIGNER_KEY, att), payer, token, AMOUNT);
        assertTrue(gate.consumed(REQUEST_ID));
    }

    function test_consumeFill_ignoresReceiver() public {
        FillAttestation memory att = _fill(REQUEST_ID, token, AMOUNT);
        att.receiver = address(0xdead); // a destination-side field: not this gate's business
        gate.consumeFill(att, _signFill(SIGNER_KEY, att), payer, token, AMOUNT);
        assertTrue(gate.consumed(REQUEST_ID));
    }

    // ================================================================ _consumeRequest (v1), in check order

    function test_consumeRequest_ignoresExpiryBecauseV1BindsNone() public {
        RequestAttestation memory att = _request(REQUEST_ID, token, AMOUNT);
        bytes memory sig = _signRequest(SIGNER_KEY, att);
        vm.warp(block.timestamp + 3650 days);

        gate.consumeRequest(att, sig, payer, token, AMOUNT);
        assertTrue(gate.consumed(REQUEST_ID));
    }

    function test_consumeRequest_revertsIfWrongOriginChain() public {
        RequestAttestation memory att = _request(REQUEST_ID, token, AMOUNT);
        att.originChainId = block.chainid + 1;

        vm.expectRevert(abi.encodeWithSelector(IAttestationGate.WrongOriginChain.selector, block.chainid + 1));
        gate.consumeRequest(att, _signRequest(OTHER_KEY, att), payer, address(0), 0);
    }

    function test_consumeRequest_revertsIfSignatureLengthInvalid() public {
        gate.setRecipientAllowListEnabled(true);
        RequestAttestation memory att = _request(REQUEST_ID, token, AMOUNT);
        bytes memory long = abi.encodePacked(_signRequest(SIGNER_KEY, att), uint8(0));

        vm.expectRevert(abi.encodeWithSelector(AttestationLib.InvalidSignatureLength.selector, 66));
        gate.consumeRequest(att, long, payer, address(0), 0);
    }

    function test_consumeRequest_revertsIfSignatureMalleable() public {
        gate.setRecipientAllowListEnabled(true);
        RequestAttestation memory att = _request(REQUEST_ID, token, AMOUNT);
        (bytes memory twin, bytes32 highS) = _highS(_signRequest(SIGNER_KEY, att));

        vm.expectRevert(abi.encodeWithSelector(AttestationLib.SignatureMalleable.selector, highS));
        gate.consumeRequest(att, twin, payer, address(0), 0);
    }

    function test_consumeRequest_revertsIfSignatureInvalid() public {
        gate.setRecipientAllowListEnabled(true);
        RequestAttestation memory att = _request(REQUEST_ID, token, AMOUNT);
        (, bytes32 s, uint8 v) = _split(_signRequest(SIGNER_KEY, att));
        bytes memory zeroR = abi.encodePacked(bytes32(0), s, v);

        vm.expectRevert(AttestationLib.InvalidSignature.selector);
        gate.consumeRequest(att, zeroR, payer, address(0), 0);
    }

    function test_consumeRequest_revertsIfSignerNotAllowed() public {
        gate.setRecipientAllowListEnabled(true);
        RequestAttestation memory att = _request(REQUEST_ID, token, AMOUNT);

        vm.expectRevert(abi.encodeWithSelector(IAttestationGate.SignerNotAllowed.selector, otherSigner));
        gate.consumeRequest(att, _signRequest(OTHER_KEY, att), payer, address(0), 0);
    }

    function test_consumeRequest_revertsIfRecipientNotEvmAddress() public {
        gate.setRecipientAllowListEnabled(true);
        RequestAttestation memory att = _request(REQUEST_ID, token, AMOUNT);
        att.destinationUser = bytes32(type(uint256).max);

        vm.expectRevert(abi.encodeWithSelector(AttestationLib.NotAnEvmAddress.selector, att.destinationUser));
        gate.consumeRequest(att, _signRequest(SIGNER_KEY, att), payer, address(0), 0);
    }

    function test_consumeRequest_revertsIfRecipientNotAllowed() public {
        gate.setRecipient(recipient, true);
        gate.setRecipientAllowListEnabled(true);
        RequestAttestation memory att = _request(REQUEST_ID, token, AMOUNT);
        bytes memory sig = _signRequest(SIGNER_KEY, att);
        gate.consumeRequest(att, sig, payer, token, AMOUNT);
        gate.setRecipient(recipient, false);

        vm.expectRevert(abi.encodeWithSelector(IAttestationGate.RecipientNotAllowed.selector, recipient));
        gate.consumeRequest(att, sig, payer, address(0), 0);
    }

    function test_consumeRequest_revertsIfAlreadyConsumed() public {
        RequestAttestation memory att = _request(REQUEST_ID, token, AMOUNT);
        bytes memory sig = _signRequest(SIGNER_KEY, att);
        gate.consumeRequest(att, sig, payer, token, AMOUNT);

        vm.expectRevert(abi.encodeWithSelector(IAttestationGate.AttestationAlreadyConsumed.selector, REQUEST_ID));
        gate.consumeRequest(att, sig, payer, address(0), 0);
    }

    function test_consumeRequest_revertsIfCurrencyMismatch() public {
        RequestAttestation memory att = _request(REQUEST_ID, token, AMOUNT);

        vm.expectRevert(
            abi.encodeWithSelector(IAttestationGate.CurrencyMismatch.selector, address(0), _pad(token))
        );
        gate.consumeRequest(att, _signRequest(SIGNER_KEY, att), payer, address(0), 0);
    }

    function test_consumeRequest_revertsIfAmountMismatch() public {
        RequestAttestation memory att = _request(REQUEST_ID, token, AMOUNT);

        vm.expectRevert(abi.encodeWithSelector(IAttestationGate.AmountMismatch.selector, AMOUNT + 1, AMOUNT));
        gate.consumeRequest(att, _signRequest(SIGNER_KEY, att), payer, token, AMOUNT + 1);
    }

    // ---------------------------------------------------------------- _consumeRequest: success

    function test_consumeRequest_marksConsumedAndEmits() public {
        RequestAttestation memory att = _request(REQUEST_ID, address(0), 1 ether);

        vm.expectEmit(true, true, true, true, address(gate));
        emit IAttestationGate.AttestationConsumed(REQUEST_ID, payer, 1);
        gate.consumeRequest(att, _signRequest(SIGNER_KEY, att), payer, address(0), 1 ether);

        assertTrue(gate.consumed(REQUEST_ID));
    }

    function test_consumeRequest_andFillShareOneReplayGuard() public {
        RequestAttestation memory v1 = _request(REQUEST_ID, token, AMOUNT);
        gate.consumeRequest(v1, _signRequest(SIGNER_KEY, v1), payer, token, AMOUNT);

        FillAttestation memory v2 = _fill(REQUEST_ID, token, AMOUNT);
        vm.expectRevert(abi.encodeWithSelector(IAttestationGate.AttestationAlreadyConsumed.selector, REQUEST_ID));
        gate.consumeFill(v2, _signFill(SIGNER_KEY, v2), payer, token, AMOUNT);
    }

    // ================================================================ admin hooks

    function test_setSigner_emitsAndAllows() public {
        vm.expectEmit(true, true, true, true, address(gate));
        emit IAttestationGate.SignerUpdated(otherSigner, true);
        gate.setSigner(otherSigner, true);
        assertTrue(gate.isSigner(otherSigner));

        vm.expectEmit(true, true, true, true, address(gate));
        emit IAttestationGate.SignerUpdated(otherSigner, false);
        gate.setSigner(otherSigner, false);
        assertFalse(gate.isSigner(otherSigner));
    }

    function test_setSigner_revertsIfZero() public {
        vm.expectRevert(IAttestationGate.ZeroSigner.selector);
        gate.setSigner(address(0), true);
    }

    function test_setRecipient_emitsAndAllows() public {
        vm.expectEmit(true, true, true, true, address(gate));
        emit IAttestationGate.RecipientUpdated(recipient, true);
        gate.setRecipient(recipient, true);
        assertTrue(gate.isRecipientAllowed(recipient));

        vm.expectEmit(true, true, true, true, address(gate));
        emit IAttestationGate.RecipientUpdated(recipient, false);
        gate.setRecipient(recipient, false);
        assertFalse(gate.isRecipientAllowed(recipient));
    }

    function test_setRecipientAllowListEnabled_emitsAndToggles() public {
        assertFalse(gate.recipientAllowListEnabled());

        vm.expectEmit(true, true, true, true, address(gate));
        emit IAttestationGate.RecipientAllowListEnabled(true);
        gate.setRecipientAllowListEnabled(true);
        assertTrue(gate.recipientAllowListEnabled());

        vm.expectEmit(true, true, true, true, address(gate));
        emit IAttestationGate.RecipientAllowListEnabled(false);
        gate.setRecipientAllowListEnabled(false);
        assertFalse(gate.recipientAllowListEnabled());
    }
}
