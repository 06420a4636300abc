// SPDX-License-Identifier: MIT
pragma solidity 0.8.30;

import {IDepositAddressFactory} from "../../contracts/interfaces/IDepositAddressFactory.sol";
import {IDepositForwarder} from "../../contracts/interfaces/IDepositForwarder.sol";
import {DepositAddressTestBase} from "./DepositAddressFactory.t.sol";

/// @notice Fuzz twins of the unit tests: any parameters, any instruction.
contract DepositAddressFactoryFuzzTest is DepositAddressTestBase {
    function _params(address refundTo, bool open, bytes32 orderId, address currency, uint256 amount, bytes32 route)
        internal
        pure
        returns (IDepositAddressFactory.DepositAddress memory)
    {
        return IDepositAddressFactory.DepositAddress(
            refundTo, open ? IDepositAddressFactory.Mode.Open : IDepositAddressFactory.Mode.Strict, orderId, currency, amount, route
        );
    }

    function testFuzz_deploy_landsAtPredictedAddress(
        address refundTo,
        bool open,
        bytes32 orderId,
        address currency,
        uint256 amount,
        bytes32 route
    ) public {
        IDepositAddressFactory.DepositAddress memory p = _params(refundTo, open, orderId, currency, amount, route);
        address predicted = factory.predict(p);
        assertEq(predicted, _expectedAddress(address(factory), address(depository), p));
        assertEq(factory.deploy(p), predicted);
        assertEq(IDepositForwarder(predicted).refundTo(), refundTo);
    }

    function testFuzz_differentParameters_differentAddress(address refundA, address refundB, bytes32 routeA, bytes32 routeB) public view {
        vm.assume(refundA != refundB || routeA != routeB);
        assertTrue(factory.predict(_open(refundA, routeA)) != factory.predict(_open(refundB, routeB)));
    }

    function testFuzz_strictDeposit_revertsUnderAnyOtherOrder(bytes32 bound, bytes32 other, uint96 amount) public {
        vm.assume(bound != other && amount > 0);
        IDepositAddressFactory.DepositAddress memory p = _strict(refundee, bound, address(0), amount);
        vm.deal(factory.predict(p), amount);
        IDepositAddressFactory.ForwardInstruction memory ins = _deposit(other, address(0), amount, "i");
        bytes memory sig = _sign(p, ins);
        vm.expectRevert(abi.encodeWithSelector(IDepositAddressFactory.OrderIdMismatch.selector, other, bound));
        factory.deployAndForward(p, ins, sig);
    }

    function testFuzz_signatureForOneAddress_failsOnAnother(bytes32 routeA, bytes32 routeB, uint96 amount) public {
        vm.assume(routeA != routeB);
        IDepositAddressFactory.DepositAddress memory pa = _open(refundee, routeA);
        IDepositAddressFactory.DepositAddress memory pb = _open(refundee, routeB);
        vm.deal(factory.predict(pb), amount);
        IDepositAddressFactory.ForwardInstruction memory ins = _refund(address(0), amount, "i");
        bytes memory sig = _sign(pa, ins);
        vm.expectRevert();
        factory.deployAndForward(pb, ins, sig);
    }

    function testFuzz_depositThenRefund_splitsExactly(uint96 paid, uint96 deposited) public {
        vm.assume(deposited > 0 && deposited <= paid);
        IDepositAddressFactory.DepositAddress memory p = _open(refundee, bytes32(uint256(7)));
        address a = factory.predict(p);
        usdc.mint(a, paid);
        _forward(p, _deposit(ORDER_ID, address(usdc), deposited, "d"));
        if (paid > deposited) _forward(p, _refund(address(usdc), paid - deposited, "r"));
        assertEq(usdc.balanceOf(address(depository)), deposited);
        assertEq(usdc.balanceOf(refundee), paid - deposited);
        assertEq(usdc.balanceOf(a), 0);
    }
}
