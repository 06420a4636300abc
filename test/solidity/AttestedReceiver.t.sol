// SPDX-License-Identifier: MIT
pragma solidity 0.8.30;

import {Test} from "forge-std/Test.sol";
import {Vm} from "forge-std/Vm.sol";

import {Ownable} from "@openzeppelin/contracts/access/Ownable.sol";
import {SafeTransferLib} from "solady/src/utils/SafeTransferLib.sol";

import {AttestedReceiver} from "../../contracts/AttestedReceiver.sol";
import {Multicaller} from "../../contracts/Multicaller.sol";
import {IAttestedReceiver} from "../../contracts/interfaces/IAttestedReceiver.sol";
import {IMulticaller} from "../../contracts/interfaces/IMulticaller.sol";
import {AttestationLib, CompactSignature, FillAttestation} from "../../contracts/libraries/AttestationLib.sol";
import {MockStablecoin} from "../../contracts/mocks/MockStablecoin.sol";
import {RevertingRecipient} from "../../contracts/mocks/RevertingRecipient.sol";
import {CallTarget} from "./Multicaller.t.sol";

/// @notice The v2 digest written out field by field (independent of AttestationLib's assembly) and
/// signing with a test key, the way the service signs: EIP-191 personal-sign over the digest.
library FillSigning {
    Vm private constant VM = Vm(address(uint160(uint256(keccak256("hevm cheat code")))));

    string internal constant FILL_TYPE =
        "FillAttestation(bytes32 requestId,bytes32 orderId,uint256 originChainId,bytes32 originUser,bytes32 originCurrency,uint256 originAmount,uint256 destinationChainId,bytes32 destinationUser,bytes32 destinationCurrency,uint256 destinationAmount,uint256 deadline,address receiver)";

    /// @notice The type a calls attestation (requestId = callsRequestId) is signed under: the same
    /// fields as FILL_TYPE, another name, so no path but fillWithCalls rebuilds its digest.
    string internal constant CALLS_FILL_TYPE =
        "CallsFillAttestation(bytes32 requestId,bytes32 orderId,uint256 originChainId,bytes32 originUser,bytes32 originCurrency,uint256 originAmount,uint256 destinationChainId,bytes32 destinationUser,bytes32 destinationCurrency,uint256 destinationAmount,uint256 deadline,address receiver)";

    function digest(FillAttestation memory att) internal pure returns (bytes32) {
        return digestOfType(FILL_TYPE, att);
    }

    function callsDigest(FillAttestation memory att) internal pure returns (bytes32) {
        return digestOfType(CALLS_FILL_TYPE, att);
    }

    function signCalls(uint256 key, FillAttestation memory att) internal pure returns (bytes memory) {
        (uint8 v, bytes32 r, bytes32 s) = VM.sign(key, personalSignHash(callsDigest(att)));
        return abi.encodePacked(r, s, v);
    }

    function digestOfType(string memory typeString, FillAttestation memory att) internal pure returns (bytes32) {
        // Two abi.encode halves concatenated: the same bytes as one 13-value abi.encode, which an
        // optimizer-off build (Foundry coverage) cannot fit on the stack.
        return keccak256(
            bytes.concat(
                abi.encode(
                    keccak256(bytes(typeString)),
                    att.requestId,
                    att.orderId,
                    att.originChainId,
                    att.originUser,
                    att.originCurrency,
                    att.originAmount
                ),
                abi.encode(
                    att.destinationChainId,
                    att.destinationUser,
                    att.destinationCurrency,
                    att.destinationAmount,
                    att.deadline,
                    att.receiver
                )
            )
        );
    }

    function personalSignHash(bytes32 digest_) internal pure returns (bytes32) {
        return keccak256(abi.encodePacked("\x19Ethereum Signed Message:\n32", digest_));
    }

    function sign(uint256 key, FillAttestation memory att) internal pure returns (bytes memory) {
        (uint8 v, bytes32 r, bytes32 s) = VM.sign(key, personalSignHash(digest(att)));
        return abi.encodePacked(r, s, v);
    }

    /// @notice The packed fill (AttestationLib, "Packed fill") of `att` and an EIP-2098 signature: every
    /// field but destinationChainId and receiver, each in its width, then r and vs. Values that do not
    /// fit their width are truncated here, as a careless encoder would (ts/core's refuses them).
    function pack(FillAttestation memory att, CompactSignature memory signature) internal pure returns (bytes memory) {
        return bytes.concat(
            abi.encodePacked(att.requestId, att.orderId, uint64(att.originChainId), att.originUser, att.originCurrency),
            abi.encodePacked(
                uint128(att.originAmount),
                address(uint160(uint256(att.destinationUser))),
                address(uint160(uint256(att.destinationCurrency))),
                uint128(att.destinationAmount),
                uint40(att.deadline),
                signature.r,
                signature.vs
            )
        );
    }

    /// @notice The EIP-2098 form of a 65-byte (r, s, v) signature: vs = (v - 27) << 255 | s.
    function compactSignature(bytes memory signature) internal pure returns (CompactSignature memory) {
        bytes32 r;
        bytes32 s;
        uint8 v;
        assembly ("memory-safe") {
            r := mload(add(signature, 0x20))
            s := mload(add(signature, 0x40))
            v := byte(0, mload(add(signature, 0x60)))
        }
        return CompactSignature({r: r, vs: bytes32((uint256(v - 27) << 255) | uint256(s))});
    }
}

/// @notice Deployment, keys and attestation builders shared by every AttestedReceiver suite
/// (unit, fuzz, invariant, gas, exploit).
abstract contract ReceiverFixture is Test {
    uint256 internal constant ORIGIN_CHAIN_ID = 31_337;
    uint256 internal constant DESTINATION_CHAIN_ID = 31_338;
    uint256 internal constant NATIVE_AMOUNT = 1e17;
    uint256 internal constant TOKEN_AMOUNT = 100e6;
    uint256 internal constant START_TIME = 1_750_000_000;
    uint256 internal constant VALIDITY = 10 minutes;
    /// @dev secp256k1 group order; s > N/2 is the malleable twin.
    uint256 internal constant SECP256K1_N = 0xFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFEBAAEDCE6AF48A03BBFD25E8CD0364141;

    AttestedReceiver internal receiver;
    Multicaller internal multicaller;
    MockStablecoin internal usdc;

    address internal owner = makeAddr("owner");
    address internal solver = makeAddr("solver");
    address internal recipient = makeAddr("recipient");
    address internal originUser = makeAddr("originUser");
    address internal originToken = makeAddr("originToken");
    address internal signer;
    uint256 internal signerKey;

    function setUp() public virtual {
        vm.chainId(DESTINATION_CHAIN_ID);
        vm.warp(START_TIME);
        (signer, signerKey) = makeAddrAndKey("signer");

        multicaller = new Multicaller();
        receiver = new AttestedReceiver(owner, multicaller);
        usdc = new MockStablecoin("USD Coin", "USDC");

        vm.startPrank(owner);
        receiver.setSigner(signer, true);
        receiver.setRecipient(recipient, true);
        receiver.setRecipientAllowListEnabled(true);
        receiver.setCurrency(address(usdc), true);
        vm.stopPrank();

        // The recipient is an existing funded account that already holds the token.
        vm.deal(solver, 1_000 ether);
        vm.deal(recipient, 1 ether);
        usdc.mint(solver, 1e18);
        usdc.mint(recipient, 1e6);
        vm.prank(solver);
        usdc.approve(address(receiver), type(uint256).max);
    }

    // ---------------------------------------------------------------- builders

    function _nativeAttestation(bytes32 requestId) internal view returns (FillAttestation memory) {
        return _attestation(requestId, address(0), NATIVE_AMOUNT);
    }

    function _tokenAttestation(bytes32 requestId) internal view returns (FillAttestation memory) {
        return _attestation(requestId, address(usdc), TOKEN_AMOUNT);
    }

    function _attestation(bytes32 requestId, address currency, uint256 amount)
        internal
        view
        returns (FillAttestation memory)
    {
        return FillAttestation({
            requestId: requestId,
            orderId: keccak256(abi.encode("order", requestId)),
            originChainId: ORIGIN_CHAIN_ID,
            originUser: _pad(originUser),
            originCurrency: currency == address(0) ? bytes32(0) : _pad(originToken),
            originAmount: amount + amount / 1000,
            destinationChainId: DESTINATION_CHAIN_ID,
            destinationUser: _pad(recipient),
            destinationCurrency: _pad(currency),
            destinationAmount: amount,
            deadline: block.timestamp + VALIDITY,
            receiver: address(receiver)
        });
    }

    function _pad(address account) internal pure returns (bytes32) {
        return bytes32(uint256(uint160(account)));
    }

    // ---------------------------------------------------------------- signing

    function _digest(FillAttestation memory att) internal pure returns (bytes32) {
        return FillSigning.digest(att);
    }

    function _personalSignHash(bytes32 digest) internal pure returns (bytes32) {
        return FillSigning.personalSignHash(digest);
    }

    function _sign(FillAttestation memory att) internal view returns (bytes memory) {
        return FillSigning.sign(signerKey, att);
    }

    function _signWith(uint256 key, FillAttestation memory att) internal pure returns (bytes memory) {
        return FillSigning.sign(key, att);
    }

    /// @dev The high-s twin of a valid 65-byte signature: (r, N - s, v ^ 1) recovers the same signer.
    function _malleate(bytes memory signature) internal pure returns (bytes memory) {
        (bytes32 r, bytes32 s, uint8 v) = _split(signature);
        return abi.encodePacked(r, bytes32(SECP256K1_N - uint256(s)), v == 27 ? uint8(28) : uint8(27));
    }

    function _split(bytes memory signature) internal pure returns (bytes32 r, bytes32 s, uint8 v) {
        assembly ("memory-safe") {
            r := mload(add(signature, 0x20))
            s := mload(add(signature, 0x40))
            v := byte(0, mload(add(signature, 0x60)))
        }
    }

    /// @dev The address an arbitrary (low-s, well-formed) signature recovers to for `att`.
    function _recovered(FillAttestation memory att, bytes memory signature) internal pure returns (address) {
        (bytes32 r, bytes32 s, uint8 v) = _split(signature);
        return ecrecover(_personalSignHash(_digest(att)), v, r, s);
    }

    /// @dev The address `signature` recovers to once the receiver completes `att` with its own chain
    /// id and address (what `fill` checks against the signer list).
    function _recoveredHere(FillAttestation memory att, bytes memory signature) internal view returns (address) {
        FillAttestation memory here = att;
        here.destinationChainId = block.chainid;
        here.receiver = address(receiver);
        return _recovered(here, signature);
    }

    function _rOf(bytes memory signature) internal pure returns (bytes32 r) {
        (r,,) = _split(signature);
    }

    // ---------------------------------------------------------------- fills

    /// @dev `fill_7hVe`'s calldata for `att` and `signature`: the selector and the packed fill.
    function _fillCall(FillAttestation memory att, CompactSignature memory signature) internal pure returns (bytes memory) {
        return abi.encodePacked(IAttestedReceiver.fill_7hVe.selector, FillSigning.pack(att, signature));
    }

    /// @dev The packed fill alone (what `fillAndCall` takes as `fill`).
    function _packed(FillAttestation memory att, CompactSignature memory signature) internal pure returns (bytes memory) {
        return FillSigning.pack(att, signature);
    }

    /// @dev Sends `data` to `target` with `value`; a revert bubbles up with its data (so vm.expectRevert
    /// sees it as the receiver's).
    function _callFill(address target, uint256 value, bytes memory data) internal {
        (bool ok, bytes memory returned) = target.call{value: value}(data);
        if (!ok) {
            assembly ("memory-safe") {
                revert(add(returned, 0x20), mload(returned))
            }
        }
    }

    function _compactSig(bytes memory signature) internal pure returns (CompactSignature memory) {
        return FillSigning.compactSignature(signature);
    }

    function _fillNative(FillAttestation memory att, bytes memory signature) internal {
        vm.prank(solver);
        _callFill(address(receiver), att.destinationAmount, _fillCall(att, _compactSig(signature)));
    }

    function _fillToken(FillAttestation memory att, bytes memory signature) internal {
        vm.prank(solver);
        _callFill(address(receiver), 0, _fillCall(att, _compactSig(signature)));
    }
}

/// @notice A destination call target: records how much native currency each call brought.
contract PaidAction {
    uint256 public received;

    function act() external payable {
        received += msg.value;
    }

    function fail() external pure {
        revert("PaidAction: failed");
    }
}

/// @notice Unit tests: one per revert path in the contract's check order, then happy paths, admin,
/// fillAndCall and views.
contract AttestedReceiverTest is ReceiverFixture {
    bytes32 internal constant REQUEST_ID = keccak256("request.1");

    // ================================================================ fill: reverts, in check order

    function test_fill_revertsIfZeroRequestId() public {
        FillAttestation memory att = _nativeAttestation(bytes32(0));
        att.deadline = block.timestamp - 1; // ids are checked before the deadline
        bytes memory signature = _sign(att);

        vm.expectRevert(IAttestedReceiver.ZeroRequestId.selector);
        _fillNative(att, signature);
    }

    function test_fill_revertsIfZeroOrderId() public {
        FillAttestation memory att = _nativeAttestation(REQUEST_ID);
        att.orderId = bytes32(0);
        att.deadline = block.timestamp - 1;
        bytes memory signature = _sign(att);

        vm.expectRevert(IAttestedReceiver.ZeroOrderId.selector);
        _fillNative(att, signature);
    }

    function test_fill_revertsIfExpired() public {
        FillAttestation memory att = _nativeAttestation(REQUEST_ID);
        att.deadline = block.timestamp - 1;
        bytes memory signature = _sign(att);

        vm.expectRevert(abi.encodeWithSelector(IAttestedReceiver.AttestationExpired.selector, att.deadline));
        _fillNative(att, signature);
    }

    /// @dev A wrong chain or receiver is no check of its own: the receiver rebuilds the digest with its
    /// own chain id and address, so an attestation signed for another chain recovers to an unrelated
    /// address and fails the signer check (step 3), naming that address.
    function test_fill_revertsIfSignedForAnotherChain() public {
        FillAttestation memory att = _nativeAttestation(REQUEST_ID);
        att.destinationChainId = ORIGIN_CHAIN_ID;
        bytes memory signature = _sign(att);
        address recovered = _recoveredHere(att, signature);
        assertTrue(recovered != signer && recovered != address(0));

        vm.expectRevert(abi.encodeWithSelector(IAttestedReceiver.SignerNotAllowed.selector, recovered));
        _fillNative(att, signature);
    }

    function test_fill_revertsIfSignedForAnotherReceiver() public {
        FillAttestation memory att = _nativeAttestation(REQUEST_ID);
        att.receiver = makeAddr("otherReceiver");
        bytes memory signature = _sign(att);
        address recovered = _recoveredHere(att, signature);
        assertTrue(recovered != signer && recovered != address(0));

        vm.expectRevert(abi.encodeWithSelector(IAttestedReceiver.SignerNotAllowed.selector, recovered));
        _fillNative(att, signature);
    }

    /// @dev A real malleable twin: (r, s, 27) with s just below N/2 is a valid signature of the key it
    /// recovers to (listed here as a signer), and its twin (r, N - s, 28) still fits EIP-2098's 255
    /// bits of s. For a signature made by signing, N - s almost never fits (s would have to fall in a
    /// window of 2^127 values), but the check does not rely on that.
    function test_fill_revertsIfSignatureMalleable() public {
        FillAttestation memory att = _nativeAttestation(REQUEST_ID);
        bytes32 r = _rOf(_sign(att));
        uint256 lowS = SECP256K1_N / 2 - 1;
        address twinSigner = ecrecover(_personalSignHash(_digest(att)), 27, r, bytes32(lowS));
        assertTrue(twinSigner != address(0));
        vm.prank(owner);
        receiver.setSigner(twinSigner, true);
        uint256 highS = SECP256K1_N - lowS;
        assertLt(highS, 1 << 255, "the twin has an EIP-2098 form");
        assertEq(ecrecover(_personalSignHash(_digest(att)), 28, r, bytes32(highS)), twinSigner, "same signer");

        vm.expectRevert(abi.encodeWithSelector(AttestationLib.SignatureMalleable.selector, bytes32(highS)));
        vm.prank(solver);
        _callFill(address(receiver), NATIVE_AMOUNT, _fillCall(att, CompactSignature(r, bytes32(highS | (1 << 255)))));

        // The low-s form of the same signature fills.
        vm.prank(solver);
        _callFill(address(receiver), NATIVE_AMOUNT, _fillCall(att, CompactSignature(r, bytes32(lowS))));
        assertTrue(receiver.filled(REQUEST_ID));
    }

    function test_fill_revertsIfSignatureInvalid() public {
        FillAttestation memory att = _nativeAttestation(REQUEST_ID);
        CompactSignature memory signature = _compactSig(_sign(att));
        signature.r = bytes32(0); // r = 0 is not a curve point's x: ecrecover yields address(0)

        vm.expectRevert(AttestationLib.InvalidSignature.selector);
        vm.prank(solver);
        _callFill(address(receiver), NATIVE_AMOUNT, _fillCall(att, signature));
    }

    function test_fill_revertsIfSignerNotAllowed() public {
        FillAttestation memory att = _nativeAttestation(REQUEST_ID);
        (address stranger, uint256 strangerKey) = makeAddrAndKey("stranger");
        bytes memory signature = _signWith(strangerKey, att);

        vm.expectRevert(abi.encodeWithSelector(IAttestedReceiver.SignerNotAllowed.selector, stranger));
        _fillNative(att, signature);
    }

    function test_fill_revertsIfRecipientNotAllowed() public {
        address stranger = makeAddr("unlistedRecipient");
        FillAttestation memory att = _nativeAttestation(REQUEST_ID);
        att.destinationUser = _pad(stranger);
        bytes memory signature = _sign(att);

        vm.expectRevert(abi.encodeWithSelector(IAttestedReceiver.RecipientNotAllowed.selector, stranger));
        _fillNative(att, signature);
    }

    function test_fill_revertsIfAlreadyFilled() public {
        FillAttestation memory att = _nativeAttestation(REQUEST_ID);
        bytes memory signature = _sign(att);
        _fillNative(att, signature);

        vm.expectRevert(abi.encodeWithSelector(IAttestedReceiver.AlreadyFilled.selector, REQUEST_ID));
        _fillNative(att, signature);
    }

    function test_fill_revertsIfCancelled() public {
        FillAttestation memory att = _nativeAttestation(REQUEST_ID);
        bytes memory signature = _sign(att);
        vm.prank(signer);
        receiver.cancel(REQUEST_ID);

        vm.expectRevert(abi.encodeWithSelector(IAttestedReceiver.RequestCancelled.selector, REQUEST_ID));
        _fillNative(att, signature);
        assertFalse(receiver.filled(REQUEST_ID));
    }

    function test_fill_revertsIfCurrencyNotAllowed() public {
        MockStablecoin unlisted = new MockStablecoin("Unlisted", "UNL");
        FillAttestation memory att = _attestation(REQUEST_ID, address(unlisted), TOKEN_AMOUNT);
        bytes memory signature = _sign(att);

        vm.expectRevert(abi.encodeWithSelector(IAttestedReceiver.CurrencyNotAllowed.selector, address(unlisted)));
        _fillToken(att, signature);
        assertFalse(receiver.filled(REQUEST_ID));
    }

    function test_fill_checksCurrencyBeforeValue() public {
        MockStablecoin unlisted = new MockStablecoin("Unlisted", "UNL");
        FillAttestation memory att = _attestation(REQUEST_ID, address(unlisted), TOKEN_AMOUNT);
        bytes memory signature = _sign(att);

        vm.expectRevert(abi.encodeWithSelector(IAttestedReceiver.CurrencyNotAllowed.selector, address(unlisted)));
        vm.prank(solver);
        _callFill(address(receiver), 1, _fillCall(att, _compactSig(signature)));
    }

    function test_fill_revertsIfNativeValueTooLow() public {
        FillAttestation memory att = _nativeAttestation(REQUEST_ID);
        bytes memory signature = _sign(att);

        vm.expectRevert(
            abi.encodeWithSelector(IAttestedReceiver.IncorrectNativeAmount.selector, NATIVE_AMOUNT - 1, NATIVE_AMOUNT)
        );
        vm.prank(solver);
        _callFill(address(receiver), NATIVE_AMOUNT - 1, _fillCall(att, _compactSig(signature)));
    }

    function test_fill_revertsIfNativeValueTooHigh() public {
        FillAttestation memory att = _nativeAttestation(REQUEST_ID);
        bytes memory signature = _sign(att);

        vm.expectRevert(
            abi.encodeWithSelector(IAttestedReceiver.IncorrectNativeAmount.selector, NATIVE_AMOUNT + 1, NATIVE_AMOUNT)
        );
        vm.prank(solver);
        _callFill(address(receiver), NATIVE_AMOUNT + 1, _fillCall(att, _compactSig(signature)));
    }

    function test_fill_revertsIfValueSentWithErc20Fill() public {
        FillAttestation memory att = _tokenAttestation(REQUEST_ID);
        bytes memory signature = _sign(att);

        vm.expectRevert(abi.encodeWithSelector(IAttestedReceiver.IncorrectNativeAmount.selector, 1, 0));
        vm.prank(solver);
        _callFill(address(receiver), 1, _fillCall(att, _compactSig(signature)));
    }

    function test_fill_revertsIfNativeTransferFails() public {
        address rejecting = address(new RevertingRecipient());
        vm.prank(owner);
        receiver.setRecipient(rejecting, true);
        FillAttestation memory att = _nativeAttestation(REQUEST_ID);
        att.destinationUser = _pad(rejecting);
        bytes memory signature = _sign(att);

        vm.expectRevert(abi.encodeWithSelector(IAttestedReceiver.NativeTransferFailed.selector, rejecting));
        _fillNative(att, signature);
        assertFalse(receiver.filled(REQUEST_ID));
    }

    function test_fill_revertsIfTokenPullFails() public {
        vm.prank(solver);
        usdc.approve(address(receiver), TOKEN_AMOUNT - 1);
        FillAttestation memory att = _tokenAttestation(REQUEST_ID);
        bytes memory signature = _sign(att);

        vm.expectRevert(SafeTransferLib.TransferFromFailed.selector);
        _fillToken(att, signature);
        assertFalse(receiver.filled(REQUEST_ID));
    }

    function test_fill_storesTheAttestationDigest() public {
        FillAttestation memory att = _nativeAttestation(REQUEST_ID);
        assertEq(receiver.filledDigest(REQUEST_ID), bytes32(0));
        _fillNative(att, _sign(att));
        assertEq(receiver.filledDigest(REQUEST_ID), _digest(att));
    }

    /// @dev Breaks every condition at once, then repairs them one by one: each time the next check in
    /// the documented order must be the one that reverts.
    function test_fill_checksRunInDocumentedOrder() public {
        address stranger = makeAddr("unlistedRecipient");
        (address strangerSigner, uint256 strangerKey) = makeAddrAndKey("stranger");
        FillAttestation memory att = _nativeAttestation(REQUEST_ID);
        _fillNative(att, _sign(att)); // so the requestId is already filled

        bytes32 orderId = att.orderId;
        att.orderId = bytes32(0);
        att.deadline = block.timestamp - 1;
        att.destinationUser = _pad(stranger);
        CompactSignature memory highS = CompactSignature(bytes32(uint256(1)), bytes32(SECP256K1_N / 2 + 1));

        vm.expectRevert(abi.encodeWithSelector(IAttestedReceiver.InvalidFillLength.selector, 278));
        vm.prank(solver);
        _callFill(address(receiver), NATIVE_AMOUNT, bytes.concat(_fillCall(att, highS), hex"00"));

        vm.expectRevert(IAttestedReceiver.ZeroOrderId.selector);
        vm.prank(solver);
        _callFill(address(receiver), NATIVE_AMOUNT, _fillCall(att, highS));

        att.orderId = orderId;
        vm.expectRevert(abi.encodeWithSelector(IAttestedReceiver.AttestationExpired.selector, att.deadline));
        vm.prank(solver);
        _callFill(address(receiver), NATIVE_AMOUNT, _fillCall(att, highS));

        att.deadline = block.timestamp;
        vm.expectRevert(abi.encodeWithSelector(AttestationLib.SignatureMalleable.selector, highS.vs));
        vm.prank(solver);
        _callFill(address(receiver), NATIVE_AMOUNT, _fillCall(att, highS));

        vm.expectRevert(AttestationLib.InvalidSignature.selector);
        vm.prank(solver);
        _callFill(address(receiver), NATIVE_AMOUNT, _fillCall(att, CompactSignature(bytes32(0), bytes32(uint256(1)))));

        bytes memory foreign = _signWith(strangerKey, att);
        vm.expectRevert(abi.encodeWithSelector(IAttestedReceiver.SignerNotAllowed.selector, strangerSigner));
        _fillNative(att, foreign);

        bytes memory signature = _sign(att);
        vm.expectRevert(abi.encodeWithSelector(IAttestedReceiver.RecipientNotAllowed.selector, stranger));
        _fillNative(att, signature);

        att.destinationUser = _pad(recipient);
        signature = _sign(att);
        vm.expectRevert(abi.encodeWithSelector(IAttestedReceiver.AlreadyFilled.selector, REQUEST_ID));
        _fillNative(att, signature);
    }

    // ================================================================ fill: happy paths

    function test_fill_paysNativeRecipientExactly() public {
        FillAttestation memory att = _nativeAttestation(REQUEST_ID);
        bytes memory signature = _sign(att);
        uint256 recipientBefore = recipient.balance;
        uint256 solverBefore = solver.balance;

        vm.expectEmit(true, true, true, true, address(receiver));
        emit IAttestedReceiver.Filled(REQUEST_ID, recipient, solver, address(0), NATIVE_AMOUNT);
        _fillNative(att, signature);

        assertEq(recipient.balance - recipientBefore, NATIVE_AMOUNT, "recipient paid exactly");
        assertEq(solverBefore - solver.balance, NATIVE_AMOUNT, "solver paid exactly");
        assertEq(address(receiver).balance, 0, "receiver keeps nothing");
        assertTrue(receiver.filled(REQUEST_ID));
    }

    function test_fill_paysErc20RecipientExactly() public {
        FillAttestation memory att = _tokenAttestation(REQUEST_ID);
        bytes memory signature = _sign(att);
        uint256 recipientBefore = usdc.balanceOf(recipient);
        uint256 solverBefore = usdc.balanceOf(solver);

        vm.expectEmit(true, true, true, true, address(receiver));
        emit IAttestedReceiver.Filled(REQUEST_ID, recipient, solver, address(usdc), TOKEN_AMOUNT);
        _fillToken(att, signature);

        assertEq(usdc.balanceOf(recipient) - recipientBefore, TOKEN_AMOUNT, "recipient paid exactly");
        assertEq(solverBefore - usdc.balanceOf(solver), TOKEN_AMOUNT, "solver paid exactly");
        assertEq(usdc.balanceOf(address(receiver)), 0, "receiver keeps nothing");
        assertTrue(receiver.filled(REQUEST_ID));
    }

    function test_fill_succeedsAtDeadline() public {
        FillAttestation memory att = _nativeAttestation(REQUEST_ID);
        vm.warp(att.deadline);
        _fillNative(att, _sign(att));
        assertTrue(receiver.filled(REQUEST_ID));
    }

    function test_fill_paysUnlistedRecipientWhenAllowListOff() public {
        vm.prank(owner);
        receiver.setRecipientAllowListEnabled(false);
        address stranger = makeAddr("unlistedRecipient");
        FillAttestation memory att = _nativeAttestation(REQUEST_ID);
        att.destinationUser = _pad(stranger);

        _fillNative(att, _sign(att));
        assertEq(stranger.balance, NATIVE_AMOUNT);
    }

    function test_fill_paysZeroAmount() public {
        FillAttestation memory att = _attestation(REQUEST_ID, address(0), 0);
        uint256 before = recipient.balance;
        _fillNative(att, _sign(att));
        assertEq(recipient.balance, before);
        assertTrue(receiver.filled(REQUEST_ID));
    }

    function test_fill_anyoneMayFill() public {
        FillAttestation memory att = _nativeAttestation(REQUEST_ID);
        bytes memory signature = _sign(att);
        address anyone = makeAddr("anyone");
        vm.deal(anyone, NATIVE_AMOUNT);
        vm.prank(anyone);
        _callFill(address(receiver), NATIVE_AMOUNT, _fillCall(att, _compactSig(signature)));
        assertEq(anyone.balance, 0);
    }

    function test_fill_revertsAfterSignerRevoked() public {
        vm.prank(owner);
        receiver.setSigner(signer, false);
        FillAttestation memory att = _nativeAttestation(REQUEST_ID);
        bytes memory signature = _sign(att);

        vm.expectRevert(abi.encodeWithSelector(IAttestedReceiver.SignerNotAllowed.selector, signer));
        _fillNative(att, signature);
    }

    function test_fill_acceptsRotatedSigner() public {
        (address next, uint256 nextKey) = makeAddrAndKey("nextSigner");
        vm.prank(owner);
        receiver.setSigner(next, true);
        FillAttestation memory att = _nativeAttestation(REQUEST_ID);

        _fillNative(att, _signWith(nextKey, att));
        assertTrue(receiver.filled(REQUEST_ID));
    }

    // ---------------------------------------------------------------- signer × currency (one read)

    /// @dev An ERC-20 fill of `att` signed with `key`, sent by the solver.
    function _fillToken(uint256 key, FillAttestation memory att) internal {
        vm.prank(solver);
        _callFill(address(receiver), 0, _fillCall(att, _compactSig(_signWith(key, att))));
    }

    /// @notice The packed fill lays its digest preimage out at 0x80 without reading the free memory
    /// pointer: that holds only while the runtime starts with `mstore(0x40, 0x80)` (solc reserved no
    /// memory for moved stack variables). If this fails, the fill would overwrite such variables.
    function test_runtime_freeMemoryPointerStartsAt0x80() public view {
        bytes memory code = address(receiver).code;
        assertEq(bytes5(bytes.concat(code[0], code[1], code[2], code[3], code[4])), bytes5(0x6080604052));
    }

    function test_fill_erc20AcceptsSignerAddedAfterTheCurrency() public {
        (address next, uint256 nextKey) = makeAddrAndKey("nextSigner");
        vm.prank(owner);
        receiver.setSigner(next, true);
        assertTrue(receiver.isSignerForCurrency(next, address(usdc)));

        _fillToken(nextKey, _tokenAttestation(REQUEST_ID));
        assertTrue(receiver.filled(REQUEST_ID));
    }

    function test_fill_erc20AcceptsCurrencyListedAfterTheSigners() public {
        (address next, uint256 nextKey) = makeAddrAndKey("nextSigner");
        MockStablecoin later = new MockStablecoin("Later", "LTR");
        later.mint(solver, 1e18);
        vm.prank(solver);
        later.approve(address(receiver), type(uint256).max);
        vm.startPrank(owner);
        receiver.setSigner(next, true);
        receiver.setCurrency(address(later), true);
        vm.stopPrank();

        FillAttestation memory att = _attestation(REQUEST_ID, address(later), TOKEN_AMOUNT);
        _fillToken(signerKey, att);
        FillAttestation memory second = _attestation(keccak256("second"), address(later), TOKEN_AMOUNT);
        _fillToken(nextKey, second);
        assertEq(later.balanceOf(recipient), 2 * TOKEN_AMOUNT);
    }

    function test_fill_erc20RevertsAfterCurrencyDelistedForEverySigner() public {
        (address next, uint256 nextKey) = makeAddrAndKey("nextSigner");
        vm.startPrank(owner);
        receiver.setSigner(next, true);
        receiver.setCurrency(address(usdc), false);
        vm.stopPrank();
        FillAttestation memory att = _tokenAttestation(REQUEST_ID);

        vm.expectRevert(abi.encodeWithSelector(IAttestedReceiver.CurrencyNotAllowed.selector, address(usdc)));
        _fillToken(signerKey, att);
        vm.expectRevert(abi.encodeWithSelector(IAttestedReceiver.CurrencyNotAllowed.selector, address(usdc)));
        _fillToken(nextKey, att);
        assertFalse(receiver.isSignerForCurrency(signer, address(usdc)));
        assertFalse(receiver.isSignerForCurrency(next, address(usdc)));
    }

    function test_fill_erc20RevertsAfterSignerRevokedInAListedCurrency() public {
        vm.prank(owner);
        receiver.setSigner(signer, false);
        assertFalse(receiver.isSignerForCurrency(signer, address(usdc)));

        vm.expectRevert(abi.encodeWithSelector(IAttestedReceiver.SignerNotAllowed.selector, signer));
        _fillToken(signerKey, _tokenAttestation(REQUEST_ID));
    }

    function test_fill_erc20AcceptsRelistedCurrencyAndReallowedSigner() public {
        vm.startPrank(owner);
        receiver.setCurrency(address(usdc), false);
        receiver.setSigner(signer, false);
        receiver.setCurrency(address(usdc), true);
        receiver.setSigner(signer, true);
        vm.stopPrank();

        _fillToken(signerKey, _tokenAttestation(REQUEST_ID));
        assertTrue(receiver.filled(REQUEST_ID));
    }

    function test_signersAndCurrencies_listWhatIsAllowed() public {
        address next = makeAddr("nextSigner");
        address token = makeAddr("token");
        vm.startPrank(owner);
        receiver.setSigner(next, true);
        receiver.setCurrency(token, true);
        receiver.setSigner(signer, false);
        vm.stopPrank();

        address[] memory signers = receiver.signers();
        assertEq(signers.length, 1);
        assertEq(signers[0], next);
        address[] memory currencies = receiver.currencies();
        assertEq(currencies.length, 2);
        assertTrue(receiver.isSignerForCurrency(next, token));
        assertTrue(receiver.isSignerForCurrency(next, address(usdc)));
        assertFalse(receiver.isSignerForCurrency(signer, token));
    }

    // ================================================================ fillAndCall

    function test_fillAndCall_usesExtraValueAndSweepsLeftover() public {
        PaidAction action = new PaidAction();
        FillAttestation memory att = _nativeAttestation(REQUEST_ID);
        bytes memory signature = _sign(att);
        IMulticaller.Call[] memory calls = new IMulticaller.Call[](1);
        calls[0] = IMulticaller.Call(address(action), false, 0.01 ether, abi.encodeCall(PaidAction.act, ()));
        uint256 solverBefore = solver.balance;
        uint256 recipientBefore = recipient.balance;

        vm.expectEmit(true, true, true, true, address(receiver));
        emit IAttestedReceiver.Filled(REQUEST_ID, recipient, solver, address(0), NATIVE_AMOUNT);
        vm.expectEmit(true, true, false, true, address(multicaller));
        emit IMulticaller.Multicalled(address(receiver), solver, 1);
        vm.prank(solver);
        receiver.fillAndCall{value: NATIVE_AMOUNT + 0.05 ether}(_packed(att, _compactSig(signature)), calls, new address[](0));

        assertEq(recipient.balance - recipientBefore, NATIVE_AMOUNT, "recipient paid exactly");
        assertEq(action.received(), 0.01 ether, "call got its value");
        assertEq(solverBefore - solver.balance, NATIVE_AMOUNT + 0.01 ether, "leftover swept back");
        assertEq(address(receiver).balance, 0);
        assertEq(address(multicaller).balance, 0);
        assertTrue(receiver.filled(REQUEST_ID));
    }

    function test_fillAndCall_forwardsAllValueOnErc20Fill() public {
        PaidAction action = new PaidAction();
        FillAttestation memory att = _tokenAttestation(REQUEST_ID);
        IMulticaller.Call[] memory calls = new IMulticaller.Call[](1);
        calls[0] = IMulticaller.Call(address(action), false, 0.02 ether, abi.encodeCall(PaidAction.act, ()));
        uint256 solverBefore = solver.balance;
        uint256 recipientBefore = usdc.balanceOf(recipient);

        vm.prank(solver);
        receiver.fillAndCall{value: 0.03 ether}(_packed(att, _compactSig(_sign(att))), calls, new address[](0));

        assertEq(usdc.balanceOf(recipient) - recipientBefore, TOKEN_AMOUNT);
        assertEq(action.received(), 0.02 ether);
        assertEq(solverBefore - solver.balance, 0.02 ether, "leftover swept back");
    }

    function test_fillAndCall_paysWithNoCalls() public {
        FillAttestation memory att = _nativeAttestation(REQUEST_ID);
        IMulticaller.Call[] memory calls = new IMulticaller.Call[](0);
        uint256 solverBefore = solver.balance;

        vm.prank(solver);
        receiver.fillAndCall{value: NATIVE_AMOUNT}(_packed(att, _compactSig(_sign(att))), calls, new address[](0));
        assertEq(solverBefore - solver.balance, NATIVE_AMOUNT);
    }

    function test_fillAndCall_revertsIfNativeValueBelowAmount() public {
        FillAttestation memory att = _nativeAttestation(REQUEST_ID);
        bytes memory signature = _sign(att);
        IMulticaller.Call[] memory calls = new IMulticaller.Call[](0);

        vm.expectRevert(
            abi.encodeWithSelector(IAttestedReceiver.IncorrectNativeAmount.selector, NATIVE_AMOUNT - 1, NATIVE_AMOUNT)
        );
        vm.prank(solver);
        receiver.fillAndCall{value: NATIVE_AMOUNT - 1}(_packed(att, _compactSig(signature)), calls, new address[](0));
    }

    function test_fillAndCall_revertsWholeFillIfCallReverts() public {
        PaidAction action = new PaidAction();
        FillAttestation memory att = _nativeAttestation(REQUEST_ID);
        bytes memory signature = _sign(att);
        IMulticaller.Call[] memory calls = new IMulticaller.Call[](1);
        calls[0] = IMulticaller.Call(address(action), false, 0, abi.encodeCall(PaidAction.fail, ()));

        vm.expectRevert(
            abi.encodeWithSelector(
                IMulticaller.CallReverted.selector, 0, abi.encodeWithSignature("Error(string)", "PaidAction: failed")
            )
        );
        vm.prank(solver);
        receiver.fillAndCall{value: NATIVE_AMOUNT}(_packed(att, _compactSig(signature)), calls, new address[](0));
        assertFalse(receiver.filled(REQUEST_ID));
    }

    function test_fillAndCall_sweepsListedTokensToFiller() public {
        CallTarget target = new CallTarget();
        FillAttestation memory att = _tokenAttestation(REQUEST_ID);
        IMulticaller.Call[] memory calls = new IMulticaller.Call[](1);
        calls[0] = IMulticaller.Call(address(target), false, 0, abi.encodeCall(CallTarget.dropTokens, (usdc, 3e6)));
        address[] memory sweep = new address[](1);
        sweep[0] = address(usdc);
        uint256 solverBefore = usdc.balanceOf(solver);

        vm.prank(solver);
        receiver.fillAndCall(_packed(att, _compactSig(_sign(att))), calls, sweep);
        assertEq(usdc.balanceOf(address(multicaller)), 0);
        assertEq(solverBefore - usdc.balanceOf(solver), TOKEN_AMOUNT - 3e6, "paid the fill, got the leftover");
    }

    function test_fillAndCall_revertsIfCurrencyNotAllowed() public {
        MockStablecoin unlisted = new MockStablecoin("Unlisted", "UNL");
        FillAttestation memory att = _attestation(REQUEST_ID, address(unlisted), TOKEN_AMOUNT);
        bytes memory signature = _sign(att);
        vm.expectRevert(abi.encodeWithSelector(IAttestedReceiver.CurrencyNotAllowed.selector, address(unlisted)));
        vm.prank(solver);
        receiver.fillAndCall(_packed(att, _compactSig(signature)), new IMulticaller.Call[](0), new address[](0));
    }

    function test_fillAndCall_revertsIfNativeTransferFails() public {
        address rejecting = address(new RevertingRecipient());
        vm.prank(owner);
        receiver.setRecipient(rejecting, true);
        FillAttestation memory att = _nativeAttestation(REQUEST_ID);
        att.destinationUser = _pad(rejecting);
        bytes memory signature = _sign(att);
        vm.expectRevert(abi.encodeWithSelector(IAttestedReceiver.NativeTransferFailed.selector, rejecting));
        vm.prank(solver);
        receiver.fillAndCall{value: NATIVE_AMOUNT}(_packed(att, _compactSig(signature)), new IMulticaller.Call[](0), new address[](0));
    }

    function test_fillAndCall_runsTheSameChecks() public {
        FillAttestation memory att = _nativeAttestation(REQUEST_ID);
        bytes memory signature = _sign(att);
        IMulticaller.Call[] memory calls = new IMulticaller.Call[](0);
        vm.prank(solver);
        receiver.fillAndCall{value: NATIVE_AMOUNT}(_packed(att, _compactSig(signature)), calls, new address[](0));

        vm.expectRevert(abi.encodeWithSelector(IAttestedReceiver.AlreadyFilled.selector, REQUEST_ID));
        vm.prank(solver);
        receiver.fillAndCall{value: NATIVE_AMOUNT}(_packed(att, _compactSig(signature)), calls, new address[](0));
    }

    // ================================================================ admin

    function test_constructor_setsOwnerAndMulticaller() public view {
        assertEq(receiver.owner(), owner);
        assertEq(address(receiver.multicaller()), address(multicaller));
    }

    function test_constructor_startsWithEmptyPolicy() public {
        AttestedReceiver fresh = new AttestedReceiver(owner, multicaller);
        assertFalse(fresh.isSigner(signer));
        assertFalse(fresh.isRecipientAllowed(recipient));
        assertFalse(fresh.recipientAllowListEnabled());
    }

    function test_setSigner_updatesAndEmits() public {
        address next = makeAddr("nextSigner");
        vm.expectEmit(true, false, false, true, address(receiver));
        emit IAttestedReceiver.SignerUpdated(next, true);
        vm.prank(owner);
        receiver.setSigner(next, true);
        assertTrue(receiver.isSigner(next));

        vm.expectEmit(true, false, false, true, address(receiver));
        emit IAttestedReceiver.SignerUpdated(next, false);
        vm.prank(owner);
        receiver.setSigner(next, false);
        assertFalse(receiver.isSigner(next));
    }

    function test_setSigner_revertsIfZero() public {
        vm.expectRevert(IAttestedReceiver.ZeroSigner.selector);
        vm.prank(owner);
        receiver.setSigner(address(0), true);
    }

    function test_setSigner_revertsIfNotOwner() public {
        vm.expectRevert(abi.encodeWithSelector(Ownable.OwnableUnauthorizedAccount.selector, solver));
        vm.prank(solver);
        receiver.setSigner(solver, true);
    }

    function test_setRecipient_updatesAndEmits() public {
        address next = makeAddr("nextRecipient");
        vm.expectEmit(true, false, false, true, address(receiver));
        emit IAttestedReceiver.RecipientUpdated(next, true);
        vm.prank(owner);
        receiver.setRecipient(next, true);
        assertTrue(receiver.isRecipientAllowed(next));

        vm.expectEmit(true, false, false, true, address(receiver));
        emit IAttestedReceiver.RecipientUpdated(next, false);
        vm.prank(owner);
        receiver.setRecipient(next, false);
        assertFalse(receiver.isRecipientAllowed(next));
    }

    function test_setRecipient_revertsIfNotOwner() public {
        vm.expectRevert(abi.encodeWithSelector(Ownable.OwnableUnauthorizedAccount.selector, solver));
        vm.prank(solver);
        receiver.setRecipient(solver, true);
    }

    function test_setRecipientAllowListEnabled_updatesAndEmits() public {
        vm.expectEmit(false, false, false, true, address(receiver));
        emit IAttestedReceiver.RecipientAllowListEnabled(false);
        vm.prank(owner);
        receiver.setRecipientAllowListEnabled(false);
        assertFalse(receiver.recipientAllowListEnabled());
    }

    function test_setRecipientAllowListEnabled_revertsIfNotOwner() public {
        vm.expectRevert(abi.encodeWithSelector(Ownable.OwnableUnauthorizedAccount.selector, solver));
        vm.prank(solver);
        receiver.setRecipientAllowListEnabled(false);
    }

    function test_transferOwnership_takesTwoSteps() public {
        address next = makeAddr("nextOwner");
        vm.prank(owner);
        receiver.transferOwnership(next);
        assertEq(receiver.owner(), owner, "pending until accepted");

        vm.prank(next);
        receiver.acceptOwnership();
        assertEq(receiver.owner(), next);

        vm.prank(next);
        receiver.setSigner(next, true);
        assertTrue(receiver.isSigner(next));
    }

    function test_setCurrency_updatesAndEmits() public {
        address token = makeAddr("token");
        vm.expectEmit(true, false, false, true, address(receiver));
        emit IAttestedReceiver.CurrencyUpdated(token, true);
        vm.prank(owner);
        receiver.setCurrency(token, true);
        assertTrue(receiver.isCurrencyAllowed(token));
        vm.prank(owner);
        receiver.setCurrency(token, false);
        assertFalse(receiver.isCurrencyAllowed(token));
    }

    function test_setCurrency_revertsIfNotOwner() public {
        vm.expectRevert(abi.encodeWithSelector(Ownable.OwnableUnauthorizedAccount.selector, solver));
        vm.prank(solver);
        receiver.setCurrency(solver, true);
    }

    function test_renounceOwnership_reverts() public {
        vm.expectRevert(IAttestedReceiver.RenounceOwnershipDisabled.selector);
        vm.prank(owner);
        receiver.renounceOwnership();
        assertEq(receiver.owner(), owner);
    }

    // ================================================================ cancel (in check order)

    function test_cancel_revertsIfNotSigner() public {
        vm.expectRevert(abi.encodeWithSelector(IAttestedReceiver.SignerNotAllowed.selector, solver));
        vm.prank(solver);
        receiver.cancel(REQUEST_ID);
    }

    function test_cancel_revertsIfZeroRequestId() public {
        vm.expectRevert(IAttestedReceiver.ZeroRequestId.selector);
        vm.prank(signer);
        receiver.cancel(bytes32(0));
    }

    function test_cancel_revertsIfAlreadyCancelled() public {
        vm.startPrank(signer);
        receiver.cancel(REQUEST_ID);
        vm.expectRevert(abi.encodeWithSelector(IAttestedReceiver.RequestCancelled.selector, REQUEST_ID));
        receiver.cancel(REQUEST_ID);
        vm.stopPrank();
    }

    function test_cancel_revertsIfFilled() public {
        FillAttestation memory att = _nativeAttestation(REQUEST_ID);
        _fillNative(att, _sign(att));
        vm.expectRevert(abi.encodeWithSelector(IAttestedReceiver.AlreadyFilled.selector, REQUEST_ID));
        vm.prank(signer);
        receiver.cancel(REQUEST_ID);
    }

    function test_cancel_marksAndEmits() public {
        vm.expectEmit(true, true, false, true, address(receiver));
        emit IAttestedReceiver.AttestationCancelled(REQUEST_ID, signer);
        vm.prank(signer);
        receiver.cancel(REQUEST_ID);
        assertEq(receiver.filledDigest(REQUEST_ID), bytes32(uint256(1)));
        assertFalse(receiver.filled(REQUEST_ID));
    }

    // ================================================================ views

    function test_fillDigest_matchesV2Layout() public view {
        FillAttestation memory att = _tokenAttestation(REQUEST_ID);
        assertEq(receiver.fillDigest(att), _digest(att));
    }

    function test_fillDigest_masksDirtyReceiverBits() public view {
        FillAttestation memory att = _nativeAttestation(REQUEST_ID);
        bytes memory data = abi.encodeCall(receiver.fillDigest, (att));
        data[4 + 11 * 32] = 0xff; // dirty the upper bytes of `receiver`, the 12th word

        (bool ok, bytes memory ret) = address(receiver).staticcall(data);
        assertTrue(ok);
        assertEq(abi.decode(ret, (bytes32)), _digest(att), "hashed as abi.encode would");
    }

    /// @dev 0. The packed fill is exactly 277 bytes: one short (its last byte of vs dropped) or one
    /// more (a stray byte appended) is refused, naming the length, before any other check.
    function test_fill_revertsIfPackedFillTooShort() public {
        FillAttestation memory att = _nativeAttestation(REQUEST_ID);
        bytes memory data = _fillCall(att, _compactSig(_sign(att)));
        assertEq(data.length, 281, "selector + 277 packed bytes");
        assembly ("memory-safe") {
            mstore(data, 280)
        }
        vm.expectRevert(abi.encodeWithSelector(IAttestedReceiver.InvalidFillLength.selector, 276));
        vm.prank(solver);
        _callFill(address(receiver), NATIVE_AMOUNT, data);
        assertFalse(receiver.filled(REQUEST_ID));
    }

    function test_fill_revertsIfPackedFillTooLong() public {
        FillAttestation memory att = _nativeAttestation(REQUEST_ID);
        bytes memory data = bytes.concat(_fillCall(att, _compactSig(_sign(att))), hex"00");
        vm.expectRevert(abi.encodeWithSelector(IAttestedReceiver.InvalidFillLength.selector, 278));
        vm.prank(solver);
        _callFill(address(receiver), NATIVE_AMOUNT, data);
        assertFalse(receiver.filled(REQUEST_ID));
    }

    function test_fillAndCall_revertsIfPackedFillLengthWrong() public {
        FillAttestation memory att = _nativeAttestation(REQUEST_ID);
        bytes memory packed = bytes.concat(_packed(att, _compactSig(_sign(att))), hex"00");
        vm.expectRevert(abi.encodeWithSelector(IAttestedReceiver.InvalidFillLength.selector, 278));
        vm.prank(solver);
        receiver.fillAndCall{value: NATIVE_AMOUNT}(packed, new IMulticaller.Call[](0), new address[](0));
    }

    /// @dev The packed layout, byte for byte: each field at its documented offset and width.
    function test_fill_packedLayoutMatchesAttestationLib() public view {
        FillAttestation memory att = _tokenAttestation(REQUEST_ID);
        CompactSignature memory signature = _compactSig(_sign(att));
        bytes memory packed = _packed(att, signature);
        assertEq(packed.length, AttestationLib.PACKED_FILL_LENGTH);
        assertEq(bytes32(_slice(packed, AttestationLib.PACKED_REQUEST_ID, 32)), att.requestId);
        assertEq(bytes32(_slice(packed, AttestationLib.PACKED_ORDER_ID, 32)), att.orderId);
        assertEq(uint64(bytes8(_slice(packed, AttestationLib.PACKED_ORIGIN_CHAIN_ID, 8))), att.originChainId);
        assertEq(bytes32(_slice(packed, AttestationLib.PACKED_ORIGIN_USER, 32)), att.originUser);
        assertEq(bytes32(_slice(packed, AttestationLib.PACKED_ORIGIN_CURRENCY, 32)), att.originCurrency);
        assertEq(uint128(bytes16(_slice(packed, AttestationLib.PACKED_ORIGIN_AMOUNT, 16))), att.originAmount);
        assertEq(address(bytes20(_slice(packed, AttestationLib.PACKED_DESTINATION_USER, 20))), recipient);
        assertEq(address(bytes20(_slice(packed, AttestationLib.PACKED_DESTINATION_CURRENCY, 20))), address(usdc));
        assertEq(uint128(bytes16(_slice(packed, AttestationLib.PACKED_DESTINATION_AMOUNT, 16))), att.destinationAmount);
        assertEq(uint40(bytes5(_slice(packed, AttestationLib.PACKED_DEADLINE, 5))), att.deadline);
        assertEq(bytes32(_slice(packed, AttestationLib.PACKED_R, 32)), signature.r);
        assertEq(bytes32(_slice(packed, AttestationLib.PACKED_VS, 32)), signature.vs);
    }

    function _slice(bytes memory data, uint256 start, uint256 length) internal pure returns (bytes memory out) {
        out = new bytes(length);
        for (uint256 i; i < length; ++i) out[i] = data[start + i];
    }

    function test_fill_storesTheSameDigestAsTheFullAttestation() public {
        FillAttestation memory att = _tokenAttestation(REQUEST_ID);
        _fillToken(att, _sign(att));
        assertEq(receiver.filledDigest(REQUEST_ID), receiver.fillDigest(att));
    }
}
