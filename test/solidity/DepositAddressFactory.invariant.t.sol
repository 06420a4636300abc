// SPDX-License-Identifier: MIT
pragma solidity 0.8.30;

import {Test} from "forge-std/Test.sol";

import {DepositAddressFactory} from "../../contracts/DepositAddressFactory.sol";
import {IDepositAddressFactory} from "../../contracts/interfaces/IDepositAddressFactory.sol";
import {IDepositForwarder} from "../../contracts/interfaces/IDepositForwarder.sol";
import {MockStablecoin} from "../../contracts/mocks/MockStablecoin.sol";
import {DepositAddressTestBase} from "./DepositAddressFactory.t.sol";

/// @notice Random payments into four deposit addresses (two strict, two open, two refund
/// recipients), random allocator-signed instructions on them (deposits under random orders, refunds,
/// random amounts and tokens, replayed ids), and attempts by an outsider (its own key, direct calls to
/// the forwarders). Every call may revert; the handler swallows reverts.
contract DepositAddressHandler is Test {
    DepositAddressFactory internal immutable factory;
    MockStablecoin internal immutable usdc;
    uint256 internal immutable allocatorKey;
    IDepositAddressFactory.DepositAddress[4] internal params;
    address[4] public addresses;
    uint256 public nativePaid;
    uint256 internal counter;

    constructor(DepositAddressFactory factory_, MockStablecoin usdc_, uint256 allocatorKey_, IDepositAddressFactory.DepositAddress[4] memory params_) {
        factory = factory_;
        usdc = usdc_;
        allocatorKey = allocatorKey_;
        for (uint256 i; i < 4; ++i) {
            params[i] = params_[i];
            addresses[i] = factory_.predict(params_[i]);
        }
    }

    function payNative(uint256 which, uint96 amount) external {
        address a = addresses[which % 4];
        vm.deal(a, a.balance + amount);
        nativePaid += amount;
    }

    function payToken(uint256 which, uint96 amount) external {
        usdc.mint(addresses[which % 4], amount);
    }

    function instruct(uint256 which, bool refund, bool native, uint96 amount, uint8 idSeed, bytes32 orderId) external {
        IDepositAddressFactory.DepositAddress memory p = params[which % 4];
        address a = addresses[which % 4];
        // Strict deposits name the bound order half the time, so some succeed.
        if (p.mode == IDepositAddressFactory.Mode.Strict && idSeed % 2 == 0) {
            (orderId, native, amount) = (p.orderId, p.currency == address(0), uint96(p.amount));
        }
        IDepositAddressFactory.ForwardInstruction memory ins = IDepositAddressFactory.ForwardInstruction(
            refund ? IDepositAddressFactory.Action.Refund : IDepositAddressFactory.Action.Deposit,
            orderId == bytes32(0) ? bytes32(uint256(1)) : orderId,
            native ? address(0) : address(usdc),
            amount,
            bytes32(uint256(idSeed % 16)), // small id space: replays happen
            block.timestamp
        );
        (uint8 v, bytes32 r, bytes32 s) = vm.sign(allocatorKey, factory.instructionDigest(a, ins));
        try factory.deployAndForward(p, ins, abi.encodePacked(r, s, v)) {} catch {}
    }

    function outsider(uint256 which, uint96 amount, bool direct) external {
        IDepositAddressFactory.DepositAddress memory p = params[which % 4];
        address a = addresses[which % 4];
        IDepositAddressFactory.ForwardInstruction memory ins = IDepositAddressFactory.ForwardInstruction(
            IDepositAddressFactory.Action.Refund, bytes32(0), address(0), amount, bytes32(++counter), block.timestamp
        );
        if (direct) {
            if (a.code.length != 0) try IDepositForwarder(a).refund(address(0), amount) {} catch {}
            return;
        }
        (uint8 v, bytes32 r, bytes32 s) = vm.sign(uint256(keccak256("outsider")), factory.instructionDigest(a, ins));
        try factory.deployAndForward(p, ins, abi.encodePacked(r, s, v)) {} catch {}
    }
}

contract DepositAddressInvariantTest is DepositAddressTestBase {
    DepositAddressHandler internal handler;
    address internal refundee2 = makeAddr("refundee2");

    function setUp() public override {
        super.setUp();
        IDepositAddressFactory.DepositAddress[4] memory ps = [
            _strict(refundee, keccak256("o1"), address(0), 1 ether),
            _strict(refundee2, keccak256("o2"), address(usdc), 5e6),
            _open(refundee, bytes32(uint256(1))),
            _open(refundee2, bytes32(uint256(2)))
        ];
        handler = new DepositAddressHandler(factory, usdc, allocatorKey, ps);
        targetContract(address(handler));
    }

    /// @dev Funds only ever leave to the Depository or a refund recipient: what was paid in is exactly
    /// what the addresses, the Depository and the two recipients hold between them.
    function invariant_fundsLeaveOnlyToDepositoryOrRefundRecipient() public view {
        uint256 held = address(depository).balance + refundee.balance + refundee2.balance;
        uint256 tokens = usdc.balanceOf(address(depository)) + usdc.balanceOf(refundee) + usdc.balanceOf(refundee2);
        for (uint256 i; i < 4; ++i) {
            held += handler.addresses(i).balance;
            tokens += usdc.balanceOf(handler.addresses(i));
        }
        assertEq(held, handler.nativePaid());
        assertEq(tokens, usdc.totalSupply());
    }
}
