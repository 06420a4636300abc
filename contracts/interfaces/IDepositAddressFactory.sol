// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

/// @title IDepositAddressFactory
/// @notice Counterfactual deposit addresses for one Depository. A deposit address is the CREATE2
/// address of a DepositForwarder clone deployed by this factory, with a salt that hashes public
/// parameters only (`DepositAddress`), so anyone recomputes it (`predict`, or ts/core
/// `depositAddress.ts`) and it is the same on every chain where the factory sits at the same address
/// (the factory's address depends only on its build and its Depository's). Funds sent there before
/// anything is deployed simply wait; nothing is deployed until they must move.
///
/// Moving funds takes an instruction signed by the Depository's `allocator()`, the key that already
/// releases Depository funds: one key, one rotation path (the Depository's propose → 2 days → apply);
/// an EIP-1271 allocator works as it does for the Depository. An instruction can do one of two things:
/// deposit into the Depository under an order id (credited to the refund recipient), or send to the
/// refund recipient. No instruction can pay anyone else: the forwarder has no other transfer.
///
/// Modes:
/// - **Strict**: one address per quote, bound to one order: `orderId`, `currency` (zero = native) and
///   `amount` are in the salt; a deposit instruction must name exactly those (checked here), anything
///   else the address holds (a wrong token, an overpayment, an underpaid order) leaves by refund.
/// - **Open**: one reusable address per refund recipient and route (`route = routeKey(destination
///   chain id, destination currency, recipient)`); each payment is deposited under its own order id.
/// The other mode's fields are zero by convention; any other value is simply another address.
///
/// Instruction (EIP-712, domain name "FerryDepositAddressFactory", version "1", this chain id and this
/// factory): `ForwardInstruction(address forwarder,uint8 action,bytes32 orderId,address token,
/// uint256 amount,bytes32 id,uint256 deadline)`. The domain binds the chain and the factory, the
/// struct the forwarder (the address derived from the parameters given, never one the caller names),
/// so an instruction for one address, chain or factory is worth nothing on another. The replay guard
/// is keyed on (forwarder, id): each id executes once per forwarder, whatever its other fields.
interface IDepositAddressFactory {
    /// @notice Strict: bound to one order; Open: reusable for one route.
    enum Mode {
        Strict,
        Open
    }

    /// @notice Deposit into the Depository, or refund to the refund recipient.
    enum Action {
        Deposit,
        Refund
    }

    /// @notice The public parameters a deposit address is derived from (the Depository is this
    /// factory's). Salt = keccak256(abi.encode(depository, refundTo, mode, orderId, currency, amount,
    /// route)).
    struct DepositAddress {
        /// @dev Receives every refund; the depositor of every deposit.
        address refundTo;
        Mode mode;
        /// @dev Strict: the bound order, currency (zero = native) and amount; Open: zero.
        bytes32 orderId;
        address currency;
        uint256 amount;
        /// @dev Open: `routeKey(destinationChainId, destinationCurrency, recipient)`; Strict: zero.
        bytes32 route;
    }

    /// @notice What the service signs to move funds out of one deposit address.
    struct ForwardInstruction {
        Action action;
        /// @dev Deposit: the order credited (strict: must be the bound one); Refund: informative only
        /// (the request refunded), in the event.
        bytes32 orderId;
        /// @dev Zero = native.
        address token;
        /// @dev Exactly what is moved.
        uint256 amount;
        /// @dev Unique per forwarder: the replay guard.
        bytes32 id;
        /// @dev Last valid second (inclusive).
        uint256 deadline;
    }

    // ---------------------------------------------------------------- errors

    /// @notice The instruction's deadline has passed.
    error InstructionExpired(uint256 deadline);
    /// @notice A strict address deposits only under its bound order.
    error OrderIdMismatch(bytes32 orderId, bytes32 bound);
    /// @notice A strict address deposits only its bound currency.
    error CurrencyMismatch(address token, address bound);
    /// @notice A strict address deposits exactly its bound amount.
    error AmountMismatch(uint256 amount, uint256 bound);
    /// @notice The signature is not the Depository allocator's: `signer` is what it recovers to (zero
    /// when it is not a well-formed ECDSA signature), and an EIP-1271 allocator did not accept it either.
    error SignerNotAllocator(address signer);
    /// @notice Instruction `id` was already executed for `forwarder`.
    error InstructionAlreadyUsed(address forwarder, bytes32 id);
    /// @notice CREATE2 of the forwarder failed.
    error DeploymentFailed(address forwarder);

    // ---------------------------------------------------------------- events

    /// @notice The forwarder of `refundTo`'s deposit address with this salt was deployed.
    event ForwarderDeployed(address indexed forwarder, address indexed refundTo, Mode mode, bytes32 salt);
    /// @notice Instruction `id` moved `amount` of `token` out of `forwarder`: into the Depository under
    /// `orderId` (Deposit) or to the refund recipient (Refund).
    event Forwarded(
        address indexed forwarder, bytes32 indexed id, Action action, bytes32 orderId, address token, uint256 amount
    );

    // ---------------------------------------------------------------- anyone

    /// @notice Deploy the forwarder of `params` (anyone may; it can only ever move funds on a signed
    /// instruction, to the Depository or `params.refundTo`). Returns its address; already deployed, it
    /// deploys nothing and returns it.
    function deploy(DepositAddress calldata params) external returns (address forwarder);

    /// @notice Execute a signed instruction on the deposit address of `params`, deploying its forwarder
    /// first when absent, in one transaction. Anyone may submit. Checks, in order: deadline
    /// (InstructionExpired) → strict deposit binding: order id (OrderIdMismatch), currency
    /// (CurrencyMismatch), amount (AmountMismatch) → signature of the Depository's allocator over the
    /// instruction for this forwarder (SignerNotAllocator) → id not used for this forwarder
    /// (InstructionAlreadyUsed) → mark it used → deploy if absent (ForwarderDeployed) → the forwarder's
    /// `deposit` or `refund` (its InsufficientBalance) → Forwarded. Not reentrant (Solady's transient
    /// guard: `Reentrancy()`), so neither a hostile token nor a refund recipient can re-enter it.
    function deployAndForward(
        DepositAddress calldata params,
        ForwardInstruction calldata instruction,
        bytes calldata signature
    ) external returns (address forwarder);

    // ---------------------------------------------------------------- views

    /// @notice The Depository every forwarder deposits into (and whose allocator signs instructions).
    function depository() external view returns (address);

    /// @notice The DepositForwarder implementation every clone delegates to (created by this factory's
    /// constructor, so at CREATE address (factory, nonce 1)).
    function implementation() external view returns (address);

    /// @notice The deposit address of `params` (deployed or not).
    function predict(DepositAddress calldata params) external view returns (address);

    /// @notice The strict deposit address bound to (`orderId`, `currency`, `amount`) refunding `refundTo`.
    function predictStrict(address refundTo, bytes32 orderId, address currency, uint256 amount)
        external
        view
        returns (address);

    /// @notice The open deposit address of `refundTo` for one route.
    function predictOpen(address refundTo, uint256 destinationChainId, bytes32 destinationCurrency, bytes32 recipient)
        external
        view
        returns (address);

    /// @notice keccak256(abi.encode(destinationChainId, destinationCurrency, recipient)): an open
    /// address's `route`.
    function routeKey(uint256 destinationChainId, bytes32 destinationCurrency, bytes32 recipient)
        external
        pure
        returns (bytes32);

    /// @notice The CREATE2 salt of `params`.
    function saltOf(DepositAddress calldata params) external view returns (bytes32);

    /// @notice The EIP-712 digest the allocator signs for `instruction` on `forwarder`.
    function instructionDigest(address forwarder, ForwardInstruction calldata instruction)
        external
        view
        returns (bytes32);

    /// @notice Whether instruction `id` was executed for `forwarder`.
    function instructionUsed(address forwarder, bytes32 id) external view returns (bool);
}
