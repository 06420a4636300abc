// SPDX-License-Identifier: MIT
pragma solidity 0.8.30;

import {Test} from "forge-std/Test.sol";

import {ReentrancyGuardTransient} from "@openzeppelin/contracts/utils/ReentrancyGuardTransient.sol";

import {Multicaller} from "../../contracts/Multicaller.sol";
import {IMulticaller} from "../../contracts/interfaces/IMulticaller.sol";
import {FalseReturnToken} from "../../contracts/mocks/FalseReturnToken.sol";
import {GasBurningRecipient} from "../../contracts/mocks/GasBurningRecipient.sol";
import {MockStablecoin} from "../../contracts/mocks/MockStablecoin.sol";
import {NoReturnToken} from "../../contracts/mocks/NoReturnToken.sol";
import {RevertingRecipient} from "../../contracts/mocks/RevertingRecipient.sol";

/// @notice What destination calls look like: take value, hand tokens or value back to the caller,
/// fail, or try to re-enter.
contract CallTarget {
    error Boom(uint256 code);

    uint256 public received;
    uint256[] public log;

    function pay() external payable {
        received += msg.value;
    }

    function record(uint256 value) external returns (uint256) {
        log.push(value);
        return value * 2;
    }

    /// @dev Keeps half of msg.value and sends the rest back (e.g. a swap refunding unused input).
    function refundHalf() external payable {
        received += msg.value - msg.value / 2;
        (bool ok,) = msg.sender.call{value: msg.value / 2}("");
        require(ok);
    }

    /// @dev Hands `amount` of `token` to the caller, as a swap hands its output back.
    function dropTokens(MockStablecoin token, uint256 amount) external {
        token.mint(msg.sender, amount);
    }

    function boom(uint256 code) external pure {
        revert Boom(code);
    }

    function reenter(IMulticaller multicaller) external {
        multicaller.multicall(new IMulticaller.Call[](0), address(this), new address[](0));
    }

    function logLength() external view returns (uint256) {
        return log.length;
    }
}

contract MulticallerTest is Test {
    Multicaller internal multicaller;
    CallTarget internal target;
    MockStablecoin internal token;
    address internal caller = makeAddr("caller");
    address internal refundTo = makeAddr("refundTo");

    function setUp() public {
        multicaller = new Multicaller();
        target = new CallTarget();
        token = new MockStablecoin("USD Coin", "USDC");
        vm.deal(caller, 100 ether);
    }

    function _call(bytes memory data, uint256 value, bool allowFailure)
        internal
        view
        returns (IMulticaller.Call memory)
    {
        return IMulticaller.Call({target: address(target), allowFailure: allowFailure, value: value, data: data});
    }

    function _noTokens() internal pure returns (address[] memory) {
        return new address[](0);
    }

    // ================================================================ reverts

    function test_multicall_revertsIfZeroRefundRecipient() public {
        vm.expectRevert(IMulticaller.ZeroRefundRecipient.selector);
        vm.prank(caller);
        multicaller.multicall(new IMulticaller.Call[](0), address(0), _noTokens());
    }

    function test_multicall_revertsIfInsufficientValue() public {
        IMulticaller.Call[] memory calls = new IMulticaller.Call[](2);
        calls[0] = _call(abi.encodeCall(CallTarget.pay, ()), 1 ether, false);
        calls[1] = _call(abi.encodeCall(CallTarget.pay, ()), 1 ether, false);

        vm.expectRevert(abi.encodeWithSelector(IMulticaller.InsufficientValue.selector, 1.5 ether, 2 ether));
        vm.prank(caller);
        multicaller.multicall{value: 1.5 ether}(calls, refundTo, _noTokens());
    }

    function test_multicall_revertsIfCallReverted() public {
        IMulticaller.Call[] memory calls = new IMulticaller.Call[](2);
        calls[0] = _call(abi.encodeCall(CallTarget.record, (1)), 0, false);
        calls[1] = _call(abi.encodeCall(CallTarget.boom, (7)), 0, false);

        vm.expectRevert(
            abi.encodeWithSelector(
                IMulticaller.CallReverted.selector, 1, abi.encodeWithSelector(CallTarget.Boom.selector, 7)
            )
        );
        vm.prank(caller);
        multicaller.multicall(calls, refundTo, _noTokens());
    }

    function test_multicall_revertsIfRefundFails() public {
        address rejecting = address(new RevertingRecipient());

        vm.expectRevert(abi.encodeWithSelector(IMulticaller.RefundFailed.selector, rejecting));
        vm.prank(caller);
        multicaller.multicall{value: 1}(new IMulticaller.Call[](0), rejecting, _noTokens());
    }

    function test_multicall_revertsIfTokenRefundFails() public {
        FalseReturnToken falseToken = new FalseReturnToken();
        falseToken.mint(address(multicaller), 5);
        address[] memory sweep = new address[](1);
        sweep[0] = address(falseToken);

        vm.expectRevert(abi.encodeWithSelector(IMulticaller.RefundFailed.selector, refundTo));
        vm.prank(caller);
        multicaller.multicall(new IMulticaller.Call[](0), refundTo, sweep);
    }

    function test_multicall_revertsIfReentered() public {
        IMulticaller.Call[] memory calls = new IMulticaller.Call[](1);
        calls[0] = _call(abi.encodeCall(CallTarget.reenter, (multicaller)), 0, false);

        vm.expectRevert(
            abi.encodeWithSelector(
                IMulticaller.CallReverted.selector,
                0,
                abi.encodeWithSelector(ReentrancyGuardTransient.ReentrancyGuardReentrantCall.selector)
            )
        );
        vm.prank(caller);
        multicaller.multicall(calls, refundTo, _noTokens());
    }

    function test_receive_revertsOutsideMulticall() public {
        vm.prank(caller);
        (bool ok, bytes memory reason) = address(multicaller).call{value: 1}("");
        assertFalse(ok);
        assertEq(reason, abi.encodeWithSelector(IMulticaller.UnexpectedNativeTransfer.selector));
        assertEq(address(multicaller).balance, 0);
    }

    // ================================================================ calls

    function test_multicall_runsCallsInOrderAndReturnsResults() public {
        IMulticaller.Call[] memory calls = new IMulticaller.Call[](3);
        calls[0] = _call(abi.encodeCall(CallTarget.record, (1)), 0, false);
        calls[1] = _call(abi.encodeCall(CallTarget.record, (2)), 0, false);
        calls[2] = _call(abi.encodeCall(CallTarget.pay, ()), 0.4 ether, false);

        vm.expectEmit(true, true, false, true, address(multicaller));
        emit IMulticaller.Multicalled(caller, refundTo, 3);
        vm.prank(caller);
        IMulticaller.Result[] memory results = multicaller.multicall{value: 0.4 ether}(calls, refundTo, _noTokens());

        assertEq(results.length, 3);
        assertTrue(results[0].success && results[1].success && results[2].success);
        assertEq(abi.decode(results[0].returnData, (uint256)), 2);
        assertEq(abi.decode(results[1].returnData, (uint256)), 4);
        assertEq(target.log(0), 1);
        assertEq(target.log(1), 2);
        assertEq(target.received(), 0.4 ether);
    }

    function test_multicall_recordsFailureIfAllowed() public {
        IMulticaller.Call[] memory calls = new IMulticaller.Call[](2);
        calls[0] = _call(abi.encodeCall(CallTarget.boom, (9)), 0, true);
        calls[1] = _call(abi.encodeCall(CallTarget.record, (3)), 0, false);

        vm.prank(caller);
        IMulticaller.Result[] memory results = multicaller.multicall{value: 0.1 ether}(calls, refundTo, _noTokens());

        assertFalse(results[0].success);
        assertEq(results[0].returnData, abi.encodeWithSelector(CallTarget.Boom.selector, 9));
        assertTrue(results[1].success);
        assertEq(target.logLength(), 1);
        assertEq(refundTo.balance, 0.1 ether, "unspent value is refunded");
    }

    function test_multicall_spendsOwnBalance() public {
        vm.deal(address(multicaller), 1 ether); // e.g. force-sent
        IMulticaller.Call[] memory calls = new IMulticaller.Call[](1);
        calls[0] = _call(abi.encodeCall(CallTarget.pay, ()), 1.2 ether, false);

        vm.prank(caller);
        multicaller.multicall{value: 0.5 ether}(calls, refundTo, _noTokens());

        assertEq(target.received(), 1.2 ether);
        assertEq(refundTo.balance, 0.3 ether);
        assertEq(address(multicaller).balance, 0);
    }

    // ================================================================ sweeps

    function test_multicall_refundsNativeLeftover() public {
        IMulticaller.Call[] memory calls = new IMulticaller.Call[](1);
        calls[0] = _call(abi.encodeCall(CallTarget.refundHalf, ()), 1 ether, false);

        vm.prank(caller);
        multicaller.multicall{value: 3 ether}(calls, refundTo, _noTokens());

        assertEq(target.received(), 0.5 ether);
        assertEq(refundTo.balance, 2.5 ether, "unspent value and the call's refund");
        assertEq(address(multicaller).balance, 0);
    }

    function test_multicall_skipsRefundWhenNothingLeft() public {
        address rejecting = address(new RevertingRecipient());
        IMulticaller.Call[] memory calls = new IMulticaller.Call[](1);
        calls[0] = _call(abi.encodeCall(CallTarget.pay, ()), 1 ether, false);

        vm.prank(caller);
        multicaller.multicall{value: 1 ether}(calls, rejecting, _noTokens());
        assertEq(target.received(), 1 ether);
    }

    function test_multicall_sweepsListedTokens() public {
        NoReturnToken usdt = new NoReturnToken();
        usdt.mint(address(multicaller), 7);
        IMulticaller.Call[] memory calls = new IMulticaller.Call[](1);
        calls[0] = _call(abi.encodeCall(CallTarget.dropTokens, (token, 42)), 0, false);
        address[] memory sweep = new address[](2);
        sweep[0] = address(token);
        sweep[1] = address(usdt);

        vm.prank(caller);
        multicaller.multicall(calls, refundTo, sweep);

        assertEq(token.balanceOf(refundTo), 42);
        assertEq(usdt.balanceOf(refundTo), 7, "tokens without return values sweep too");
        assertEq(token.balanceOf(address(multicaller)), 0);
        assertEq(usdt.balanceOf(address(multicaller)), 0);
    }

    function test_multicall_skipsZeroTokenBalance() public {
        FalseReturnToken falseToken = new FalseReturnToken(); // would fail a transfer, but none is made
        address[] memory sweep = new address[](2);
        sweep[0] = address(token);
        sweep[1] = address(falseToken);

        vm.prank(caller);
        multicaller.multicall(new IMulticaller.Call[](0), refundTo, sweep);
        assertEq(token.balanceOf(refundTo), 0);
    }

    function test_multicall_boundsGasOfNativeSweep() public {
        // A refundTo whose receive burns 5M gas gets at most 50,000: the sweep fails (the caller,
        // who chose refundTo, keeps its funds) instead of costing the caller the burn.
        GasBurningRecipient burner = new GasBurningRecipient(5_000_000);
        vm.deal(address(this), 1 ether);
        vm.expectRevert(abi.encodeWithSelector(IMulticaller.RefundFailed.selector, address(burner)));
        multicaller.multicall{value: 1 ether, gas: 10_000_000}(new IMulticaller.Call[](0), address(burner), new address[](0));
    }
}
