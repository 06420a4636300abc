// SPDX-License-Identifier: MIT
pragma solidity 0.8.30;

import {Test} from "forge-std/Test.sol";

import {AttestedReceiver} from "../../contracts/AttestedReceiver.sol";
import {IAttestedReceiver} from "../../contracts/interfaces/IAttestedReceiver.sol";
import {IMulticaller} from "../../contracts/interfaces/IMulticaller.sol";
import {CompactSignature, FillAttestation} from "../../contracts/libraries/AttestationLib.sol";
import {MockStablecoin} from "../../contracts/mocks/MockStablecoin.sol";
import {FillSigning, ReceiverFixture} from "./AttestedReceiver.t.sol";

/// @notice The solver in the invariant run, and a hostile second signer: fills fresh and already-used
/// requestIds with random amounts and currencies (plain fills and fillAndCall with extra value), each
/// attestation signed by the honest or the hostile allowed signer; also sends native currency to the
/// receiver directly. Books what each request paid and which attestation filled it.
contract FillHandler is Test {
    AttestedReceiver internal immutable receiver;
    MockStablecoin internal immutable usdc;
    uint256 internal immutable signerKey;
    uint256 internal immutable hostileKey;
    address[3] internal recipients;

    /// @notice The digest of the attestation whose fill succeeded, per requestId.
    mapping(bytes32 requestId => bytes32) public committed;
    uint256 public directSendsAccepted;

    bytes32[] public requestIds;
    mapping(bytes32 requestId => uint256) public paid;
    mapping(bytes32 requestId => uint256) public attestedAmount;
    mapping(bytes32 requestId => uint256) public successes;
    uint256 public successfulFills;
    uint256 public unexpectedReverts;

    constructor(
        AttestedReceiver receiver_,
        MockStablecoin usdc_,
        uint256 signerKey_,
        uint256 hostileKey_,
        address[3] memory recipients_
    ) {
        receiver = receiver_;
        usdc = usdc_;
        signerKey = signerKey_;
        hostileKey = hostileKey_;
        recipients = recipients_;
        usdc.approve(address(receiver_), type(uint256).max);
    }

    function requestCount() external view returns (uint256) {
        return requestIds.length;
    }

    /// @param fresh Use a new requestId; otherwise repeat one already seen (when there is one).
    /// @param hostile Signed by the hostile second signer (e.g. 1 wei for someone else's request).
    /// @param withCall Through fillAndCall, sending `extra` wei more than the fill needs.
    function fill(
        uint256 idSeed,
        uint256 amount,
        uint256 recipientSeed,
        bool fresh,
        bool native,
        bool hostile,
        bool withCall,
        uint256 extra
    ) external {
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
        if (hostile) att.destinationAmount = bound(amount, 0, 1); // the 1-wei griefing fill
        bytes memory signature = FillSigning.sign(hostile ? hostileKey : signerKey, att);

        uint256 before = native ? user.balance : usdc.balanceOf(user);
        extra = withCall ? bound(extra, 0, 1 ether) : 0;
        uint256 value = native ? att.destinationAmount + extra : extra;
        vm.deal(address(this), address(this).balance + value);
        if (!native) usdc.mint(address(this), att.destinationAmount);

        try this.send(att, signature, value, withCall) {
            uint256 delta = (native ? user.balance : usdc.balanceOf(user)) - before;
            paid[requestId] += delta;
            successes[requestId] += 1;
            attestedAmount[requestId] = att.destinationAmount;
            committed[requestId] = FillSigning.digest(att);
            successfulFills += 1;
        } catch (bytes memory reason) {
            bool expected = keccak256(reason)
                == keccak256(abi.encodeWithSelector(IAttestedReceiver.AlreadyFilled.selector, requestId));
            if (!expected) unexpectedReverts += 1;
        }
    }

    /// @dev External so that `fill` can try it; only this contract calls it.
    function send(FillAttestation calldata att, bytes calldata signature, uint256 value, bool withCall) external {
        require(msg.sender == address(this));
        bytes memory packed = FillSigning.pack(att, FillSigning.compactSignature(signature));
        if (withCall) {
            receiver.fillAndCall{value: value}(packed, new IMulticaller.Call[](0), new address[](0));
        } else {
            (bool ok, bytes memory returned) =
                address(receiver).call{value: value}(abi.encodePacked(IAttestedReceiver.fill_7hVe.selector, packed));
            if (!ok) {
                assembly ("memory-safe") {
                    revert(add(returned, 0x20), mload(returned))
                }
            }
        }
    }

    /// @notice Native currency sent straight to the receiver: it has no way to take it.
    function sendDirect(uint256 amount) external {
        amount = bound(amount, 1, 1 ether);
        vm.deal(address(this), address(this).balance + amount);
        (bool ok,) = address(receiver).call{value: amount}("");
        if (ok) directSendsAccepted += 1;
    }

    receive() external payable {}
}

/// @notice Invariant: a requestId is paid at most once, never more than its attestation says, and the
/// receiver's filled set is exactly the successful fills.
contract AttestedReceiverInvariantTest is ReceiverFixture {
    FillHandler internal handler;

    function setUp() public override {
        super.setUp();
        address[3] memory users = [recipient, makeAddr("user.b"), makeAddr("user.c")];
        (address hostile, uint256 hostileKey) = makeAddrAndKey("hostile signer");
        handler = new FillHandler(receiver, usdc, signerKey, hostileKey, users);
        vm.startPrank(owner);
        receiver.setSigner(hostile, true);
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

    /// @notice What the receiver committed to is exactly the attestation that paid, whoever signed it.
    function invariant_commitmentIsThePaidAttestation() public view {
        uint256 count = handler.requestCount();
        for (uint256 i; i < count; ++i) {
            bytes32 requestId = handler.requestIds(i);
            assertEq(receiver.filledDigest(requestId), handler.committed(requestId), "commitment");
        }
    }

    function invariant_onlyAlreadyFilledReverts() public view {
        assertEq(handler.unexpectedReverts(), 0);
    }

    function invariant_receiverHoldsNothing() public view {
        assertEq(handler.directSendsAccepted(), 0, "took a direct transfer");
        assertEq(address(receiver).balance, 0);
        assertEq(address(multicaller).balance, 0);
        assertEq(usdc.balanceOf(address(receiver)), 0);
    }
}
