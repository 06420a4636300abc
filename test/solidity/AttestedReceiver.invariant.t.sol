// SPDX-License-Identifier: MIT
pragma solidity 0.8.30;

import {Test} from "forge-std/Test.sol";

import {AttestedReceiver} from "../../contracts/AttestedReceiver.sol";
import {IAttestedReceiver} from "../../contracts/interfaces/IAttestedReceiver.sol";
import {FillAttestation} from "../../contracts/libraries/AttestationLib.sol";
import {MockStablecoin} from "../../contracts/mocks/MockStablecoin.sol";
import {FillSigning, ReceiverFixture} from "./AttestedReceiver.t.sol";

/// @notice The solver in the invariant run: fills fresh and already-used requestIds with random
/// amounts and currencies, every attestation legitimately signed, and books what each request paid.
contract FillHandler is Test {
    AttestedReceiver internal immutable receiver;
    MockStablecoin internal immutable usdc;
    uint256 internal immutable signerKey;
    address[3] internal recipients;

    bytes32[] public requestIds;
    mapping(bytes32 requestId => uint256) public paid;
    mapping(bytes32 requestId => uint256) public attestedAmount;
    mapping(bytes32 requestId => uint256) public successes;
    uint256 public successfulFills;
    uint256 public unexpectedReverts;

    constructor(AttestedReceiver receiver_, MockStablecoin usdc_, uint256 signerKey_, address[3] memory recipients_) {
        receiver = receiver_;
        usdc = usdc_;
        signerKey = signerKey_;
        recipients = recipients_;
        usdc.approve(address(receiver_), type(uint256).max);
    }

    function requestCount() external view returns (uint256) {
        return requestIds.length;
    }

    /// @param fresh Use a new requestId; otherwise repeat one already seen (when there is one).
    function fill(uint256 idSeed, uint256 amount, uint256 recipientSeed, bool fresh, bool native) external {
        bytes32 requestId;
        if (fresh || requestIds.length == 0) {
            requestId = keccak256(abi.encode("invariant.request", requestIds.length));
            requestIds.push(requestId);
        } else {
            requestId = requestIds[idSeed % requestIds.length];
        }
        amount = bound(amount, 0, native ? 10 ether : 1e12);
        address user = recipients[recipientSeed % recipients.length];
        address currency = native ? address(0) : address(usdc);

        FillAttestation memory att = FillAttestation({
            requestId: requestId,
            orderId: keccak256(abi.encode("invariant.order", requestId)),
            originChainId: 31_337,
            originUser: bytes32(uint256(uint160(address(this)))),
            originCurrency: bytes32(0),
            originAmount: amount,
            destinationChainId: block.chainid,
            destinationUser: bytes32(uint256(uint160(user))),
            destinationCurrency: bytes32(uint256(uint160(currency))),
            destinationAmount: amount,
            deadline: block.timestamp + 1 hours,
            receiver: address(receiver)
        });
        bytes memory signature = FillSigning.sign(signerKey, att);

        uint256 before = native ? user.balance : usdc.balanceOf(user);
        if (native) vm.deal(address(this), address(this).balance + amount);
        else usdc.mint(address(this), amount);

        try receiver.fill{value: native ? amount : 0}(att, signature) {
            uint256 delta = (native ? user.balance : usdc.balanceOf(user)) - before;
            paid[requestId] += delta;
            successes[requestId] += 1;
            attestedAmount[requestId] = amount;
            successfulFills += 1;
        } catch (bytes memory reason) {
            bool expected = keccak256(reason)
                == keccak256(abi.encodeWithSelector(IAttestedReceiver.AlreadyFilled.selector, requestId));
            if (!expected) unexpectedReverts += 1;
        }
    }
}

/// @notice Invariant: a requestId is paid at most once, never more than its attestation says, and the
/// receiver's filled set is exactly the successful fills.
contract AttestedReceiverInvariantTest is ReceiverFixture {
    FillHandler internal handler;

    function setUp() public override {
        super.setUp();
        address[3] memory users = [recipient, makeAddr("user.b"), makeAddr("user.c")];
        handler = new FillHandler(receiver, usdc, signerKey, users);
        vm.startPrank(owner);
        receiver.setRecipient(users[1], true);
        receiver.setRecipient(users[2], true);
        vm.stopPrank();
        targetContract(address(handler));
    }

    function invariant_requestPaidAtMostOnce() public view {
        uint256 count = handler.requestCount();
        for (uint256 i; i < count; ++i) {
            bytes32 requestId = handler.requestIds(i);
            assertLe(handler.successes(requestId), 1, "filled twice");
            assertLe(handler.paid(requestId), handler.attestedAmount(requestId), "paid more than attested");
            if (handler.successes(requestId) == 1) {
                assertEq(handler.paid(requestId), handler.attestedAmount(requestId), "paid exactly once");
            }
        }
    }

    function invariant_filledCountEqualsSuccessfulFills() public view {
        uint256 count = handler.requestCount();
        uint256 filledCount;
        for (uint256 i; i < count; ++i) {
            if (receiver.filled(handler.requestIds(i))) ++filledCount;
        }
        assertEq(filledCount, handler.successfulFills());
    }

    function invariant_onlyAlreadyFilledReverts() public view {
        assertEq(handler.unexpectedReverts(), 0);
    }

    function invariant_receiverHoldsNothing() public view {
        assertEq(address(receiver).balance, 0);
        assertEq(usdc.balanceOf(address(receiver)), 0);
    }
}
