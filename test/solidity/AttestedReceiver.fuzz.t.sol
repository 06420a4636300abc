// SPDX-License-Identifier: MIT
pragma solidity 0.8.30;

import {IAttestedReceiver} from "../../contracts/interfaces/IAttestedReceiver.sol";
import {FillAttestation} from "../../contracts/libraries/AttestationLib.sol";
import {ReceiverFixture} from "./AttestedReceiver.t.sol";

/// @notice Fuzzed fields of valid (and single-fault) fills. Each test has a concrete twin of the same
/// name without the `Fuzz` prefix in AttestedReceiver.t.sol (revertsIfNativeValueIncorrect has two:
/// revertsIfNativeValueTooLow and revertsIfNativeValueTooHigh).
contract AttestedReceiverFuzzTest is ReceiverFixture {
    struct Fields {
        bytes32 requestId;
        bytes32 orderId;
        uint256 originChainId;
        address originUser;
        bytes32 originCurrency;
        uint256 originAmount;
        uint256 recipientSeed;
        uint256 amount;
        uint256 deadline;
        bool allowListOn;
    }

    /// @dev A valid attestation built from fuzzed fields; the recipient is listed (or the list is off).
    function _valid(Fields memory f, address currency, uint256 maxAmount)
        internal
        returns (FillAttestation memory att, address user)
    {
        user = address(uint160(uint256(keccak256(abi.encode("fuzz.user", f.recipientSeed)))));
        vm.startPrank(owner);
        receiver.setRecipientAllowListEnabled(f.allowListOn);
        if (f.allowListOn) receiver.setRecipient(user, true);
        vm.stopPrank();

        att = FillAttestation({
            // Ids 0 are refused (test_fill_revertsIfZeroRequestId / ZeroOrderId).
            requestId: f.requestId == bytes32(0) ? bytes32(uint256(1)) : f.requestId,
            orderId: f.orderId == bytes32(0) ? bytes32(uint256(1)) : f.orderId,
            // Within the packed fill's widths (uint64, uint128, uint40): larger values have no packed
            // form (ts/core refuses them; they are filled through the full-ABI `fill`).
            originChainId: bound(f.originChainId, 0, type(uint64).max),
            originUser: _pad(f.originUser),
            originCurrency: f.originCurrency,
            originAmount: bound(f.originAmount, 0, type(uint128).max),
            destinationChainId: DESTINATION_CHAIN_ID,
            destinationUser: _pad(user),
            destinationCurrency: _pad(currency),
            destinationAmount: bound(f.amount, 0, maxAmount),
            deadline: bound(f.deadline, block.timestamp, type(uint40).max),
            receiver: address(receiver)
        });
    }

    function testFuzz_fill_paysNativeRecipientExactly(Fields memory f) public {
        (FillAttestation memory att, address user) = _valid(f, address(0), 1_000 ether);
        uint256 before = user.balance;

        vm.expectEmit(true, true, true, true, address(receiver));
        emit IAttestedReceiver.Filled(att.requestId, user, solver, address(0), att.destinationAmount);
        _fillNative(att, _sign(att));

        assertEq(user.balance - before, att.destinationAmount);
        assertEq(address(receiver).balance, 0);
        assertTrue(receiver.filled(att.requestId));
    }

    function testFuzz_fill_paysErc20RecipientExactly(Fields memory f) public {
        (FillAttestation memory att, address user) = _valid(f, address(usdc), 1e18);
        uint256 solverBefore = usdc.balanceOf(solver);

        vm.expectEmit(true, true, true, true, address(receiver));
        emit IAttestedReceiver.Filled(att.requestId, user, solver, address(usdc), att.destinationAmount);
        _fillToken(att, _sign(att));

        assertEq(usdc.balanceOf(user), att.destinationAmount);
        assertEq(solverBefore - usdc.balanceOf(solver), att.destinationAmount);
        assertTrue(receiver.filled(att.requestId));
    }

    function testFuzz_fill_revertsIfExpired(Fields memory f, uint256 deadline) public {
        (FillAttestation memory att,) = _valid(f, address(0), 1 ether);
        att.deadline = bound(deadline, 0, block.timestamp - 1);
        bytes memory signature = _sign(att);

        vm.expectRevert(abi.encodeWithSelector(IAttestedReceiver.AttestationExpired.selector, att.deadline));
        _fillNative(att, signature);
    }

    /// @dev Twin: test_fill_revertsIfSignedForAnotherChain. Signed for another chain, the attestation
    /// recovers (against this chain) to an unrelated address: SignerNotAllowed names it.
    function testFuzz_fill_revertsIfSignedForAnotherChain(Fields memory f, uint256 chainId) public {
        vm.assume(chainId != DESTINATION_CHAIN_ID);
        (FillAttestation memory att,) = _valid(f, address(0), 1 ether);
        att.destinationChainId = chainId;
        bytes memory signature = _sign(att);

        vm.expectRevert(abi.encodeWithSelector(IAttestedReceiver.SignerNotAllowed.selector, _recoveredHere(att, signature)));
        _fillNative(att, signature);
    }

    /// @dev Twin: test_fill_revertsIfSignedForAnotherReceiver.
    function testFuzz_fill_revertsIfSignedForAnotherReceiver(Fields memory f, address other) public {
        vm.assume(other != address(receiver));
        (FillAttestation memory att,) = _valid(f, address(0), 1 ether);
        att.receiver = other;
        bytes memory signature = _sign(att);

        vm.expectRevert(abi.encodeWithSelector(IAttestedReceiver.SignerNotAllowed.selector, _recoveredHere(att, signature)));
        _fillNative(att, signature);
    }

    /// @dev Twin: test_fill_paysNativeRecipientExactly and the single-field tests above. The signer
    /// signs an attestation that differs from the valid one in exactly one of its twelve fields (a
    /// fuzzed non-zero xor), and the valid one is sent: whichever field differs (one the calldata
    /// carries, or the chain id or receiver the contract supplies), the digest the receiver rebuilds is
    /// not the signed one, so the signature recovers to another address and the fill reverts
    /// SignerNotAllowed naming it; nothing is paid.
    function testFuzz_fill_revertsAfterAnySingleFieldChange(Fields memory f, uint8 field, uint256 mask) public {
        (FillAttestation memory att, address user) = _valid(f, address(0), 1 ether);
        field = uint8(bound(field, 0, 11));
        mask = bound(mask, 1, type(uint256).max);
        bytes memory signature = _sign(_withFieldChanged(att, field, mask));
        uint256 balanceBefore = user.balance;

        vm.expectRevert(abi.encodeWithSelector(IAttestedReceiver.SignerNotAllowed.selector, _recoveredHere(att, signature)));
        _fillNative(att, signature);
        assertFalse(receiver.filled(att.requestId));
        assertEq(user.balance, balanceBefore);
    }

    /// @dev `att` with field number `field` (in FillAttestation order) xor-ed with `mask` (non-zero).
    function _withFieldChanged(FillAttestation memory att, uint8 field, uint256 mask)
        internal
        pure
        returns (FillAttestation memory c)
    {
        c = FillAttestation(
            att.requestId,
            att.orderId,
            att.originChainId,
            att.originUser,
            att.originCurrency,
            att.originAmount,
            att.destinationChainId,
            att.destinationUser,
            att.destinationCurrency,
            att.destinationAmount,
            att.deadline,
            att.receiver
        );
        if (field == 0) c.requestId ^= bytes32(mask);
        else if (field == 1) c.orderId ^= bytes32(mask);
        else if (field == 2) c.originChainId ^= mask;
        else if (field == 3) c.originUser ^= bytes32(mask);
        else if (field == 4) c.originCurrency ^= bytes32(mask);
        else if (field == 5) c.originAmount ^= mask;
        else if (field == 6) c.destinationChainId ^= mask;
        else if (field == 7) c.destinationUser ^= bytes32(mask);
        else if (field == 8) c.destinationCurrency ^= bytes32(mask);
        else if (field == 9) c.destinationAmount ^= mask;
        else if (field == 10) c.deadline ^= mask;
        else c.receiver = address(uint160(c.receiver) ^ uint160(mask | 1));
    }

    function testFuzz_fill_revertsIfSignerNotAllowed(Fields memory f, uint256 key) public {
        key = bound(key, 1, SECP256K1_N - 1);
        vm.assume(key != signerKey);
        (FillAttestation memory att,) = _valid(f, address(0), 1 ether);
        bytes memory signature = _signWith(key, att);

        vm.expectRevert(abi.encodeWithSelector(IAttestedReceiver.SignerNotAllowed.selector, vm.addr(key)));
        _fillNative(att, signature);
    }

    function testFuzz_fill_revertsIfAlreadyFilled(Fields memory f, uint256 secondAmount) public {
        (FillAttestation memory att,) = _valid(f, address(0), 1 ether);
        _fillNative(att, _sign(att));

        // A second, legitimately signed attestation for the same requestId (any amount) is refused.
        att.destinationAmount = bound(secondAmount, 0, 1 ether);
        bytes memory signature = _sign(att);
        vm.expectRevert(abi.encodeWithSelector(IAttestedReceiver.AlreadyFilled.selector, att.requestId));
        _fillNative(att, signature);
    }

    function testFuzz_fill_revertsIfNativeValueIncorrect(Fields memory f, uint256 value) public {
        (FillAttestation memory att,) = _valid(f, address(0), 1 ether);
        value = bound(value, 0, 2 ether);
        vm.assume(value != att.destinationAmount);
        bytes memory signature = _sign(att);

        vm.expectRevert(
            abi.encodeWithSelector(IAttestedReceiver.IncorrectNativeAmount.selector, value, att.destinationAmount)
        );
        vm.prank(solver);
        _callFill(address(receiver), value, _fillCall(att, _compactSig(signature)));
    }

    function testFuzz_fillDigest_matchesV2Layout(FillAttestation memory att) public view {
        assertEq(receiver.fillDigest(att), _digest(att));
    }
}
