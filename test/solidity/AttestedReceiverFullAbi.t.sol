// SPDX-License-Identifier: MIT
pragma solidity 0.8.30;

import {SafeTransferLib} from "solady/src/utils/SafeTransferLib.sol";

import {IAttestedReceiver} from "../../contracts/interfaces/IAttestedReceiver.sol";
import {AttestationLib, FillAttestation} from "../../contracts/libraries/AttestationLib.sol";
import {MockStablecoin} from "../../contracts/mocks/MockStablecoin.sol";
import {RevertingRecipient} from "../../contracts/mocks/RevertingRecipient.sol";
import {ReceiverFixture} from "./AttestedReceiver.t.sol";

/// @notice The full-ABI `fill(FillAttestation, bytes)`, kept beside the packed `fill_7hVe`: one test per
/// revert path in its documented check order (each one also breaks a later check, so the order is
/// what decides the error), then its payment and its shared replay guard with the packed fill.
contract AttestedReceiverFullAbiTest is ReceiverFixture {
    bytes32 internal constant REQUEST_ID = keccak256("full-abi.request.1");

    function _fillFull(FillAttestation memory att, bytes memory signature, uint256 value) internal {
        vm.prank(solver);
        receiver.fill{value: value}(att, signature);
    }

    // ================================================================ reverts, in check order

    function test_fullFill_revertsIfZeroRequestId() public {
        FillAttestation memory att = _nativeAttestation(bytes32(0));
        att.deadline = block.timestamp - 1; // ids come before the deadline
        vm.expectRevert(IAttestedReceiver.ZeroRequestId.selector);
        _fillFull(att, _sign(att), NATIVE_AMOUNT);
    }

    function test_fullFill_revertsIfZeroOrderId() public {
        FillAttestation memory att = _nativeAttestation(REQUEST_ID);
        att.orderId = bytes32(0);
        att.deadline = block.timestamp - 1;
        vm.expectRevert(IAttestedReceiver.ZeroOrderId.selector);
        _fillFull(att, _sign(att), NATIVE_AMOUNT);
    }

    function test_fullFill_revertsIfExpired() public {
        FillAttestation memory att = _nativeAttestation(REQUEST_ID);
        att.deadline = block.timestamp - 1;
        att.destinationChainId = 1; // the deadline comes before the chain
        vm.expectRevert(abi.encodeWithSelector(IAttestedReceiver.AttestationExpired.selector, att.deadline));
        _fillFull(att, _sign(att), NATIVE_AMOUNT);
    }

    function test_fullFill_revertsIfWrongDestinationChain() public {
        FillAttestation memory att = _nativeAttestation(REQUEST_ID);
        att.destinationChainId = 1;
        att.receiver = address(0xdead); // the chain comes before the receiver
        vm.expectRevert(abi.encodeWithSelector(IAttestedReceiver.WrongDestinationChain.selector, 1));
        _fillFull(att, _sign(att), NATIVE_AMOUNT);
    }

    /// @notice Only the chain is wrong, and the signature is valid for it: a replay of another chain's
    /// fill. Nothing else would stop it (the digest covers the attested chain id, which it signed).
    function test_fullFill_revertsIfOnlyTheChainIsWrong() public {
        FillAttestation memory att = _nativeAttestation(REQUEST_ID);
        att.destinationChainId = 1;
        uint256 before = recipient.balance;
        vm.expectRevert(abi.encodeWithSelector(IAttestedReceiver.WrongDestinationChain.selector, 1));
        _fillFull(att, _sign(att), NATIVE_AMOUNT);
        assertEq(recipient.balance, before);
    }

    function test_fullFill_revertsIfWrongReceiver() public {
        FillAttestation memory att = _nativeAttestation(REQUEST_ID);
        att.receiver = address(0xdead);
        // The receiver comes before the signature: a malformed one does not change the error.
        vm.expectRevert(abi.encodeWithSelector(IAttestedReceiver.WrongReceiver.selector, address(0xdead)));
        _fillFull(att, hex"00", NATIVE_AMOUNT);
    }

    function test_fullFill_revertsIfSignatureLengthInvalid() public {
        FillAttestation memory att = _nativeAttestation(REQUEST_ID);
        bytes memory signature = bytes.concat(_sign(att), hex"00");
        vm.expectRevert(abi.encodeWithSelector(AttestationLib.InvalidSignatureLength.selector, 66));
        _fillFull(att, signature, NATIVE_AMOUNT);
    }

    function test_fullFill_revertsIfSignatureMalleable() public {
        FillAttestation memory att = _nativeAttestation(REQUEST_ID);
        bytes memory twin = _malleate(_sign(att));
        (, bytes32 highS,) = _split(twin);
        vm.expectRevert(abi.encodeWithSelector(AttestationLib.SignatureMalleable.selector, highS));
        _fillFull(att, twin, NATIVE_AMOUNT);
    }

    function test_fullFill_revertsIfSignatureInvalid() public {
        FillAttestation memory att = _nativeAttestation(REQUEST_ID);
        bytes memory signature = _sign(att);
        signature[64] = bytes1(uint8(29)); // no such v: ecrecover yields address(0)
        vm.expectRevert(AttestationLib.InvalidSignature.selector);
        _fillFull(att, signature, NATIVE_AMOUNT);
    }

    function test_fullFill_revertsIfSignerNotAllowed() public {
        FillAttestation memory att = _nativeAttestation(REQUEST_ID);
        (address stranger, uint256 strangerKey) = makeAddrAndKey("stranger");
        att.destinationUser = _pad(makeAddr("unlisted")); // the signer comes before the recipient
        vm.expectRevert(abi.encodeWithSelector(IAttestedReceiver.SignerNotAllowed.selector, stranger));
        _fillFull(att, _signWith(strangerKey, att), NATIVE_AMOUNT);
    }

    function test_fullFill_revertsIfRecipientNotAnEvmAddress() public {
        FillAttestation memory att = _nativeAttestation(REQUEST_ID);
        att.destinationUser = keccak256("a 32-byte non-EVM user");
        vm.expectRevert(abi.encodeWithSelector(AttestationLib.NotAnEvmAddress.selector, att.destinationUser));
        _fillFull(att, _sign(att), NATIVE_AMOUNT);
    }

    function test_fullFill_revertsIfRecipientNotAllowed() public {
        address stranger = makeAddr("unlistedRecipient");
        FillAttestation memory att = _nativeAttestation(REQUEST_ID);
        att.destinationUser = _pad(stranger);
        vm.prank(signer);
        receiver.cancel(REQUEST_ID); // the recipient comes before the cancel
        vm.expectRevert(abi.encodeWithSelector(IAttestedReceiver.RecipientNotAllowed.selector, stranger));
        _fillFull(att, _sign(att), NATIVE_AMOUNT);
    }

    function test_fullFill_revertsIfCancelled() public {
        FillAttestation memory att = _nativeAttestation(REQUEST_ID);
        vm.prank(signer);
        receiver.cancel(REQUEST_ID);
        vm.expectRevert(abi.encodeWithSelector(IAttestedReceiver.RequestCancelled.selector, REQUEST_ID));
        _fillFull(att, _sign(att), NATIVE_AMOUNT - 1); // before the value check
    }

    function test_fullFill_revertsIfAlreadyFilled() public {
        FillAttestation memory att = _nativeAttestation(REQUEST_ID);
        _fillFull(att, _sign(att), NATIVE_AMOUNT);
        vm.expectRevert(abi.encodeWithSelector(IAttestedReceiver.AlreadyFilled.selector, REQUEST_ID));
        _fillFull(att, _sign(att), NATIVE_AMOUNT - 1);
    }

    function test_fullFill_revertsIfCurrencyNotAnEvmAddress() public {
        FillAttestation memory att = _nativeAttestation(REQUEST_ID);
        att.destinationCurrency = keccak256("a 32-byte non-EVM currency");
        vm.expectRevert(abi.encodeWithSelector(AttestationLib.NotAnEvmAddress.selector, att.destinationCurrency));
        _fillFull(att, _sign(att), 1);
    }

    function test_fullFill_revertsIfCurrencyNotAllowed() public {
        MockStablecoin unlisted = new MockStablecoin("Unlisted", "UNL");
        FillAttestation memory att = _attestation(REQUEST_ID, address(unlisted), TOKEN_AMOUNT);
        vm.expectRevert(abi.encodeWithSelector(IAttestedReceiver.CurrencyNotAllowed.selector, address(unlisted)));
        _fillFull(att, _sign(att), 1); // the currency comes before msg.value
        assertFalse(receiver.filled(REQUEST_ID));
    }

    function test_fullFill_revertsIfValueSentWithErc20Fill() public {
        FillAttestation memory att = _tokenAttestation(REQUEST_ID);
        vm.expectRevert(abi.encodeWithSelector(IAttestedReceiver.IncorrectNativeAmount.selector, 1, 0));
        _fillFull(att, _sign(att), 1);
    }

    function test_fullFill_revertsIfNativeValueIncorrect() public {
        FillAttestation memory att = _nativeAttestation(REQUEST_ID);
        vm.expectRevert(
            abi.encodeWithSelector(IAttestedReceiver.IncorrectNativeAmount.selector, NATIVE_AMOUNT + 1, NATIVE_AMOUNT)
        );
        _fillFull(att, _sign(att), NATIVE_AMOUNT + 1);
    }

    function test_fullFill_revertsIfNativeTransferFails() public {
        address rejecting = address(new RevertingRecipient());
        vm.prank(owner);
        receiver.setRecipient(rejecting, true);
        FillAttestation memory att = _nativeAttestation(REQUEST_ID);
        att.destinationUser = _pad(rejecting);
        vm.expectRevert(abi.encodeWithSelector(IAttestedReceiver.NativeTransferFailed.selector, rejecting));
        _fillFull(att, _sign(att), NATIVE_AMOUNT);
        assertFalse(receiver.filled(REQUEST_ID));
    }

    function test_fullFill_revertsIfTokenPullFails() public {
        vm.prank(solver);
        usdc.approve(address(receiver), TOKEN_AMOUNT - 1);
        FillAttestation memory att = _tokenAttestation(REQUEST_ID);
        vm.expectRevert(SafeTransferLib.TransferFromFailed.selector);
        _fillFull(att, _sign(att), 0);
    }

    // ================================================================ one check failing alone
    // The tests above break two checks at once to pin the order; the one-branch hot path then sees the
    // later failure too, so they cannot tell whether the hot path checks the first one at all. Here
    // only the named check fails and everything else is a valid, payable fill (the mutation run's
    // receiver.full-* hot-path guards survived without these).

    function _expectNothingPaid(FillAttestation memory att, bytes memory signature, bytes memory revertData) internal {
        uint256 before = recipient.balance;
        vm.expectRevert(revertData);
        _fillFull(att, signature, NATIVE_AMOUNT);
        assertEq(recipient.balance, before);
        assertEq(receiver.filledDigest(att.requestId), bytes32(0));
    }

    function test_fullFill_onlyTheRequestIdZero_reverts() public {
        FillAttestation memory att = _nativeAttestation(bytes32(0));
        _expectNothingPaid(att, _sign(att), abi.encodeWithSelector(IAttestedReceiver.ZeroRequestId.selector));
    }

    function test_fullFill_onlyTheOrderIdZero_reverts() public {
        FillAttestation memory att = _nativeAttestation(REQUEST_ID);
        att.orderId = bytes32(0);
        _expectNothingPaid(att, _sign(att), abi.encodeWithSelector(IAttestedReceiver.ZeroOrderId.selector));
    }

    function test_fullFill_onlyExpired_reverts() public {
        FillAttestation memory att = _nativeAttestation(REQUEST_ID);
        att.deadline = block.timestamp - 1;
        _expectNothingPaid(att, _sign(att), abi.encodeWithSelector(IAttestedReceiver.AttestationExpired.selector, att.deadline));
    }

    function test_fullFill_onlyTheSignerNotAllowed_reverts() public {
        FillAttestation memory att = _nativeAttestation(REQUEST_ID);
        (address stranger, uint256 strangerKey) = makeAddrAndKey("stranger");
        _expectNothingPaid(att, _signWith(strangerKey, att), abi.encodeWithSelector(IAttestedReceiver.SignerNotAllowed.selector, stranger));
    }

    function test_fullFill_onlyTheRecipientNotAllowed_reverts() public {
        address stranger = makeAddr("unlistedRecipient");
        FillAttestation memory att = _nativeAttestation(REQUEST_ID);
        att.destinationUser = _pad(stranger);
        uint256 before = stranger.balance;
        vm.expectRevert(abi.encodeWithSelector(IAttestedReceiver.RecipientNotAllowed.selector, stranger));
        _fillFull(att, _sign(att), NATIVE_AMOUNT);
        assertEq(stranger.balance, before);
    }

    // ================================================================ payment and replay guard

    function test_fullFill_paysNativeAndStoresTheDigest() public {
        FillAttestation memory att = _nativeAttestation(REQUEST_ID);
        uint256 before = recipient.balance;
        vm.expectEmit(true, true, true, true, address(receiver));
        emit IAttestedReceiver.Filled(REQUEST_ID, recipient, solver, address(0), NATIVE_AMOUNT);
        _fillFull(att, _sign(att), NATIVE_AMOUNT);
        assertEq(recipient.balance - before, NATIVE_AMOUNT);
        assertEq(receiver.filledDigest(REQUEST_ID), _digest(att));
    }

    function test_fullFill_paysErc20() public {
        FillAttestation memory att = _tokenAttestation(REQUEST_ID);
        uint256 before = usdc.balanceOf(recipient);
        _fillFull(att, _sign(att), 0);
        assertEq(usdc.balanceOf(recipient) - before, TOKEN_AMOUNT);
    }

    /// @notice An attestation with no packed form (an amount of 2^128 or more) fills here.
    function test_fullFill_acceptsValuesWithNoPackedForm() public {
        FillAttestation memory att = _nativeAttestation(REQUEST_ID);
        att.originAmount = uint256(type(uint128).max) + 1;
        att.originChainId = uint256(type(uint64).max) + 1;
        _fillFull(att, _sign(att), NATIVE_AMOUNT);
        assertTrue(receiver.filled(REQUEST_ID));
    }

    /// @notice One replay guard for both forms: the same attestation through the packed fill after the
    /// full one (and the other way round) meets AlreadyFilled.
    function test_fullFill_sharesTheReplayGuardWithThePackedFill() public {
        FillAttestation memory att = _nativeAttestation(REQUEST_ID);
        _fillFull(att, _sign(att), NATIVE_AMOUNT);
        vm.expectRevert(abi.encodeWithSelector(IAttestedReceiver.AlreadyFilled.selector, REQUEST_ID));
        _fillNative(att, _sign(att));

        FillAttestation memory other = _nativeAttestation(keccak256("full-abi.request.2"));
        _fillNative(other, _sign(other));
        vm.expectRevert(abi.encodeWithSelector(IAttestedReceiver.AlreadyFilled.selector, other.requestId));
        _fillFull(other, _sign(other), NATIVE_AMOUNT);
        assertEq(receiver.filledDigest(other.requestId), _digest(other), "the packed fill stores the same digest");
    }
}
