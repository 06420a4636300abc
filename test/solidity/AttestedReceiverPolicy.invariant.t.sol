// SPDX-License-Identifier: MIT
pragma solidity 0.8.30;

import {Test} from "forge-std/Test.sol";

import {AttestedReceiver} from "../../contracts/AttestedReceiver.sol";
import {IAttestedReceiver} from "../../contracts/interfaces/IAttestedReceiver.sol";
import {FillAttestation} from "../../contracts/libraries/AttestationLib.sol";
import {MockStablecoin} from "../../contracts/mocks/MockStablecoin.sol";
import {FillSigning, ReceiverFixture} from "./AttestedReceiver.t.sol";

/// @notice The owner and a solver in the policy run: the owner allows and revokes signers (three keys)
/// and lists and delists currencies (three tokens) in any order; the solver sends ERC-20 fills signed
/// by any of the keys in any of the tokens. Books every fill whose outcome differs from what the
/// canonical lists (`isSigner`, `isCurrencyAllowed`) say it must be.
contract PolicyHandler is Test {
    AttestedReceiver internal immutable receiver;
    address internal immutable owner;
    address internal immutable recipient;
    uint256[3] internal keys;
    MockStablecoin[3] internal tokens;
    uint256 internal nextId;

    uint256 public wrongOutcomes;
    uint256 public fillsTried;

    constructor(AttestedReceiver receiver_, address owner_, address recipient_, uint256[3] memory keys_) {
        receiver = receiver_;
        owner = owner_;
        recipient = recipient_;
        keys = keys_;
        for (uint256 i; i < 3; ++i) {
            tokens[i] = new MockStablecoin("Policy token", "PT");
            tokens[i].approve(address(receiver_), type(uint256).max);
        }
    }

    function signerAt(uint256 i) public view returns (address) {
        return vm.addr(keys[i]);
    }

    function tokenAt(uint256 i) external view returns (address) {
        return address(tokens[i]);
    }

    function setSigner(uint256 seed, bool allowed) external {
        vm.prank(owner);
        receiver.setSigner(signerAt(seed % 3), allowed);
    }

    function setCurrency(uint256 seed, bool allowed) external {
        vm.prank(owner);
        receiver.setCurrency(address(tokens[seed % 3]), allowed);
    }

    function fill(uint256 signerSeed, uint256 tokenSeed, uint256 amount) external {
        uint256 key = keys[signerSeed % 3];
        MockStablecoin token = tokens[tokenSeed % 3];
        amount = bound(amount, 0, 1e12);
        bytes32 requestId = keccak256(abi.encode("policy.request", nextId++));
        FillAttestation memory att = FillAttestation({
            requestId: requestId,
            orderId: keccak256(abi.encode("policy.order", requestId)),
            originChainId: 31_337,
            originUser: bytes32(uint256(uint160(address(this)))),
            originCurrency: bytes32(0),
            originAmount: amount,
            destinationChainId: block.chainid,
            destinationUser: bytes32(uint256(uint160(recipient))),
            destinationCurrency: bytes32(uint256(uint160(address(token)))),
            destinationAmount: amount,
            deadline: block.timestamp + 1 hours,
            receiver: address(receiver)
        });
        bytes memory signature = FillSigning.sign(key, att);
        bytes memory data = abi.encodePacked(
            IAttestedReceiver.fill_7hVe.selector, FillSigning.pack(att, FillSigning.compactSignature(signature))
        );
        token.mint(address(this), amount);
        address signer = vm.addr(key);
        bool mustSucceed = receiver.isSigner(signer) && receiver.isCurrencyAllowed(address(token));
        bytes memory mustRevertWith = !receiver.isSigner(signer)
            ? abi.encodeWithSelector(IAttestedReceiver.SignerNotAllowed.selector, signer)
            : abi.encodeWithSelector(IAttestedReceiver.CurrencyNotAllowed.selector, address(token));

        fillsTried += 1;
        (bool ok, bytes memory returned) = address(receiver).call(data);
        if (ok != mustSucceed) wrongOutcomes += 1;
        else if (!ok && keccak256(returned) != keccak256(mustRevertWith)) wrongOutcomes += 1;
    }
}

/// @notice Invariant: the stored signer × currency pair an ERC-20 fill reads is exactly
/// `isSigner && isCurrencyAllowed`, whatever order the owner changed the lists in, and every fill
/// succeeds or fails (with SignerNotAllowed before CurrencyNotAllowed) as the two lists say.
contract AttestedReceiverPolicyInvariantTest is ReceiverFixture {
    PolicyHandler internal handler;

    function setUp() public override {
        super.setUp();
        (, uint256 second) = makeAddrAndKey("policy.second");
        (, uint256 third) = makeAddrAndKey("policy.third");
        handler = new PolicyHandler(receiver, owner, recipient, [signerKey, second, third]);
        targetContract(address(handler));
    }

    function invariant_pairIsSignerAndCurrency() public view {
        for (uint256 i; i < 3; ++i) {
            address s = handler.signerAt(i);
            for (uint256 j; j < 3; ++j) {
                address c = handler.tokenAt(j);
                assertEq(
                    receiver.isSignerForCurrency(s, c),
                    receiver.isSigner(s) && receiver.isCurrencyAllowed(c),
                    "pair differs from the lists"
                );
            }
        }
    }

    function invariant_listsEnumerateExactlyTheAllowed() public view {
        uint256 allowedSigners;
        uint256 listedTokens;
        for (uint256 i; i < 3; ++i) {
            if (receiver.isSigner(handler.signerAt(i))) ++allowedSigners;
            if (receiver.isCurrencyAllowed(handler.tokenAt(i))) ++listedTokens;
        }
        // The fixture's signer is key 0 and its usdc is listed outside the handler's tokens.
        assertEq(receiver.signers().length, allowedSigners, "signers()");
        assertEq(receiver.currencies().length, listedTokens + 1, "currencies()");
    }

    function invariant_fillOutcomesFollowTheLists() public view {
        assertEq(handler.wrongOutcomes(), 0);
    }
}
