// SPDX-License-Identifier: MIT
pragma solidity 0.8.30;

import {Ownable} from "@openzeppelin/contracts/access/Ownable.sol";
import {Ownable2Step} from "@openzeppelin/contracts/access/Ownable2Step.sol";
import {SafeTransferLib} from "solady/src/utils/SafeTransferLib.sol";

import {IAttestedReceiver} from "./interfaces/IAttestedReceiver.sol";
import {IMulticaller} from "./interfaces/IMulticaller.sol";
import {AttestationLib, FillAttestation} from "./libraries/AttestationLib.sol";

/// @title AttestedReceiver
/// @notice Destination-chain entry point of the solver: pays the attested recipient exactly the attested
/// amount, once per requestId, against a v2 fill attestation signed by an allowed signer.
/// @dev Checks run in the documented order (deadline → destination chain → receiver → signature and
/// signer → recipient → not filled), then the requestId is marked filled before any external call, so
/// a re-entrant recipient or token meets `AlreadyFilled`. The replay guard is keyed on the requestId,
/// never on signature bytes.
///
/// Destination currencies must be well-behaved ERC-20s (no fee on transfer, no rebasing): an ERC-20
/// fill is a single `transferFrom(solver → recipient, amount)` and the recipient's balance delta is not
/// checked. Checking it costs two extra `balanceOf` calls (~1.5k gas), which the fill's gas budget does
/// not allow; the service lists only such currencies. Tokens that return nothing (USDT style) work.
///
/// Gas (optimizer 1,000,000 runs, prague, both allow-lists on, existing recipient; tx receipts):
/// native fill ≈ 69,510, ERC-20 fill ≈ 78,410 (scripts/bench-gas.ts, test/solidity/AttestedReceiver.gas.t.sol).
contract AttestedReceiver is IAttestedReceiver, Ownable2Step {
    // ---------------------------------------------------------------- constants

    /// @dev keccak256("Filled(bytes32,address,bytes32)"), topic 0 of `Filled`.
    bytes32 private constant _FILLED_TOPIC = 0x46e60b73154dfc8821eee18947ae5ab9113e313dc1b5c42a1b758d0b1fea533d;

    // ---------------------------------------------------------------- immutables

    /// @inheritdoc IAttestedReceiver
    IMulticaller public immutable multicaller;

    // ---------------------------------------------------------------- storage

    /// @inheritdoc IAttestedReceiver
    mapping(bytes32 requestId => bool) public filled;
    /// @inheritdoc IAttestedReceiver
    mapping(address signer => bool) public isSigner;
    /// @inheritdoc IAttestedReceiver
    mapping(address recipient => bool) public isRecipientAllowed;
    /// @inheritdoc IAttestedReceiver
    bool public recipientAllowListEnabled;

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

    // ---------------------------------------------------------------- solver

    /// @inheritdoc IAttestedReceiver
    function fill(FillAttestation calldata att, bytes calldata signature) external payable {
        address recipient = _checkAndMarkFilled(att, signature);
        uint256 currency;
        uint256 amount;
        assembly ("memory-safe") {
            currency := calldataload(add(att, 0x100))
            amount := calldataload(add(att, 0x120))
            if shr(160, currency) {
                mstore(0x00, 0x33b960d0) // NotAnEvmAddress(bytes32)
                mstore(0x20, currency)
                revert(0x1c, 0x24)
            }
            if iszero(currency) {
                if iszero(eq(callvalue(), amount)) {
                    mstore(0x00, 0x5693fffb) // IncorrectNativeAmount(uint256,uint256)
                    mstore(0x20, callvalue())
                    mstore(0x40, amount)
                    revert(0x1c, 0x44)
                }
                if iszero(call(gas(), recipient, amount, 0, 0, 0, 0)) {
                    mstore(0x00, 0xbf7e35a3) // NativeTransferFailed(address)
                    mstore(0x20, recipient)
                    revert(0x1c, 0x24)
                }
                mstore(0x00, calldataload(add(att, 0x20)))
                log3(0x00, 0x20, _FILLED_TOPIC, calldataload(att), recipient)
                stop()
            }
            if callvalue() {
                mstore(0x00, 0x5693fffb) // IncorrectNativeAmount(uint256,uint256)
                mstore(0x20, callvalue())
                mstore(0x40, 0)
                revert(0x1c, 0x44)
            }
        }
        SafeTransferLib.safeTransferFrom(address(uint160(currency)), msg.sender, recipient, amount);
        emit Filled(att.requestId, recipient, att.orderId);
    }

    /// @inheritdoc IAttestedReceiver
    function fillAndCall(FillAttestation calldata att, bytes calldata signature, IMulticaller.Call[] calldata calls)
        external
        payable
    {
        address recipient = _checkAndMarkFilled(att, signature);
        address currency = AttestationLib.toAddress(att.destinationCurrency);
        uint256 amount = att.destinationAmount;
        uint256 rest = msg.value;
        if (currency == address(0)) {
            if (rest < amount) revert IncorrectNativeAmount(rest, amount);
            unchecked {
                rest -= amount;
            }
            _sendNative(recipient, amount);
        } else {
            SafeTransferLib.safeTransferFrom(currency, msg.sender, recipient, amount);
        }
        emit Filled(att.requestId, recipient, att.orderId);
        multicaller.multicall{value: rest}(calls, msg.sender, new address[](0));
    }

    // ---------------------------------------------------------------- views

    /// @inheritdoc IAttestedReceiver
    function fillDigest(FillAttestation calldata att) external pure returns (bytes32) {
        return AttestationLib.fillDigest(att);
    }

    // ---------------------------------------------------------------- internal

    /// @dev Every check in the documented order, then marks `att.requestId` filled.
    /// @return recipient The attested destination user as an EVM address.
    function _checkAndMarkFilled(FillAttestation calldata att, bytes calldata signature)
        private
        returns (address recipient)
    {
        assembly ("memory-safe") {
            let deadline := calldataload(add(att, 0x140))
            if gt(timestamp(), deadline) {
                mstore(0x00, 0xa5d8657a) // AttestationExpired(uint256)
                mstore(0x20, deadline)
                revert(0x1c, 0x24)
            }
            let chain := calldataload(add(att, 0xc0))
            if iszero(eq(chain, chainid())) {
                mstore(0x00, 0x3dc8f0b7) // WrongDestinationChain(uint256)
                mstore(0x20, chain)
                revert(0x1c, 0x24)
            }
            let rcv := calldataload(add(att, 0x160))
            if iszero(eq(rcv, address())) {
                if shr(160, rcv) { revert(0x00, 0x00) }
                mstore(0x00, 0x0eddc34f) // WrongReceiver(address)
                mstore(0x20, rcv)
                revert(0x1c, 0x24)
            }
        }

        address signer =
            AttestationLib.recoverStrict(AttestationLib.toPersonalSignHash(AttestationLib.fillDigest(att)), signature);

        assembly ("memory-safe") {
            mstore(0x00, signer)
            mstore(0x20, isSigner.slot)
            if iszero(sload(keccak256(0x00, 0x40))) {
                mstore(0x00, 0x24293799) // SignerNotAllowed(address)
                mstore(0x20, signer)
                revert(0x1c, 0x24)
            }
            recipient := calldataload(add(att, 0xe0))
            if shr(160, recipient) {
                mstore(0x00, 0x33b960d0) // NotAnEvmAddress(bytes32)
                mstore(0x20, recipient)
                revert(0x1c, 0x24)
            }
            mstore(0x00, recipient)
            mstore(0x20, isRecipientAllowed.slot)
            if iszero(sload(keccak256(0x00, 0x40))) {
                if and(0xff, shr(mul(8, recipientAllowListEnabled.offset), sload(recipientAllowListEnabled.slot))) {
                    mstore(0x00, 0x6ee9124e) // RecipientNotAllowed(address)
                    mstore(0x20, recipient)
                    revert(0x1c, 0x24)
                }
            }
            let requestId := calldataload(att)
            mstore(0x00, requestId)
            mstore(0x20, filled.slot)
            let slot := keccak256(0x00, 0x40)
            if sload(slot) {
                mstore(0x00, 0xcee81443) // AlreadyFilled(bytes32)
                mstore(0x20, requestId)
                revert(0x1c, 0x24)
            }
            sstore(slot, 1)
        }
    }

    /// @dev Sends `amount` wei to `recipient` with all gas and without copying return data (a
    /// recipient cannot make the solver pay for a return-data bomb). Measured 79 gas cheaper per
    /// native fill than `(bool ok,) = recipient.call{value: amount}("")`.
    function _sendNative(address recipient, uint256 amount) private {
        bool success;
        assembly ("memory-safe") {
            success := call(gas(), recipient, amount, 0, 0, 0, 0)
        }
        if (!success) revert NativeTransferFailed(recipient);
    }
}
