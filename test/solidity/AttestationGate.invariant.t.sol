// SPDX-License-Identifier: MIT
pragma solidity 0.8.30;

import {Test} from "forge-std/Test.sol";

import {FillAttestation, RequestAttestation} from "../../contracts/libraries/AttestationLib.sol";
import {GateHarness, GateTestBase} from "./utils/GateTestBase.sol";

/// @notice Drives the gate with v1 and v2 attestations from an allowed signer and from a hostile
/// (unlisted) key, fresh and already-used requestIds, payments that match and that are off by
/// currency or amount, and the clock moving past deadlines; books what each attempt should have done.
contract GateHandler is GateTestBase {
    GateHarness internal immutable gate;
    address internal immutable token = makeAddr("token");

    bytes32[] public requestIds;
    mapping(bytes32 requestId => uint256) public consumptions;
    /// @notice Accepted attempts that broke a rule (wrong signer, currency, amount or deadline).
    uint256 public invalidAccepted;
    /// @notice Rejected attempts that broke no rule (and used a fresh requestId).
    uint256 public validRejected;

    constructor(GateHarness gate_) {
        gate = gate_;
        boundGate = address(gate_);
    }

    function requestCount() external view returns (uint256) {
        return requestIds.length;
    }

    struct Attempt {
        bytes32 requestId;
        address currency;
        address paidCurrency;
        uint256 amount;
        uint256 paidAmount;
        uint256 key;
        bool expired;
    }

    function consume(
        uint256 idSeed,
        bool fresh,
        bool hostile,
        bool v1,
        bool payToken,
        uint256 amount,
        uint256 amountError,
        bool wrongCurrency
    ) external {
        Attempt memory t;
        if (fresh || requestIds.length == 0) {
            t.requestId = keccak256(abi.encode("gate.invariant", requestIds.length));
            requestIds.push(t.requestId);
        } else {
            t.requestId = requestIds[idSeed % requestIds.length];
        }
        t.amount = bound(amount, 0, 1e30);
        amountError = bound(amountError, 0, 2);
        t.currency = payToken ? token : address(0);
        t.paidCurrency = wrongCurrency ? (payToken ? address(0) : token) : t.currency;
        t.paidAmount = amountError == 0 ? t.amount : (amountError == 1 ? t.amount + 1 : t.amount / 2);
        t.key = hostile ? OTHER_KEY : SIGNER_KEY;
        // Some v2 attestations were signed in the past and are expired by now.
        t.expired = !v1 && idSeed % 3 == 0;

        bool ok = v1 ? _consumeV1(t) : _consumeV2(t);

        bool rule = hostile || wrongCurrency || t.paidAmount != t.amount || t.expired;
        if (ok) {
            consumptions[t.requestId] += 1;
            if (rule) invalidAccepted += 1;
        } else if (!rule && consumptions[t.requestId] == 0) {
            validRejected += 1;
        }
    }

    function _consumeV1(Attempt memory t) internal returns (bool) {
        RequestAttestation memory att = _request(t.requestId, t.currency, t.amount);
        try gate.consumeRequest(att, _signRequest(t.key, att), payer, t.paidCurrency, t.paidAmount) {
            return true;
        } catch {
            return false;
        }
    }

    function _consumeV2(Attempt memory t) internal returns (bool) {
        FillAttestation memory att = _fill(t.requestId, t.currency, t.amount);
        if (t.expired) att.deadline = block.timestamp - 1;
        try gate.consumeFill(att, _signFill(t.key, att), payer, t.paidCurrency, t.paidAmount) {
            return true;
        } catch {
            return false;
        }
    }

    function warp(uint256 secondsForward) external {
        vm.warp(block.timestamp + bound(secondsForward, 0, 1 days));
    }
}

/// @notice Invariants of AttestationGate: a requestId is consumed at most once, only for an allowed
/// signer's attestation with the exact currency and amount before its deadline, and a valid fresh
/// attestation is always accepted.
contract AttestationGateInvariantTest is GateTestBase {
    GateHarness internal gate;
    GateHandler internal handler;

    function setUp() public {
        vm.warp(START_TIME);
        gate = new GateHarness();
        boundGate = address(gate);
        gate.setSigner(signer, true);
        handler = new GateHandler(gate);
        targetContract(address(handler));
    }

    function invariant_consumedAtMostOnce() public view {
        uint256 count = handler.requestCount();
        for (uint256 i; i < count; ++i) {
            bytes32 requestId = handler.requestIds(i);
            assertLe(handler.consumptions(requestId), 1, "consumed twice");
            assertEq(gate.consumed(requestId), handler.consumptions(requestId) == 1, "consumed flag");
        }
    }

    function invariant_onlyValidPaymentsAccepted() public view {
        assertEq(handler.invalidAccepted(), 0, "a payment that broke a rule was accepted");
    }

    function invariant_validPaymentsAccepted() public view {
        assertEq(handler.validRejected(), 0, "a valid payment was rejected");
    }
}
