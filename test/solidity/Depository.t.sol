// SPDX-License-Identifier: MIT
pragma solidity 0.8.30;

import {Test} from "forge-std/Test.sol";
import {Ownable} from "@openzeppelin/contracts/access/Ownable.sol";
import {IERC20Errors} from "@openzeppelin/contracts/interfaces/draft-IERC6093.sol";
import {SafeERC20} from "@openzeppelin/contracts/token/ERC20/utils/SafeERC20.sol";

import {Depository} from "../../contracts/Depository.sol";
import {IDepository} from "../../contracts/interfaces/IDepository.sol";
import {AttestationLib} from "../../contracts/libraries/AttestationLib.sol";
import {MockStablecoin} from "../../contracts/mocks/MockStablecoin.sol";
import {FalseReturnToken} from "../../contracts/mocks/FalseReturnToken.sol";
import {MockERC1271Wallet} from "../../contracts/mocks/MockERC1271Wallet.sol";
import {RevertingRecipient} from "../../contracts/mocks/RevertingRecipient.sol";

/// @notice Shared fixture and an independent EIP-712 encoder for the Depository suites
/// (unit, fuzz, invariant, exploit). Abstract, so the runner never runs it on its own.
abstract contract DepositoryTestBase is Test {
    // Written out again here on purpose: the tests check the contract's hashing, not reuse it.
    bytes32 internal constant DOMAIN_TYPEHASH =
        keccak256("EIP712Domain(string name,string version,uint256 chainId,address verifyingContract)");
    bytes32 internal constant CALL_TYPEHASH = keccak256("Call(address to,address token,uint256 amount)");
    bytes32 internal constant CALL_REQUEST_TYPEHASH = keccak256(
        "CallRequest(Call[] calls,uint256 nonce,uint256 expiration)Call(address to,address token,uint256 amount)"
    );
    /// @dev secp256k1 group order; s above n/2 is the malleable form.
    uint256 internal constant SECP256K1_N = 0xFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFEBAAEDCE6AF48A03BBFD25E8CD0364141;

    address internal owner = makeAddr("owner");
    address internal user = makeAddr("user");
    address internal solver = makeAddr("solver");
    address internal allocator;
    uint256 internal allocatorKey;

    Depository internal depository;
    MockStablecoin internal usdc;

    function setUp() public virtual {
        (allocator, allocatorKey) = makeAddrAndKey("allocator");
        depository = new Depository(owner, allocator);
        usdc = new MockStablecoin("USD Coin", "USDC");
        vm.label(address(depository), "Depository");
        vm.label(address(usdc), "USDC");
        vm.warp(1_750_000_000);
    }

    // ---------------------------------------------------------------- EIP-712, independently

    function _domainSeparator(address verifyingContract) internal view returns (bytes32) {
        return keccak256(
            abi.encode(
                DOMAIN_TYPEHASH, keccak256("FerryDepository"), keccak256("1"), block.chainid, verifyingContract
            )
        );
    }

    function _hashRequest(IDepository.CallRequest memory request) internal pure returns (bytes32) {
        bytes memory callHashes;
        for (uint256 i; i < request.calls.length; ++i) {
            IDepository.Call memory c = request.calls[i];
            callHashes = bytes.concat(callHashes, keccak256(abi.encode(CALL_TYPEHASH, c.to, c.token, c.amount)));
        }
        return keccak256(abi.encode(CALL_REQUEST_TYPEHASH, keccak256(callHashes), request.nonce, request.expiration));
    }

    function _digest(IDepository.CallRequest memory request, address verifyingContract)
        internal
        view
        returns (bytes32)
    {
        return keccak256(abi.encodePacked("\x19\x01", _domainSeparator(verifyingContract), _hashRequest(request)));
    }

    function _sign(uint256 key, bytes32 digest) internal pure returns (bytes memory) {
        (uint8 v, bytes32 r, bytes32 s) = vm.sign(key, digest);
        return abi.encodePacked(r, s, v);
    }

    /// @dev The allocator's signature over `request` for the fixture's Depository.
    function _signRequest(IDepository.CallRequest memory request) internal view returns (bytes memory) {
        return _sign(allocatorKey, _digest(request, address(depository)));
    }

    function _request(address to, address token, uint256 amount, uint256 nonce)
        internal
        view
        returns (IDepository.CallRequest memory request)
    {
        request.calls = new IDepository.Call[](1);
        request.calls[0] = IDepository.Call({to: to, token: token, amount: amount});
        request.nonce = nonce;
        request.expiration = block.timestamp + 1 hours;
    }

    // ---------------------------------------------------------------- funding

    function _fundNative(uint256 amount) internal {
        vm.deal(user, amount);
        vm.prank(user);
        depository.depositNative{value: amount}(user, keccak256("funding"));
    }

    function _fundUsdc(uint256 amount) internal {
        usdc.mint(user, amount);
        vm.startPrank(user);
        usdc.approve(address(depository), amount);
        depository.depositErc20(user, address(usdc), amount, keccak256("funding"));
        vm.stopPrank();
    }
}

contract DepositoryTest is DepositoryTestBase {
    bytes32 internal constant ORDER_ID = keccak256("order-1");

    // ---------------------------------------------------------------- constructor

    function test_constructor_setsOwnerAndAllocator() public view {
        assertEq(depository.owner(), owner);
        assertEq(depository.allocator(), allocator);
        assertEq(depository.pendingOwner(), address(0));
    }

    function test_constructor_emitsAllocatorUpdated() public {
        vm.expectEmit(true, true, true, true);
        emit IDepository.AllocatorUpdated(address(0), allocator);
        new Depository(owner, allocator);
    }

    function test_constructor_revertsIfZeroAllocator() public {
        vm.expectRevert(IDepository.ZeroAllocator.selector);
        new Depository(owner, address(0));
    }

    function test_constructor_revertsIfZeroOwner() public {
        vm.expectRevert(abi.encodeWithSelector(Ownable.OwnableInvalidOwner.selector, address(0)));
        new Depository(address(0), allocator);
    }

    function test_eip712Domain_returnsFerryDomain() public view {
        (, string memory name, string memory version, uint256 chainId, address verifyingContract,,) =
            depository.eip712Domain();
        assertEq(name, "FerryDepository");
        assertEq(version, "1");
        assertEq(chainId, block.chainid);
        assertEq(verifyingContract, address(depository));
    }

    // ---------------------------------------------------------------- admin

    function test_constructor_setsTheAllocatorLockedAndEmits() public {
        address chosen = makeAddr("chosenAllocator");
        vm.expectEmit(true, true, true, true);
        emit IDepository.AllocatorUpdated(address(0), chosen);
        Depository fresh = new Depository(owner, chosen);
        assertEq(fresh.allocator(), chosen);
        (address pending, uint256 eta) = fresh.pendingAllocatorChange();
        assertEq(pending, address(0));
        assertEq(eta, 0);
    }

    function test_proposeAllocator_revertsIfNotOwner() public {
        vm.expectRevert(abi.encodeWithSelector(Ownable.OwnableUnauthorizedAccount.selector, user));
        vm.prank(user);
        depository.proposeAllocator(user);
    }

    function test_proposeAllocator_revertsIfZeroAllocator() public {
        vm.expectRevert(IDepository.ZeroAllocator.selector);
        vm.prank(owner);
        depository.proposeAllocator(address(0));
    }

    function test_proposeAllocator_emitsAndWaits() public {
        address next = makeAddr("nextAllocator");
        vm.expectEmit(true, true, true, true, address(depository));
        emit IDepository.AllocatorChangeProposed(next, block.timestamp + 2 days);
        vm.prank(owner);
        depository.proposeAllocator(next);
        (address pending, uint256 eta) = depository.pendingAllocatorChange();
        assertEq(pending, next);
        assertEq(eta, block.timestamp + 2 days);
        assertEq(depository.allocator(), allocator, "nothing changes before the delay");
    }

    function test_applyAllocator_revertsIfNotOwner() public {
        vm.expectRevert(abi.encodeWithSelector(Ownable.OwnableUnauthorizedAccount.selector, user));
        vm.prank(user);
        depository.applyAllocator();
    }

    function test_applyAllocator_revertsIfNothingPending() public {
        vm.expectRevert(IDepository.NoPendingAllocatorChange.selector);
        vm.prank(owner);
        depository.applyAllocator();
    }

    function test_applyAllocator_revertsBeforeDelay() public {
        vm.startPrank(owner);
        depository.proposeAllocator(makeAddr("nextAllocator"));
        vm.warp(block.timestamp + 2 days - 1);
        vm.expectRevert(abi.encodeWithSelector(IDepository.AllocatorChangeNotReady.selector, block.timestamp + 1));
        depository.applyAllocator();
        vm.stopPrank();
    }

    /// @dev The last second of the window still applies; the next one is AllocatorChangeExpired.
    function test_applyAllocator_revertsAfterWindow() public {
        vm.startPrank(owner);
        depository.proposeAllocator(makeAddr("nextAllocator"));
        uint256 expiry = block.timestamp + 2 days + 7 days;
        vm.warp(expiry + 1);
        vm.expectRevert(abi.encodeWithSelector(IDepository.AllocatorChangeExpired.selector, expiry));
        depository.applyAllocator();
        vm.stopPrank();
        (address pending, uint256 eta) = depository.pendingAllocatorChange();
        assertEq(pending, address(0), "an expired proposal reads as none");
        assertEq(eta, 0);
    }

    function test_applyAllocator_appliesOnTheLastSecondOfTheWindow() public {
        address next = makeAddr("nextAllocator");
        vm.startPrank(owner);
        depository.proposeAllocator(next);
        vm.warp(block.timestamp + 2 days + 7 days);
        depository.applyAllocator();
        vm.stopPrank();
        assertEq(depository.allocator(), next);
    }

    function test_applyAllocator_checksRunInDocumentedOrder() public {
        vm.startPrank(owner);
        vm.expectRevert(IDepository.NoPendingAllocatorChange.selector);
        depository.applyAllocator();
        depository.proposeAllocator(makeAddr("nextAllocator"));
        uint256 eta = block.timestamp + 2 days;
        vm.expectRevert(abi.encodeWithSelector(IDepository.AllocatorChangeNotReady.selector, eta));
        depository.applyAllocator();
        vm.warp(eta + 7 days + 1);
        vm.expectRevert(abi.encodeWithSelector(IDepository.AllocatorChangeExpired.selector, eta + 7 days));
        depository.applyAllocator();
        vm.stopPrank();
    }

    function test_proposeAllocator_againAfterExpiryRestartsTheDelay() public {
        address next = makeAddr("nextAllocator");
        vm.startPrank(owner);
        depository.proposeAllocator(next);
        vm.warp(block.timestamp + 30 days);
        depository.proposeAllocator(next);
        vm.expectRevert(abi.encodeWithSelector(IDepository.AllocatorChangeNotReady.selector, block.timestamp + 2 days));
        depository.applyAllocator();
        vm.warp(block.timestamp + 2 days);
        depository.applyAllocator();
        vm.stopPrank();
        assertEq(depository.allocator(), next);
    }

    function test_applyAllocator_rotatesAfterDelayAndEmits() public {
        address next = makeAddr("nextAllocator");
        vm.startPrank(owner);
        depository.proposeAllocator(next);
        vm.warp(block.timestamp + 2 days);
        vm.expectEmit(true, true, true, true, address(depository));
        emit IDepository.AllocatorUpdated(allocator, next);
        depository.applyAllocator();
        vm.stopPrank();
        assertEq(depository.allocator(), next);
        (address pending, uint256 eta) = depository.pendingAllocatorChange();
        assertEq(pending, address(0));
        assertEq(eta, 0);
    }

    function test_cancelAllocatorChange_revertsIfNotOwner() public {
        vm.expectRevert(abi.encodeWithSelector(Ownable.OwnableUnauthorizedAccount.selector, user));
        vm.prank(user);
        depository.cancelAllocatorChange();
    }

    function test_cancelAllocatorChange_revertsIfNothingPending() public {
        vm.expectRevert(IDepository.NoPendingAllocatorChange.selector);
        vm.prank(owner);
        depository.cancelAllocatorChange();
    }

    function test_cancelAllocatorChange_dropsProposalAndEmits() public {
        address next = makeAddr("nextAllocator");
        vm.startPrank(owner);
        depository.proposeAllocator(next);
        vm.expectEmit(true, true, true, true, address(depository));
        emit IDepository.AllocatorChangeCancelled(next);
        depository.cancelAllocatorChange();
        vm.warp(block.timestamp + 3 days);
        vm.expectRevert(IDepository.NoPendingAllocatorChange.selector);
        depository.applyAllocator();
        vm.stopPrank();
        assertEq(depository.allocator(), allocator);
    }

    function test_renounceOwnership_reverts() public {
        vm.expectRevert(IDepository.RenounceOwnershipDisabled.selector);
        vm.prank(owner);
        depository.renounceOwnership();
        assertEq(depository.owner(), owner);
    }

    function test_transferOwnership_takesTwoSteps() public {
        address newOwner = makeAddr("newOwner");
        vm.prank(owner);
        depository.transferOwnership(newOwner);
        // Step one only nominates: the old owner still rules.
        assertEq(depository.owner(), owner);
        assertEq(depository.pendingOwner(), newOwner);
        vm.prank(newOwner);
        depository.acceptOwnership();
        assertEq(depository.owner(), newOwner);
        assertEq(depository.pendingOwner(), address(0));

        vm.expectRevert(abi.encodeWithSelector(Ownable.OwnableUnauthorizedAccount.selector, owner));
        vm.prank(owner);
        depository.proposeAllocator(owner);
        vm.prank(newOwner);
        depository.proposeAllocator(newOwner);
        (address pending,) = depository.pendingAllocatorChange();
        assertEq(pending, newOwner);
    }

    function test_acceptOwnership_revertsIfNotPendingOwner() public {
        vm.prank(owner);
        depository.transferOwnership(makeAddr("newOwner"));
        vm.expectRevert(abi.encodeWithSelector(Ownable.OwnableUnauthorizedAccount.selector, user));
        vm.prank(user);
        depository.acceptOwnership();
    }

    // ---------------------------------------------------------------- depositNative

    function test_depositNative_revertsIfZeroId() public {
        vm.deal(user, 1 ether);
        vm.expectRevert(IDepository.ZeroOrderId.selector);
        vm.prank(user);
        depository.depositNative{value: 1 ether}(user, bytes32(0));
    }

    function test_depositNative_checksIdBeforeValue() public {
        vm.expectRevert(IDepository.ZeroOrderId.selector);
        vm.prank(user);
        depository.depositNative(user, bytes32(0));
    }

    function test_depositNative_revertsIfZeroValue() public {
        vm.expectRevert(IDepository.ZeroDeposit.selector);
        vm.prank(user);
        depository.depositNative(user, ORDER_ID);
    }

    function test_depositNative_emitsDeposited() public {
        address beneficiary = makeAddr("beneficiary");
        vm.deal(user, 1 ether);
        vm.expectEmit(true, true, true, true, address(depository));
        emit IDepository.Deposited(ORDER_ID, beneficiary, address(0), 1 ether);
        vm.prank(user);
        depository.depositNative{value: 1 ether}(beneficiary, ORDER_ID);
        assertEq(address(depository).balance, 1 ether);
        assertEq(user.balance, 0);
    }

    function test_depositNative_creditsSenderIfDepositorZero() public {
        vm.deal(user, 1 ether);
        vm.expectEmit(true, true, true, true, address(depository));
        emit IDepository.Deposited(ORDER_ID, user, address(0), 1 ether);
        vm.prank(user);
        depository.depositNative{value: 1 ether}(address(0), ORDER_ID);
    }

    // ---------------------------------------------------------------- depositErc20 (amount)

    function test_depositErc20_revertsIfZeroId() public {
        usdc.mint(user, 1e6);
        vm.startPrank(user);
        usdc.approve(address(depository), 1e6);
        vm.expectRevert(IDepository.ZeroOrderId.selector);
        depository.depositErc20(user, address(usdc), 1e6, bytes32(0));
        vm.expectRevert(IDepository.ZeroOrderId.selector);
        depository.depositErc20(user, address(usdc), bytes32(0));
        vm.stopPrank();
    }

    function test_depositErc20_revertsIfZeroAmount() public {
        vm.expectRevert(IDepository.ZeroDeposit.selector);
        vm.prank(user);
        depository.depositErc20(user, address(usdc), 0, ORDER_ID);
    }

    function test_depositErc20_emitsDepositedAndPullsAmount() public {
        address beneficiary = makeAddr("beneficiary");
        usdc.mint(user, 1_000e6);
        vm.startPrank(user);
        usdc.approve(address(depository), 600e6);
        vm.expectEmit(true, true, true, true, address(depository));
        emit IDepository.Deposited(ORDER_ID, beneficiary, address(usdc), 250e6);
        depository.depositErc20(beneficiary, address(usdc), 250e6, ORDER_ID);
        vm.stopPrank();
        assertEq(usdc.balanceOf(address(depository)), 250e6);
        assertEq(usdc.balanceOf(user), 750e6);
        assertEq(usdc.allowance(user, address(depository)), 350e6);
    }

    function test_depositErc20_creditsSenderIfDepositorZero() public {
        usdc.mint(user, 1e6);
        vm.startPrank(user);
        usdc.approve(address(depository), 1e6);
        vm.expectEmit(true, true, true, true, address(depository));
        emit IDepository.Deposited(ORDER_ID, user, address(usdc), 1e6);
        depository.depositErc20(address(0), address(usdc), 1e6, ORDER_ID);
        vm.stopPrank();
    }

    function test_depositErc20_revertsIfAllowanceTooLow() public {
        usdc.mint(user, 1e6);
        vm.startPrank(user);
        usdc.approve(address(depository), 1e6 - 1);
        vm.expectRevert(
            abi.encodeWithSelector(
                IERC20Errors.ERC20InsufficientAllowance.selector, address(depository), 1e6 - 1, 1e6
            )
        );
        depository.depositErc20(user, address(usdc), 1e6, ORDER_ID);
        vm.stopPrank();
    }

    function test_depositErc20_revertsIfTokenHasNoCode() public {
        address notAToken = makeAddr("notAToken");
        vm.expectRevert(abi.encodeWithSelector(SafeERC20.SafeERC20FailedOperation.selector, notAToken));
        vm.prank(user);
        depository.depositErc20(user, notAToken, 1e6, ORDER_ID);
    }

    // ---------------------------------------------------------------- depositErc20 (allowance)

    function test_depositErc20Allowance_revertsIfZeroAllowance() public {
        usdc.mint(user, 1e6);
        vm.expectRevert(IDepository.ZeroDeposit.selector);
        vm.prank(user);
        depository.depositErc20(user, address(usdc), ORDER_ID);
    }

    function test_depositErc20Allowance_pullsWholeAllowance() public {
        address beneficiary = makeAddr("beneficiary");
        usdc.mint(user, 1_000e6);
        vm.startPrank(user);
        usdc.approve(address(depository), 400e6);
        vm.expectEmit(true, true, true, true, address(depository));
        emit IDepository.Deposited(ORDER_ID, beneficiary, address(usdc), 400e6);
        depository.depositErc20(beneficiary, address(usdc), ORDER_ID);
        vm.stopPrank();
        assertEq(usdc.balanceOf(address(depository)), 400e6);
        assertEq(usdc.allowance(user, address(depository)), 0);
    }

    function test_depositErc20Allowance_creditsSenderIfDepositorZero() public {
        usdc.mint(user, 1e6);
        vm.startPrank(user);
        usdc.approve(address(depository), 1e6);
        vm.expectEmit(true, true, true, true, address(depository));
        emit IDepository.Deposited(ORDER_ID, user, address(usdc), 1e6);
        depository.depositErc20(address(0), address(usdc), ORDER_ID);
        vm.stopPrank();
    }

    function test_depositErc20Allowance_revertsIfAllowanceExceedsBalance() public {
        // An unlimited approval cannot be pulled whole: use the amount form for those.
        usdc.mint(user, 1e6);
        vm.startPrank(user);
        usdc.approve(address(depository), type(uint256).max);
        vm.expectRevert(
            abi.encodeWithSelector(IERC20Errors.ERC20InsufficientBalance.selector, user, 1e6, type(uint256).max)
        );
        depository.depositErc20(user, address(usdc), ORDER_ID);
        vm.stopPrank();
    }

    // ---------------------------------------------------------------- execute: reverts, in check order

    function test_execute_revertsIfExpired() public {
        _fundNative(1 ether);
        IDepository.CallRequest memory request = _request(solver, address(0), 1 ether, 1);
        bytes memory signature = _signRequest(request);
        vm.warp(request.expiration + 1);
        vm.expectRevert(abi.encodeWithSelector(IDepository.RequestExpired.selector, request.expiration));
        depository.execute(request, signature);
    }

    function test_execute_checksExpiryBeforeSignature() public {
        IDepository.CallRequest memory request = _request(solver, address(0), 1 ether, 1);
        request.expiration = block.timestamp - 1;
        vm.expectRevert(abi.encodeWithSelector(IDepository.RequestExpired.selector, request.expiration));
        depository.execute(request, hex"00");
    }

    function test_execute_revertsIfSignatureMalformed() public {
        IDepository.CallRequest memory request = _request(solver, address(0), 1 ether, 1);
        // Neither an ECDSA signature nor an EIP-1271 one (the allocator is an EOA): recovers nothing.
        vm.expectRevert(abi.encodeWithSelector(IDepository.SignerNotAllocator.selector, address(0)));
        depository.execute(request, hex"1234");
    }

    function test_execute_revertsIfSignatureInvalid() public {
        IDepository.CallRequest memory request = _request(solver, address(0), 1 ether, 1);
        (, bytes32 r, bytes32 s) = vm.sign(allocatorKey, _digest(request, address(depository)));
        vm.expectRevert(abi.encodeWithSelector(IDepository.SignerNotAllocator.selector, address(0)));
        depository.execute(request, abi.encodePacked(r, s, uint8(29)));
    }

    function test_execute_acceptsEip1271Allocator() public {
        (address walletOwner, uint256 walletOwnerKey) = makeAddrAndKey("multisig signer");
        MockERC1271Wallet wallet = new MockERC1271Wallet(walletOwner);
        Depository multisigDepository = new Depository(owner, address(wallet));
        vm.deal(address(multisigDepository), 1 ether);
        IDepository.CallRequest memory request = _request(solver, address(0), 1 ether, 1);

        (address stranger, uint256 strangerKey) = makeAddrAndKey("stranger");
        bytes memory strangerSignature = _sign(strangerKey, _digest(request, address(multisigDepository)));
        vm.expectRevert(abi.encodeWithSelector(IDepository.SignerNotAllocator.selector, stranger));
        multisigDepository.execute(request, strangerSignature);

        multisigDepository.execute(request, _sign(walletOwnerKey, _digest(request, address(multisigDepository))));
        assertEq(solver.balance, 1 ether);
    }

    function test_execute_acceptsCompactSignature() public {
        _fundNative(1 ether);
        IDepository.CallRequest memory request = _request(solver, address(0), 1 ether, 1);
        (uint8 v, bytes32 r, bytes32 s) = vm.sign(allocatorKey, _digest(request, address(depository)));
        // ERC-2098 (64 bytes): the replay guard is the nonce, so the signature's form does not matter.
        depository.execute(request, abi.encodePacked(r, bytes32(uint256(s) | (uint256(v - 27) << 255))));
        assertEq(solver.balance, 1 ether);
    }

    function test_execute_revertsIfSignerNotAllocator() public {
        _fundNative(1 ether);
        (address stranger, uint256 strangerKey) = makeAddrAndKey("stranger");
        IDepository.CallRequest memory request = _request(solver, address(0), 1 ether, 1);
        bytes memory signature = _sign(strangerKey, _digest(request, address(depository)));
        vm.expectRevert(abi.encodeWithSelector(IDepository.SignerNotAllocator.selector, stranger));
        depository.execute(request, signature);
    }

    function test_execute_revertsIfSignedByRotatedOutAllocator() public {
        _fundNative(1 ether);
        vm.startPrank(owner);
        depository.proposeAllocator(makeAddr("nextAllocator"));
        vm.warp(block.timestamp + 2 days);
        depository.applyAllocator();
        vm.stopPrank();
        IDepository.CallRequest memory request = _request(solver, address(0), 1 ether, 1);
        bytes memory signature = _signRequest(request);
        vm.expectRevert(abi.encodeWithSelector(IDepository.SignerNotAllocator.selector, allocator));
        depository.execute(request, signature);
    }

    function test_execute_revertsIfAlreadyExecuted() public {
        _fundNative(2 ether);
        IDepository.CallRequest memory request = _request(solver, address(0), 1 ether, 1);
        bytes memory signature = _signRequest(request);
        depository.execute(request, signature);
        vm.expectRevert(abi.encodeWithSelector(IDepository.NonceAlreadyUsed.selector, 1));
        depository.execute(request, signature);
        assertEq(solver.balance, 1 ether);
    }

    function test_execute_revertsIfNonceReusedWithOtherTerms() public {
        _fundNative(3 ether);
        IDepository.CallRequest memory request = _request(solver, address(0), 1 ether, 1);
        depository.execute(request, _signRequest(request));
        request.expiration += 1;
        request.calls[0].amount = 2 ether;
        bytes memory signature = _signRequest(request);
        vm.expectRevert(abi.encodeWithSelector(IDepository.NonceAlreadyUsed.selector, 1));
        depository.execute(request, signature);
    }

    function test_execute_checksSignatureBeforeReplay() public {
        _fundNative(1 ether);
        IDepository.CallRequest memory request = _request(solver, address(0), 1 ether, 1);
        depository.execute(request, _signRequest(request));
        (address stranger, uint256 strangerKey) = makeAddrAndKey("stranger");
        bytes memory strangerSignature = _sign(strangerKey, _digest(request, address(depository)));
        vm.expectRevert(abi.encodeWithSelector(IDepository.SignerNotAllocator.selector, stranger));
        depository.execute(request, strangerSignature);
    }

    function test_execute_revertsIfNativeBalanceInsufficient() public {
        _fundNative(1 ether);
        IDepository.CallRequest memory request = _request(solver, address(0), 1 ether + 1, 1);
        vm.expectRevert(
            abi.encodeWithSelector(IDepository.InsufficientBalance.selector, 0, address(0), 1 ether, 1 ether + 1)
        );
        depository.execute(request, _signRequest(request));
    }

    function test_execute_revertsIfErc20BalanceInsufficient() public {
        _fundUsdc(1e6);
        IDepository.CallRequest memory request = _request(solver, address(usdc), 1e6 + 1, 1);
        vm.expectRevert(
            abi.encodeWithSelector(IDepository.InsufficientBalance.selector, 0, address(usdc), 1e6, 1e6 + 1)
        );
        depository.execute(request, _signRequest(request));
    }

    function test_execute_revertsWholeBatchIfLaterBalanceInsufficient() public {
        _fundNative(1 ether);
        IDepository.CallRequest memory request;
        request.calls = new IDepository.Call[](2);
        request.calls[0] = IDepository.Call({to: solver, token: address(0), amount: 0.5 ether});
        request.calls[1] = IDepository.Call({to: user, token: address(0), amount: 0.5 ether + 1});
        request.nonce = 1;
        request.expiration = block.timestamp;
        bytes memory signature = _signRequest(request);
        vm.expectRevert(
            abi.encodeWithSelector(IDepository.InsufficientBalance.selector, 1, address(0), 0.5 ether, 0.5 ether + 1)
        );
        depository.execute(request, signature);
        assertEq(solver.balance, 0);
        assertFalse(depository.executed(1));
    }

    // ---------------------------------------------------------------- execute: failed payouts become claimable

    function test_execute_makesRejectedNativePayoutClaimable() public {
        _fundNative(1 ether);
        address rejecting = address(new RevertingRecipient());
        IDepository.CallRequest memory request = _request(rejecting, address(0), 1 ether, 1);
        vm.expectEmit(true, true, true, true, address(depository));
        emit IDepository.PayoutClaimable(1, 0, rejecting, address(0), 1 ether);
        depository.execute(request, _signRequest(request));
        assertEq(depository.claimable(rejecting, address(0)), 1 ether);
        assertEq(address(depository).balance, 1 ether);
        assertTrue(depository.executed(1));
    }

    function test_execute_paysOthersWhenOnePayoutFails() public {
        _fundNative(1 ether);
        address rejecting = address(new RevertingRecipient());
        IDepository.CallRequest memory request;
        request.calls = new IDepository.Call[](2);
        request.calls[0] = IDepository.Call({to: rejecting, token: address(0), amount: 0.5 ether});
        request.calls[1] = IDepository.Call({to: solver, token: address(0), amount: 0.5 ether});
        request.nonce = 1;
        request.expiration = block.timestamp;
        depository.execute(request, _signRequest(request));
        assertEq(solver.balance, 0.5 ether);
        assertEq(depository.claimable(rejecting, address(0)), 0.5 ether);
    }

    function test_execute_makesFalseReturningTokenPayoutClaimable() public {
        FalseReturnToken token = new FalseReturnToken();
        token.mint(address(depository), 5e6);
        IDepository.CallRequest memory request = _request(solver, address(token), 5e6, 1);
        depository.execute(request, _signRequest(request));
        assertEq(depository.claimable(solver, address(token)), 5e6);
    }

    // ---------------------------------------------------------------- claim

    function _claimableNative(uint256 amount) internal returns (address payable rejecting) {
        _fundNative(amount);
        rejecting = payable(address(new RevertingRecipient()));
        IDepository.CallRequest memory request = _request(rejecting, address(0), amount, 99);
        depository.execute(request, _signRequest(request));
    }

    function test_claim_revertsIfZeroRecipient() public {
        address rejecting = _claimableNative(1 ether);
        vm.expectRevert(IDepository.ZeroClaimRecipient.selector);
        vm.prank(rejecting);
        depository.claim(address(0), address(0));
    }

    function test_claim_revertsIfNothingToClaim() public {
        vm.expectRevert(abi.encodeWithSelector(IDepository.NothingToClaim.selector, user, address(0)));
        vm.prank(user);
        depository.claim(address(0), user);
    }

    function test_claim_revertsIfNativeSendFails() public {
        address rejecting = _claimableNative(1 ether);
        vm.expectRevert(abi.encodeWithSelector(IDepository.ClaimFailed.selector, rejecting));
        vm.prank(rejecting);
        depository.claim(address(0), rejecting);
    }

    function test_claim_paysNativeToChosenAddressOnce() public {
        address rejecting = _claimableNative(1 ether);
        address wallet = makeAddr("wallet");
        vm.expectEmit(true, true, true, true, address(depository));
        emit IDepository.Claimed(rejecting, address(0), wallet, 1 ether);
        vm.prank(rejecting);
        depository.claim(address(0), wallet);
        assertEq(wallet.balance, 1 ether);
        assertEq(depository.claimable(rejecting, address(0)), 0);
        vm.expectRevert(abi.encodeWithSelector(IDepository.NothingToClaim.selector, rejecting, address(0)));
        vm.prank(rejecting);
        depository.claim(address(0), wallet);
    }

    function test_claim_paysErc20() public {
        FalseReturnToken token = new FalseReturnToken();
        token.mint(address(depository), 5e6);
        IDepository.CallRequest memory request = _request(solver, address(token), 5e6, 1);
        depository.execute(request, _signRequest(request));
        _fundUsdc(7e6);
        IDepository.CallRequest memory usdcRequest = _request(solver, address(usdc), 7e6, 2);
        // A payout that went through leaves nothing to claim.
        depository.execute(usdcRequest, _signRequest(usdcRequest));
        assertEq(depository.claimable(solver, address(usdc)), 0);
        // FalseReturnToken also fails the claim's SafeERC20 transfer: claimable stays.
        vm.expectRevert();
        vm.prank(solver);
        depository.claim(address(token), solver);
        assertEq(depository.claimable(solver, address(token)), 5e6);
    }

    // ---------------------------------------------------------------- execute: happy paths

    function test_execute_paysNative() public {
        _fundNative(1 ether);
        IDepository.CallRequest memory request = _request(solver, address(0), 0.4 ether, 7);
        bytes32 requestHash = _hashRequest(request);
        vm.expectEmit(true, true, true, true, address(depository));
        emit IDepository.RequestExecuted(requestHash, 7);
        depository.execute(request, _signRequest(request));
        assertEq(solver.balance, 0.4 ether);
        assertEq(address(depository).balance, 0.6 ether);
        assertTrue(depository.executed(7));
    }

    function test_execute_paysErc20() public {
        _fundUsdc(100e6);
        IDepository.CallRequest memory request = _request(solver, address(usdc), 60e6, 8);
        bytes32 requestHash = _hashRequest(request);
        vm.expectEmit(true, true, true, true, address(depository));
        emit IDepository.RequestExecuted(requestHash, 8);
        depository.execute(request, _signRequest(request));
        assertEq(usdc.balanceOf(solver), 60e6);
        assertEq(usdc.balanceOf(address(depository)), 40e6);
        assertTrue(depository.executed(8));
    }

    function test_execute_paysMixedBatch() public {
        _fundNative(1 ether);
        _fundUsdc(100e6);
        address refundee = makeAddr("refundee");
        IDepository.CallRequest memory request;
        request.calls = new IDepository.Call[](3);
        request.calls[0] = IDepository.Call({to: solver, token: address(usdc), amount: 70e6});
        request.calls[1] = IDepository.Call({to: refundee, token: address(usdc), amount: 30e6});
        request.calls[2] = IDepository.Call({to: refundee, token: address(0), amount: 1 ether});
        request.nonce = 9;
        request.expiration = block.timestamp + 60;
        depository.execute(request, _signRequest(request));
        assertEq(usdc.balanceOf(solver), 70e6);
        assertEq(usdc.balanceOf(refundee), 30e6);
        assertEq(refundee.balance, 1 ether);
        assertEq(usdc.balanceOf(address(depository)), 0);
        assertEq(address(depository).balance, 0);
    }

    function test_execute_succeedsAtExpiration() public {
        _fundNative(1 ether);
        IDepository.CallRequest memory request = _request(solver, address(0), 1 ether, 1);
        bytes memory signature = _signRequest(request);
        vm.warp(request.expiration);
        depository.execute(request, signature);
        assertEq(solver.balance, 1 ether);
    }

    function test_execute_acceptsEmptyBatch() public {
        // An empty request is how the allocator burns a (nonce, expiration) pair it signed.
        IDepository.CallRequest memory request;
        request.nonce = 3;
        request.expiration = block.timestamp;
        bytes32 requestHash = _hashRequest(request);
        vm.expectEmit(true, true, true, true, address(depository));
        emit IDepository.RequestExecuted(requestHash, 3);
        depository.execute(request, _signRequest(request));
        assertTrue(depository.executed(3));
    }

    function test_execute_sameCallsWithNewNonceExecuteAgain() public {
        _fundNative(2 ether);
        IDepository.CallRequest memory first = _request(solver, address(0), 1 ether, 1);
        IDepository.CallRequest memory second = _request(solver, address(0), 1 ether, 2);
        depository.execute(first, _signRequest(first));
        depository.execute(second, _signRequest(second));
        assertEq(solver.balance, 2 ether);
    }

    // ---------------------------------------------------------------- views

    function test_hashCallRequest_matchesEip712Encoding() public view {
        IDepository.CallRequest memory request = _request(solver, address(usdc), 123e6, 42);
        assertEq(depository.hashCallRequest(request), _hashRequest(request));
        IDepository.CallRequest memory empty;
        assertEq(depository.hashCallRequest(empty), _hashRequest(empty));
    }

    function test_callRequestDigest_matchesEip712Encoding() public view {
        IDepository.CallRequest memory request = _request(solver, address(0), 1 ether, 42);
        assertEq(depository.callRequestDigest(request), _digest(request, address(depository)));
    }
}
