// SPDX-License-Identifier: MIT
pragma solidity 0.8.30;

import {Test} from "forge-std/Test.sol";
import {LibClone} from "solady/src/utils/LibClone.sol";
import {SafeTransferLib} from "solady/src/utils/SafeTransferLib.sol";

import {Depository} from "../../contracts/Depository.sol";
import {DepositAddressFactory} from "../../contracts/DepositAddressFactory.sol";
import {DepositForwarder} from "../../contracts/DepositForwarder.sol";
import {IDepository} from "../../contracts/interfaces/IDepository.sol";
import {IDepositAddressFactory} from "../../contracts/interfaces/IDepositAddressFactory.sol";
import {IDepositForwarder} from "../../contracts/interfaces/IDepositForwarder.sol";
import {MockStablecoin} from "../../contracts/mocks/MockStablecoin.sol";
import {MockERC1271Wallet} from "../../contracts/mocks/MockERC1271Wallet.sol";
import {NoReturnToken} from "../../contracts/mocks/NoReturnToken.sol";
import {FalseReturnToken} from "../../contracts/mocks/FalseReturnToken.sol";
import {FeeOnTransferToken} from "../../contracts/mocks/FeeOnTransferToken.sol";
import {RevertingRecipient} from "../../contracts/mocks/RevertingRecipient.sol";

/// @notice Pays with Solidity's `transfer` (2,300 gas stipend), as an old contract wallet does.
contract StipendPayer {
    function pay(address payable to) external payable {
        to.transfer(msg.value);
    }
}

/// @notice Shared fixture of the deposit-address suites (unit, fuzz, invariant, exploit), with an
/// EIP-712 encoder and CREATE2 derivation of its own: the tests check the contracts, not reuse them.
abstract contract DepositAddressTestBase is Test {
    bytes32 internal constant DOMAIN_TYPEHASH =
        keccak256("EIP712Domain(string name,string version,uint256 chainId,address verifyingContract)");
    bytes32 internal constant INSTRUCTION_TYPEHASH = keccak256(
        "ForwardInstruction(address forwarder,uint8 action,bytes32 orderId,address token,uint256 amount,bytes32 id,uint256 deadline)"
    );
    bytes32 internal constant ORDER_ID = keccak256("order-1");

    address internal owner = makeAddr("owner");
    address internal payer = makeAddr("payer");
    address internal refundee = makeAddr("refundee");
    address internal allocator;
    uint256 internal allocatorKey;

    Depository internal depository;
    DepositAddressFactory internal factory;
    MockStablecoin internal usdc;

    function setUp() public virtual {
        (allocator, allocatorKey) = makeAddrAndKey("allocator");
        depository = new Depository(owner, allocator);
        factory = new DepositAddressFactory(address(depository));
        usdc = new MockStablecoin("USD Coin", "USDC");
        vm.warp(1_750_000_000);
    }

    // ---------------------------------------------------------------- parameters and instructions

    function _strict(address refundTo, bytes32 orderId, address currency, uint256 amount)
        internal
        pure
        returns (IDepositAddressFactory.DepositAddress memory)
    {
        return IDepositAddressFactory.DepositAddress(
            refundTo, IDepositAddressFactory.Mode.Strict, orderId, currency, amount, bytes32(0)
        );
    }

    function _open(address refundTo, bytes32 route) internal pure returns (IDepositAddressFactory.DepositAddress memory) {
        return IDepositAddressFactory.DepositAddress(
            refundTo, IDepositAddressFactory.Mode.Open, bytes32(0), address(0), 0, route
        );
    }

    function _deposit(bytes32 orderId, address token, uint256 amount, bytes32 id)
        internal
        view
        returns (IDepositAddressFactory.ForwardInstruction memory)
    {
        return IDepositAddressFactory.ForwardInstruction(
            IDepositAddressFactory.Action.Deposit, orderId, token, amount, id, block.timestamp + 1 hours
        );
    }

    function _refund(address token, uint256 amount, bytes32 id)
        internal
        view
        returns (IDepositAddressFactory.ForwardInstruction memory)
    {
        return IDepositAddressFactory.ForwardInstruction(
            IDepositAddressFactory.Action.Refund, bytes32(0), token, amount, id, block.timestamp + 1 hours
        );
    }

    // ---------------------------------------------------------------- derivation, independently

    /// @dev CREATE2 address written out: keccak256(0xff ‖ factory ‖ salt ‖ keccak256(initCode)).
    function _expectedAddress(address factory_, address depository_, IDepositAddressFactory.DepositAddress memory p)
        internal
        view
        returns (address)
    {
        bytes32 salt =
            keccak256(abi.encode(depository_, p.refundTo, p.mode, p.orderId, p.currency, p.amount, p.route));
        address impl = DepositAddressFactory(factory_).implementation();
        bytes memory initCode = bytes.concat(
            hex"610047", // PUSH2 (0x33 runtime + 20 bytes of args)
            hex"3d81600a3d39f3",
            hex"36600557005b",
            hex"363d3d373d3d3d363d73",
            bytes20(impl),
            hex"5af43d82803e903d91603157fd5bf3",
            bytes20(p.refundTo)
        );
        return address(uint160(uint256(keccak256(abi.encodePacked(hex"ff", factory_, salt, keccak256(initCode))))));
    }

    function _digest(
        address factory_,
        uint256 chainId,
        address forwarder,
        IDepositAddressFactory.ForwardInstruction memory ins
    ) internal pure returns (bytes32) {
        bytes32 domain = keccak256(
            abi.encode(DOMAIN_TYPEHASH, keccak256("FerryDepositAddressFactory"), keccak256("1"), chainId, factory_)
        );
        bytes32 structHash = keccak256(
            abi.encode(
                INSTRUCTION_TYPEHASH, forwarder, ins.action, ins.orderId, ins.token, ins.amount, ins.id, ins.deadline
            )
        );
        return keccak256(abi.encodePacked("\x19\x01", domain, structHash));
    }

    function _signWith(uint256 key, address factory_, uint256 chainId, address forwarder, IDepositAddressFactory.ForwardInstruction memory ins)
        internal
        pure
        returns (bytes memory)
    {
        (uint8 v, bytes32 r, bytes32 s) = vm.sign(key, _digest(factory_, chainId, forwarder, ins));
        return abi.encodePacked(r, s, v);
    }

    /// @dev The allocator's signature of `ins` for the address of `p` on this factory and chain.
    function _sign(IDepositAddressFactory.DepositAddress memory p, IDepositAddressFactory.ForwardInstruction memory ins)
        internal
        view
        returns (bytes memory)
    {
        return _signWith(allocatorKey, address(factory), block.chainid, _expectedAddress(address(factory), address(depository), p), ins);
    }

    function _forward(IDepositAddressFactory.DepositAddress memory p, IDepositAddressFactory.ForwardInstruction memory ins)
        internal
        returns (address)
    {
        return factory.deployAndForward(p, ins, _sign(p, ins));
    }
}

/// @notice Unit tests: one per behaviour and one per revert, in the documented check order.
contract DepositAddressFactoryTest is DepositAddressTestBase {
    // ---------------------------------------------------------------- derivation

    function test_predict_matchesIndependentCreate2AndStrictOpenViews() public view {
        IDepositAddressFactory.DepositAddress memory s = _strict(refundee, ORDER_ID, address(usdc), 5e6);
        assertEq(factory.predict(s), _expectedAddress(address(factory), address(depository), s));
        assertEq(factory.predictStrict(refundee, ORDER_ID, address(usdc), 5e6), factory.predict(s));
        bytes32 route = factory.routeKey(31338, bytes32(uint256(uint160(address(usdc)))), bytes32(uint256(1)));
        assertEq(route, keccak256(abi.encode(uint256(31338), bytes32(uint256(uint160(address(usdc)))), bytes32(uint256(1)))));
        IDepositAddressFactory.DepositAddress memory o = _open(refundee, route);
        assertEq(factory.predict(o), _expectedAddress(address(factory), address(depository), o));
        assertEq(factory.predictOpen(refundee, 31338, bytes32(uint256(uint160(address(usdc)))), bytes32(uint256(1))), factory.predict(o));
        assertTrue(factory.predict(s) != factory.predict(o));
    }

    function test_implementation_isFactoryCreateAtNonce1() public view {
        assertEq(factory.implementation(), vm.computeCreateAddress(address(factory), 1));
        assertEq(factory.depository(), address(depository));
        assertEq(DepositForwarder(factory.implementation()).factory(), address(factory));
    }

    function test_deploy_putsTheCloneAtThePredictedAddressWithItsArgs() public {
        IDepositAddressFactory.DepositAddress memory p = _strict(refundee, ORDER_ID, address(0), 1 ether);
        address predicted = factory.predict(p);
        vm.expectEmit(true, true, true, true, address(factory));
        emit IDepositAddressFactory.ForwarderDeployed(predicted, refundee, IDepositAddressFactory.Mode.Strict, factory.saltOf(p));
        assertEq(factory.deploy(p), predicted);
        assertEq(predicted.code.length, 0x33 + 20);
        assertEq(IDepositForwarder(predicted).refundTo(), refundee);
        assertEq(IDepositForwarder(predicted).depository(), address(depository));
        assertEq(IDepositForwarder(predicted).factory(), address(factory));
        // A second deploy deploys nothing and returns the same address.
        vm.recordLogs();
        assertEq(factory.deploy(p), predicted);
        assertEq(vm.getRecordedLogs().length, 0);
    }

    // ---------------------------------------------------------------- receiving

    function test_undeployedAddress_acceptsNativeAndTokens() public {
        address a = factory.predict(_open(refundee, bytes32(uint256(7))));
        vm.deal(payer, 1 ether);
        vm.prank(payer);
        (bool ok,) = a.call{value: 1 ether}("");
        assertTrue(ok);
        usdc.mint(a, 5e6);
        assertEq(a.balance, 1 ether);
        assertEq(usdc.balanceOf(a), 5e6);
    }

    function test_deployedForwarder_acceptsStipendTransfer() public {
        address a = factory.deploy(_open(refundee, bytes32(uint256(7))));
        StipendPayer stipend = new StipendPayer();
        stipend.pay{value: 1 ether}(payable(a));
        assertEq(a.balance, 1 ether);
    }

    /// @dev Why ForwarderCloneLib and not LibClone's own clone: the same stipend transfer to a LibClone
    /// clone with immutable args of the same implementation reverts (its cold delegatecall needs 2,600).
    function test_libCloneCwia_rejectsStipendTransfer() public {
        address plain = LibClone.clone(factory.implementation(), abi.encodePacked(refundee));
        StipendPayer stipend = new StipendPayer();
        vm.expectRevert();
        stipend.pay{value: 1 ether}(payable(plain));
    }

    // ---------------------------------------------------------------- deposit

    function test_deployAndForward_strictNative_depositsUnderOrderForRefundee() public {
        IDepositAddressFactory.DepositAddress memory p = _strict(refundee, ORDER_ID, address(0), 1 ether);
        address a = factory.predict(p);
        vm.deal(a, 1 ether);
        IDepositAddressFactory.ForwardInstruction memory ins = _deposit(ORDER_ID, address(0), 1 ether, "i1");
        vm.expectEmit(true, true, true, true, address(depository));
        emit IDepository.Deposited(ORDER_ID, refundee, address(0), 1 ether);
        vm.expectEmit(true, true, true, true, address(factory));
        emit IDepositAddressFactory.Forwarded(a, "i1", IDepositAddressFactory.Action.Deposit, ORDER_ID, address(0), 1 ether);
        assertEq(_forward(p, ins), a);
        assertEq(address(depository).balance, 1 ether);
        assertEq(a.balance, 0);
        assertTrue(factory.instructionUsed(a, "i1"));
    }

    function test_deployAndForward_strictErc20_depositsAndLeavesNoAllowance() public {
        IDepositAddressFactory.DepositAddress memory p = _strict(refundee, ORDER_ID, address(usdc), 5e6);
        address a = factory.predict(p);
        usdc.mint(a, 7e6); // overpaid: the rest leaves by refund
        vm.expectEmit(true, true, true, true, address(depository));
        emit IDepository.Deposited(ORDER_ID, refundee, address(usdc), 5e6);
        _forward(p, _deposit(ORDER_ID, address(usdc), 5e6, "i1"));
        assertEq(usdc.balanceOf(address(depository)), 5e6);
        assertEq(usdc.allowance(a, address(depository)), 0);
        _forward(p, _refund(address(usdc), 2e6, "i2"));
        assertEq(usdc.balanceOf(refundee), 2e6);
        assertEq(usdc.balanceOf(a), 0);
    }

    function test_deployAndForward_open_depositsEachPaymentUnderItsOwnOrder() public {
        IDepositAddressFactory.DepositAddress memory p = _open(refundee, bytes32(uint256(7)));
        address a = factory.predict(p);
        vm.deal(a, 1 ether);
        _forward(p, _deposit(keccak256("a"), address(0), 1 ether, "i1"));
        vm.deal(a, 2 ether); // the reusable address is paid again, now deployed
        _forward(p, _deposit(keccak256("b"), address(0), 2 ether, "i2"));
        assertEq(address(depository).balance, 3 ether);
    }

    function test_deployAndForward_noReturnToken_depositsAndRefunds() public {
        NoReturnToken token = new NoReturnToken();
        IDepositAddressFactory.DepositAddress memory p = _open(refundee, bytes32(uint256(7)));
        address a = factory.predict(p);
        token.mint(a, 10);
        _forward(p, _deposit(ORDER_ID, address(token), 6, "i1"));
        _forward(p, _refund(address(token), 4, "i2"));
        assertEq(token.balanceOf(address(depository)), 6);
        assertEq(token.balanceOf(refundee), 4);
    }

    function test_deployAndForward_falseReturnToken_reverts() public {
        FalseReturnToken token = new FalseReturnToken();
        IDepositAddressFactory.DepositAddress memory p = _open(refundee, bytes32(uint256(7)));
        token.mint(factory.predict(p), 10);
        IDepositAddressFactory.ForwardInstruction memory ins = _refund(address(token), 10, "i1");
        bytes memory sig = _sign(p, ins);
        vm.expectRevert(SafeTransferLib.TransferFailed.selector);
        factory.deployAndForward(p, ins, sig);
    }

    function test_deployAndForward_feeOnTransfer_depositoryCreditsWhatArrived() public {
        FeeOnTransferToken fot = new FeeOnTransferToken(100); // 1 %
        IDepositAddressFactory.DepositAddress memory p = _open(refundee, bytes32(uint256(7)));
        address a = factory.predict(p);
        fot.mint(a, 1_000e18);
        vm.expectEmit(true, true, true, true, address(depository));
        emit IDepository.Deposited(ORDER_ID, refundee, address(fot), 990e18);
        _forward(p, _deposit(ORDER_ID, address(fot), 1_000e18, "i1"));
    }

    function test_deployAndForward_erc1271Allocator_isAccepted() public {
        MockERC1271Wallet wallet = new MockERC1271Wallet(allocator);
        Depository d = new Depository(owner, address(wallet));
        DepositAddressFactory f = new DepositAddressFactory(address(d));
        IDepositAddressFactory.DepositAddress memory p = _open(refundee, bytes32(uint256(7)));
        address a = f.predict(p);
        vm.deal(a, 1 ether);
        IDepositAddressFactory.ForwardInstruction memory ins = _refund(address(0), 1 ether, "i1");
        f.deployAndForward(p, ins, _signWith(allocatorKey, address(f), block.chainid, a, ins));
        assertEq(refundee.balance, 1 ether);
    }

    // ---------------------------------------------------------------- refund

    function test_refund_rejectingRecipient_isForceSent() public {
        RevertingRecipient rejecting = new RevertingRecipient();
        IDepositAddressFactory.DepositAddress memory p = _open(address(rejecting), bytes32(uint256(7)));
        vm.deal(factory.predict(p), 1 ether);
        _forward(p, _refund(address(0), 1 ether, "i1"));
        assertEq(address(rejecting).balance, 1 ether);
    }

    // ---------------------------------------------------------------- reverts, in check order

    function test_deployAndForward_revertsIfExpired() public {
        IDepositAddressFactory.DepositAddress memory p = _strict(refundee, ORDER_ID, address(0), 1 ether);
        IDepositAddressFactory.ForwardInstruction memory ins = _deposit(bytes32(0), address(0), 1 ether, "i1");
        ins.deadline = block.timestamp - 1;
        // Expired comes before the (also failing) binding and signature checks.
        vm.expectRevert(abi.encodeWithSelector(IDepositAddressFactory.InstructionExpired.selector, ins.deadline));
        factory.deployAndForward(p, ins, "");
    }

    function test_deployAndForward_deadlineSecondItselfIsValid() public {
        IDepositAddressFactory.DepositAddress memory p = _open(refundee, bytes32(uint256(7)));
        vm.deal(factory.predict(p), 1);
        IDepositAddressFactory.ForwardInstruction memory ins = _refund(address(0), 1, "i1");
        ins.deadline = block.timestamp;
        _forward(p, ins);
    }

    function test_deployAndForward_strict_revertsIfOrderIdDiffers() public {
        IDepositAddressFactory.DepositAddress memory p = _strict(refundee, ORDER_ID, address(0), 1 ether);
        IDepositAddressFactory.ForwardInstruction memory ins = _deposit(keccak256("other"), address(usdc), 2, "i1");
        vm.expectRevert(abi.encodeWithSelector(IDepositAddressFactory.OrderIdMismatch.selector, keccak256("other"), ORDER_ID));
        factory.deployAndForward(p, ins, "");
    }

    function test_deployAndForward_strict_revertsIfCurrencyDiffers() public {
        IDepositAddressFactory.DepositAddress memory p = _strict(refundee, ORDER_ID, address(0), 1 ether);
        IDepositAddressFactory.ForwardInstruction memory ins = _deposit(ORDER_ID, address(usdc), 2, "i1");
        vm.expectRevert(abi.encodeWithSelector(IDepositAddressFactory.CurrencyMismatch.selector, address(usdc), address(0)));
        factory.deployAndForward(p, ins, "");
    }

    function test_deployAndForward_strict_revertsIfAmountDiffers() public {
        IDepositAddressFactory.DepositAddress memory p = _strict(refundee, ORDER_ID, address(0), 1 ether);
        IDepositAddressFactory.ForwardInstruction memory ins = _deposit(ORDER_ID, address(0), 2, "i1");
        vm.expectRevert(abi.encodeWithSelector(IDepositAddressFactory.AmountMismatch.selector, 2, 1 ether));
        factory.deployAndForward(p, ins, "");
    }

    function test_deployAndForward_strictRefund_isNotBound() public {
        IDepositAddressFactory.DepositAddress memory p = _strict(refundee, ORDER_ID, address(0), 1 ether);
        usdc.mint(factory.predict(p), 3); // a wrong token sent to a strict address still leaves
        _forward(p, _refund(address(usdc), 3, "i1"));
        assertEq(usdc.balanceOf(refundee), 3);
    }

    function test_deployAndForward_revertsIfNotAllocator() public {
        (, uint256 otherKey) = makeAddrAndKey("other");
        IDepositAddressFactory.DepositAddress memory p = _open(refundee, bytes32(uint256(7)));
        address a = factory.predict(p);
        IDepositAddressFactory.ForwardInstruction memory ins = _refund(address(0), 1, "i1");
        bytes memory sig = _signWith(otherKey, address(factory), block.chainid, a, ins);
        vm.expectRevert(abi.encodeWithSelector(IDepositAddressFactory.SignerNotAllocator.selector, vm.addr(otherKey)));
        factory.deployAndForward(p, ins, sig);
    }

    function test_deployAndForward_revertsIfReplayed() public {
        IDepositAddressFactory.DepositAddress memory p = _open(refundee, bytes32(uint256(7)));
        address a = factory.predict(p);
        vm.deal(a, 2);
        IDepositAddressFactory.ForwardInstruction memory ins = _refund(address(0), 1, "i1");
        bytes memory sig = _sign(p, ins);
        factory.deployAndForward(p, ins, sig);
        vm.expectRevert(abi.encodeWithSelector(IDepositAddressFactory.InstructionAlreadyUsed.selector, a, bytes32("i1")));
        factory.deployAndForward(p, ins, sig);
    }

    function test_deployAndForward_revertsIfBalanceShort() public {
        IDepositAddressFactory.DepositAddress memory p = _open(refundee, bytes32(uint256(7)));
        address a = factory.predict(p);
        usdc.mint(a, 4);
        IDepositAddressFactory.ForwardInstruction memory ins = _deposit(ORDER_ID, address(usdc), 5, "i1");
        bytes memory sig = _sign(p, ins);
        vm.expectRevert(abi.encodeWithSelector(IDepositForwarder.InsufficientBalance.selector, address(usdc), 4, 5));
        factory.deployAndForward(p, ins, sig);
        assertFalse(factory.instructionUsed(a, "i1")); // reverted as a whole
        assertEq(a.code.length, 0);
    }

    function test_forwarder_revertsIfCallerNotFactory() public {
        address a = factory.deploy(_open(refundee, bytes32(uint256(7))));
        vm.expectRevert(abi.encodeWithSelector(IDepositForwarder.CallerNotFactory.selector, payer));
        vm.prank(payer);
        IDepositForwarder(a).refund(address(0), 0);
        vm.expectRevert(abi.encodeWithSelector(IDepositForwarder.CallerNotFactory.selector, payer));
        vm.prank(payer);
        IDepositForwarder(a).deposit(ORDER_ID, address(0), 0);
    }

    function test_instructionDigest_matchesIndependentEncoding() public view {
        address a = factory.predict(_open(refundee, bytes32(uint256(7))));
        IDepositAddressFactory.ForwardInstruction memory ins = _deposit(ORDER_ID, address(usdc), 5, "i1");
        assertEq(factory.instructionDigest(a, ins), _digest(address(factory), block.chainid, a, ins));
    }
}
