// SPDX-License-Identifier: MIT
pragma solidity 0.8.30;

import {CommonBase} from "forge-std/Base.sol";
import {StdCheats} from "forge-std/StdCheats.sol";
import {StdUtils} from "forge-std/StdUtils.sol";
import {Vm} from "forge-std/Vm.sol";
import {IERC20} from "@openzeppelin/contracts/token/ERC20/IERC20.sol";

import {Depository} from "../../contracts/Depository.sol";
import {IDepository} from "../../contracts/interfaces/IDepository.sol";
import {CompactSignature} from "../../contracts/libraries/AttestationLib.sol";
import {FeeOnTransferToken} from "../../contracts/mocks/FeeOnTransferToken.sol";
import {MockStablecoin} from "../../contracts/mocks/MockStablecoin.sol";
import {RevertingRecipient} from "../../contracts/mocks/RevertingRecipient.sol";
import {DepositoryTestBase} from "./Depository.t.sol";

/// @notice Drives random deposits (native, ERC-20 and fee-on-transfer; every form, the compact ones
/// included), allocator payouts (both `execute` forms) and replays of executed payouts in either form,
/// keeping ghost totals from the contract's own events.
contract DepositoryHandler is CommonBase, StdCheats, StdUtils {
    Depository internal immutable depository;
    uint256 internal immutable allocatorKey;
    bytes32 internal immutable domainSeparator;
    /// @dev Index 0 is native (address 0).
    address[3] internal tokens;

    /// @notice Sum of `Deposited.amount` per token: what the contract says it credited.
    mapping(address token => uint256) public credited;
    /// @notice Sum of executed payouts per token.
    mapping(address token => uint256) public paidOut;
    /// @notice Successful executions per nonce (must never exceed one).
    mapping(uint256 nonce => uint256) public executions;
    uint256[] public executedNonces;
    bytes[] internal executedRequests;
    uint256 public replaySuccesses;
    uint256 internal nonce;
    /// @notice Payouts that used funds owed as claimable and were not refused (must stay 0).
    uint256 public spentClaimables;
    /// @notice What failed payouts left claimable, per token (from the contract's own view).
    mapping(address token => uint256) public totalClaimable;
    RevertingRecipient public immutable rejecting = new RevertingRecipient();

    constructor(Depository depository_, uint256 allocatorKey_, address usdc, address feeToken) {
        depository = depository_;
        allocatorKey = allocatorKey_;
        tokens = [address(0), usdc, feeToken];
        domainSeparator = keccak256(
            abi.encode(
                keccak256("EIP712Domain(string name,string version,uint256 chainId,address verifyingContract)"),
                keccak256("FerryDepository"),
                keccak256("1"),
                block.chainid,
                address(depository_)
            )
        );
    }

    function executedCount() external view returns (uint256) {
        return executedNonces.length;
    }

    // ---------------------------------------------------------------- actions

    /// @param compact Through the sender-credited `depositNative_irOEa(id)` (when crediting itself).
    function depositNative(uint256 actorSeed, bool creditSelf, bytes32 id, uint256 amount, bool compact) external {
        if (id == bytes32(0)) id = bytes32(uint256(1)); // orderId 0 is refused (unit-tested)
        address actor = _actor(actorSeed);
        amount = bound(amount, 1, 1e24);
        vm.deal(actor, amount);
        vm.recordLogs();
        vm.prank(actor);
        if (creditSelf && compact) depository.depositNative_irOEa{value: amount}(id);
        else depository.depositNative{value: amount}(creditSelf ? address(0) : _actor(actorSeed >> 8), id);
        _creditFromLogs();
    }

    /// @param form 0: depositErc20(depositor, token, amount, id); 1: the allowance form; 2: the compact
    /// `depositErc20_6R0X4(token, amount, id)`.
    function depositErc20(uint256 tokenSeed, uint256 actorSeed, bytes32 id, uint256 amount, uint8 form) external {
        if (id == bytes32(0)) id = bytes32(uint256(1)); // orderId 0 is refused (unit-tested)
        address token = tokens[bound(tokenSeed, 1, 2)];
        address actor = _actor(actorSeed);
        amount = bound(amount, 1, 1e30);
        MockStablecoin(token).mint(actor, amount); // both test tokens share `mint(address,uint256)`
        vm.recordLogs();
        vm.startPrank(actor);
        IERC20(token).approve(address(depository), amount);
        form = uint8(bound(form, 0, 2));
        if (form == 1) depository.depositErc20(address(0), token, id);
        else if (form == 2) depository.depositErc20_6R0X4(token, amount, id);
        else depository.depositErc20(actor, token, amount, id);
        vm.stopPrank();
        _creditFromLogs();
    }

    /// @param compact Through `execute_kJ9b8(request, CompactSignature)`.
    function execute(uint256 tokenSeed, uint256 toSeed, uint256 amount, uint256 ttl, bool toRejecting, bool compact)
        external
    {
        address token = tokens[bound(tokenSeed, 0, 2)];
        // Up to everything held, claimables included: the allocator may sign a payout of funds owed to
        // payees of failed payouts, and the Depository must refuse exactly those.
        uint256 free = _held(token) - totalClaimable[token];
        // A payee that rejects native currency (its payouts become claimable); for tokens the
        // same address is an ordinary holder.
        address to = toRejecting ? address(rejecting) : _actor(toSeed);
        IDepository.CallRequest memory request;
        request.calls = new IDepository.Call[](1);
        request.calls[0] = IDepository.Call({to: to, token: token, amount: bound(amount, 0, _held(token))});
        request.nonce = nonce++;
        request.expiration = block.timestamp + bound(ttl, 0, 1 days);

        uint256 claimableBefore = depository.claimable(to, token);
        uint256 heldBefore = _held(token);
        (bool ok,) = address(depository).call(_executeCall(request, compact));
        if (request.calls[0].amount > free) {
            // It must not pay out funds owed as claimable.
            if (ok) spentClaimables += 1;
            return;
        }
        require(ok, "a payout backed by unreserved funds reverted");

        paidOut[token] += heldBefore - _held(token);
        uint256 deferred = depository.claimable(to, token) - claimableBefore;
        totalClaimable[token] += deferred;
        executions[request.nonce] += 1;
        executedNonces.push(request.nonce);
        executedRequests.push(abi.encode(request));
    }

    /// @dev Re-signs an executed nonce with a later expiration and a different amount (an allocator
    /// retry): it must never pay.
    function resign(uint256 index, uint256 extraTtl, uint256 amount, bool compact) external {
        if (executedNonces.length == 0) return;
        index = bound(index, 0, executedNonces.length - 1);
        IDepository.CallRequest memory request = abi.decode(executedRequests[index], (IDepository.CallRequest));
        request.expiration = block.timestamp + bound(extraTtl, 1, 30 days);
        request.calls[0].amount = bound(amount, 0, request.calls[0].amount);
        (bool ok,) = address(depository).call(_executeCall(request, compact));
        if (ok) {
            replaySuccesses += 1;
            executions[request.nonce] += 1;
        }
    }

    /// @dev Re-submits an executed payout as it was; it must never succeed.
    function replay(uint256 index, bool compact) external {
        if (executedNonces.length == 0) return;
        index = bound(index, 0, executedNonces.length - 1);
        IDepository.CallRequest memory request = abi.decode(executedRequests[index], (IDepository.CallRequest));
        (bool ok,) = address(depository).call(_executeCall(request, compact));
        if (ok) {
            replaySuccesses += 1;
            executions[request.nonce] += 1;
        }
    }

    /// @dev The rejecting payee withdraws what it is owed to an ordinary address.
    function claim(uint256 tokenSeed, uint256 toSeed) external {
        address token = tokens[bound(tokenSeed, 0, 2)];
        uint256 owed = depository.claimable(address(rejecting), token);
        if (owed == 0) return;
        uint256 heldBefore = _held(token);
        vm.prank(address(rejecting));
        depository.claim(token, _actor(toSeed));
        paidOut[token] += heldBefore - _held(token);
        totalClaimable[token] -= owed;
    }

    function warp(uint256 secondsForward) external {
        vm.warp(block.timestamp + bound(secondsForward, 0, 2 days));
    }

    // ---------------------------------------------------------------- helpers

    function _actor(uint256 seed) internal pure returns (address) {
        return address(uint160(uint256(keccak256(abi.encode("actor", seed % 16)))));
    }

    function _held(address token) internal view returns (uint256) {
        return token == address(0) ? address(depository).balance : IERC20(token).balanceOf(address(depository));
    }

    function _signed(IDepository.CallRequest memory request) internal view returns (bytes memory) {
        bytes32 requestHash = depository.hashCallRequest(request);
        (uint8 v, bytes32 r, bytes32 s) =
            vm.sign(allocatorKey, keccak256(abi.encodePacked("\x19\x01", domainSeparator, requestHash)));
        return abi.encodePacked(r, s, v);
    }

    function _compact(bytes memory signature) internal pure returns (CompactSignature memory) {
        bytes32 r;
        bytes32 s;
        uint8 v;
        assembly ("memory-safe") {
            r := mload(add(signature, 0x20))
            s := mload(add(signature, 0x40))
            v := byte(0, mload(add(signature, 0x60)))
        }
        return CompactSignature({r: r, vs: bytes32(uint256(s) | (uint256(v - 27) << 255))});
    }

    /// @dev `execute` calldata for a freshly signed request, in either form.
    function _executeCall(IDepository.CallRequest memory request, bool compact) internal view returns (bytes memory) {
        bytes memory signature = _signed(request);
        if (compact) return abi.encodeCall(IDepository.execute_kJ9b8, (request, _compact(signature)));
        return abi.encodeCall(IDepository.execute, (request, signature));
    }

    function _creditFromLogs() internal {
        Vm.Log[] memory logs = vm.getRecordedLogs();
        for (uint256 i; i < logs.length; ++i) {
            if (logs[i].emitter == address(depository) && logs[i].topics[0] == IDepository.Deposited.selector) {
                (address token, uint256 amount) = abi.decode(logs[i].data, (address, uint256));
                credited[token] += amount;
            }
        }
    }
}

/// @dev fail-on-revert: the handler bounds every input, so a revert is a bug (in the handler or the
/// Depository), never noise to be skipped.
contract DepositoryInvariantTest is DepositoryTestBase {
    DepositoryHandler internal handler;
    FeeOnTransferToken internal feeToken;

    function setUp() public override {
        super.setUp();
        feeToken = new FeeOnTransferToken(250); // 2.5 %
        handler = new DepositoryHandler(depository, allocatorKey, address(usdc), address(feeToken));
        targetContract(address(handler));
    }

    /// forge-config: default.invariant.fail-on-revert = true
    /// @notice Per token, the Depository holds exactly what it credited minus what it paid out:
    /// nothing is over-credited (fee-on-transfer included) and nothing leaves unaccounted.
    function invariant_balanceEqualsCreditedMinusPaidOut() public view {
        assertEq(address(depository).balance, handler.credited(address(0)) - handler.paidOut(address(0)), "native");
        assertEq(
            usdc.balanceOf(address(depository)),
            handler.credited(address(usdc)) - handler.paidOut(address(usdc)),
            "usdc"
        );
        assertEq(
            feeToken.balanceOf(address(depository)),
            handler.credited(address(feeToken)) - handler.paidOut(address(feeToken)),
            "fee-on-transfer"
        );
    }

    /// forge-config: default.invariant.fail-on-revert = true
    /// @notice No nonce pays twice (same request replayed or re-signed with a new expiration), and
    /// every executed nonce is marked.
    function invariant_noNonceExecutesTwice() public view {
        assertEq(handler.replaySuccesses(), 0, "replay succeeded");
        uint256 count = handler.executedCount();
        for (uint256 i; i < count; ++i) {
            uint256 executedNonce = handler.executedNonces(i);
            assertEq(handler.executions(executedNonce), 1, "executed more than once");
            assertTrue(depository.executed(executedNonce), "not marked executed");
        }
    }

    /// forge-config: default.invariant.fail-on-revert = true
    /// @notice What failed payouts left claimable is still held: the Depository can always honour
    /// every claim.
    function invariant_claimableIsBacked() public view {
        assertLe(handler.totalClaimable(address(0)), address(depository).balance, "native");
        assertLe(handler.totalClaimable(address(usdc)), usdc.balanceOf(address(depository)), "usdc");
        assertEq(
            depository.claimable(address(handler.rejecting()), address(0)), handler.totalClaimable(address(0))
        );
    }

    /// forge-config: default.invariant.fail-on-revert = true
    /// @notice Claimables are reserved: no payout ever used funds owed as claimable, and the contract's
    /// own reserve (`totalClaimable`) is exactly what its payees are owed.
    function invariant_claimablesAreReserved() public view {
        assertEq(handler.spentClaimables(), 0, "a payout spent claimable funds");
        assertEq(depository.totalClaimable(address(0)), handler.totalClaimable(address(0)), "native reserve");
        assertEq(depository.totalClaimable(address(usdc)), handler.totalClaimable(address(usdc)), "usdc reserve");
    }
}
