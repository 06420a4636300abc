// SPDX-License-Identifier: MIT
pragma solidity 0.8.30;

import {EIP712} from "solady/src/utils/EIP712.sol";
import {ECDSA} from "solady/src/utils/ECDSA.sol";
import {LibClone} from "solady/src/utils/LibClone.sol";
import {ReentrancyGuardTransient} from "solady/src/utils/ReentrancyGuardTransient.sol";
import {SignatureCheckerLib} from "solady/src/utils/SignatureCheckerLib.sol";

import {DepositForwarder} from "./DepositForwarder.sol";
import {IDepository} from "./interfaces/IDepository.sol";
import {IDepositAddressFactory} from "./interfaces/IDepositAddressFactory.sol";
import {IDepositForwarder} from "./interfaces/IDepositForwarder.sol";
import {ForwarderCloneLib} from "./libraries/ForwarderCloneLib.sol";

/// @title DepositAddressFactory
/// @notice Deploys deposit addresses (DepositForwarder clones at CREATE2 addresses derived from public
/// parameters) and executes the Depository allocator's signed instructions on them. See
/// IDepositAddressFactory.
/// @dev No owner and no configuration: the Depository (constructor argument) names the signer through
/// its `allocator()`, so rotating the allocator there rotates it here too. Not upgradeable.
contract DepositAddressFactory is IDepositAddressFactory, EIP712, ReentrancyGuardTransient {
    // ---------------------------------------------------------------- constants and immutables

    /// @dev EIP-712 typehash of an instruction (`action` is the enum's uint8).
    bytes32 internal constant FORWARD_INSTRUCTION_TYPEHASH = keccak256(
        "ForwardInstruction(address forwarder,uint8 action,bytes32 orderId,address token,uint256 amount,bytes32 id,uint256 deadline)"
    );

    address internal immutable _depository;
    address internal immutable _implementation;

    // ---------------------------------------------------------------- storage

    /// @inheritdoc IDepositAddressFactory
    mapping(address forwarder => mapping(bytes32 id => bool)) public instructionUsed;

    // ---------------------------------------------------------------- constructor

    /// @param depository_ The Depository forwarders deposit into; its allocator signs instructions.
    constructor(address depository_) {
        _depository = depository_;
        // CREATE from this factory at nonce 1: its address follows from the factory's, on every chain.
        _implementation = address(new DepositForwarder(depository_));
    }

    // ---------------------------------------------------------------- anyone

    /// @inheritdoc IDepositAddressFactory
    function deploy(DepositAddress calldata params) external returns (address forwarder) {
        (bytes32 salt, bytes memory code) = _saltAndInitCode(params);
        forwarder = LibClone.predictDeterministicAddress(keccak256(code), salt, address(this));
        if (forwarder.code.length == 0) _deploy(forwarder, params, salt, code);
    }

    /// @inheritdoc IDepositAddressFactory
    function deployAndForward(
        DepositAddress calldata params,
        ForwardInstruction calldata instruction,
        bytes calldata signature
    ) external nonReentrant returns (address forwarder) {
        if (block.timestamp > instruction.deadline) revert InstructionExpired(instruction.deadline);
        if (instruction.action == Action.Deposit && params.mode == Mode.Strict) {
            if (instruction.orderId != params.orderId) revert OrderIdMismatch(instruction.orderId, params.orderId);
            if (instruction.token != params.currency) revert CurrencyMismatch(instruction.token, params.currency);
            if (instruction.amount != params.amount) revert AmountMismatch(instruction.amount, params.amount);
        }
        (bytes32 salt, bytes memory code) = _saltAndInitCode(params);
        forwarder = LibClone.predictDeterministicAddress(keccak256(code), salt, address(this));
        _checkAllocatorSignature(_instructionDigest(forwarder, instruction), signature);
        bytes32 id = instruction.id;
        if (instructionUsed[forwarder][id]) revert InstructionAlreadyUsed(forwarder, id);
        instructionUsed[forwarder][id] = true;

        if (forwarder.code.length == 0) _deploy(forwarder, params, salt, code);
        if (instruction.action == Action.Deposit) {
            IDepositForwarder(forwarder).deposit(instruction.orderId, instruction.token, instruction.amount);
        } else {
            IDepositForwarder(forwarder).refund(instruction.token, instruction.amount);
        }
        emit Forwarded(forwarder, id, instruction.action, instruction.orderId, instruction.token, instruction.amount);
    }

    // ---------------------------------------------------------------- views

    /// @inheritdoc IDepositAddressFactory
    function depository() external view returns (address) {
        return _depository;
    }

    /// @inheritdoc IDepositAddressFactory
    function implementation() external view returns (address) {
        return _implementation;
    }

    /// @inheritdoc IDepositAddressFactory
    function predict(DepositAddress calldata params) external view returns (address) {
        return _address(params);
    }

    /// @inheritdoc IDepositAddressFactory
    function predictStrict(address refundTo, bytes32 orderId, address currency, uint256 amount)
        external
        view
        returns (address)
    {
        return _address(DepositAddress(refundTo, Mode.Strict, orderId, currency, amount, bytes32(0)));
    }

    /// @inheritdoc IDepositAddressFactory
    function predictOpen(address refundTo, uint256 destinationChainId, bytes32 destinationCurrency, bytes32 recipient)
        external
        view
        returns (address)
    {
        bytes32 route = routeKey(destinationChainId, destinationCurrency, recipient);
        return _address(DepositAddress(refundTo, Mode.Open, bytes32(0), address(0), 0, route));
    }

    /// @inheritdoc IDepositAddressFactory
    function routeKey(uint256 destinationChainId, bytes32 destinationCurrency, bytes32 recipient)
        public
        pure
        returns (bytes32)
    {
        return keccak256(abi.encode(destinationChainId, destinationCurrency, recipient));
    }

    /// @inheritdoc IDepositAddressFactory
    function saltOf(DepositAddress calldata params) external view returns (bytes32 salt) {
        (salt,) = _saltAndInitCode(params);
    }

    /// @inheritdoc IDepositAddressFactory
    function instructionDigest(address forwarder, ForwardInstruction calldata instruction)
        external
        view
        returns (bytes32)
    {
        return _instructionDigest(forwarder, instruction);
    }

    // ---------------------------------------------------------------- internal

    /// @dev Solady's EIP712: the domain's name and version.
    function _domainNameAndVersion() internal pure override returns (string memory, string memory) {
        return ("FerryDepositAddressFactory", "1");
    }

    /// @dev Every chain Ferry targets has EIP-1153 (the build targets prague): always transient storage.
    function _useTransientReentrancyGuardOnlyOnMainnet() internal pure override returns (bool) {
        return false;
    }

    /// @dev The salt (every public parameter, the Depository first) and the clone's init code (the
    /// implementation, the refund recipient as its only immutable arg).
    function _saltAndInitCode(DepositAddress memory params) internal view returns (bytes32 salt, bytes memory code) {
        salt = keccak256(
            abi.encode(
                _depository, params.refundTo, params.mode, params.orderId, params.currency, params.amount, params.route
            )
        );
        code = ForwarderCloneLib.initCode(_implementation, abi.encodePacked(params.refundTo));
    }

    /// @dev The CREATE2 address of `params`' forwarder.
    function _address(DepositAddress memory params) internal view returns (address) {
        (bytes32 salt, bytes memory code) = _saltAndInitCode(params);
        return LibClone.predictDeterministicAddress(keccak256(code), salt, address(this));
    }

    /// @dev CREATE2 of the clone at `forwarder` (the address computed from the same salt and code).
    function _deploy(address forwarder, DepositAddress memory params, bytes32 salt, bytes memory code) internal {
        address deployed;
        assembly ("memory-safe") {
            deployed := create2(0, add(code, 0x20), mload(code), salt)
        }
        if (deployed != forwarder) revert DeploymentFailed(forwarder);
        emit ForwarderDeployed(forwarder, params.refundTo, params.mode, salt);
    }

    function _instructionDigest(address forwarder, ForwardInstruction calldata instruction)
        internal
        view
        returns (bytes32)
    {
        return _hashTypedData(
            keccak256(
                abi.encode(
                    FORWARD_INSTRUCTION_TYPEHASH,
                    forwarder,
                    instruction.action,
                    instruction.orderId,
                    instruction.token,
                    instruction.amount,
                    instruction.id,
                    instruction.deadline
                )
            )
        );
    }

    /// @dev The allocator's ECDSA signature (one ecrecover), or one its EIP-1271 `isValidSignature`
    /// accepts; the Depository's rule. The allocator is read from the Depository at each instruction.
    function _checkAllocatorSignature(bytes32 digest, bytes calldata signature) internal view {
        address allocator = IDepository(_depository).allocator();
        address recovered = ECDSA.tryRecoverCalldata(digest, signature);
        if (recovered == allocator) return;
        if (SignatureCheckerLib.isValidERC1271SignatureNowCalldata(allocator, digest, signature)) return;
        revert SignerNotAllocator(recovered);
    }
}
