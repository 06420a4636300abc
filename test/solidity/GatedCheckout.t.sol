// SPDX-License-Identifier: MIT
pragma solidity 0.8.30;

import {Ownable} from "@openzeppelin/contracts/access/Ownable.sol";
import {IERC20Errors} from "@openzeppelin/contracts/interfaces/draft-IERC6093.sol";

import {Depository} from "../../contracts/Depository.sol";
import {GatedCheckout} from "../../contracts/examples/GatedCheckout.sol";
import {IGatedCheckout} from "../../contracts/interfaces/IGatedCheckout.sol";
import {IAttestationGate} from "../../contracts/interfaces/IAttestationGate.sol";
import {IDepository} from "../../contracts/interfaces/IDepository.sol";
import {AttestationLib, FillAttestation} from "../../contracts/libraries/AttestationLib.sol";
import {MockStablecoin} from "../../contracts/mocks/MockStablecoin.sol";

import {GateTestBase} from "./utils/GateTestBase.sol";

/// @notice GatedCheckout end to end against the real Depository.
contract GatedCheckoutTest is GateTestBase {
    Depository internal depository;
    GatedCheckout internal checkout;
    MockStablecoin internal usdc;

    address internal owner = makeAddr("owner");
    address internal allocator = makeAddr("allocator");
    address internal stranger = makeAddr("stranger");

    bytes32 internal constant REQUEST_ID = keccak256("request-1");
    uint256 internal constant USDC_AMOUNT = 1_234_560_000; // 1,234.56 USDC (6 decimals)
    uint256 internal constant NATIVE_AMOUNT = 0.75 ether;

    function setUp() public {
        vm.warp(START_TIME);
        depository = new Depository(owner, allocator);
        checkout = new GatedCheckout(owner, IDepository(address(depository)));
        boundGate = address(checkout);
        usdc = new MockStablecoin("USD Coin", "USDC");

        vm.prank(owner);
        checkout.setSigner(signer, true);

        vm.deal(payer, 10 ether);
        usdc.mint(payer, 10_000e6);
        vm.prank(payer);
        usdc.approve(address(checkout), type(uint256).max);
    }

    // ================================================================ payments

    function test_pay_depositsNativeUnderAttestedOrderId() public {
        FillAttestation memory att = _fill(REQUEST_ID, address(0), NATIVE_AMOUNT);
        bytes memory sig = _signFill(SIGNER_KEY, att);

        vm.expectEmit(true, true, true, true, address(checkout));
        emit IAttestationGate.AttestationConsumed(REQUEST_ID, payer, 2);
        vm.expectEmit(true, true, true, true, address(depository));
        emit IDepository.Deposited(att.orderId, user, address(0), NATIVE_AMOUNT);
        vm.prank(payer);
        checkout.pay{value: NATIVE_AMOUNT}(att, sig);

        assertEq(address(depository).balance, NATIVE_AMOUNT);
        assertEq(address(checkout).balance, 0);
        assertEq(payer.balance, 10 ether - NATIVE_AMOUNT);
        assertTrue(checkout.consumed(REQUEST_ID));
    }

    function test_pay_depositsErc20UnderAttestedOrderId() public {
        FillAttestation memory att = _fill(REQUEST_ID, address(usdc), USDC_AMOUNT);
        bytes memory sig = _signFill(SIGNER_KEY, att);

        vm.expectEmit(true, true, true, true, address(checkout));
        emit IAttestationGate.AttestationConsumed(REQUEST_ID, payer, 2);
        vm.expectEmit(true, true, true, true, address(depository));
        emit IDepository.Deposited(att.orderId, user, address(usdc), USDC_AMOUNT);
        vm.prank(payer);
        checkout.pay(att, sig);

        assertEq(usdc.balanceOf(address(depository)), USDC_AMOUNT);
        assertEq(usdc.balanceOf(payer), 10_000e6 - USDC_AMOUNT);
        assertEq(usdc.balanceOf(address(checkout)), 0);
        assertEq(usdc.allowance(address(checkout), address(depository)), 0);
        assertTrue(checkout.consumed(REQUEST_ID));
    }

    function test_pay_creditsOriginUserWhenRelayerPays() public {
        FillAttestation memory att = _fill(REQUEST_ID, address(usdc), USDC_AMOUNT);
        address relayer = makeAddr("relayer");
        usdc.mint(relayer, USDC_AMOUNT);
        vm.prank(relayer);
        usdc.approve(address(checkout), USDC_AMOUNT);

        vm.expectEmit(true, true, true, true, address(depository));
        emit IDepository.Deposited(att.orderId, user, address(usdc), USDC_AMOUNT);
        vm.prank(relayer);
        checkout.pay(att, _signFill(SIGNER_KEY, att));

        assertEq(usdc.balanceOf(relayer), 0);
        assertEq(usdc.allowance(relayer, address(checkout)), 0);
    }

    function test_pay_keepsNoBalanceOrAllowanceAcrossPayments() public {
        for (uint256 i; i < 3; ++i) {
            bytes32 requestId = keccak256(abi.encode("request", i));
            FillAttestation memory erc20Att = _fill(requestId, address(usdc), USDC_AMOUNT + i);
            vm.prank(payer);
            checkout.pay(erc20Att, _signFill(SIGNER_KEY, erc20Att));

            FillAttestation memory nativeAtt = _fill(keccak256(abi.encode(requestId)), address(0), 1 ether + i);
            vm.prank(payer);
            checkout.pay{value: 1 ether + i}(nativeAtt, _signFill(SIGNER_KEY, nativeAtt));
        }
        assertEq(address(checkout).balance, 0);
        assertEq(usdc.balanceOf(address(checkout)), 0);
        assertEq(usdc.allowance(address(checkout), address(depository)), 0);
        assertEq(usdc.balanceOf(address(depository)), 3 * USDC_AMOUNT + 3);
        assertEq(address(depository).balance, 3 ether + 3);
    }

    /// @dev Gas of one gated native checkout payment (whole call, cold storage), for the report.
    function test_pay_logsNativeGas() public {
        FillAttestation memory att = _fill(REQUEST_ID, address(0), NATIVE_AMOUNT);
        bytes memory sig = _signFill(SIGNER_KEY, att);
        vm.prank(payer);
        uint256 before = gasleft();
        checkout.pay{value: NATIVE_AMOUNT}(att, sig);
        uint256 used = before - gasleft();
        emit log_named_uint("gas: gated native pay (call only, excl. 21k base + calldata)", used);
        assertTrue(checkout.consumed(REQUEST_ID));
    }

    // ================================================================ reverts (each leaves nothing consumed)

    function test_pay_revertsIfExpired() public {
        FillAttestation memory att = _fill(REQUEST_ID, address(0), NATIVE_AMOUNT);
        bytes memory sig = _signFill(SIGNER_KEY, att);
        vm.warp(att.deadline + 1);

        vm.expectRevert(abi.encodeWithSelector(IAttestationGate.AttestationExpired.selector, att.deadline));
        vm.prank(payer);
        checkout.pay{value: NATIVE_AMOUNT}(att, sig);
        assertFalse(checkout.consumed(REQUEST_ID));
    }

    function test_pay_revertsIfWrongOriginChain() public {
        FillAttestation memory att = _fill(REQUEST_ID, address(0), NATIVE_AMOUNT);
        att.originChainId = DESTINATION_CHAIN_ID;

        vm.expectRevert(abi.encodeWithSelector(IAttestationGate.WrongOriginChain.selector, DESTINATION_CHAIN_ID));
        vm.prank(payer);
        checkout.pay{value: NATIVE_AMOUNT}(att, _signFill(SIGNER_KEY, att));
    }

    function test_pay_revertsIfSignerNotAllowed() public {
        FillAttestation memory att = _fill(REQUEST_ID, address(0), NATIVE_AMOUNT);

        vm.expectRevert(abi.encodeWithSelector(IAttestationGate.SignerNotAllowed.selector, otherSigner));
        vm.prank(payer);
        checkout.pay{value: NATIVE_AMOUNT}(att, _signFill(OTHER_KEY, att));
    }

    function test_pay_revertsIfRecipientNotAllowed() public {
        vm.prank(owner);
        checkout.setRecipientAllowListEnabled(true);
        FillAttestation memory att = _fill(REQUEST_ID, address(0), NATIVE_AMOUNT);

        vm.expectRevert(abi.encodeWithSelector(IAttestationGate.RecipientNotAllowed.selector, recipient));
        vm.prank(payer);
        checkout.pay{value: NATIVE_AMOUNT}(att, _signFill(SIGNER_KEY, att));
    }

    function test_pay_acceptsAllowedRecipient() public {
        vm.startPrank(owner);
        checkout.setRecipientAllowListEnabled(true);
        checkout.setRecipient(recipient, true);
        vm.stopPrank();
        FillAttestation memory att = _fill(REQUEST_ID, address(0), NATIVE_AMOUNT);

        vm.prank(payer);
        checkout.pay{value: NATIVE_AMOUNT}(att, _signFill(SIGNER_KEY, att));
        assertEq(address(depository).balance, NATIVE_AMOUNT);
    }

    function test_pay_revertsIfReplayed() public {
        FillAttestation memory att = _fill(REQUEST_ID, address(usdc), USDC_AMOUNT);
        bytes memory sig = _signFill(SIGNER_KEY, att);
        vm.prank(payer);
        checkout.pay(att, sig);

        vm.expectRevert(abi.encodeWithSelector(IAttestationGate.AttestationAlreadyConsumed.selector, REQUEST_ID));
        vm.prank(payer);
        checkout.pay(att, sig);
        assertEq(usdc.balanceOf(address(depository)), USDC_AMOUNT);
    }

    function test_pay_revertsIfNativeAmountWrong() public {
        FillAttestation memory att = _fill(REQUEST_ID, address(0), NATIVE_AMOUNT);
        bytes memory sig = _signFill(SIGNER_KEY, att);

        vm.expectRevert(
            abi.encodeWithSelector(IAttestationGate.AmountMismatch.selector, NATIVE_AMOUNT - 1, NATIVE_AMOUNT)
        );
        vm.prank(payer);
        checkout.pay{value: NATIVE_AMOUNT - 1}(att, sig);

        vm.expectRevert(abi.encodeWithSelector(IAttestationGate.AmountMismatch.selector, 0, NATIVE_AMOUNT));
        vm.prank(payer);
        checkout.pay(att, sig);
        assertFalse(checkout.consumed(REQUEST_ID));
    }

    function test_pay_revertsIfValueSentForErc20() public {
        FillAttestation memory att = _fill(REQUEST_ID, address(usdc), USDC_AMOUNT);

        vm.expectRevert(
            abi.encodeWithSelector(IAttestationGate.CurrencyMismatch.selector, address(0), _pad(address(usdc)))
        );
        vm.prank(payer);
        checkout.pay{value: USDC_AMOUNT}(att, _signFill(SIGNER_KEY, att));
    }

    function test_pay_revertsIfAttestedCurrencyNotEvmAddress() public {
        FillAttestation memory att = _fill(REQUEST_ID, address(usdc), USDC_AMOUNT);
        att.originCurrency = bytes32(uint256(0xff) << 248 | uint256(uint160(address(usdc))));

        vm.expectRevert(
            abi.encodeWithSelector(IAttestationGate.CurrencyMismatch.selector, address(usdc), att.originCurrency)
        );
        vm.prank(payer);
        checkout.pay(att, _signFill(SIGNER_KEY, att));
    }

    function test_pay_revertsIfErc20AllowanceShort() public {
        FillAttestation memory att = _fill(REQUEST_ID, address(usdc), USDC_AMOUNT);
        bytes memory sig = _signFill(SIGNER_KEY, att);
        vm.prank(payer);
        usdc.approve(address(checkout), USDC_AMOUNT - 1);

        vm.expectRevert(
            abi.encodeWithSelector(
                IERC20Errors.ERC20InsufficientAllowance.selector, address(checkout), USDC_AMOUNT - 1, USDC_AMOUNT
            )
        );
        vm.prank(payer);
        checkout.pay(att, sig);

        // The failed transfer rolled the consumption back: the same attestation still pays.
        assertFalse(checkout.consumed(REQUEST_ID));
        vm.prank(payer);
        usdc.approve(address(checkout), USDC_AMOUNT);
        vm.prank(payer);
        checkout.pay(att, sig);
        assertEq(usdc.balanceOf(address(depository)), USDC_AMOUNT);
    }

    function test_pay_revertsIfOriginUserZero() public {
        FillAttestation memory att = _fill(REQUEST_ID, address(0), NATIVE_AMOUNT);
        att.originUser = bytes32(0); // the Depository would credit the checkout itself

        vm.expectRevert(IGatedCheckout.ZeroDepositor.selector);
        vm.prank(payer);
        checkout.pay{value: NATIVE_AMOUNT}(att, _signFill(SIGNER_KEY, att));
    }

    function test_pay_revertsIfOriginUserNotEvmAddress() public {
        FillAttestation memory att = _fill(REQUEST_ID, address(0), NATIVE_AMOUNT);
        att.originUser = keccak256("not an EVM account");

        vm.expectRevert(abi.encodeWithSelector(AttestationLib.NotAnEvmAddress.selector, att.originUser));
        vm.prank(payer);
        checkout.pay{value: NATIVE_AMOUNT}(att, _signFill(SIGNER_KEY, att));
    }

    function test_pay_revertsIfDepositorySeesZeroDeposit() public {
        FillAttestation memory att = _fill(REQUEST_ID, address(0), 0);

        vm.expectRevert(IDepository.ZeroDeposit.selector);
        vm.prank(payer);
        checkout.pay(att, _signFill(SIGNER_KEY, att));
        assertFalse(checkout.consumed(REQUEST_ID));
    }

    // ================================================================ owner-only admin

    function test_setSigner_revertsIfNotOwner() public {
        vm.expectRevert(abi.encodeWithSelector(Ownable.OwnableUnauthorizedAccount.selector, stranger));
        vm.prank(stranger);
        checkout.setSigner(stranger, true);
    }

    function test_setRecipient_revertsIfNotOwner() public {
        vm.expectRevert(abi.encodeWithSelector(Ownable.OwnableUnauthorizedAccount.selector, stranger));
        vm.prank(stranger);
        checkout.setRecipient(stranger, true);
    }

    function test_setRecipientAllowListEnabled_revertsIfNotOwner() public {
        vm.expectRevert(abi.encodeWithSelector(Ownable.OwnableUnauthorizedAccount.selector, stranger));
        vm.prank(stranger);
        checkout.setRecipientAllowListEnabled(true);
    }

    function test_setSigner_ownerEmits() public {
        vm.expectEmit(true, true, true, true, address(checkout));
        emit IAttestationGate.SignerUpdated(otherSigner, true);
        vm.prank(owner);
        checkout.setSigner(otherSigner, true);
        assertTrue(checkout.isSigner(otherSigner));
    }

    function test_setSigner_revertsIfZero() public {
        vm.expectRevert(IAttestationGate.ZeroSigner.selector);
        vm.prank(owner);
        checkout.setSigner(address(0), true);
    }

    function test_setRecipient_ownerEmits() public {
        vm.expectEmit(true, true, true, true, address(checkout));
        emit IAttestationGate.RecipientUpdated(recipient, true);
        vm.prank(owner);
        checkout.setRecipient(recipient, true);
        assertTrue(checkout.isRecipientAllowed(recipient));
    }

    function test_setRecipientAllowListEnabled_ownerEmits() public {
        vm.expectEmit(true, true, true, true, address(checkout));
        emit IAttestationGate.RecipientAllowListEnabled(true);
        vm.prank(owner);
        checkout.setRecipientAllowListEnabled(true);
        assertTrue(checkout.recipientAllowListEnabled());
    }

    function test_transferOwnership_takesTwoSteps() public {
        address newOwner = makeAddr("newOwner");
        vm.prank(owner);
        checkout.transferOwnership(newOwner);
        assertEq(checkout.owner(), owner);
        assertEq(checkout.pendingOwner(), newOwner);

        vm.prank(newOwner);
        checkout.acceptOwnership();
        assertEq(checkout.owner(), newOwner);

        vm.expectRevert(abi.encodeWithSelector(Ownable.OwnableUnauthorizedAccount.selector, owner));
        vm.prank(owner);
        checkout.setSigner(otherSigner, true);
    }

    function test_renounceOwnership_reverts() public {
        vm.expectRevert(IGatedCheckout.RenounceOwnershipDisabled.selector);
        vm.prank(owner);
        checkout.renounceOwnership();
        assertEq(checkout.owner(), owner);
    }

    function test_depository_isImmutableConfig() public view {
        assertEq(address(checkout.depository()), address(depository));
    }
}
