// SPDX-License-Identifier: MIT
pragma solidity 0.8.30;

import {CommonBase} from "forge-std/Base.sol";
import {StdCheats} from "forge-std/StdCheats.sol";
import {StdUtils} from "forge-std/StdUtils.sol";
import {Vm} from "forge-std/Vm.sol";
import {IERC20} from "@openzeppelin/contracts/token/ERC20/IERC20.sol";

import {Depository} from "../../contracts/Depository.sol";
import {IDepository} from "../../contracts/interfaces/IDepository.sol";
import {FeeOnTransferToken} from "../../contracts/mocks/FeeOnTransferToken.sol";
import {MockStablecoin} from "../../contracts/mocks/MockStablecoin.sol";
import {DepositoryTestBase} from "./Depository.t.sol";

/// @notice Drives random deposits (native, ERC-20 and fee-on-transfer, both ERC-20 forms), allocator
/// payouts and replays of executed payouts, keeping ghost totals from the contract's own events.
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
    /// @notice Successful executions per request hash (must never exceed one).
    mapping(bytes32 requestHash => uint256) public executions;
    bytes32[] public executedHashes;
    bytes[] internal executedCalldata;
    uint256 public replaySuccesses;
    uint256 internal nonce;

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
        return executedHashes.length;
    }

    // ---------------------------------------------------------------- actions

    function depositNative(uint256 actorSeed, bool creditSelf, bytes32 id, uint256 amount) external {
        address actor = _actor(actorSeed);
        amount = bound(amount, 1, 1e24);
        vm.deal(actor, amount);
        vm.recordLogs();
        vm.prank(actor);
        depository.depositNative{value: amount}(creditSelf ? address(0) : _actor(actorSeed >> 8), id);
        _creditFromLogs();
    }

    function depositErc20(uint256 tokenSeed, uint256 actorSeed, bytes32 id, uint256 amount, bool allowanceForm)
        external
    {
        address token = tokens[bound(tokenSeed, 1, 2)];
        address actor = _actor(actorSeed);
        amount = bound(amount, 1, 1e30);
        MockStablecoin(token).mint(actor, amount); // both test tokens share `mint(address,uint256)`
        vm.recordLogs();
        vm.startPrank(actor);
        IERC20(token).approve(address(depository), amount);
        if (allowanceForm) depository.depositErc20(address(0), token, id);
        else depository.depositErc20(actor, token, amount, id);
        vm.stopPrank();
        _creditFromLogs();
    }

    function execute(uint256 tokenSeed, uint256 toSeed, uint256 amount, uint256 ttl) external {
        address token = tokens[bound(tokenSeed, 0, 2)];
        uint256 held = token == address(0) ? address(depository).balance : IERC20(token).balanceOf(address(depository));
        IDepository.CallRequest memory request;
        request.calls = new IDepository.Call[](1);
        request.calls[0] = IDepository.Call({to: _actor(toSeed), token: token, amount: bound(amount, 0, held)});
        request.nonce = nonce++;
        request.expiration = block.timestamp + bound(ttl, 0, 1 days);
        bytes32 requestHash = depository.hashCallRequest(request);
        (uint8 v, bytes32 r, bytes32 s) =
            vm.sign(allocatorKey, keccak256(abi.encodePacked("\x19\x01", domainSeparator, requestHash)));
        bytes memory signature = abi.encodePacked(r, s, v);

        depository.execute(request, signature);

        paidOut[token] += request.calls[0].amount;
        executions[requestHash] += 1;
        executedHashes.push(requestHash);
        executedCalldata.push(abi.encodeCall(IDepository.execute, (request, signature)));
    }

    /// @dev Re-submits an executed payout; it must never succeed.
    function replay(uint256 index) external {
        if (executedHashes.length == 0) return;
        index = bound(index, 0, executedHashes.length - 1);
        (bool ok,) = address(depository).call(executedCalldata[index]);
        if (ok) {
            replaySuccesses += 1;
            executions[executedHashes[index]] += 1;
        }
    }

    function warp(uint256 secondsForward) external {
        vm.warp(block.timestamp + bound(secondsForward, 0, 2 days));
    }

    // ---------------------------------------------------------------- helpers

    function _actor(uint256 seed) internal pure returns (address) {
        return address(uint160(uint256(keccak256(abi.encode("actor", seed % 16)))));
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
    /// @notice No request hash executes twice, and every executed one is marked.
    function invariant_noRequestExecutesTwice() public view {
        assertEq(handler.replaySuccesses(), 0, "replay succeeded");
        uint256 count = handler.executedCount();
        for (uint256 i; i < count; ++i) {
            bytes32 requestHash = handler.executedHashes(i);
            assertEq(handler.executions(requestHash), 1, "executed more than once");
            assertTrue(depository.executed(requestHash), "not marked executed");
        }
    }
}
