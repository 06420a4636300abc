// SPDX-License-Identifier: MIT
pragma solidity 0.8.30;

import {IDepository} from "../../contracts/interfaces/IDepository.sol";
import {DepositoryReclaimTestBase} from "./DepositoryReclaim.t.sol";

/// @notice Reclaimable deposits under random callers, amounts, times and orders of operations.
contract DepositoryReclaimFuzzTest is DepositoryReclaimTestBase {
    /// @notice Only the depositor, only from `reclaimAt` on, and then exactly the committed amount.
    function testFuzz_reclaim_paysOnlyTheDepositorFromItsTime(
        address caller,
        uint96 amount,
        uint32 delay,
        uint32 elapsed,
        uint256 otherFunds
    ) public {
        vm.assume(caller != address(0) && caller.code.length == 0 && uint160(caller) > 0xffff);
        vm.assume(caller != address(depository) && caller != address(vm));
        amount = uint96(bound(amount, 1, type(uint96).max));
        otherFunds = bound(otherFunds, 0, 1e30);
        uint256 reclaimAt = block.timestamp + delay;
        _depositReclaimable(user, RECLAIM_ID, amount, reclaimAt);
        vm.deal(address(depository), address(depository).balance + otherFunds); // other depositors' funds
        vm.warp(block.timestamp + elapsed);

        uint256 callerBefore = caller.balance;
        vm.prank(caller);
        (bool ok,) =
            address(depository).call(abi.encodeCall(IDepository.reclaim, (RECLAIM_ID, address(0), amount, reclaimAt)));

        bool allowed = caller == user && block.timestamp >= reclaimAt;
        assertEq(ok, allowed);
        if (allowed) {
            assertEq(caller.balance - callerBefore, amount, "paid exactly the committed amount");
            assertEq(address(depository).balance, otherFunds, "the other funds stay");
            assertEq(depository.reclaimCommitment(RECLAIM_ID), bytes32(0));
        } else {
            assertEq(caller.balance, callerBefore);
            assertEq(address(depository).balance, uint256(amount) + otherFunds);
        }
    }

    /// @notice Whatever is tried first, release and reclaim of one deposit never both pay.
    function testFuzz_releaseAndReclaim_neverBothPay(bool releaseFirst, uint96 amount, uint32 delay, uint32 gap) public {
        amount = uint96(bound(amount, 1, type(uint96).max));
        uint256 reclaimAt = block.timestamp + delay;
        _depositReclaimable(user, RECLAIM_ID, amount, reclaimAt);
        vm.deal(address(depository), uint256(amount) * 3); // plenty of other deposits' funds
        IDepository.ReleaseRequest memory request = _release(RECLAIM_ID, solver, address(0), amount, 1);
        request.expiration = type(uint256).max;
        bytes memory signature = _signRelease(request);

        bool released;
        bool reclaimed;
        if (releaseFirst) {
            (released,) = address(depository).call(abi.encodeCall(IDepository.release, (request, signature)));
            vm.warp(reclaimAt + gap);
            vm.prank(user);
            (reclaimed,) =
                address(depository).call(abi.encodeCall(IDepository.reclaim, (RECLAIM_ID, address(0), amount, reclaimAt)));
        } else {
            vm.warp(reclaimAt + gap);
            vm.prank(user);
            (reclaimed,) =
                address(depository).call(abi.encodeCall(IDepository.reclaim, (RECLAIM_ID, address(0), amount, reclaimAt)));
            (released,) = address(depository).call(abi.encodeCall(IDepository.release, (request, signature)));
        }
        assertTrue(released != reclaimed, "exactly one of them paid");
        assertEq(solver.balance, released ? amount : 0);
        assertEq(user.balance, reclaimed ? amount : 0);
        assertEq(address(depository).balance, uint256(amount) * 2);
    }

    /// @notice Any one field of the commitment changed (caller, token, amount, reclaim time) is refused.
    function testFuzz_reclaim_refusesAnyOtherField(uint8 field, uint256 delta) public {
        uint256 reclaimAt = block.timestamp + 1 hours;
        _depositReclaimable(user, RECLAIM_ID, DEPOSIT, reclaimAt);
        vm.deal(address(depository), 100 ether);
        vm.warp(reclaimAt + 365 days);
        delta = bound(delta, 1, 1 hours);
        (address caller, address token, uint256 amount, uint256 at) = (user, address(0), DEPOSIT, reclaimAt);
        field = field % 4;
        if (field == 0) caller = address(uint160(user) ^ uint160(delta));
        else if (field == 1) token = address(uint160(delta));
        else if (field == 2) amount = DEPOSIT + delta;
        else at = reclaimAt - delta;
        vm.expectRevert(
            abi.encodeWithSelector(
                IDepository.ReclaimCommitmentMismatch.selector, RECLAIM_ID, _commitment(caller, token, amount, at)
            )
        );
        vm.prank(caller);
        depository.reclaim(RECLAIM_ID, token, amount, at);
    }

    /// @notice A release signed for one order releases no other (the id is in the signed digest).
    function testFuzz_release_bindsTheId(bytes32 signedId, bytes32 otherId) public {
        vm.assume(signedId != otherId && signedId != bytes32(0) && otherId != bytes32(0));
        _depositReclaimable(user, signedId, DEPOSIT, block.timestamp + 1 days);
        _depositReclaimable(user, otherId, DEPOSIT, block.timestamp + 1 days);
        IDepository.ReleaseRequest memory request = _release(signedId, solver, address(0), DEPOSIT, 1);
        (uint8 v, bytes32 r, bytes32 s) = vm.sign(allocatorKey, _releaseDigest(request));
        request.id = otherId;
        address recovered = ecrecover(_releaseDigest(request), v, r, s);
        vm.expectRevert(abi.encodeWithSelector(IDepository.SignerNotAllocator.selector, recovered));
        depository.release(request, abi.encodePacked(r, s, v));
        assertTrue(depository.reclaimCommitment(otherId) != bytes32(0));
    }

    function _releaseDigest(IDepository.ReleaseRequest memory request) internal view returns (bytes32) {
        return keccak256(abi.encodePacked("\x19\x01", _domainSeparator(address(depository)), _hashRelease(request)));
    }
}
