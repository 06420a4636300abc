// SPDX-License-Identifier: MIT
pragma solidity 0.8.30;

import {IERC20Errors} from "@openzeppelin/contracts/interfaces/draft-IERC6093.sol";
import {SafeERC20} from "@openzeppelin/contracts/token/ERC20/utils/SafeERC20.sol";

import {Depository} from "../../contracts/Depository.sol";
import {IDepository} from "../../contracts/interfaces/IDepository.sol";
import {CompactSignature} from "../../contracts/libraries/AttestationLib.sol";
import {FalseReturnToken} from "../../contracts/mocks/FalseReturnToken.sol";
import {MockERC1271Wallet} from "../../contracts/mocks/MockERC1271Wallet.sol";
import {NoReturnToken} from "../../contracts/mocks/NoReturnToken.sol";
import {DepositoryTestBase} from "./Depository.t.sol";

/// @notice A token whose `transferFrom` takes from the Depository instead of giving to it: the balance
/// goes down during a deposit.
contract ShrinkingToken {
    mapping(address => uint256) public balanceOf;

    function mint(address to, uint256 amount) external {
        balanceOf[to] += amount;
    }

    function transferFrom(address, address to, uint256 amount) external returns (bool) {
        balanceOf[to] -= amount;
        return true;
    }
}

/// @notice The compact entry points (issue 14): the sender-credited deposits `depositNative_irOEa(id)`
/// and `depositErc20_6R0X4(token, amount, id)`, and `execute_kJ9b8(request, CompactSignature)`. One
/// test per revert, in each function's documented check order, then what they credit and pay.
contract DepositoryCompactTest is DepositoryTestBase {
    bytes32 internal constant ORDER_ID = keccak256("order-1");

    // ================================================================ depositNative_irOEa: reverts, in check order

    function test_depositNativeCompact_revertsIfZeroId() public {
        vm.deal(user, 1 ether);
        vm.expectRevert(IDepository.ZeroOrderId.selector);
        vm.prank(user);
        depository.depositNative_irOEa{value: 1 ether}(bytes32(0));
    }

    function test_depositNativeCompact_checksIdBeforeValue() public {
        vm.expectRevert(IDepository.ZeroOrderId.selector);
        vm.prank(user);
        depository.depositNative_irOEa(bytes32(0));
    }

    function test_depositNativeCompact_revertsIfZeroValue() public {
        vm.expectRevert(IDepository.ZeroDeposit.selector);
        vm.prank(user);
        depository.depositNative_irOEa(ORDER_ID);
    }

    // ================================================================ depositNative_irOEa: credits

    function test_depositNativeCompact_creditsSender() public {
        vm.deal(user, 1 ether);
        vm.expectEmit(true, true, true, true, address(depository));
        emit IDepository.Deposited(ORDER_ID, user, address(0), 1 ether);
        vm.prank(user);
        depository.depositNative_irOEa{value: 1 ether}(ORDER_ID);
        assertEq(address(depository).balance, 1 ether);
    }

    /// @dev The selector is 0x00000000 (dispatched first, 4 gas per selector byte) and the call is
    /// 36 bytes: the selector and the id.
    function test_depositNativeCompact_isTheZeroSelector() public pure {
        assertEq(IDepository.depositNative_irOEa.selector, bytes4(0));
        assertEq(abi.encodeCall(IDepository.depositNative_irOEa, (ORDER_ID)).length, 36);
    }

    /// @dev The event's token word is read from untouched scratch memory: it must be zero even when the
    /// same transaction made other deposits before (every call starts with fresh memory).
    function test_depositNativeCompact_tokenWordIsZeroAfterAnErc20Deposit() public {
        usdc.mint(user, 1e6);
        vm.deal(user, 1 ether);
        vm.startPrank(user);
        usdc.approve(address(depository), 1e6);
        depository.depositErc20_6R0X4(address(usdc), 1e6, keccak256("first"));
        vm.expectEmit(true, true, true, true, address(depository));
        emit IDepository.Deposited(ORDER_ID, user, address(0), 1 ether);
        depository.depositNative_irOEa{value: 1 ether}(ORDER_ID);
        vm.stopPrank();
    }

    // ================================================================ depositErc20_6R0X4: reverts, in check order

    /// @dev 1. id: before anything is read or pulled (the token has no code here either).
    function test_depositErc20Compact_revertsIfZeroId() public {
        vm.expectRevert(IDepository.ZeroOrderId.selector);
        vm.prank(user);
        depository.depositErc20_6R0X4(makeAddr("notAToken"), 1e6, bytes32(0));
    }

    /// @dev 1. id, with a working token the depositor funded and approved: the id check alone stops it
    /// (with a token that has no code the balance read fails too, and its cold path names the id).
    /// Nothing is pulled.
    function test_depositErc20Compact_revertsIfZeroIdWithAWorkingToken() public {
        usdc.mint(user, 1e6);
        vm.startPrank(user);
        usdc.approve(address(depository), 1e6);
        vm.expectRevert(IDepository.ZeroOrderId.selector);
        depository.depositErc20_6R0X4(address(usdc), 1e6, bytes32(0));
        vm.stopPrank();
        assertEq(usdc.balanceOf(user), 1e6, "nothing pulled");
    }

    /// @dev 2. balanceOf before: no code at the token (or no word returned).
    function test_depositErc20Compact_revertsIfTokenHasNoCode() public {
        address notAToken = makeAddr("notAToken");
        vm.expectRevert(abi.encodeWithSelector(SafeERC20.SafeERC20FailedOperation.selector, notAToken));
        vm.prank(user);
        depository.depositErc20_6R0X4(notAToken, 1e6, ORDER_ID);
    }

    /// @dev 3. transferFrom reverts: the token's own error bubbles up.
    function test_depositErc20Compact_revertsIfAllowanceTooLow() public {
        usdc.mint(user, 1e6);
        vm.startPrank(user);
        usdc.approve(address(depository), 1e6 - 1);
        vm.expectRevert(
            abi.encodeWithSelector(IERC20Errors.ERC20InsufficientAllowance.selector, address(depository), 1e6 - 1, 1e6)
        );
        depository.depositErc20_6R0X4(address(usdc), 1e6, ORDER_ID);
        vm.stopPrank();
    }

    /// @dev 3. transferFrom returns false.
    function test_depositErc20Compact_revertsIfTransferReturnsFalse() public {
        FalseReturnToken bad = new FalseReturnToken();
        bad.mint(user, 1e18);
        vm.startPrank(user);
        bad.approve(address(depository), 1e18);
        vm.expectRevert(abi.encodeWithSelector(SafeERC20.SafeERC20FailedOperation.selector, address(bad)));
        depository.depositErc20_6R0X4(address(bad), 1e18, ORDER_ID);
        vm.stopPrank();
    }

    /// @dev 4. nothing arrived.
    function test_depositErc20Compact_revertsIfNothingArrived() public {
        vm.expectRevert(IDepository.ZeroDeposit.selector);
        vm.prank(user);
        depository.depositErc20_6R0X4(address(usdc), 0, ORDER_ID);
    }

    /// @dev 4. the balance went down: nothing arrived either.
    function test_depositErc20Compact_revertsIfBalanceShrinks() public {
        ShrinkingToken shrinking = new ShrinkingToken();
        shrinking.mint(address(depository), 10);
        vm.expectRevert(IDepository.ZeroDeposit.selector);
        vm.prank(user);
        depository.depositErc20_6R0X4(address(shrinking), 3, ORDER_ID);
    }

    function test_depositErc20Compact_checksRunInDocumentedOrder() public {
        address notAToken = makeAddr("notAToken");
        vm.startPrank(user);
        vm.expectRevert(IDepository.ZeroOrderId.selector);
        depository.depositErc20_6R0X4(notAToken, 0, bytes32(0));
        vm.expectRevert(abi.encodeWithSelector(SafeERC20.SafeERC20FailedOperation.selector, notAToken));
        depository.depositErc20_6R0X4(notAToken, 0, ORDER_ID);
        vm.expectRevert(abi.encodeWithSelector(IERC20Errors.ERC20InsufficientAllowance.selector, address(depository), 0, 1));
        depository.depositErc20_6R0X4(address(usdc), 1, ORDER_ID);
        vm.expectRevert(IDepository.ZeroDeposit.selector);
        depository.depositErc20_6R0X4(address(usdc), 0, ORDER_ID);
        vm.stopPrank();
    }

    // ================================================================ depositErc20_6R0X4: credits

    function test_depositErc20Compact_creditsSenderAndPullsAmount() public {
        usdc.mint(user, 1_000e6);
        vm.startPrank(user);
        usdc.approve(address(depository), 600e6);
        vm.expectEmit(true, true, true, true, address(depository));
        emit IDepository.Deposited(ORDER_ID, user, address(usdc), 250e6);
        depository.depositErc20_6R0X4(address(usdc), 250e6, ORDER_ID);
        vm.stopPrank();
        assertEq(usdc.balanceOf(address(depository)), 250e6);
        assertEq(usdc.balanceOf(user), 750e6);
        assertEq(usdc.allowance(user, address(depository)), 350e6);
    }

    function test_depositErc20Compact_acceptsTokenWithoutReturnValue() public {
        NoReturnToken usdt = new NoReturnToken();
        usdt.mint(user, 100e6);
        vm.startPrank(user);
        usdt.approve(address(depository), 100e6);
        vm.expectEmit(true, true, true, true, address(depository));
        emit IDepository.Deposited(ORDER_ID, user, address(usdt), 60e6);
        depository.depositErc20_6R0X4(address(usdt), 60e6, ORDER_ID);
        vm.stopPrank();
    }

    function test_depositErc20Compact_restoresFreeMemoryPointerForLaterDeposits() public {
        // Two deposits in one frame of the caller: the second works, which it would not if the first
        // left the Depository's memory state inconsistent for the code after the assembly.
        usdc.mint(user, 2e6);
        vm.startPrank(user);
        usdc.approve(address(depository), 2e6);
        depository.depositErc20_6R0X4(address(usdc), 1e6, keccak256("a"));
        depository.depositErc20_6R0X4(address(usdc), 1e6, keccak256("b"));
        vm.stopPrank();
        assertEq(usdc.balanceOf(address(depository)), 2e6);
    }

    // ================================================================ execute_kJ9b8: reverts, in check order

    function _compactSign(uint256 key, bytes32 digest) internal pure returns (CompactSignature memory) {
        (uint8 v, bytes32 r, bytes32 s) = vm.sign(key, digest);
        return CompactSignature({r: r, vs: bytes32(uint256(s) | (uint256(v - 27) << 255))});
    }

    function _compactSignRequest(IDepository.CallRequest memory request) internal view returns (CompactSignature memory) {
        return _compactSign(allocatorKey, _digest(request, address(depository)));
    }

    function test_executeCompact_revertsIfExpired() public {
        _fundNative(1 ether);
        IDepository.CallRequest memory request = _request(solver, address(0), 1 ether, 1);
        CompactSignature memory signature = _compactSignRequest(request);
        vm.warp(request.expiration + 1);
        vm.expectRevert(abi.encodeWithSelector(IDepository.RequestExpired.selector, request.expiration));
        depository.execute_kJ9b8(request, signature);
    }

    function test_executeCompact_revertsIfSignerNotAllocator() public {
        _fundNative(1 ether);
        (address stranger, uint256 strangerKey) = makeAddrAndKey("stranger");
        IDepository.CallRequest memory request = _request(solver, address(0), 1 ether, 1);
        CompactSignature memory signature = _compactSign(strangerKey, _digest(request, address(depository)));
        vm.expectRevert(abi.encodeWithSelector(IDepository.SignerNotAllocator.selector, stranger));
        depository.execute_kJ9b8(request, signature);
    }

    function test_executeCompact_revertsIfSignatureInvalid() public {
        _fundNative(1 ether);
        IDepository.CallRequest memory request = _request(solver, address(0), 1 ether, 1);
        CompactSignature memory signature = _compactSignRequest(request);
        signature.r = bytes32(0); // recovers nothing
        vm.expectRevert(abi.encodeWithSelector(IDepository.SignerNotAllocator.selector, address(0)));
        depository.execute_kJ9b8(request, signature);
    }

    function test_executeCompact_revertsIfAlreadyExecuted() public {
        _fundNative(2 ether);
        IDepository.CallRequest memory request = _request(solver, address(0), 1 ether, 1);
        CompactSignature memory signature = _compactSignRequest(request);
        depository.execute_kJ9b8(request, signature);
        vm.expectRevert(abi.encodeWithSelector(IDepository.NonceAlreadyUsed.selector, 1));
        depository.execute_kJ9b8(request, signature);
        assertEq(solver.balance, 1 ether);
    }

    function test_executeCompact_revertsIfBalanceInsufficient() public {
        _fundNative(1 ether);
        IDepository.CallRequest memory request = _request(solver, address(0), 2 ether, 1);
        CompactSignature memory signature = _compactSignRequest(request);
        vm.expectRevert(abi.encodeWithSelector(IDepository.InsufficientBalance.selector, 0, address(0), 1 ether, 2 ether));
        depository.execute_kJ9b8(request, signature);
    }

    function test_executeCompact_checksRunInDocumentedOrder() public {
        _fundNative(1 ether);
        (, uint256 strangerKey) = makeAddrAndKey("stranger");
        IDepository.CallRequest memory request = _request(solver, address(0), 1 ether, 1);
        depository.execute_kJ9b8(request, _compactSignRequest(request)); // nonce 1 used
        request.calls[0].amount = 5 ether; // more than the balance
        CompactSignature memory foreign = _compactSign(strangerKey, _digest(request, address(depository)));
        uint256 expiration = request.expiration;

        vm.warp(expiration + 1);
        vm.expectRevert(abi.encodeWithSelector(IDepository.RequestExpired.selector, expiration));
        depository.execute_kJ9b8(request, foreign);

        vm.warp(expiration);
        vm.expectRevert(abi.encodeWithSelector(IDepository.SignerNotAllocator.selector, makeAddr("stranger")));
        depository.execute_kJ9b8(request, foreign);

        vm.expectRevert(abi.encodeWithSelector(IDepository.NonceAlreadyUsed.selector, 1));
        depository.execute_kJ9b8(request, _compactSignRequest(request));

        request.nonce = 2;
        vm.expectRevert(abi.encodeWithSelector(IDepository.InsufficientBalance.selector, 0, address(0), 0, 5 ether));
        depository.execute_kJ9b8(request, _compactSignRequest(request));
    }

    // ================================================================ execute_kJ9b8: pays

    function test_executeCompact_paysAndEmits() public {
        _fundNative(1 ether);
        IDepository.CallRequest memory request = _request(solver, address(0), 1 ether, 7);
        vm.expectEmit(true, true, false, true, address(depository));
        emit IDepository.RequestExecuted(_hashRequest(request), 7);
        depository.execute_kJ9b8(request, _compactSignRequest(request));
        assertEq(solver.balance, 1 ether);
        assertTrue(depository.executed(7));
    }

    /// @dev One replay guard for both forms: a nonce executed through one cannot run through the other.
    function test_executeCompact_sharesTheNonceWithTheBytesForm() public {
        _fundNative(2 ether);
        IDepository.CallRequest memory request = _request(solver, address(0), 1 ether, 1);
        depository.execute_kJ9b8(request, _compactSignRequest(request));
        bytes memory signature = _signRequest(request);
        vm.expectRevert(abi.encodeWithSelector(IDepository.NonceAlreadyUsed.selector, 1));
        depository.execute(request, signature);

        IDepository.CallRequest memory second = _request(solver, address(0), 1 ether, 2);
        depository.execute(second, _signRequest(second));
        CompactSignature memory compact = _compactSignRequest(second);
        vm.expectRevert(abi.encodeWithSelector(IDepository.NonceAlreadyUsed.selector, 2));
        depository.execute_kJ9b8(second, compact);
    }

    function test_executeCompact_acceptsEip1271AllocatorWithTheCompactBytes() public {
        (address walletOwner, uint256 walletOwnerKey) = makeAddrAndKey("multisig signer");
        MockERC1271Wallet wallet = new MockERC1271Wallet(walletOwner);
        Depository multisigDepository = new Depository(owner, address(wallet));
        vm.deal(address(multisigDepository), 1 ether);
        IDepository.CallRequest memory request = _request(solver, address(0), 1 ether, 1);

        (address stranger, uint256 strangerKey) = makeAddrAndKey("stranger");
        CompactSignature memory strangers = _compactSign(strangerKey, _digest(request, address(multisigDepository)));
        vm.expectRevert(abi.encodeWithSelector(IDepository.SignerNotAllocator.selector, stranger));
        multisigDepository.execute_kJ9b8(request, strangers);

        multisigDepository.execute_kJ9b8(request, _compactSign(walletOwnerKey, _digest(request, address(multisigDepository))));
        assertEq(solver.balance, 1 ether);
    }

    /// @dev Dispatched right after the two deposits: all three selectors are 0x000000xx, ascending.
    function test_compactSelectors_areTheLowestInDispatchOrder() public pure {
        uint32 native = uint32(IDepository.depositNative_irOEa.selector);
        uint32 erc20 = uint32(IDepository.depositErc20_6R0X4.selector);
        uint32 execute = uint32(IDepository.execute_kJ9b8.selector);
        assertLt(native, erc20);
        assertLt(erc20, execute);
        assertLt(execute, 0x100);
    }
}
