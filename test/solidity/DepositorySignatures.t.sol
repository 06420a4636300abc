// SPDX-License-Identifier: MIT
pragma solidity 0.8.30;

import {DeployPermit2} from "@uniswap/v4-periphery/lib/permit2/test/utils/DeployPermit2.sol";

import {IDepository} from "../../contracts/interfaces/IDepository.sol";
import {RevertingRecipient} from "../../contracts/mocks/RevertingRecipient.sol";
import {DepositoryTestBase} from "./Depository.t.sol";

/// @notice What the tests read of the canonical Permit2.
interface IPermit2Domain {
    function DOMAIN_SEPARATOR() external view returns (bytes32);
}

/// @notice Fixture of the signature-authorised deposits and the settlement: the canonical Permit2 at its
/// canonical address (Uniswap's own bytecode, etched as Uniswap's DeployPermit2 helper does), a depositor
/// with a key, and independent encoders of every signed type (written out again on purpose).
abstract contract DepositorySignaturesBase is DepositoryTestBase {
    address internal constant PERMIT2 = 0x000000000022D473030F116dDEE9F6B43aC78BA3;
    bytes32 internal constant EIP2612_PERMIT_TYPEHASH =
        keccak256("Permit(address owner,address spender,uint256 value,uint256 nonce,uint256 deadline)");
    bytes32 internal constant PERMIT_DEPOSIT_TYPEHASH =
        keccak256("PermitDeposit(address depositor,address token,uint256 amount,bytes32 id,uint256 deadline)");
    bytes32 internal constant TOKEN_PERMISSIONS_TYPEHASH = keccak256("TokenPermissions(address token,uint256 amount)");
    bytes32 internal constant PERMIT2_WITNESS_TYPEHASH = keccak256(
        "PermitWitnessTransferFrom(TokenPermissions permitted,address spender,uint256 nonce,uint256 deadline,FerryDeposit witness)FerryDeposit(bytes32 orderId)TokenPermissions(address token,uint256 amount)"
    );
    bytes32 internal constant FERRY_DEPOSIT_TYPEHASH = keccak256("FerryDeposit(bytes32 orderId)");
    bytes32 internal constant SETTLEMENT_REQUEST_TYPEHASH = keccak256(
        "SettlementRequest(Call[] calls,Call[] credits,uint256 nonce,uint256 expiration)Call(address to,address token,uint256 amount)"
    );

    bytes32 internal constant ORDER = keccak256("permit-order");
    uint256 internal constant AMOUNT = 250e6;

    address internal payer;
    uint256 internal payerKey;
    address internal relayer = makeAddr("relayer");
    address internal attacker = makeAddr("attacker");

    function setUp() public virtual override {
        super.setUp();
        (payer, payerKey) = makeAddrAndKey("payer");
        new DeployPermit2().run();
        usdc.mint(payer, 1_000e6);
    }

    // ---------------------------------------------------------------- EIP-2612

    function _eip2612(uint256 key, address owner_, address spender, uint256 value, uint256 deadline)
        internal
        view
        returns (uint8 v, bytes32 r, bytes32 s)
    {
        bytes32 structHash =
            keccak256(abi.encode(EIP2612_PERMIT_TYPEHASH, owner_, spender, value, usdc.nonces(owner_), deadline));
        return vm.sign(key, keccak256(abi.encodePacked("\x19\x01", usdc.DOMAIN_SEPARATOR(), structHash)));
    }

    function _permitDeposit(bytes32 id) internal view returns (IDepository.PermitDeposit memory) {
        return IDepository.PermitDeposit({
            depositor: payer, token: address(usdc), amount: AMOUNT, id: id, deadline: block.timestamp + 300
        });
    }

    function _authorize(uint256 key, IDepository.PermitDeposit memory d) internal view returns (bytes memory) {
        bytes32 structHash =
            keccak256(abi.encode(PERMIT_DEPOSIT_TYPEHASH, d.depositor, d.token, d.amount, d.id, d.deadline));
        return _sign(key, keccak256(abi.encodePacked("\x19\x01", _domainSeparator(address(depository)), structHash)));
    }

    // ---------------------------------------------------------------- Permit2

    function _permit2(uint256 key, address spender, uint256 amount, uint256 nonce, uint256 deadline, bytes32 orderId)
        internal
        view
        returns (bytes memory)
    {
        bytes32 permissions = keccak256(abi.encode(TOKEN_PERMISSIONS_TYPEHASH, address(usdc), amount));
        bytes32 witness = keccak256(abi.encode(FERRY_DEPOSIT_TYPEHASH, orderId));
        bytes32 structHash =
            keccak256(abi.encode(PERMIT2_WITNESS_TYPEHASH, permissions, spender, nonce, deadline, witness));
        bytes32 digest =
            keccak256(abi.encodePacked("\x19\x01", IPermit2Domain(PERMIT2).DOMAIN_SEPARATOR(), structHash));
        return _sign(key, digest);
    }

    function _approvePermit2() internal {
        vm.prank(payer);
        usdc.approve(PERMIT2, type(uint256).max);
    }

    // ---------------------------------------------------------------- settlement

    function _hashCalls(IDepository.Call[] memory calls) internal pure returns (bytes32) {
        bytes memory hashes;
        for (uint256 i; i < calls.length; ++i) {
            hashes = bytes.concat(
                hashes, keccak256(abi.encode(CALL_TYPEHASH, calls[i].to, calls[i].token, calls[i].amount))
            );
        }
        return keccak256(hashes);
    }

    function _hashSettlement(IDepository.SettlementRequest memory request) internal pure returns (bytes32) {
        return keccak256(
            abi.encode(
                SETTLEMENT_REQUEST_TYPEHASH,
                _hashCalls(request.calls),
                _hashCalls(request.credits),
                request.nonce,
                request.expiration
            )
        );
    }

    function _signSettlement(uint256 key, IDepository.SettlementRequest memory request)
        internal
        view
        returns (bytes memory)
    {
        return _sign(
            key, keccak256(abi.encodePacked("\x19\x01", _domainSeparator(address(depository)), _hashSettlement(request)))
        );
    }

    /// @dev Repay `solverAmount` of USDC to the solver and credit `fee` to `app`, nonce `nonce`.
    function _settlement(address payee, uint256 solverAmount, address app, uint256 fee, uint256 nonce)
        internal
        view
        returns (IDepository.SettlementRequest memory request)
    {
        request.calls = new IDepository.Call[](1);
        request.calls[0] = IDepository.Call({to: payee, token: address(usdc), amount: solverAmount});
        request.credits = new IDepository.Call[](1);
        request.credits[0] = IDepository.Call({to: app, token: address(usdc), amount: fee});
        request.nonce = nonce;
        request.expiration = block.timestamp + 1 hours;
    }
}

contract DepositorySignaturesTest is DepositorySignaturesBase {
    address internal app = makeAddr("app");

    // ---------------------------------------------------------------- depositErc20Permit, checks in order

    function test_depositErc20Permit_revertsIfZeroId() public {
        IDepository.PermitDeposit memory d = _permitDeposit(bytes32(0));
        (uint8 v, bytes32 r, bytes32 s) = _eip2612(payerKey, payer, address(depository), AMOUNT, d.deadline);
        vm.expectRevert(IDepository.ZeroOrderId.selector);
        vm.prank(relayer);
        depository.depositErc20Permit(d, v, r, s, _authorize(allocatorKey, d));
    }

    function test_depositErc20Permit_revertsIfZeroDepositor() public {
        IDepository.PermitDeposit memory d = _permitDeposit(ORDER);
        d.depositor = address(0);
        vm.expectRevert(IDepository.ZeroDepositor.selector);
        vm.prank(relayer);
        depository.depositErc20Permit(d, 27, bytes32(0), bytes32(0), _authorize(allocatorKey, d));
    }

    function test_depositErc20Permit_revertsIfExpired() public {
        IDepository.PermitDeposit memory d = _permitDeposit(ORDER);
        (uint8 v, bytes32 r, bytes32 s) = _eip2612(payerKey, payer, address(depository), AMOUNT, d.deadline);
        bytes memory authorization = _authorize(allocatorKey, d);
        vm.warp(d.deadline + 1);
        vm.expectRevert(abi.encodeWithSelector(IDepository.PermitDepositExpired.selector, d.deadline));
        vm.prank(relayer);
        depository.depositErc20Permit(d, v, r, s, authorization);
    }

    function test_depositErc20Permit_revertsIfAuthorizationNotAllocator() public {
        IDepository.PermitDeposit memory d = _permitDeposit(ORDER);
        (uint8 v, bytes32 r, bytes32 s) = _eip2612(payerKey, payer, address(depository), AMOUNT, d.deadline);
        (address other, uint256 otherKey) = makeAddrAndKey("not-the-allocator");
        vm.expectRevert(abi.encodeWithSelector(IDepository.SignerNotAllocator.selector, other));
        vm.prank(relayer);
        depository.depositErc20Permit(d, v, r, s, _authorize(otherKey, d));
    }

    function test_depositErc20Permit_revertsIfReplayed() public {
        IDepository.PermitDeposit memory d = _permitDeposit(ORDER);
        (uint8 v, bytes32 r, bytes32 s) = _eip2612(payerKey, payer, address(depository), AMOUNT, d.deadline);
        bytes memory authorization = _authorize(allocatorKey, d);
        vm.prank(relayer);
        depository.depositErc20Permit(d, v, r, s, authorization);
        // The payer approves the Depository again (e.g. for another deposit of its own): the old
        // authorisation must not pull that allowance under the old order a second time.
        vm.prank(payer);
        usdc.approve(address(depository), AMOUNT);
        vm.expectRevert(abi.encodeWithSelector(IDepository.PermitDepositReplayed.selector, ORDER));
        vm.prank(attacker);
        depository.depositErc20Permit(d, v, r, s, authorization);
    }

    function test_depositErc20Permit_revertsIfPermitInvalidAndNoAllowance() public {
        IDepository.PermitDeposit memory d = _permitDeposit(ORDER);
        // A permit for less than the deposit: the token rejects it, and no allowance covers the amount.
        (uint8 v, bytes32 r, bytes32 s) = _eip2612(payerKey, payer, address(depository), AMOUNT - 1, d.deadline);
        vm.expectRevert(abi.encodeWithSelector(IDepository.PermitNotUsable.selector, address(usdc), payer, 0));
        vm.prank(relayer);
        depository.depositErc20Permit(d, v, r, s, _authorize(allocatorKey, d));
    }

    function test_depositErc20Permit_revertsIfNothingArrives() public {
        IDepository.PermitDeposit memory d = _permitDeposit(ORDER);
        d.amount = 0;
        (uint8 v, bytes32 r, bytes32 s) = _eip2612(payerKey, payer, address(depository), 0, d.deadline);
        vm.expectRevert(IDepository.ZeroDeposit.selector);
        vm.prank(relayer);
        depository.depositErc20Permit(d, v, r, s, _authorize(allocatorKey, d));
    }

    function test_depositErc20Permit_pullsFromDepositorAndEmits() public {
        IDepository.PermitDeposit memory d = _permitDeposit(ORDER);
        (uint8 v, bytes32 r, bytes32 s) = _eip2612(payerKey, payer, address(depository), AMOUNT, d.deadline);
        vm.expectEmit(true, true, true, true, address(depository));
        emit IDepository.Deposited(ORDER, payer, address(usdc), AMOUNT);
        vm.prank(relayer);
        depository.depositErc20Permit(d, v, r, s, _authorize(allocatorKey, d));
        assertEq(usdc.balanceOf(payer), 1_000e6 - AMOUNT);
        assertEq(usdc.balanceOf(address(depository)), AMOUNT);
        assertEq(usdc.balanceOf(relayer), 0);
        assertEq(usdc.allowance(payer, address(depository)), 0);
        assertTrue(depository.permitDeposited(ORDER));
    }

    // ---------------------------------------------------------------- depositPermit2, checks in order

    function test_depositPermit2_revertsIfZeroId() public {
        _approvePermit2();
        uint256 deadline = block.timestamp + 300;
        bytes memory sig = _permit2(payerKey, address(depository), AMOUNT, 1, deadline, bytes32(0));
        vm.expectRevert(IDepository.ZeroOrderId.selector);
        depository.depositPermit2(payer, address(usdc), AMOUNT, bytes32(0), 1, deadline, sig);
    }

    function test_depositPermit2_revertsIfZeroDepositor() public {
        vm.expectRevert(IDepository.ZeroDepositor.selector);
        depository.depositPermit2(address(0), address(usdc), AMOUNT, ORDER, 1, block.timestamp, "");
    }

    function test_depositPermit2_revertsIfSignatureExpired() public {
        _approvePermit2();
        uint256 deadline = block.timestamp + 300;
        bytes memory sig = _permit2(payerKey, address(depository), AMOUNT, 1, deadline, ORDER);
        vm.warp(deadline + 1);
        vm.expectRevert(abi.encodeWithSignature("SignatureExpired(uint256)", deadline));
        depository.depositPermit2(payer, address(usdc), AMOUNT, ORDER, 1, deadline, sig);
    }

    function test_depositPermit2_revertsIfAmountNotTheSignedOne() public {
        _approvePermit2();
        uint256 deadline = block.timestamp + 300;
        bytes memory sig = _permit2(payerKey, address(depository), AMOUNT, 1, deadline, ORDER);
        vm.expectRevert(abi.encodeWithSignature("InvalidSigner()"));
        depository.depositPermit2(payer, address(usdc), AMOUNT + 1, ORDER, 1, deadline, sig);
    }

    function test_depositPermit2_revertsIfNonceUsed() public {
        _approvePermit2();
        uint256 deadline = block.timestamp + 300;
        bytes memory sig = _permit2(payerKey, address(depository), AMOUNT, 1, deadline, ORDER);
        depository.depositPermit2(payer, address(usdc), AMOUNT, ORDER, 1, deadline, sig);
        vm.expectRevert(abi.encodeWithSignature("InvalidNonce()"));
        depository.depositPermit2(payer, address(usdc), AMOUNT, ORDER, 1, deadline, sig);
    }

    function test_depositPermit2_revertsIfNothingArrives() public {
        _approvePermit2();
        uint256 deadline = block.timestamp + 300;
        bytes memory sig = _permit2(payerKey, address(depository), 0, 1, deadline, ORDER);
        vm.expectRevert(IDepository.ZeroDeposit.selector);
        depository.depositPermit2(payer, address(usdc), 0, ORDER, 1, deadline, sig);
    }

    function test_depositPermit2_pullsFromDepositorAndEmits() public {
        _approvePermit2();
        uint256 deadline = block.timestamp + 300;
        bytes memory sig = _permit2(payerKey, address(depository), AMOUNT, uint256(ORDER), deadline, ORDER);
        vm.expectEmit(true, true, true, true, address(depository));
        emit IDepository.Deposited(ORDER, payer, address(usdc), AMOUNT);
        vm.prank(relayer);
        depository.depositPermit2(payer, address(usdc), AMOUNT, ORDER, uint256(ORDER), deadline, sig);
        assertEq(usdc.balanceOf(payer), 1_000e6 - AMOUNT);
        assertEq(usdc.balanceOf(address(depository)), AMOUNT);
    }

    // ---------------------------------------------------------------- settle, checks in order

    function test_settle_revertsIfExpired() public {
        _fundUsdc(100e6);
        IDepository.SettlementRequest memory request = _settlement(solver, 90e6, app, 10e6, 1);
        bytes memory sig = _signSettlement(allocatorKey, request);
        vm.warp(request.expiration + 1);
        vm.expectRevert(abi.encodeWithSelector(IDepository.RequestExpired.selector, request.expiration));
        depository.settle(request, sig);
    }

    function test_settle_revertsIfSignerNotAllocator() public {
        _fundUsdc(100e6);
        IDepository.SettlementRequest memory request = _settlement(solver, 90e6, app, 10e6, 1);
        (address other, uint256 otherKey) = makeAddrAndKey("not-the-allocator");
        vm.expectRevert(abi.encodeWithSelector(IDepository.SignerNotAllocator.selector, other));
        depository.settle(request, _signSettlement(otherKey, request));
    }

    function test_settle_revertsIfNonceUsedByExecute() public {
        _fundUsdc(100e6);
        IDepository.CallRequest memory payout = _request(solver, address(usdc), 1e6, 5);
        depository.execute(payout, _signRequest(payout));
        IDepository.SettlementRequest memory request = _settlement(solver, 80e6, app, 10e6, 5);
        vm.expectRevert(abi.encodeWithSelector(IDepository.NonceAlreadyUsed.selector, 5));
        depository.settle(request, _signSettlement(allocatorKey, request));
    }

    function test_execute_revertsIfNonceUsedBySettle() public {
        _fundUsdc(100e6);
        IDepository.SettlementRequest memory request = _settlement(solver, 80e6, app, 10e6, 5);
        depository.settle(request, _signSettlement(allocatorKey, request));
        IDepository.CallRequest memory payout = _request(solver, address(usdc), 1e6, 5);
        bytes memory sig = _signRequest(payout);
        vm.expectRevert(abi.encodeWithSelector(IDepository.NonceAlreadyUsed.selector, 5));
        depository.execute(payout, sig);
    }

    function test_settle_revertsIfPayoutBalanceInsufficient() public {
        _fundUsdc(100e6);
        IDepository.SettlementRequest memory request = _settlement(solver, 101e6, app, 0, 1);
        vm.expectRevert(abi.encodeWithSelector(IDepository.InsufficientBalance.selector, 0, address(usdc), 100e6, 101e6));
        depository.settle(request, _signSettlement(allocatorKey, request));
    }

    function test_settle_revertsIfCreditNotBacked() public {
        _fundUsdc(100e6);
        IDepository.SettlementRequest memory request = _settlement(solver, 90e6, app, 11e6, 1);
        vm.expectRevert(abi.encodeWithSelector(IDepository.CreditNotBacked.selector, 0, address(usdc), 10e6, 11e6));
        depository.settle(request, _signSettlement(allocatorKey, request));
    }

    function test_settle_paysSolverAndCreditsApp() public {
        _fundUsdc(100e6);
        IDepository.SettlementRequest memory request = _settlement(solver, 90e6, app, 10e6, 1);
        vm.expectEmit(true, true, true, true, address(depository));
        emit IDepository.Credited(1, 0, app, address(usdc), 10e6);
        vm.expectEmit(true, true, true, true, address(depository));
        emit IDepository.RequestExecuted(_hashSettlement(request), 1);
        depository.settle(request, _signSettlement(allocatorKey, request));
        assertEq(usdc.balanceOf(solver), 90e6);
        assertEq(depository.claimable(app, address(usdc)), 10e6);
        assertEq(usdc.balanceOf(address(depository)), 10e6);
        assertTrue(depository.executed(1));

        vm.expectEmit(true, true, true, true, address(depository));
        emit IDepository.Claimed(app, address(usdc), app, 10e6);
        vm.prank(app);
        depository.claim(address(usdc), app);
        assertEq(usdc.balanceOf(app), 10e6);
        assertEq(usdc.balanceOf(address(depository)), 0);
    }

    function test_settle_accruesCreditsOfOneAppAcrossSettlements() public {
        _fundUsdc(100e6);
        IDepository.SettlementRequest memory first = _settlement(solver, 45e6, app, 5e6, 1);
        depository.settle(first, _signSettlement(allocatorKey, first));
        IDepository.SettlementRequest memory second = _settlement(solver, 40e6, app, 10e6, 2);
        depository.settle(second, _signSettlement(allocatorKey, second));
        assertEq(depository.claimable(app, address(usdc)), 15e6);
    }

    function test_settle_creditsAppWhenPayoutFails() public {
        _fundNative(1 ether);
        address rejecting = address(new RevertingRecipient());
        IDepository.SettlementRequest memory request;
        request.calls = new IDepository.Call[](1);
        request.calls[0] = IDepository.Call({to: rejecting, token: address(0), amount: 0.9 ether});
        request.credits = new IDepository.Call[](1);
        request.credits[0] = IDepository.Call({to: app, token: address(0), amount: 0.1 ether});
        request.nonce = 3;
        request.expiration = block.timestamp;
        vm.expectEmit(true, true, true, true, address(depository));
        emit IDepository.PayoutClaimable(3, 0, rejecting, address(0), 0.9 ether);
        depository.settle(request, _signSettlement(allocatorKey, request));
        assertEq(depository.claimable(rejecting, address(0)), 0.9 ether);
        assertEq(depository.claimable(app, address(0)), 0.1 ether);
        vm.prank(app);
        depository.claim(address(0), app);
        assertEq(app.balance, 0.1 ether);
    }
}
