// SPDX-License-Identifier: MIT
pragma solidity 0.8.30;

import {Ownable} from "@openzeppelin/contracts/access/Ownable.sol";
import {Ownable2Step} from "@openzeppelin/contracts/access/Ownable2Step.sol";
import {EnumerableSet} from "@openzeppelin/contracts/utils/structs/EnumerableSet.sol";
import {SafeTransferLib} from "solady/src/utils/SafeTransferLib.sol";

import {IAttestedReceiver} from "./interfaces/IAttestedReceiver.sol";
import {IMulticaller} from "./interfaces/IMulticaller.sol";
import {AttestationLib, FillAttestation} from "./libraries/AttestationLib.sol";

/// @title AttestedReceiver
/// @notice Destination-chain entry point of the solver: pays the attested recipient exactly the attested
/// amount, once per requestId, against a v2 fill attestation signed by an allowed signer.
/// @dev Checks run in the documented order (`fill_7hVe`: length → ids → deadline → signature and signer
/// → recipient → not cancelled or filled; the full-ABI `fill`: ids → deadline → destination chain →
/// receiver → signature and signer → recipient → not cancelled or filled), then the attestation's digest is stored under the
/// requestId before any external call, so a re-entrant recipient or token meets `AlreadyFilled`. The
/// replay guard is keyed on the requestId, never on signature bytes; the stored digest (one slot, the
/// same write as a bool) is the commitment to the paid terms.
///
/// Destination currencies must be well-behaved ERC-20s (no fee on transfer, no rebasing) and listed by
/// the owner (`setCurrency`): an ERC-20 fill is a single `transferFrom(solver → recipient, amount)` and
/// the recipient's balance delta is not checked (a token that lies about transfers would lie about
/// balances too; the list is what keeps a phantom currency out, one cold SLOAD). Tokens that return
/// nothing (USDT style) work.
///
/// Two fill forms share the checks' guarantees and one replay guard: `fill_7hVe` reads a packed fill
/// (AttestationLib, "Packed fill"; what the solver sends) and rebuilds the v2 digest with this chain
/// and this contract; the full-ABI `fill(FillAttestation, bytes)` (and `fillWithCalls`) checks the
/// attestation's chain and receiver explicitly.
///
/// Gas: the packed `fill_7hVe` (281 calldata bytes) is what the solver sends; the full-ABI `fill` (548
/// bytes) costs more. Their measured gas (scripts/bench-gas.ts) and where the packed fill's goes
/// (scripts/trace-fill.ts: calldata, the digest SSTORE, cold reads, the payment, ecrecover, `Filled`)
/// are in docs/performance.md ("Gas"), the only place absolute figures are kept.
/// An ERC-20 fill reads its signer and currency in one slot (`_signerCurrencyAllowed`).
contract AttestedReceiver is IAttestedReceiver, Ownable2Step {
    using EnumerableSet for EnumerableSet.AddressSet;

    // ---------------------------------------------------------------- constants

    /// @dev `Filled.selector`, i.e. keccak256("Filled(bytes32,address,address,address,uint256)"), for
    /// `log2` in assembly (a test checks it against the event).
    bytes32 private constant _FILLED_TOPIC = 0x55dc9dc169607aad00aae22e3a2a5aed5c0435a0784c890b8ed87e189dda1626;

    /// @dev What `filledDigest` holds for a cancelled requestId (a keccak output is never 1 in practice).
    bytes32 private constant _CANCELLED = bytes32(uint256(1));

    /// @dev Gas forwarded to a native recipient: enough for a smart-account wallet's `receive`,
    /// bounded so that a recipient cannot make the solver pay for a gas burn.
    uint256 private constant _NATIVE_PAYOUT_GAS = 50_000;

    /// @dev Where `fill_7hVe`'s packed fill starts: right after the selector (AttestationLib, "Packed fill").
    uint256 private constant _FILL = 0x04;

    // Field offsets within the packed fill (AttestationLib's, as literals assembly can use).
    uint256 private constant _ORDER_ID = 32;
    uint256 private constant _ORIGIN_CHAIN_ID = 64;
    uint256 private constant _ORIGIN_USER = 72;
    uint256 private constant _ORIGIN_AMOUNT = 136;
    uint256 private constant _DESTINATION_USER = 152;
    uint256 private constant _DESTINATION_CURRENCY = 172;
    uint256 private constant _DESTINATION_AMOUNT = 192;
    uint256 private constant _DEADLINE = 208;
    uint256 private constant _SIGNATURE_R = 213;
    uint256 private constant _SIGNATURE_VS = 245;

    /// @dev Calldata offsets of the fields of `att` in the full-ABI `fill` and `fillWithCalls`: `att` is
    /// the first argument of both and a static struct, so the ABI encodes it in place right after the
    /// selector.
    uint256 private constant _ATT_REQUEST_ID = 0x04;
    uint256 private constant _ATT_ORDER_ID = 0x24;
    uint256 private constant _ATT_DESTINATION_CHAIN_ID = 0xc4;
    uint256 private constant _ATT_DESTINATION_USER = 0xe4;
    uint256 private constant _ATT_DESTINATION_CURRENCY = 0x104;
    uint256 private constant _ATT_DESTINATION_AMOUNT = 0x124;
    uint256 private constant _ATT_DEADLINE = 0x144;
    uint256 private constant _ATT_RECEIVER = 0x164;

    /// @dev AttestationLib.PACKED_FILL_LENGTH, as a literal assembly can use.
    uint256 private constant _PACKED_FILL_LENGTH = 277;

    /// @dev AttestationLib.FILL_TYPEHASH, as a literal assembly can use (were they to differ, every packed
    /// fill would recover an unrelated signer: test_fill_storesTheSameDigestAsTheFullAttestation and
    /// every fill test fail).
    bytes32 private constant _FILL_TYPEHASH = 0xc410a3bed770e36ab7330482f8b2f3fea4b5c088734bef4a4d2aee58a5b18404;

    /// @dev AttestationLib.HALF_CURVE_ORDER, as a literal assembly can use.
    uint256 private constant _HALF_CURVE_ORDER = 0x7FFFFFFFFFFFFFFFFFFFFFFFFFFFFFFF5D576E7357A4501DDFE92F46681B20A0;

    // ---------------------------------------------------------------- immutables

    /// @inheritdoc IAttestedReceiver
    IMulticaller public immutable multicaller;

    // ---------------------------------------------------------------- storage

    /// @inheritdoc IAttestedReceiver
    mapping(bytes32 requestId => bytes32 digest) public filledDigest;
    /// @inheritdoc IAttestedReceiver
    mapping(address signer => bool) public isSigner;
    /// @inheritdoc IAttestedReceiver
    mapping(address recipient => bool) public isRecipientAllowed;
    /// @inheritdoc IAttestedReceiver
    bool public recipientAllowListEnabled;
    /// @inheritdoc IAttestedReceiver
    mapping(address currency => bool) public isCurrencyAllowed;
    /// @dev `isSigner[signer] && isCurrencyAllowed[currency]`, kept by `setSigner` and `setCurrency` for
    /// every listed pair, so that an ERC-20 fill's signer and currency checks are one cold storage read
    /// (2,100 gas) instead of two. Native fills read `isSigner`.
    mapping(address signer => mapping(address currency => bool)) private _signerCurrencyAllowed;
    /// @dev The allowed signers and the listed currencies: what `_signerCurrencyAllowed` is the product of.
    EnumerableSet.AddressSet private _signers;
    EnumerableSet.AddressSet private _currencies;

    // ---------------------------------------------------------------- constructor

    /// @param initialOwner Owner (manages signers and the recipient allow-list; moves in two steps).
    /// @param multicaller_ The approval-free contract `fillAndCall` runs destination calls through.
    constructor(address initialOwner, IMulticaller multicaller_) Ownable(initialOwner) {
        multicaller = multicaller_;
    }

    // ---------------------------------------------------------------- admin

    /// @inheritdoc IAttestedReceiver
    function setSigner(address signer, bool allowed) external onlyOwner {
        if (signer == address(0)) revert ZeroSigner();
        isSigner[signer] = allowed;
        if (allowed) _signers.add(signer);
        else _signers.remove(signer);
        uint256 n = _currencies.length();
        for (uint256 i; i < n; ++i) {
            _signerCurrencyAllowed[signer][_currencies.at(i)] = allowed;
        }
        emit SignerUpdated(signer, allowed);
    }

    /// @inheritdoc IAttestedReceiver
    function setRecipient(address recipient, bool allowed) external onlyOwner {
        isRecipientAllowed[recipient] = allowed;
        emit RecipientUpdated(recipient, allowed);
    }

    /// @inheritdoc IAttestedReceiver
    function setRecipientAllowListEnabled(bool enabled) external onlyOwner {
        recipientAllowListEnabled = enabled;
        emit RecipientAllowListEnabled(enabled);
    }

    /// @inheritdoc IAttestedReceiver
    function setCurrency(address currency, bool allowed) external onlyOwner {
        isCurrencyAllowed[currency] = allowed;
        if (allowed) _currencies.add(currency);
        else _currencies.remove(currency);
        uint256 n = _signers.length();
        for (uint256 i; i < n; ++i) {
            _signerCurrencyAllowed[_signers.at(i)][currency] = allowed;
        }
        emit CurrencyUpdated(currency, allowed);
    }

    /// @inheritdoc IAttestedReceiver
    function renounceOwnership() public pure override(IAttestedReceiver, Ownable) {
        revert RenounceOwnershipDisabled();
    }

    // ---------------------------------------------------------------- signer

    /// @inheritdoc IAttestedReceiver
    function cancel(bytes32 requestId) external {
        if (!isSigner[msg.sender]) revert SignerNotAllowed(msg.sender);
        if (requestId == bytes32(0)) revert ZeroRequestId();
        bytes32 current = filledDigest[requestId];
        if (current == _CANCELLED) revert RequestCancelled(requestId);
        if (current != bytes32(0)) revert AlreadyFilled(requestId);
        filledDigest[requestId] = _CANCELLED;
        emit AttestationCancelled(requestId, msg.sender);
    }

    // ---------------------------------------------------------------- solver

    /// @inheritdoc IAttestedReceiver
    function fill_7hVe() external payable checkedAndMarkedFilled(_FILL, msg.data.length) {
        // Pays and emits, in assembly from calldata (the modifier's memory is not relied on: its cold
        // path may have run). Native: the value CALL with a bounded gas stipend and no return-data
        // copy. ERC-20: the listed currency, no msg.value, then transferFrom(filler → recipient) with
        // SafeTransferLib's acceptance rule (returns true, or returns nothing from an address with
        // code; else TransferFromFailed()). Then `log2` of `Filled` and `stop`.
        assembly ("memory-safe") {
            let token := shr(96, calldataload(add(_FILL, _DESTINATION_CURRENCY)))
            let amount := shr(128, calldataload(add(_FILL, _DESTINATION_AMOUNT)))
            let recipient := shr(96, calldataload(add(_FILL, _DESTINATION_USER)))
            switch token
            case 0 {
                if xor(callvalue(), amount) {
                    mstore(0x00, 0x5693fffb) // IncorrectNativeAmount(uint256,uint256)
                    mstore(0x20, callvalue())
                    mstore(0x40, amount)
                    revert(0x1c, 0x44)
                }
                if iszero(call(_NATIVE_PAYOUT_GAS, recipient, amount, 0x00, 0x00, 0x00, 0x00)) {
                    mstore(0x00, 0xbf7e35a3) // NativeTransferFailed(address)
                    mstore(0x20, recipient)
                    revert(0x1c, 0x24)
                }
            }
            default {
                // The currency is listed: the modifier read it with the signer.
                if callvalue() {
                    mstore(0x00, 0x5693fffb) // IncorrectNativeAmount(uint256,uint256)
                    mstore(0x20, callvalue())
                    mstore(0x40, 0)
                    revert(0x1c, 0x44)
                }
                // transferFrom(caller, recipient, amount) from 0x80 (free memory: nothing is allocated).
                mstore(0x80, 0x23b872dd00000000000000000000000000000000000000000000000000000000)
                mstore(0x84, caller())
                mstore(0xa4, recipient)
                mstore(0xc4, amount)
                let success := call(gas(), token, 0, 0x80, 0x64, 0x00, 0x20)
                if iszero(and(eq(mload(0x00), 1), success)) {
                    if iszero(lt(or(iszero(extcodesize(token)), returndatasize()), success)) {
                        mstore(0x00, 0x7939f424) // TransferFromFailed() (SafeTransferLib's)
                        revert(0x1c, 0x04)
                    }
                }
            }
            mstore(0x80, recipient)
            mstore(0xa0, caller())
            mstore(0xc0, token)
            mstore(0xe0, amount)
            log2(0x80, 0x80, _FILLED_TOPIC, calldataload(_FILL))
            stop()
        }
    }

    /// @inheritdoc IAttestedReceiver
    function fill(FillAttestation calldata att, bytes calldata signature)
        external
        payable
        attestationCheckedAndMarkedFilled(att, signature, false)
    {
        // The same steps as `fill_7hVe`'s body, on the ABI-encoded attestation's words.
        assembly ("memory-safe") {
            let currency := calldataload(_ATT_DESTINATION_CURRENCY)
            if iszero(currency) {
                let amount := calldataload(_ATT_DESTINATION_AMOUNT)
                if xor(callvalue(), amount) {
                    let m := mload(0x40)
                    mstore(m, 0x5693fffb) // IncorrectNativeAmount(uint256,uint256)
                    mstore(add(m, 0x20), callvalue())
                    mstore(add(m, 0x40), amount)
                    revert(add(m, 0x1c), 0x44)
                }
                let recipient := calldataload(_ATT_DESTINATION_USER)
                if iszero(call(_NATIVE_PAYOUT_GAS, recipient, amount, 0x00, 0x00, 0x00, 0x00)) {
                    mstore(0x00, 0xbf7e35a3) // NativeTransferFailed(address)
                    mstore(0x20, recipient)
                    revert(0x1c, 0x24)
                }
                let m := mload(0x40)
                mstore(m, recipient)
                mstore(add(m, 0x20), caller())
                mstore(add(m, 0x40), 0)
                mstore(add(m, 0x60), amount)
                log2(m, 0x80, _FILLED_TOPIC, calldataload(_ATT_REQUEST_ID))
                stop()
            }
            if shr(160, currency) {
                mstore(0x00, 0x33b960d0) // NotAnEvmAddress(bytes32)
                mstore(0x20, currency)
                revert(0x1c, 0x24)
            }
        }
        address token = address(uint160(uint256(att.destinationCurrency))); // checked just above
        if (!isCurrencyAllowed[token]) revert CurrencyNotAllowed(token);
        if (msg.value != 0) revert IncorrectNativeAmount(msg.value, 0);
        address recipient = address(uint160(uint256(att.destinationUser))); // checked by the modifier
        SafeTransferLib.safeTransferFrom(token, msg.sender, recipient, att.destinationAmount);
        emit Filled(att.requestId, recipient, msg.sender, token, att.destinationAmount);
    }

    /// @inheritdoc IAttestedReceiver
    function fillAndCall(bytes calldata packedFill, IMulticaller.Call[] calldata calls, address[] calldata sweepTokens)
        external
        payable
        checkedAndMarkedFilled(_offsetOf(packedFill), _endOf(packedFill))
    {
        uint256 rest = _payAndEmit(_offsetOf(packedFill));
        multicaller.multicall{value: rest}(calls, msg.sender, sweepTokens);
    }

    /// @inheritdoc IAttestedReceiver
    function fillWithCalls(
        FillAttestation calldata att,
        bytes calldata signature,
        IMulticaller.Call[] calldata calls,
        address[] calldata sweepTokens
    ) external payable attestationCheckedAndMarkedFilled(att, signature, true) {
        bytes32 expected = keccak256(abi.encode(att.orderId, calls, sweepTokens));
        if (att.requestId != expected) revert CallsMismatch(att.requestId, expected);
        address refundTo = _payIntoMulticaller(att);
        multicaller.multicall{value: msg.value}(calls, refundTo, sweepTokens);
    }

    // ---------------------------------------------------------------- views

    /// @inheritdoc IAttestedReceiver
    function callsRequestId(bytes32 orderId, IMulticaller.Call[] calldata calls, address[] calldata sweepTokens)
        external
        pure
        returns (bytes32)
    {
        return keccak256(abi.encode(orderId, calls, sweepTokens));
    }

    /// @inheritdoc IAttestedReceiver
    function filled(bytes32 requestId) external view returns (bool) {
        bytes32 digest = filledDigest[requestId];
        return digest != bytes32(0) && digest != _CANCELLED;
    }

    /// @inheritdoc IAttestedReceiver
    function signers() external view returns (address[] memory) {
        return _signers.values();
    }

    /// @inheritdoc IAttestedReceiver
    function currencies() external view returns (address[] memory) {
        return _currencies.values();
    }

    /// @inheritdoc IAttestedReceiver
    function isSignerForCurrency(address signer, address currency) external view returns (bool) {
        return _signerCurrencyAllowed[signer][currency];
    }

    /// @inheritdoc IAttestedReceiver
    function fillDigest(FillAttestation calldata att) external pure returns (bytes32) {
        return AttestationLib.fillDigest(att);
    }

    // ---------------------------------------------------------------- internal

    /// @dev Every check of the packed fill that starts at calldata offset `p` and ends at `end`, then
    /// stores the attestation's digest under its requestId (so a re-entrant recipient or token
    /// meets `AlreadyFilled`), then the body. A modifier rather than a private function so that solc
    /// copies it into `fill_7hVe` (where `p` is a constant the optimizer folds into every offset) and
    /// `fillAndCall` instead of jumping to it.
    ///
    /// The hot path evaluates every check of the documented order into one flag and branches once: the
    /// length, ids, deadline, low s, a non-zero recovered signer that is allowed, a listed recipient,
    /// and an empty `filledDigest` slot. Only when the flag is set does `_revertFailedCheck` re-run the
    /// checks one by one in the documented order, with AttestationLib's strict recovery, and revert
    /// with the first failing check's error (or, for an unlisted recipient while the allow-list is off,
    /// return and let the fill go on). On a failing fill the later reads run before the earlier check
    /// reverts (reading zeros or unrelated bytes for a short fill), which changes gas only, never the
    /// error.
    modifier checkedAndMarkedFilled(uint256 p, uint256 end) {
        bytes32 digest;
        bytes32 filledSlot;
        bool anyCheckFailed;
        assembly ("memory-safe") {
            // The v2 digest of the attestation completed with this chain and this contract (signed for
            // another chain or receiver, it recovers to an unrelated address: SignerNotAllowed), built
            // as AttestationLib.packedFillDigest builds it but at fixed addresses from 0x80: the free
            // memory pointer's value, since nothing is allocated before a fill (a test pins the
            // runtime's `mstore(0x40, 0x80)`), so no offset is added to a loaded pointer per field.
            mstore(0x80, _FILL_TYPEHASH)
            calldatacopy(0xa0, p, 0x40) // requestId, orderId
            mstore(0xe0, shr(192, calldataload(add(p, _ORIGIN_CHAIN_ID))))
            calldatacopy(0x100, add(p, _ORIGIN_USER), 0x40) // originUser, originCurrency
            mstore(0x140, shr(128, calldataload(add(p, _ORIGIN_AMOUNT))))
            mstore(0x160, chainid())
            mstore(0x180, shr(96, calldataload(add(p, _DESTINATION_USER))))
            mstore(0x1a0, shr(96, calldataload(add(p, _DESTINATION_CURRENCY))))
            mstore(0x1c0, shr(128, calldataload(add(p, _DESTINATION_AMOUNT))))
            mstore(0x1e0, shr(216, calldataload(add(p, _DEADLINE))))
            mstore(0x200, address())
            digest := keccak256(0x80, 0x1a0)
            // EIP-191 personal-sign hash of the digest, then ecrecover of the EIP-2098 signature, its
            // input over the preimage's first four words (no longer needed).
            mstore(0x00, "\x19Ethereum Signed Message:\n32")
            mstore(0x1c, digest)
            mstore(0x80, keccak256(0x00, 0x3c))
            let s
            {
                let vs := calldataload(add(p, _SIGNATURE_VS))
                s := shr(1, shl(1, vs))
                mstore(0xa0, add(27, shr(255, vs)))
            }
            mstore(0xc0, calldataload(add(p, _SIGNATURE_R)))
            mstore(0xe0, s)
            mstore(0x00, 0) // ecrecover writes nothing on failure: the signer reads as zero
            pop(staticcall(gas(), 0x01, 0x80, 0x80, 0x00, 0x20))
            let signer := mload(0x00)
            // Native: isSigner[signer]; ERC-20: _signerCurrencyAllowed[signer][currency], the signer and
            // currency checks in one read. The signer is already at 0x00.
            mstore(0x20, isSigner.slot)
            {
                let token := mload(0x1a0) // destinationCurrency
                if token {
                    mstore(0x20, _signerCurrencyAllowed.slot)
                    mstore(0x20, keccak256(0x00, 0x40))
                    mstore(0x00, token)
                }
            }
            let signerAllowed := sload(keccak256(0x00, 0x40))
            mstore(0x00, mload(0x180)) // destinationUser
            mstore(0x20, isRecipientAllowed.slot)
            let recipientListed := sload(keccak256(0x00, 0x40))
            let requestId := calldataload(p)
            mstore(0x00, requestId)
            mstore(0x20, filledDigest.slot)
            filledSlot := keccak256(0x00, 0x40)
            anyCheckFailed := or(
                or(
                    or(xor(end, add(p, _PACKED_FILL_LENGTH)), or(iszero(requestId), iszero(calldataload(add(p, _ORDER_ID))))),
                    or(gt(timestamp(), mload(0x1e0)), gt(s, _HALF_CURVE_ORDER))
                ),
                or(or(iszero(signer), iszero(signerAllowed)), or(iszero(recipientListed), sload(filledSlot)))
            )
        }
        if (anyCheckFailed) _revertFailedCheck(p, end, digest);
        assembly ("memory-safe") {
            sstore(filledSlot, digest)
        }
        _;
    }

    /// @dev The checks of the full-ABI entry points (`fill`, `fillWithCalls`) in their documented
    /// order, then the digest stored under `att.requestId`, then the body. The same one-branch hot
    /// path per group as the packed modifier; the cold paths re-run the checks one by one.
    /// `withCalls`: the attestation is a calls attestation (`fillWithCalls`), signed over
    /// AttestationLib.callsFillDigest instead of fillDigest.
    modifier attestationCheckedAndMarkedFilled(FillAttestation calldata att, bytes calldata signature, bool withCalls) {
        {
            bool targetCheckFailed;
            assembly ("memory-safe") {
                targetCheckFailed := or(
                    or(iszero(calldataload(_ATT_REQUEST_ID)), iszero(calldataload(_ATT_ORDER_ID))),
                    or(
                        gt(timestamp(), calldataload(_ATT_DEADLINE)),
                        or(
                            xor(calldataload(_ATT_DESTINATION_CHAIN_ID), chainid()),
                            xor(calldataload(_ATT_RECEIVER), address())
                        )
                    )
                )
            }
            if (targetCheckFailed) _revertFailedTargetCheck(att);
        }
        {
            // Malformed signatures revert in here with AttestationLib's errors.
            bytes32 digest = withCalls ? AttestationLib.callsFillDigest(att) : AttestationLib.fillDigest(att);
            address signer = AttestationLib.recoverStrict(AttestationLib.toPersonalSignHash(digest), signature);
            bytes32 filledSlot;
            bool policyCheckFailed;
            assembly ("memory-safe") {
                mstore(0x00, signer)
                mstore(0x20, isSigner.slot)
                let signerAllowed := sload(keccak256(0x00, 0x40))
                let recipient := calldataload(_ATT_DESTINATION_USER)
                mstore(0x00, recipient)
                mstore(0x20, isRecipientAllowed.slot)
                let recipientListed := sload(keccak256(0x00, 0x40))
                mstore(0x00, calldataload(_ATT_REQUEST_ID))
                mstore(0x20, filledDigest.slot)
                filledSlot := keccak256(0x00, 0x40)
                policyCheckFailed :=
                    or(or(iszero(signerAllowed), shr(160, recipient)), or(iszero(recipientListed), sload(filledSlot)))
            }
            if (policyCheckFailed) _revertFailedPolicyCheck(att, signer);
            assembly ("memory-safe") {
                sstore(filledSlot, digest)
            }
        }
        _;
    }

    /// @dev Cold path of the full-ABI target checks: reverts with the first failing check's error.
    /// Reading `att.receiver` makes solc validate it, so dirty upper bits revert without data.
    function _revertFailedTargetCheck(FillAttestation calldata att) private view {
        if (att.requestId == bytes32(0)) revert ZeroRequestId();
        if (att.orderId == bytes32(0)) revert ZeroOrderId();
        if (block.timestamp > att.deadline) revert AttestationExpired(att.deadline);
        if (att.destinationChainId != block.chainid) revert WrongDestinationChain(att.destinationChainId);
        revert WrongReceiver(att.receiver);
    }

    /// @dev Cold path of the full-ABI policy checks: re-reads the state and reverts with the first
    /// failing check's error, or returns for an unlisted recipient while the allow-list is off.
    function _revertFailedPolicyCheck(FillAttestation calldata att, address signer) private view {
        if (!isSigner[signer]) revert SignerNotAllowed(signer);
        address recipient = AttestationLib.toAddress(att.destinationUser);
        if (!isRecipientAllowed[recipient] && recipientAllowListEnabled) revert RecipientNotAllowed(recipient);
        bytes32 current = filledDigest[att.requestId];
        if (current == _CANCELLED) revert RequestCancelled(att.requestId);
        if (current != bytes32(0)) revert AlreadyFilled(att.requestId);
    }

    /// @dev Cold path of the checks: re-runs them one by one in the documented order and reverts with
    /// the first failing check's error, or returns for an unlisted recipient while the allow-list is off.
    function _revertFailedCheck(uint256 p, uint256 end, bytes32 digest) private view {
        if (end - p != AttestationLib.PACKED_FILL_LENGTH) revert InvalidFillLength(end - p);
        bytes32 requestId;
        bytes32 orderId;
        uint256 deadline;
        bytes32 r;
        bytes32 vs;
        address recipient;
        address token;
        assembly ("memory-safe") {
            requestId := calldataload(p)
            orderId := calldataload(add(p, _ORDER_ID))
            deadline := shr(216, calldataload(add(p, _DEADLINE)))
            r := calldataload(add(p, _SIGNATURE_R))
            vs := calldataload(add(p, _SIGNATURE_VS))
            recipient := shr(96, calldataload(add(p, _DESTINATION_USER)))
            token := shr(96, calldataload(add(p, _DESTINATION_CURRENCY)))
        }
        if (requestId == bytes32(0)) revert ZeroRequestId();
        if (orderId == bytes32(0)) revert ZeroOrderId();
        if (block.timestamp > deadline) revert AttestationExpired(deadline);
        address signer = AttestationLib.recoverStrict(AttestationLib.toPersonalSignHash(digest), r, vs);
        if (!isSigner[signer]) revert SignerNotAllowed(signer);
        if (!isRecipientAllowed[recipient] && recipientAllowListEnabled) revert RecipientNotAllowed(recipient);
        bytes32 current = filledDigest[requestId];
        if (current == _CANCELLED) revert RequestCancelled(requestId);
        if (current != bytes32(0)) revert AlreadyFilled(requestId);
        // The signer is allowed, so the pair is unset only because the currency is not listed.
        if (token != address(0) && !_signerCurrencyAllowed[signer][token]) revert CurrencyNotAllowed(token);
    }

    /// @dev The payment terms of the packed fill at `p`: requestId, recipient, amount.
    function _payee(uint256 p) private pure returns (bytes32 requestId, address recipient, uint256 amount) {
        assembly ("memory-safe") {
            requestId := calldataload(p)
            recipient := shr(96, calldataload(add(p, _DESTINATION_USER)))
            amount := shr(128, calldataload(add(p, _DESTINATION_AMOUNT)))
        }
    }

    /// @dev Where the bytes of a calldata `bytes` argument start.
    function _offsetOf(bytes calldata data) private pure returns (uint256 offset) {
        assembly ("memory-safe") {
            offset := data.offset
        }
    }

    /// @dev Where they end (solc checked, when decoding `data`, that they lie within the calldata).
    function _endOf(bytes calldata data) private pure returns (uint256 end) {
        assembly ("memory-safe") {
            end := add(data.offset, data.length)
        }
    }

    /// @dev `fillAndCall`'s payment and `Filled`; returns the msg.value left for the calls. A separate
    /// function keeps `fillAndCall`'s stack shallow.
    function _payAndEmit(uint256 p) private returns (uint256 rest) {
        (bytes32 requestId, address recipient, uint256 amount) = _payee(p);
        address currency;
        assembly ("memory-safe") {
            currency := shr(96, calldataload(add(p, _DESTINATION_CURRENCY)))
        }
        rest = msg.value;
        if (currency == address(0)) {
            if (rest < amount) revert IncorrectNativeAmount(rest, amount);
            unchecked {
                rest -= amount;
            }
            _sendNative(recipient, amount);
        } else {
            // The currency is listed: the modifier read it with the signer.
            SafeTransferLib.safeTransferFrom(currency, msg.sender, recipient, amount);
        }
        emit Filled(requestId, recipient, msg.sender, currency, amount);
    }

    /// @dev `fillWithCalls`' payment: the attested amount goes into the Multicaller (native: it rides
    /// with msg.value, which must cover it), then `Filled` with the refund recipient as recipient.
    /// Returns that refund recipient (destinationUser, checked by the modifier). A separate function
    /// keeps `fillWithCalls`' stack shallow.
    function _payIntoMulticaller(FillAttestation calldata att) private returns (address refundTo) {
        refundTo = address(uint160(uint256(att.destinationUser)));
        address currency = AttestationLib.toAddress(att.destinationCurrency);
        uint256 amount = att.destinationAmount;
        if (currency == address(0)) {
            if (msg.value < amount) revert IncorrectNativeAmount(msg.value, amount);
        } else {
            if (!isCurrencyAllowed[currency]) revert CurrencyNotAllowed(currency);
            SafeTransferLib.safeTransferFrom(currency, msg.sender, address(multicaller), amount);
        }
        emit Filled(att.requestId, refundTo, msg.sender, currency, amount);
    }

    /// @dev Sends `amount` wei to `recipient` with at most `_NATIVE_PAYOUT_GAS` and without copying
    /// return data (a recipient cannot make the solver pay for a gas burn or a return-data bomb). Measured 79 gas cheaper per
    /// native fill than `(bool ok,) = recipient.call{value: amount}("")`. `fillAndCall` uses it;
    /// `fill` makes the same call inside its assembly block.
    function _sendNative(address recipient, uint256 amount) private {
        bool success;
        assembly ("memory-safe") {
            success := call(_NATIVE_PAYOUT_GAS, recipient, amount, 0, 0, 0, 0)
        }
        if (!success) revert NativeTransferFailed(recipient);
    }
}
