// SPDX-License-Identifier: MIT
pragma solidity 0.8.30;

import {IDepository} from "../../contracts/interfaces/IDepository.sol";
import {DepositoryTestBase} from "./Depository.t.sol";

/// @notice Fuzzed twins of the unit tests in Depository.t.sol (same names after `testFuzz_`).
contract DepositoryFuzzTest is DepositoryTestBase {
    uint256 internal constant MAX_NATIVE = 1e30;
    uint256 internal constant MAX_TOKEN = 1e30;

    /// @dev A plain account (no code, not a precompile, not a cheat address) derived from a seed.
    function _account(uint256 seed) internal pure returns (address) {
        return address(uint160(uint256(keccak256(abi.encode("account", seed)))));
    }

    // ---------------------------------------------------------------- deposits

    function testFuzz_depositNative_revertsIfZeroValue(address depositor, bytes32 id) public {
        vm.assume(id != bytes32(0)); // orderId 0 is refused: test_depositNative_revertsIfZeroId
        vm.expectRevert(IDepository.ZeroDeposit.selector);
        vm.prank(user);
        depository.depositNative(depositor, id);
    }

    function testFuzz_depositNative_emitsDeposited(uint256 senderSeed, address depositor, bytes32 id, uint256 amount)
        public
    {
        vm.assume(id != bytes32(0)); // orderId 0 is refused: test_depositNative_revertsIfZeroId
        vm.assume(depositor != address(0));
        address sender = _account(senderSeed);
        amount = bound(amount, 1, MAX_NATIVE);
        vm.deal(sender, amount);
        vm.expectEmit(true, true, true, true, address(depository));
        emit IDepository.Deposited(id, depositor, address(0), amount);
        vm.prank(sender);
        depository.depositNative{value: amount}(depositor, id);
        assertEq(address(depository).balance, amount);
    }

    function testFuzz_depositNative_creditsSenderIfDepositorZero(uint256 senderSeed, bytes32 id, uint256 amount)
        public
    {
        vm.assume(id != bytes32(0)); // orderId 0 is refused: test_depositNative_revertsIfZeroId
        address sender = _account(senderSeed);
        amount = bound(amount, 1, MAX_NATIVE);
        vm.deal(sender, amount);
        vm.expectEmit(true, true, true, true, address(depository));
        emit IDepository.Deposited(id, sender, address(0), amount);
        vm.prank(sender);
        depository.depositNative{value: amount}(address(0), id);
    }

    function testFuzz_depositErc20_emitsDepositedAndPullsAmount(
        uint256 senderSeed,
        address depositor,
        bytes32 id,
        uint256 amount,
        uint256 spareAllowance
    ) public {
        vm.assume(id != bytes32(0)); // orderId 0 is refused: test_depositNative_revertsIfZeroId
        vm.assume(depositor != address(0));
        address sender = _account(senderSeed);
        amount = bound(amount, 1, MAX_TOKEN);
        spareAllowance = bound(spareAllowance, 0, MAX_TOKEN);
        usdc.mint(sender, amount);
        vm.startPrank(sender);
        usdc.approve(address(depository), amount + spareAllowance);
        vm.expectEmit(true, true, true, true, address(depository));
        emit IDepository.Deposited(id, depositor, address(usdc), amount);
        depository.depositErc20(depositor, address(usdc), amount, id);
        vm.stopPrank();
        assertEq(usdc.balanceOf(address(depository)), amount);
        assertEq(usdc.balanceOf(sender), 0);
        assertEq(usdc.allowance(sender, address(depository)), spareAllowance);
    }

    function testFuzz_depositErc20_creditsSenderIfDepositorZero(uint256 senderSeed, bytes32 id, uint256 amount)
        public
    {
        vm.assume(id != bytes32(0)); // orderId 0 is refused: test_depositNative_revertsIfZeroId
        address sender = _account(senderSeed);
        amount = bound(amount, 1, MAX_TOKEN);
        usdc.mint(sender, amount);
        vm.startPrank(sender);
        usdc.approve(address(depository), amount);
        vm.expectEmit(true, true, true, true, address(depository));
        emit IDepository.Deposited(id, sender, address(usdc), amount);
        depository.depositErc20(address(0), address(usdc), amount, id);
        vm.stopPrank();
    }

    function testFuzz_depositErc20Allowance_pullsWholeAllowance(
        uint256 senderSeed,
        address depositor,
        bytes32 id,
        uint256 allowance,
        uint256 spareBalance
    ) public {
        vm.assume(id != bytes32(0)); // orderId 0 is refused: test_depositNative_revertsIfZeroId
        vm.assume(depositor != address(0));
        address sender = _account(senderSeed);
        allowance = bound(allowance, 1, MAX_TOKEN);
        spareBalance = bound(spareBalance, 0, MAX_TOKEN);
        usdc.mint(sender, allowance + spareBalance);
        vm.startPrank(sender);
        usdc.approve(address(depository), allowance);
        vm.expectEmit(true, true, true, true, address(depository));
        emit IDepository.Deposited(id, depositor, address(usdc), allowance);
        depository.depositErc20(depositor, address(usdc), id);
        vm.stopPrank();
        assertEq(usdc.balanceOf(address(depository)), allowance);
        assertEq(usdc.balanceOf(sender), spareBalance);
        assertEq(usdc.allowance(sender, address(depository)), 0);
    }

    // ---------------------------------------------------------------- execute

    function testFuzz_execute_paysNative(uint256 toSeed, uint256 funded, uint256 amount, uint256 nonce, uint256 ttl)
        public
    {
        address to = _account(toSeed);
        funded = bound(funded, 1, MAX_NATIVE);
        amount = bound(amount, 0, funded);
        _fundNative(funded);
        IDepository.CallRequest memory request = _request(to, address(0), amount, nonce);
        request.expiration = block.timestamp + bound(ttl, 0, 365 days);
        bytes32 requestHash = _hashRequest(request);
        vm.expectEmit(true, true, true, true, address(depository));
        emit IDepository.RequestExecuted(requestHash, nonce);
        depository.execute(request, _signRequest(request));
        assertEq(to.balance, amount);
        assertEq(address(depository).balance, funded - amount);
        assertTrue(depository.executed(nonce));
    }

    function testFuzz_execute_paysErc20(uint256 toSeed, uint256 funded, uint256 amount, uint256 nonce, uint256 ttl)
        public
    {
        address to = _account(toSeed);
        funded = bound(funded, 1, MAX_TOKEN);
        amount = bound(amount, 0, funded);
        _fundUsdc(funded);
        IDepository.CallRequest memory request = _request(to, address(usdc), amount, nonce);
        request.expiration = block.timestamp + bound(ttl, 0, 365 days);
        bytes32 requestHash = _hashRequest(request);
        vm.expectEmit(true, true, true, true, address(depository));
        emit IDepository.RequestExecuted(requestHash, nonce);
        depository.execute(request, _signRequest(request));
        assertEq(usdc.balanceOf(to), amount);
        assertEq(usdc.balanceOf(address(depository)), funded - amount);
    }

    function testFuzz_execute_revertsIfExpired(uint256 expiration, uint256 lateBy, uint256 nonce) public {
        expiration = bound(expiration, 0, type(uint64).max);
        lateBy = bound(lateBy, 1, 365 days);
        _fundNative(1 ether);
        IDepository.CallRequest memory request = _request(solver, address(0), 1 ether, nonce);
        request.expiration = expiration;
        bytes memory signature = _signRequest(request);
        vm.warp(expiration + lateBy);
        vm.expectRevert(abi.encodeWithSelector(IDepository.RequestExpired.selector, expiration));
        depository.execute(request, signature);
    }

    function testFuzz_execute_revertsIfSignerNotAllocator(uint256 key, uint256 nonce) public {
        key = bound(key, 1, SECP256K1_N - 1);
        address signer = vm.addr(key);
        vm.assume(signer != allocator);
        _fundNative(1 ether);
        IDepository.CallRequest memory request = _request(solver, address(0), 1 ether, nonce);
        bytes memory signature = _sign(key, _digest(request, address(depository)));
        vm.expectRevert(abi.encodeWithSelector(IDepository.SignerNotAllocator.selector, signer));
        depository.execute(request, signature);
    }

    function testFuzz_execute_revertsIfAlreadyExecuted(uint256 amount, uint256 nonce) public {
        amount = bound(amount, 0, MAX_NATIVE / 2);
        _fundNative(MAX_NATIVE);
        IDepository.CallRequest memory request = _request(solver, address(0), amount, nonce);
        bytes memory signature = _signRequest(request);
        depository.execute(request, signature);
        vm.expectRevert(abi.encodeWithSelector(IDepository.NonceAlreadyUsed.selector, nonce));
        depository.execute(request, signature);
        assertEq(solver.balance, amount);
    }

    function testFuzz_hashCallRequest_matchesEip712Encoding(
        IDepository.Call[] memory calls,
        uint256 nonce,
        uint256 expiration
    ) public view {
        if (calls.length > 8) {
            assembly ("memory-safe") {
                mstore(calls, 8) // truncate in place: long arrays add run time, not coverage
            }
        }
        IDepository.CallRequest memory request = IDepository.CallRequest(calls, nonce, expiration);
        assertEq(depository.hashCallRequest(request), _hashRequest(request));
        assertEq(depository.callRequestDigest(request), _digest(request, address(depository)));
    }
}
