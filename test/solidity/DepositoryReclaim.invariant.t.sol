// SPDX-License-Identifier: MIT
pragma solidity 0.8.30;

import {CommonBase} from "forge-std/Base.sol";
import {StdCheats} from "forge-std/StdCheats.sol";
import {StdUtils} from "forge-std/StdUtils.sol";

import {Depository} from "../../contracts/Depository.sol";
import {IDepository} from "../../contracts/interfaces/IDepository.sol";
import {DepositoryTestBase} from "./Depository.t.sol";

/// @notice Drives reclaimable native deposits, the allocator's releases (each the order's repayment to
/// the solver), the depositors' reclaims, reclaims by strangers, replayed releases and the clock, and
/// counts from the outside what each deposit paid.
contract DepositoryReclaimHandler is CommonBase, StdCheats, StdUtils {
    struct Entry {
        bytes32 id;
        address depositor;
        uint256 amount;
        uint256 reclaimAt;
    }

    Depository internal immutable depository;
    uint256 internal immutable allocatorKey;
    bytes32 internal immutable domainSeparator;
    address internal immutable solver = makeAddr("reclaim solver");
    address[3] internal actors = [makeAddr("depositor 0"), makeAddr("depositor 1"), makeAddr("depositor 2")];

    Entry[] internal entries;
    /// @notice Successful payouts (release or reclaim) per entry: must never exceed one.
    mapping(uint256 index => uint256) public payouts;
    uint256 public deposited;
    uint256 public paidOut;
    /// @notice Reclaims that succeeded before their time, or by someone other than the depositor (must stay 0).
    uint256 public earlyReclaims;
    uint256 public strangerReclaims;
    /// @notice Releases that paid again when re-sent (must stay 0).
    uint256 public replaySuccesses;
    bytes[] internal releasedCalls;
    uint256 internal nonce;

    constructor(Depository depository_, uint256 allocatorKey_) {
        depository = depository_;
        allocatorKey = allocatorKey_;
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

    function entryCount() external view returns (uint256) {
        return entries.length;
    }

    function entry(uint256 index) external view returns (Entry memory) {
        return entries[index];
    }

    // ---------------------------------------------------------------- actions

    function deposit(uint256 actorSeed, uint96 amount, uint32 delay) external {
        address depositor = actors[actorSeed % actors.length];
        amount = uint96(bound(amount, 1, 1e24));
        bytes32 id = keccak256(abi.encode("reclaim invariant", entries.length));
        uint256 reclaimAt = block.timestamp + bound(delay, 0, 30 days);
        vm.deal(depositor, depositor.balance + amount);
        vm.prank(depositor);
        depository.depositNativeReclaimable_fpifa{value: amount}(id, reclaimAt);
        entries.push(Entry({id: id, depositor: depositor, amount: amount, reclaimAt: reclaimAt}));
        deposited += amount;
    }

    function release(uint256 index) external {
        if (entries.length == 0) return;
        index = index % entries.length;
        Entry memory e = entries[index];
        bytes memory call = _releaseCall(e, ++nonce);
        (bool ok,) = address(depository).call(call);
        if (ok) {
            payouts[index] += 1;
            paidOut += e.amount;
            releasedCalls.push(call);
        }
    }

    function reclaim(uint256 index) external {
        if (entries.length == 0) return;
        index = index % entries.length;
        Entry memory e = entries[index];
        vm.prank(e.depositor);
        (bool ok,) = address(depository).call(
            abi.encodeCall(IDepository.reclaim, (e.id, address(0), e.amount, e.reclaimAt))
        );
        if (ok) {
            payouts[index] += 1;
            paidOut += e.amount;
            if (block.timestamp < e.reclaimAt) earlyReclaims += 1;
        }
    }

    function reclaimAsStranger(uint256 index, uint256 actorSeed) external {
        if (entries.length == 0) return;
        Entry memory e = entries[index % entries.length];
        address stranger = actors[actorSeed % actors.length];
        if (stranger == e.depositor) stranger = solver;
        vm.prank(stranger);
        (bool ok,) = address(depository).call(
            abi.encodeCall(IDepository.reclaim, (e.id, address(0), e.amount, e.reclaimAt))
        );
        if (ok) strangerReclaims += 1;
    }

    function replayRelease(uint256 index) external {
        if (releasedCalls.length == 0) return;
        (bool ok,) = address(depository).call(releasedCalls[index % releasedCalls.length]);
        if (ok) replaySuccesses += 1;
    }

    function warp(uint32 seconds_) external {
        vm.warp(block.timestamp + bound(seconds_, 0, 10 days));
    }

    // ---------------------------------------------------------------- signing

    function _releaseCall(Entry memory e, uint256 n) internal view returns (bytes memory) {
        IDepository.ReleaseRequest memory request;
        request.id = e.id;
        request.calls = new IDepository.Call[](1);
        request.calls[0] = IDepository.Call({to: solver, token: address(0), amount: e.amount});
        request.credits = new IDepository.Call[](0);
        request.nonce = n;
        request.expiration = type(uint256).max;
        bytes32 callTypehash = keccak256("Call(address to,address token,uint256 amount)");
        bytes32 structHash = keccak256(
            abi.encode(
                keccak256(
                    "ReleaseRequest(bytes32 id,Call[] calls,Call[] credits,uint256 nonce,uint256 expiration)Call(address to,address token,uint256 amount)"
                ),
                e.id,
                keccak256(abi.encode(keccak256(abi.encode(callTypehash, solver, address(0), e.amount)))),
                keccak256(""),
                n,
                request.expiration
            )
        );
        (uint8 v, bytes32 r, bytes32 s) =
            vm.sign(allocatorKey, keccak256(abi.encodePacked("\x19\x01", domainSeparator, structHash)));
        return abi.encodeCall(IDepository.release, (request, abi.encodePacked(r, s, v)));
    }
}

/// @dev fail-on-revert: the handler bounds its inputs and tries the Depository with low-level calls, so
/// a revert is a bug in the handler, never noise.
contract DepositoryReclaimInvariantTest is DepositoryTestBase {
    DepositoryReclaimHandler internal handler;

    function setUp() public override {
        super.setUp();
        handler = new DepositoryReclaimHandler(depository, allocatorKey);
        targetContract(address(handler));
    }

    /// forge-config: default.invariant.fail-on-revert = true
    /// @notice Release and reclaim never both pay (nor either twice): each deposit paid out at most once,
    /// and its commitment is live exactly while it has not.
    function invariant_eachDepositPaysAtMostOnce() public view {
        uint256 count = handler.entryCount();
        for (uint256 i; i < count; ++i) {
            DepositoryReclaimHandler.Entry memory e = handler.entry(i);
            uint256 paid = handler.payouts(i);
            assertLe(paid, 1, "a deposit paid twice");
            bytes32 live = depository.reclaimCommitment(e.id);
            if (paid == 0) assertEq(live, keccak256(abi.encode(e.depositor, address(0), e.amount, e.reclaimAt)));
            else assertEq(live, bytes32(0), "a paid deposit's commitment is still live");
        }
        assertEq(handler.replaySuccesses(), 0, "a release paid again");
    }

    /// forge-config: default.invariant.fail-on-revert = true
    /// @notice Only the depositor reclaims, never before its time.
    function invariant_onlyTheDepositorReclaimsAndNotEarly() public view {
        assertEq(handler.earlyReclaims(), 0, "reclaimed early");
        assertEq(handler.strangerReclaims(), 0, "reclaimed by a stranger");
    }

    /// forge-config: default.invariant.fail-on-revert = true
    /// @notice The Depository holds exactly what was deposited minus what was paid out.
    function invariant_balanceEqualsDepositedMinusPaid() public view {
        assertEq(address(depository).balance, handler.deposited() - handler.paidOut());
        assertEq(depository.totalClaimable(address(0)), 0);
    }
}
