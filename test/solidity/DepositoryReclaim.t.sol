// SPDX-License-Identifier: MIT
pragma solidity 0.8.30;

import {Vm} from "forge-std/Vm.sol";

import {IDepository} from "../../contracts/interfaces/IDepository.sol";
import {FeeOnTransferToken} from "../../contracts/mocks/FeeOnTransferToken.sol";
import {RevertingRecipient} from "../../contracts/mocks/RevertingRecipient.sol";
import {DepositoryTestBase} from "./Depository.t.sol";

/// @notice Reclaimable deposits' fixture: an independent encoder of `ReleaseRequest` and its signing, and
/// the deposit helpers the reclaim suites (unit, fuzz, exploit) share.
abstract contract DepositoryReclaimTestBase is DepositoryTestBase {
    bytes32 internal constant RELEASE_REQUEST_TYPEHASH = keccak256(
        "ReleaseRequest(bytes32 id,Call[] calls,Call[] credits,uint256 nonce,uint256 expiration)Call(address to,address token,uint256 amount)"
    );
    bytes32 internal constant RECLAIM_ID = keccak256("reclaimable order");
    uint256 internal constant DEPOSIT = 1 ether;

    function _hashCallArray(IDepository.Call[] memory calls) internal pure returns (bytes32) {
        bytes memory callHashes;
        for (uint256 i; i < calls.length; ++i) {
            callHashes =
                bytes.concat(callHashes, keccak256(abi.encode(CALL_TYPEHASH, calls[i].to, calls[i].token, calls[i].amount)));
        }
        return keccak256(callHashes);
    }

    function _hashRelease(IDepository.ReleaseRequest memory request) internal pure returns (bytes32) {
        return keccak256(
            abi.encode(
                RELEASE_REQUEST_TYPEHASH,
                request.id,
                _hashCallArray(request.calls),
                _hashCallArray(request.credits),
                request.nonce,
                request.expiration
            )
        );
    }

    function _signRelease(IDepository.ReleaseRequest memory request) internal view returns (bytes memory) {
        return _sign(
            allocatorKey,
            keccak256(abi.encodePacked("\x19\x01", _domainSeparator(address(depository)), _hashRelease(request)))
        );
    }

    /// @dev A release of `id` paying `amount` of `token` to `to` (the order's repayment), with no credits.
    function _release(bytes32 id, address to, address token, uint256 amount, uint256 nonce)
        internal
        view
        returns (IDepository.ReleaseRequest memory request)
    {
        request.id = id;
        request.calls = new IDepository.Call[](1);
        request.calls[0] = IDepository.Call({to: to, token: token, amount: amount});
        request.credits = new IDepository.Call[](0);
        request.nonce = nonce;
        request.expiration = block.timestamp + 1 hours;
    }

    function _commitment(address depositor, address token, uint256 amount, uint256 reclaimAt)
        internal
        pure
        returns (bytes32)
    {
        return keccak256(abi.encode(depositor, token, amount, reclaimAt));
    }

    /// @dev `depositor` deposits `amount` native with reclaim under `id`.
    function _depositReclaimable(address depositor, bytes32 id, uint256 amount, uint256 reclaimAt) internal {
        vm.deal(depositor, depositor.balance + amount);
        vm.prank(depositor);
        depository.depositNativeReclaimable_fpifa{value: amount}(id, reclaimAt);
    }
}

contract DepositoryReclaimTest is DepositoryReclaimTestBase {
    uint256 internal reclaimAt;

    function setUp() public override {
        super.setUp();
        reclaimAt = block.timestamp + 1 days;
    }

    // ---------------------------------------------------------------- native deposit with reclaim

    function test_depositNativeReclaimable_storesTheCommitmentAndEmitsItsPreimage() public {
        vm.deal(user, DEPOSIT);
        vm.recordLogs();
        vm.prank(user);
        depository.depositNativeReclaimable_fpifa{value: DEPOSIT}(RECLAIM_ID, reclaimAt);

        assertEq(depository.reclaimCommitment(RECLAIM_ID), _commitment(user, address(0), DEPOSIT, reclaimAt));
        assertEq(address(depository).balance, DEPOSIT);
        Vm.Log[] memory logs = vm.getRecordedLogs();
        assertEq(logs.length, 1, "one event, not Deposited as well");
        assertEq(logs[0].topics.length, 2);
        assertEq(logs[0].topics[0], IDepository.DepositedReclaimable.selector);
        assertEq(logs[0].topics[1], RECLAIM_ID);
        assertEq(logs[0].data, abi.encode(user, address(0), DEPOSIT, reclaimAt));
        assertEq(keccak256(logs[0].data), depository.reclaimCommitment(RECLAIM_ID), "the data is the preimage");
    }

    function test_depositNativeReclaimable_revertsIfZeroIdFirst() public {
        vm.expectRevert(IDepository.ZeroOrderId.selector);
        depository.depositNativeReclaimable_fpifa{value: 0}(bytes32(0), reclaimAt);
    }

    function test_depositNativeReclaimable_revertsIfZeroValue() public {
        vm.expectRevert(IDepository.ZeroDeposit.selector);
        depository.depositNativeReclaimable_fpifa{value: 0}(RECLAIM_ID, reclaimAt);
    }

    function test_depositNativeReclaimable_revertsIfACommitmentIsLive() public {
        _depositReclaimable(user, RECLAIM_ID, DEPOSIT, reclaimAt);
        address other = makeAddr("other");
        vm.deal(other, 1 ether);
        vm.expectRevert(abi.encodeWithSelector(IDepository.ReclaimAlreadyCommitted.selector, RECLAIM_ID));
        vm.prank(other);
        depository.depositNativeReclaimable_fpifa{value: 1 ether}(RECLAIM_ID, reclaimAt);
        assertEq(depository.reclaimCommitment(RECLAIM_ID), _commitment(user, address(0), DEPOSIT, reclaimAt));
    }

    function test_depositNativeReclaimable_commitsAgainOnceTheLastWasReclaimed() public {
        _depositReclaimable(user, RECLAIM_ID, DEPOSIT, reclaimAt);
        vm.warp(reclaimAt);
        vm.prank(user);
        depository.reclaim(RECLAIM_ID, address(0), DEPOSIT, reclaimAt);
        _depositReclaimable(user, RECLAIM_ID, 2, reclaimAt + 1);
        assertEq(depository.reclaimCommitment(RECLAIM_ID), _commitment(user, address(0), 2, reclaimAt + 1));
    }

    function test_plainDeposits_neitherReadNorWriteTheCommitment() public {
        _depositReclaimable(user, RECLAIM_ID, DEPOSIT, reclaimAt);
        vm.deal(user, 1 ether + 1);
        vm.prank(user);
        depository.depositNative_irOEa{value: 1 ether}(RECLAIM_ID);
        assertEq(depository.reclaimCommitment(RECLAIM_ID), _commitment(user, address(0), DEPOSIT, reclaimAt));
        vm.prank(user);
        depository.depositNative_irOEa{value: 1}(keccak256("plain"));
        assertEq(depository.reclaimCommitment(keccak256("plain")), bytes32(0));
    }

    // ---------------------------------------------------------------- ERC-20 deposit with reclaim

    function test_depositErc20Reclaimable_commitsWhatArrived() public {
        FeeOnTransferToken fot = new FeeOnTransferToken(100); // 1% fee
        fot.mint(user, 1000);
        vm.startPrank(user);
        fot.approve(address(depository), 1000);
        vm.expectEmit(true, true, true, true, address(depository));
        emit IDepository.DepositedReclaimable(RECLAIM_ID, user, address(fot), 990, reclaimAt);
        depository.depositErc20Reclaimable(address(fot), 1000, RECLAIM_ID, reclaimAt);
        vm.stopPrank();
        assertEq(depository.reclaimCommitment(RECLAIM_ID), _commitment(user, address(fot), 990, reclaimAt));
    }

    function test_depositErc20Reclaimable_revertsIfZeroIdBeforePulling() public {
        usdc.mint(user, 100);
        vm.startPrank(user);
        usdc.approve(address(depository), 100);
        vm.expectRevert(IDepository.ZeroOrderId.selector);
        depository.depositErc20Reclaimable(address(usdc), 100, bytes32(0), reclaimAt);
        vm.stopPrank();
    }

    function test_depositErc20Reclaimable_revertsIfACommitmentIsLiveBeforePulling() public {
        _depositReclaimable(user, RECLAIM_ID, DEPOSIT, reclaimAt);
        usdc.mint(user, 100);
        vm.startPrank(user);
        usdc.approve(address(depository), 100);
        vm.expectRevert(abi.encodeWithSelector(IDepository.ReclaimAlreadyCommitted.selector, RECLAIM_ID));
        depository.depositErc20Reclaimable(address(usdc), 100, RECLAIM_ID, reclaimAt);
        vm.stopPrank();
    }

    function test_depositErc20Reclaimable_revertsIfNothingArrived() public {
        vm.prank(user);
        vm.expectRevert(IDepository.ZeroDeposit.selector);
        depository.depositErc20Reclaimable(address(usdc), 0, RECLAIM_ID, reclaimAt);
    }

    // ---------------------------------------------------------------- reclaim

    function test_reclaim_paysTheDepositorAtItsTimeAndDeletesTheCommitment() public {
        _depositReclaimable(user, RECLAIM_ID, DEPOSIT, reclaimAt);
        vm.warp(reclaimAt);
        vm.expectEmit(true, true, true, true, address(depository));
        emit IDepository.Reclaimed(RECLAIM_ID, user, address(0), DEPOSIT, false);
        vm.prank(user);
        depository.reclaim(RECLAIM_ID, address(0), DEPOSIT, reclaimAt);
        assertEq(user.balance, DEPOSIT);
        assertEq(address(depository).balance, 0);
        assertEq(depository.reclaimCommitment(RECLAIM_ID), bytes32(0));
    }

    function test_reclaim_paysAnErc20Deposit() public {
        usdc.mint(user, 500);
        vm.startPrank(user);
        usdc.approve(address(depository), 500);
        depository.depositErc20Reclaimable(address(usdc), 500, RECLAIM_ID, reclaimAt);
        vm.warp(reclaimAt + 1);
        depository.reclaim(RECLAIM_ID, address(usdc), 500, reclaimAt);
        vm.stopPrank();
        assertEq(usdc.balanceOf(user), 500);
        assertEq(usdc.balanceOf(address(depository)), 0);
    }

    function test_reclaim_revertsOneSecondBeforeItsTime() public {
        _depositReclaimable(user, RECLAIM_ID, DEPOSIT, reclaimAt);
        vm.warp(reclaimAt - 1);
        vm.expectRevert(abi.encodeWithSelector(IDepository.ReclaimNotYet.selector, reclaimAt));
        vm.prank(user);
        depository.reclaim(RECLAIM_ID, address(0), DEPOSIT, reclaimAt);
    }

    function test_reclaim_revertsIfNotTheDepositor() public {
        _depositReclaimable(user, RECLAIM_ID, DEPOSIT, reclaimAt);
        vm.warp(reclaimAt);
        vm.expectRevert(
            abi.encodeWithSelector(
                IDepository.ReclaimCommitmentMismatch.selector,
                RECLAIM_ID,
                _commitment(solver, address(0), DEPOSIT, reclaimAt)
            )
        );
        vm.prank(solver);
        depository.reclaim(RECLAIM_ID, address(0), DEPOSIT, reclaimAt);
    }

    function test_reclaim_revertsIfAnyFieldDiffers() public {
        _depositReclaimable(user, RECLAIM_ID, DEPOSIT, reclaimAt);
        vm.deal(address(depository), 10 ether); // other deposits: more than enough is held
        vm.warp(reclaimAt + 1 days);
        vm.startPrank(user);
        vm.expectRevert(
            abi.encodeWithSelector(
                IDepository.ReclaimCommitmentMismatch.selector, RECLAIM_ID, _commitment(user, address(0), DEPOSIT + 1, reclaimAt)
            )
        );
        depository.reclaim(RECLAIM_ID, address(0), DEPOSIT + 1, reclaimAt);
        vm.expectRevert(
            abi.encodeWithSelector(
                IDepository.ReclaimCommitmentMismatch.selector, RECLAIM_ID, _commitment(user, address(usdc), DEPOSIT, reclaimAt)
            )
        );
        depository.reclaim(RECLAIM_ID, address(usdc), DEPOSIT, reclaimAt);
        // An earlier reclaim time than committed would let the depositor in early.
        vm.expectRevert(
            abi.encodeWithSelector(
                IDepository.ReclaimCommitmentMismatch.selector, RECLAIM_ID, _commitment(user, address(0), DEPOSIT, reclaimAt - 1)
            )
        );
        depository.reclaim(RECLAIM_ID, address(0), DEPOSIT, reclaimAt - 1);
        vm.stopPrank();
    }

    function test_reclaim_revertsIfNoCommitment() public {
        vm.expectRevert(abi.encodeWithSelector(IDepository.NoReclaimCommitment.selector, RECLAIM_ID));
        vm.prank(user);
        depository.reclaim(RECLAIM_ID, address(0), DEPOSIT, reclaimAt);
    }

    function test_reclaim_checksTheCommitmentBeforeTheTime() public {
        _depositReclaimable(user, RECLAIM_ID, DEPOSIT, reclaimAt);
        vm.expectRevert(
            abi.encodeWithSelector(
                IDepository.ReclaimCommitmentMismatch.selector, RECLAIM_ID, _commitment(solver, address(0), DEPOSIT, reclaimAt)
            )
        );
        vm.prank(solver);
        depository.reclaim(RECLAIM_ID, address(0), DEPOSIT, reclaimAt);
    }

    function test_reclaim_revertsTheSecondTime() public {
        _depositReclaimable(user, RECLAIM_ID, DEPOSIT, reclaimAt);
        vm.deal(address(depository), 10 ether);
        vm.warp(reclaimAt);
        vm.startPrank(user);
        depository.reclaim(RECLAIM_ID, address(0), DEPOSIT, reclaimAt);
        vm.expectRevert(abi.encodeWithSelector(IDepository.NoReclaimCommitment.selector, RECLAIM_ID));
        depository.reclaim(RECLAIM_ID, address(0), DEPOSIT, reclaimAt);
        vm.stopPrank();
        assertEq(user.balance, DEPOSIT);
    }

    function test_reclaim_makesAFailedPayoutClaimable() public {
        RevertingRecipient rejecting = new RevertingRecipient();
        _depositReclaimable(address(rejecting), RECLAIM_ID, DEPOSIT, reclaimAt);
        vm.warp(reclaimAt);
        vm.expectEmit(true, true, true, true, address(depository));
        emit IDepository.Reclaimed(RECLAIM_ID, address(rejecting), address(0), DEPOSIT, true);
        vm.prank(address(rejecting));
        depository.reclaim(RECLAIM_ID, address(0), DEPOSIT, reclaimAt);
        assertEq(depository.claimable(address(rejecting), address(0)), DEPOSIT);
        assertEq(depository.totalClaimable(address(0)), DEPOSIT);
        assertEq(depository.reclaimCommitment(RECLAIM_ID), bytes32(0));
        vm.prank(address(rejecting));
        depository.claim(address(0), user);
        assertEq(user.balance, DEPOSIT);
    }

    function test_reclaim_revertsIfTheFundsWereSpentAndKeepsTheCommitment() public {
        _depositReclaimable(user, RECLAIM_ID, DEPOSIT, reclaimAt);
        // An allocator that paid the funds out without releasing the commitment.
        IDepository.CallRequest memory drain = _request(solver, address(0), DEPOSIT, 1);
        depository.execute(drain, _signRequest(drain));
        vm.warp(reclaimAt);
        vm.expectRevert(abi.encodeWithSelector(IDepository.InsufficientBalance.selector, 0, address(0), 0, DEPOSIT));
        vm.prank(user);
        depository.reclaim(RECLAIM_ID, address(0), DEPOSIT, reclaimAt);
        assertEq(depository.reclaimCommitment(RECLAIM_ID), _commitment(user, address(0), DEPOSIT, reclaimAt));
    }

    // ---------------------------------------------------------------- release

    function test_release_deletesTheCommitmentPaysAndUsesTheNonce() public {
        _depositReclaimable(user, RECLAIM_ID, DEPOSIT, reclaimAt);
        IDepository.ReleaseRequest memory request = _release(RECLAIM_ID, solver, address(0), DEPOSIT, 7);
        vm.expectEmit(true, true, true, true, address(depository));
        emit IDepository.ReclaimReleased(RECLAIM_ID, 7);
        vm.expectEmit(true, true, true, true, address(depository));
        emit IDepository.RequestExecuted(_hashRelease(request), 7);
        depository.release(request, _signRelease(request));
        assertEq(solver.balance, DEPOSIT);
        assertEq(depository.reclaimCommitment(RECLAIM_ID), bytes32(0));
        assertTrue(depository.executed(7));
    }

    function test_release_creditsAsSettleDoes() public {
        _depositReclaimable(user, RECLAIM_ID, DEPOSIT, reclaimAt);
        IDepository.ReleaseRequest memory request = _release(RECLAIM_ID, solver, address(0), DEPOSIT - 100, 1);
        request.credits = new IDepository.Call[](1);
        request.credits[0] = IDepository.Call({to: owner, token: address(0), amount: 100});
        vm.expectEmit(true, true, true, true, address(depository));
        emit IDepository.Credited(1, 0, owner, address(0), 100);
        depository.release(request, _signRelease(request));
        assertEq(depository.claimable(owner, address(0)), 100);
        assertEq(solver.balance, DEPOSIT - 100);
    }

    function test_release_revertsIfACreditIsNotBacked() public {
        _depositReclaimable(user, RECLAIM_ID, DEPOSIT, reclaimAt);
        IDepository.ReleaseRequest memory request = _release(RECLAIM_ID, solver, address(0), DEPOSIT, 1);
        request.credits = new IDepository.Call[](1);
        request.credits[0] = IDepository.Call({to: owner, token: address(0), amount: 1});
        bytes memory signature = _signRelease(request);
        vm.expectRevert(abi.encodeWithSelector(IDepository.CreditNotBacked.selector, 0, address(0), 0, 1));
        depository.release(request, signature);
    }

    function test_release_revertsIfExpired() public {
        _depositReclaimable(user, RECLAIM_ID, DEPOSIT, reclaimAt);
        IDepository.ReleaseRequest memory request = _release(RECLAIM_ID, solver, address(0), DEPOSIT, 1);
        bytes memory signature = _signRelease(request);
        vm.warp(request.expiration + 1);
        vm.expectRevert(abi.encodeWithSelector(IDepository.RequestExpired.selector, request.expiration));
        depository.release(request, signature);
    }

    function test_release_revertsIfNotSignedByTheAllocator() public {
        _depositReclaimable(user, RECLAIM_ID, DEPOSIT, reclaimAt);
        IDepository.ReleaseRequest memory request = _release(RECLAIM_ID, solver, address(0), DEPOSIT, 1);
        (address stranger, uint256 strangerKey) = makeAddrAndKey("stranger");
        bytes memory signature = _sign(
            strangerKey, keccak256(abi.encodePacked("\x19\x01", _domainSeparator(address(depository)), _hashRelease(request)))
        );
        vm.expectRevert(abi.encodeWithSelector(IDepository.SignerNotAllocator.selector, stranger));
        depository.release(request, signature);
        assertEq(depository.reclaimCommitment(RECLAIM_ID), _commitment(user, address(0), DEPOSIT, reclaimAt));
    }

    function test_release_sharesTheNonceSpaceWithExecute() public {
        _depositReclaimable(user, RECLAIM_ID, DEPOSIT, reclaimAt);
        vm.deal(address(depository), 2 ether);
        IDepository.CallRequest memory paid = _request(solver, address(0), 1, 3);
        depository.execute(paid, _signRequest(paid));
        IDepository.ReleaseRequest memory request = _release(RECLAIM_ID, solver, address(0), DEPOSIT, 3);
        bytes memory signature = _signRelease(request);
        vm.expectRevert(abi.encodeWithSelector(IDepository.NonceAlreadyUsed.selector, 3));
        depository.release(request, signature);

        request.nonce = 4;
        depository.release(request, _signRelease(request));
        IDepository.CallRequest memory again = _request(solver, address(0), 1, 4);
        bytes memory againSignature = _signRequest(again);
        vm.expectRevert(abi.encodeWithSelector(IDepository.NonceAlreadyUsed.selector, 4));
        depository.execute(again, againSignature);
    }

    function test_release_revertsIfNoCommitmentAndSpendsNoNonce() public {
        vm.deal(address(depository), DEPOSIT);
        IDepository.ReleaseRequest memory request = _release(RECLAIM_ID, solver, address(0), DEPOSIT, 1);
        bytes memory signature = _signRelease(request);
        vm.expectRevert(abi.encodeWithSelector(IDepository.NoReclaimCommitment.selector, RECLAIM_ID));
        depository.release(request, signature);
        assertFalse(depository.executed(1));
    }

    function test_release_checksTheNonceBeforeTheCommitment() public {
        _depositReclaimable(user, RECLAIM_ID, DEPOSIT, reclaimAt);
        IDepository.ReleaseRequest memory first = _release(RECLAIM_ID, solver, address(0), DEPOSIT, 1);
        depository.release(first, _signRelease(first));
        // The same nonce again, the commitment gone too: the nonce is named first.
        vm.expectRevert(abi.encodeWithSelector(IDepository.NonceAlreadyUsed.selector, 1));
        depository.release(first, _signRelease(first));
    }

    function test_reclaim_revertsOnceReleased() public {
        _depositReclaimable(user, RECLAIM_ID, DEPOSIT, reclaimAt);
        IDepository.ReleaseRequest memory request = _release(RECLAIM_ID, solver, address(0), DEPOSIT, 1);
        depository.release(request, _signRelease(request));
        vm.deal(address(depository), 10 ether);
        vm.warp(reclaimAt);
        vm.expectRevert(abi.encodeWithSelector(IDepository.NoReclaimCommitment.selector, RECLAIM_ID));
        vm.prank(user);
        depository.reclaim(RECLAIM_ID, address(0), DEPOSIT, reclaimAt);
    }
}
