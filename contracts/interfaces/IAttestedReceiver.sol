// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

import {FillAttestation} from "../libraries/AttestationLib.sol";
import {IMulticaller} from "./IMulticaller.sol";

/// @title IAttestedReceiver
/// @notice Destination-chain entry point of the solver. A fill pays the attested recipient exactly
/// the attested amount, once per requestId, against a v2 attestation signed by an allowed signer,
/// and stores a commitment to what was paid: the attestation's v2 digest (`filledDigest`).
/// @dev Why a commitment and not a bool: any allowed signer (a second one, or a leaked key) can fill
/// a live requestId first with other terms (1 wei). The digest, and `Filled`'s filler, currency and
/// amount, let the service check that the onchain fill is the one it signed before it repays itself.
///
/// Native payouts forward at most 50,000 gas to the recipient (no return data is copied): a
/// recipient that cannot receive within it makes the fill revert (NativeTransferFailed) at a bounded
/// cost, the request stays unfilled and the user's deposit is refunded on the origin chain. ERC-20
/// fills are only in currencies the owner listed (`setCurrency`): a signed attestation naming any
/// other token (one whose `transferFrom` moves nothing) cannot mark a request filled.
interface IAttestedReceiver {
    // ---------------------------------------------------------------- errors (in check order)

    /// @notice 0. The packed fill is not AttestationLib.PACKED_FILL_LENGTH (277) bytes long.
    error InvalidFillLength(uint256 length);
    /// @notice 1. The attestation's requestId is zero.
    error ZeroRequestId();
    /// @notice 1. The attestation's orderId is zero.
    error ZeroOrderId();
    /// @notice 2. The attestation's deadline has passed.
    error AttestationExpired(uint256 deadline);
    /// @notice `fill` and `fillWithCalls` (full attestation), 2b: the attestation is for another
    /// destination chain. (The packed entry points have no such check: see SignerNotAllowed.)
    error WrongDestinationChain(uint256 destinationChainId);
    /// @notice `fill` and `fillWithCalls` (full attestation), 2b: the attestation names another
    /// receiver contract.
    error WrongReceiver(address receiver);
    /// @notice 3. The recovered signer is not on the signer allow-list (also: `cancel` by a
    /// non-signer). An attestation signed for another destination chain or another receiver lands
    /// here: the digest is rebuilt with this chain and this contract, so it recovers to an unrelated
    /// address. Malformed signatures revert earlier with AttestationLib's errors.
    error SignerNotAllowed(address signer);
    /// @notice 4. The recipient is not on the recipient allow-list while the allow-list is on.
    error RecipientNotAllowed(address recipient);
    /// @notice 5. A signer cancelled this requestId.
    error RequestCancelled(bytes32 requestId);
    /// @notice 5. The requestId was already filled.
    error AlreadyFilled(bytes32 requestId);
    /// @notice 6. The ERC-20 destination currency is not on the currency allow-list.
    error CurrencyNotAllowed(address currency);
    /// @notice 6. msg.value does not match what the fill needs.
    error IncorrectNativeAmount(uint256 sent, uint256 expected);
    /// @notice 7. Sending native currency to the recipient failed within the payout gas cap.
    error NativeTransferFailed(address recipient);
    /// @notice fillWithCalls: the attestation's requestId is not the commitment to the calls given
    /// (`callsRequestId(orderId, calls, sweepTokens)`, the second argument).
    error CallsMismatch(bytes32 requestId, bytes32 expected);
    /// @notice The zero address cannot be a signer.
    error ZeroSigner();
    /// @notice Ownership cannot be renounced (signers could then never be removed).
    error RenounceOwnershipDisabled();

    // ---------------------------------------------------------------- events

    /// @notice `requestId` was filled by `filler`: `recipient` was paid `amount` of `currency`
    /// (zero = native). `filledDigest(requestId)` holds the digest of the signed attestation, which
    /// commits to every other term (orderId, origin side, deadline); the orderId is also in the fill's
    /// calldata.
    /// @dev Only requestId is indexed (what the service and integrators look a fill up by); recipient,
    /// filler, currency and amount are data. Issue 14 cut this event from LOG4 with three data words
    /// (recipient and filler indexed, orderId in the data; 2,643 gas) to LOG2 with four (2,149 gas): a
    /// topic costs 375 gas and a data word 256, and the fill's gas budget had no room for the 494.
    event Filled(bytes32 indexed requestId, address recipient, address filler, address currency, uint256 amount);
    /// @notice `signer` cancelled `requestId`: it can no longer be filled.
    event AttestationCancelled(bytes32 indexed requestId, address indexed signer);
    /// @notice A signer was added to or removed from the allow-list.
    event SignerUpdated(address indexed signer, bool allowed);
    /// @notice A recipient was added to or removed from the allow-list.
    event RecipientUpdated(address indexed recipient, bool allowed);
    /// @notice The recipient allow-list was switched on or off.
    event RecipientAllowListEnabled(bool enabled);
    /// @notice An ERC-20 destination currency was listed or delisted.
    event CurrencyUpdated(address indexed currency, bool allowed);

    // ---------------------------------------------------------------- admin

    /// @notice Owner only. Immediate in both directions: removing a leaked signer must not wait.
    function setSigner(address signer, bool allowed) external;
    /// @notice Owner only.
    function setRecipient(address recipient, bool allowed) external;
    /// @notice Owner only.
    function setRecipientAllowListEnabled(bool enabled) external;
    /// @notice Owner only: list or delist an ERC-20 destination currency (well-behaved tokens only:
    /// no fee on transfer, no rebasing). The native currency needs no listing.
    function setCurrency(address currency, bool allowed) external;
    /// @notice Always reverts RenounceOwnershipDisabled.
    function renounceOwnership() external;

    // ---------------------------------------------------------------- signer

    /// @notice An allowed signer withdraws its attestation of `requestId`: from now on no fill of
    /// that requestId succeeds (RequestCancelled). Checks: msg.sender is a signer (SignerNotAllowed)
    /// → requestId not zero (ZeroRequestId) → not cancelled (RequestCancelled) → not filled
    /// (AlreadyFilled) → mark cancelled → AttestationCancelled.
    function cancel(bytes32 requestId) external;

    // ---------------------------------------------------------------- solver

    /// @notice Fill: pay the recipient exactly the attested destination amount of the attested
    /// destination currency — native from msg.value (which must equal the amount), ERC-20 pulled from
    /// msg.sender straight to the recipient (msg.value must then be 0; msg.sender must have approved
    /// this contract) — against a v2 fill attestation signed by an allowed signer.
    ///
    /// The calldata after the selector is a **packed fill** (AttestationLib, "Packed fill"; 277 bytes,
    /// 281 with the selector; ts/core `encodeFill`): the v2 attestation without `destinationChainId`
    /// and `receiver`, each field in the bytes it needs, and the EIP-2098 signature (r, vs). The
    /// contract rebuilds the v2 digest with `block.chainid` and `address(this)`: an attestation signed
    /// for another chain or receiver recovers to an unrelated address and fails as
    /// SignerNotAllowed(that address) — `ferry attest verify --chain-id --receiver` (and the solver's
    /// log of a failed simulation) names the field that differs.
    ///
    /// Checks in order: 0. length (InvalidFillLength) → 1. requestId, orderId not zero → 2. deadline →
    /// 3. signature (AttestationLib's SignatureMalleable / InvalidSignature) and signer → 4. recipient
    /// → 5. not cancelled, not filled → store the digest → 6. currency (CurrencyNotAllowed) and
    /// msg.value → 7. pay (NativeTransferFailed, or the token's error) → emit Filled.
    /// @dev The name's suffix is mined: the selector is 0x00000026, the lowest of this contract, so the
    /// dispatcher (a chain of comparisons in selector order under via-IR) tries it first, and three of
    /// its four bytes cost 4 gas instead of 16. No ABI arguments: the packed layout is what makes the
    /// fill 281 calldata bytes instead of 388 (ABI words) or 548 (the full attestation and a `bytes`
    /// signature), which is what rollups charge for.
    function fill_7hVe() external payable;

    /// @notice The full-ABI fill, kept beside `fill_7hVe` for integrators and tools that encode the
    /// v2 attestation with a standard ABI encoder (block explorers decode it; `fill_7hVe` is not ABI
    /// encoded). The same payment and guarantees; its own check order, with the two fields the packed
    /// form leaves out checked explicitly: 1. requestId, orderId not zero → 2. deadline → 2b.
    /// destination chain (WrongDestinationChain) and receiver (WrongReceiver) → 3. signature
    /// (AttestationLib's InvalidSignatureLength / SignatureMalleable / InvalidSignature) and signer →
    /// 4. recipient (NotAnEvmAddress when destinationUser is not an EVM address) → 5. not cancelled,
    /// not filled → store the digest → 6. currency (NotAnEvmAddress, CurrencyNotAllowed) and msg.value
    /// → 7. pay → emit Filled. Costs more gas and calldata than `fill_7hVe` (README, gas table).
    function fill(FillAttestation calldata att, bytes calldata signature) external payable;

    /// @notice `fill_7hVe` with `packedFill` (the same 277 packed bytes), then run `calls` through the
    /// Multicaller with the remaining msg.value (msg.value minus the native amount paid; all of
    /// msg.value for an ERC-20 fill); afterwards the Multicaller sends its native leftovers and its
    /// whole balance of every `sweepTokens` token to msg.sender. A native fill needs msg.value ≥ the
    /// amount (else IncorrectNativeAmount). List every token the calls may leave behind: an unlisted
    /// one stays in the Multicaller for anyone. The same checks in the same order.
    function fillAndCall(bytes calldata packedFill, IMulticaller.Call[] calldata calls, address[] calldata sweepTokens)
        external
        payable;

    /// @notice A user's intent with destination calls: pay `att.destinationAmount` of
    /// `att.destinationCurrency` into the Multicaller (native: all of msg.value goes there and must be
    /// ≥ the amount; ERC-20: pulled from msg.sender), run `calls` there, then sweep what the calls
    /// leave (native, and every `sweepTokens` token) to `att.destinationUser` — the user's refund
    /// recipient, never the filler. The calls are bound by the signed attestation: its requestId must
    /// equal `callsRequestId(att.orderId, calls, sweepTokens)` (else CallsMismatch), so a filler can
    /// neither change, drop nor add a call, nor leave a token unswept. A reverting call reverts the
    /// whole fill (the Multicaller's CallReverted(index, revertData)): nothing is paid or marked.
    /// Checks: those of the full-ABI `fill` (1–5, digest stored) → the calls commitment → currency and msg.value →
    /// pay into the Multicaller → emit Filled(requestId, destinationUser, filler, currency, amount) → calls → sweep.
    /// The signature is over the CALLS attestation digest (AttestationLib.callsFillDigest: the same
    /// fields under CALLS_FILL_TYPEHASH), not the plain fill digest: the attestation of an intent with
    /// calls is good here only, and `fill_7hVe`, `fillAndCall` and `fill` (which rebuild the plain
    /// digest) recover it to an unrelated address (SignerNotAllowed), so nobody can pay the refund
    /// recipient directly and skip the user's calls. A plain fill attestation is not accepted here
    /// either. `filledDigest(requestId)` holds the calls digest.
    function fillWithCalls(
        FillAttestation calldata att,
        bytes calldata signature,
        IMulticaller.Call[] calldata calls,
        address[] calldata sweepTokens
    ) external payable;

    // ---------------------------------------------------------------- views

    /// @notice The requestId a fillWithCalls attestation must carry for `calls` and `sweepTokens`:
    /// keccak256(abi.encode(orderId, calls, sweepTokens)). The orderId (unique per quote: its order
    /// has a random salt) makes it unique; the service derives the quote's requestId this way.
    function callsRequestId(bytes32 orderId, IMulticaller.Call[] calldata calls, address[] calldata sweepTokens)
        external
        pure
        returns (bytes32);

    /// @notice The approval-free multicall contract destination calls run through.
    function multicaller() external view returns (IMulticaller);
    /// @notice The v2 digest of the attestation that filled `requestId` (the calls attestation digest
    /// for a `fillWithCalls`); `bytes32(uint256(1))` when
    /// a signer cancelled it; zero when neither.
    function filledDigest(bytes32 requestId) external view returns (bytes32);
    /// @notice Whether `requestId` was filled (by any allowed signer's attestation: compare
    /// `filledDigest` with the digest you signed to know whether it was yours).
    function filled(bytes32 requestId) external view returns (bool);
    /// @notice Whether `signer` may sign fill attestations.
    function isSigner(address signer) external view returns (bool);
    /// @notice Whether `recipient` is on the recipient allow-list.
    function isRecipientAllowed(address recipient) external view returns (bool);
    /// @notice Whether the recipient allow-list is enforced.
    function recipientAllowListEnabled() external view returns (bool);
    /// @notice Whether `currency` (an ERC-20) may be filled.
    function isCurrencyAllowed(address currency) external view returns (bool);
    /// @notice The allowed signers (`isSigner`), in no particular order.
    function signers() external view returns (address[] memory);
    /// @notice The listed ERC-20 currencies (`isCurrencyAllowed`), in no particular order.
    function currencies() external view returns (address[] memory);
    /// @notice `isSigner(signer) && isCurrencyAllowed(currency)`, stored per pair so that an ERC-20
    /// fill checks both in one storage read (`setSigner` and `setCurrency` keep it for every pair:
    /// each costs one write per listed currency, respectively per allowed signer).
    function isSignerForCurrency(address signer, address currency) external view returns (bool);
    /// @notice The v2 digest of `att` (before EIP-191 prefixing).
    function fillDigest(FillAttestation calldata att) external pure returns (bytes32);
}
