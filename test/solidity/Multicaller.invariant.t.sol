// SPDX-License-Identifier: MIT
pragma solidity 0.8.30;

import {Test} from "forge-std/Test.sol";

import {Multicaller} from "../../contracts/Multicaller.sol";
import {IMulticaller} from "../../contracts/interfaces/IMulticaller.sol";
import {MockStablecoin} from "../../contracts/mocks/MockStablecoin.sol";
import {CallTarget} from "./Multicaller.t.sol";

/// @notice Random multicalls: value spent, value handed back, tokens dropped into the Multicaller,
/// tolerated failures, balances force-fed beforehand.
contract MulticallHandler is Test {
    Multicaller internal immutable multicaller;
    CallTarget internal immutable target;
    MockStablecoin internal immutable token;
    address internal immutable refundTo;

    uint256 public calls;
    uint256 public reverts;

    constructor(Multicaller multicaller_, CallTarget target_, MockStablecoin token_, address refundTo_) {
        multicaller = multicaller_;
        target = target_;
        token = token_;
        refundTo = refundTo_;
    }

    function multicall(
        uint256 value,
        uint256 spend,
        uint256 refunded,
        uint256 dropped,
        uint256 forced,
        bool withFailure,
        bool emptySweepList
    ) external {
        value = bound(value, 0, 10 ether);
        forced = bound(forced, 0, 1 ether);
        spend = bound(spend, 0, value + forced);
        refunded = bound(refunded, 0, value + forced - spend);
        // With an empty sweep list the calls drop no tokens: only native currency is swept.
        dropped = emptySweepList ? 0 : bound(dropped, 0, 1e12);
        vm.deal(address(this), value);
        vm.deal(address(multicaller), forced); // e.g. force-sent between calls

        IMulticaller.Call[] memory batch = new IMulticaller.Call[](withFailure ? 4 : 3);
        batch[0] = IMulticaller.Call(address(target), false, spend, abi.encodeCall(CallTarget.pay, ()));
        batch[1] = IMulticaller.Call(address(target), false, refunded, abi.encodeCall(CallTarget.refundHalf, ()));
        batch[2] =
            IMulticaller.Call(address(target), false, 0, abi.encodeCall(CallTarget.dropTokens, (token, dropped)));
        if (withFailure) {
            batch[3] = IMulticaller.Call(address(target), true, 0, abi.encodeCall(CallTarget.boom, (1)));
        }
        address[] memory sweep = new address[](emptySweepList ? 0 : 1);
        if (!emptySweepList) sweep[0] = address(token);

        // Every generated batch is valid: a revert would mean the handler exercised nothing.
        try multicaller.multicall{value: value}(batch, refundTo, sweep) {
            ++calls;
        } catch {
            ++reverts;
        }
    }
}

/// @notice Invariant: the Multicaller never keeps native currency or a listed token after a call.
contract MulticallerInvariantTest is Test {
    Multicaller internal multicaller;
    MockStablecoin internal token;
    MulticallHandler internal handler;

    function setUp() public {
        multicaller = new Multicaller();
        token = new MockStablecoin("USD Coin", "USDC");
        handler = new MulticallHandler(multicaller, new CallTarget(), token, makeAddr("refundTo"));
        targetContract(address(handler));
    }

    function invariant_keepsNoNativeBalance() public view {
        assertEq(address(multicaller).balance, 0);
    }

    function invariant_keepsNoTokenBalance() public view {
        assertEq(token.balanceOf(address(multicaller)), 0);
    }

    function invariant_validBatchesNeverRevert() public view {
        assertEq(handler.reverts(), 0);
    }
}
