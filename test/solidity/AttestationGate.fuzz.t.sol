// SPDX-License-Identifier: MIT
pragma solidity 0.8.30;

import {IAttestationGate} from "../../contracts/interfaces/IAttestationGate.sol";
import {FillAttestation, RequestAttestation} from "../../contracts/libraries/AttestationLib.sol";

import {GateHarness, GateTestBase} from "./utils/GateTestBase.sol";

/// @notice Fuzzed attestations: any valid v1/v2 attestation is consumed exactly once; a payment that
/// differs from the attested amount never is. Every fuzz test has a concrete twin.
contract AttestationGateFuzzTest is GateTestBase {
    GateHarness internal gate;

    function setUp() public {
        vm.warp(START_TIME);
        gate = new GateHarness();
        boundGate = address(gate);
    }

    // ---------------------------------------------------------------- v2: consumed once

    function testFuzz_consumeFill_consumesOnce(
        FillAttestation memory att,
        uint256 key,
        address currency,
        address destinationUser,
        bool listOn
    ) public {
        key = bound(key, 1, SECP256K1_N - 1);
        att.originChainId = block.chainid;
        att.originCurrency = _pad(currency);
        att.deadline = bound(att.deadline, block.timestamp, type(uint256).max);
        if (listOn) att.destinationUser = _pad(destinationUser);
        _assertFillConsumedOnce(att, key, currency, listOn);
    }

    function test_consumeFill_consumesOnce() public {
        FillAttestation memory att = FillAttestation({
            requestId: keccak256("r"),
            orderId: keccak256("o"),
            originChainId: block.chainid,
            originUser: _pad(address(0xA11CE)),
            originCurrency: _pad(address(0xC0FFEE)),
            originAmount: 1_000_000,
            destinationChainId: 8453,
            destinationUser: _pad(address(0xB0B)),
            destinationCurrency: _pad(address(0xDA1)),
            destinationAmount: 999_000,
            deadline: block.timestamp,
            receiver: address(0x5EC)
        });
        _assertFillConsumedOnce(att, 0xBEEF, address(0xC0FFEE), true);
    }

    // ---------------------------------------------------------------- v1: consumed once

    function testFuzz_consumeRequest_consumesOnce(
        RequestAttestation memory att,
        uint256 key,
        address currency,
        address destinationUser,
        bool listOn
    ) public {
        key = bound(key, 1, SECP256K1_N - 1);
        att.originChainId = block.chainid;
        att.originCurrency = _pad(currency);
        if (listOn) att.destinationUser = _pad(destinationUser);
        _assertRequestConsumedOnce(att, key, currency, listOn);
    }

    function test_consumeRequest_consumesOnce() public {
        RequestAttestation memory att = RequestAttestation({
            requestId: keccak256("r"),
            originChainId: block.chainid,
            originUser: _pad(address(0xA11CE)),
            originCurrency: bytes32(0),
            originAmount: 1 ether,
            destinationChainId: 8453,
            destinationUser: keccak256("a Solana account")
        });
        _assertRequestConsumedOnce(att, 0xBEEF, address(0), false);
    }

    // ---------------------------------------------------------------- v2: wrong amount never consumed

    function testFuzz_consumeFill_revertsIfAmountDiffers(uint256 attested, uint256 paid) public {
        vm.assume(attested != paid);
        _assertFillRejectsAmount(attested, paid);
    }

    function test_consumeFill_revertsIfAmountDiffersByOneUnit() public {
        _assertFillRejectsAmount(1_000_000, 999_999);
    }

    // ---------------------------------------------------------------- helpers

    function _assertFillConsumedOnce(FillAttestation memory att, uint256 key, address currency, bool listOn)
        internal
    {
        address attSigner = vm.addr(key);
        gate.setSigner(attSigner, true);
        if (listOn) {
            gate.setRecipient(address(uint160(uint256(att.destinationUser))), true);
            gate.setRecipientAllowListEnabled(true);
        }
        bytes memory sig = _signFill(key, att);

        vm.expectEmit(true, true, true, true, address(gate));
        emit IAttestationGate.AttestationConsumed(att.requestId, payer, 2);
        gate.consumeFill(att, sig, payer, currency, att.originAmount);
        assertTrue(gate.consumed(att.requestId));

        vm.expectRevert(abi.encodeWithSelector(IAttestationGate.AttestationAlreadyConsumed.selector, att.requestId));
        gate.consumeFill(att, sig, payer, currency, att.originAmount);
    }

    function _assertRequestConsumedOnce(RequestAttestation memory att, uint256 key, address currency, bool listOn)
        internal
    {
        address attSigner = vm.addr(key);
        gate.setSigner(attSigner, true);
        if (listOn) {
            gate.setRecipient(address(uint160(uint256(att.destinationUser))), true);
            gate.setRecipientAllowListEnabled(true);
        }
        bytes memory sig = _signRequest(key, att);

        vm.expectEmit(true, true, true, true, address(gate));
        emit IAttestationGate.AttestationConsumed(att.requestId, payer, 1);
        gate.consumeRequest(att, sig, payer, currency, att.originAmount);
        assertTrue(gate.consumed(att.requestId));

        vm.expectRevert(abi.encodeWithSelector(IAttestationGate.AttestationAlreadyConsumed.selector, att.requestId));
        gate.consumeRequest(att, sig, payer, currency, att.originAmount);
    }

    function _assertFillRejectsAmount(uint256 attested, uint256 paid) internal {
        gate.setSigner(signer, true);
        FillAttestation memory att = _fill(keccak256("r"), address(0), attested);

        vm.expectRevert(abi.encodeWithSelector(IAttestationGate.AmountMismatch.selector, paid, attested));
        gate.consumeFill(att, _signFill(SIGNER_KEY, att), payer, address(0), paid);
        assertFalse(gate.consumed(att.requestId));
    }
}
