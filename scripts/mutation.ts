// `npm run test:mutation`: removes (or weakens) each listed guard of the contracts, one at a time, by a
// textual patch of the .sol source in place, runs the Solidity tests meant to catch it, and restores
// the source. A mutant is "killed" when those tests fail, "survived" when they pass. Exits 1 when any
// guard survives (or a patch no longer applies: the list must follow the code). The source is restored
// after every mutant, on Ctrl-C or SIGTERM too (the running test is stopped and not counted), and at
// the end artifacts/ and cache/ are removed and rebuilt from scratch (interrupted: only removed, so
// the next build is a clean one): the checkout is left as a fresh clone builds it (npm test's
// snapshot check passes).
//
//   npm run test:mutation                 every guard
//   npm run test:mutation -- nonce cap    only guards whose id contains one of the words
import { type ChildProcess, spawn } from "node:child_process";
import { readFileSync, rmSync, writeFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");

type Guard = {
  id: string;
  /** What the guard protects, for the report. */
  what: string;
  file: string;
  /** Exact text that must occur exactly once in `file`... */
  find: string;
  /** ...and what the mutant has instead. */
  replace: string;
  /** The Solidity test files that must catch it. */
  tests: string[];
};

const DEPOSITORY = "contracts/Depository.sol";
const RECEIVER = "contracts/AttestedReceiver.sol";
const MULTICALLER = "contracts/Multicaller.sol";
const GATE = "contracts/AttestationGate.sol";
const LIB = "contracts/libraries/AttestationLib.sol";
const FACTORY = "contracts/DepositAddressFactory.sol";
const FORWARDER = "contracts/DepositForwarder.sol";
const T = {
  depository: "test/solidity/Depository.t.sol",
  depositoryInvariant: "test/solidity/Depository.invariant.t.sol",
  depositoryExploit: "test/solidity/exploit/DepositoryPayouts.t.sol",
  depositoryTokens: "test/solidity/exploit/DepositoryTokens.t.sol",
  depositoryCompact: "test/solidity/DepositoryCompact.t.sol",
  receiver: "test/solidity/AttestedReceiver.t.sol",
  receiverInvariant: "test/solidity/AttestedReceiver.invariant.t.sol",
  receiverPolicyInvariant: "test/solidity/AttestedReceiverPolicy.invariant.t.sol",
  receiverExploit: "test/solidity/exploit/ReceiverFills.t.sol",
  receiverReplay: "test/solidity/exploit/ReceiverReplay.t.sol",
  receiverFull: "test/solidity/AttestedReceiverFullAbi.t.sol",
  multicaller: "test/solidity/Multicaller.t.sol",
  multicallerInvariant: "test/solidity/Multicaller.invariant.t.sol",
  gate: "test/solidity/AttestationGate.t.sol",
  gateInvariant: "test/solidity/AttestationGate.invariant.t.sol",
  depositorySignatures: "test/solidity/DepositorySignatures.t.sol",
  depositoryPermitsExploit: "test/solidity/exploit/DepositoryPermits.t.sol",
  depositoryClaimablesExploit: "test/solidity/exploit/DepositoryClaimables.t.sol",
  depositoryAllocatorExploit: "test/solidity/exploit/DepositoryAllocatorLock.t.sol",
  receiverCallsExploit: "test/solidity/exploit/ReceiverCallsAttestation.t.sol",
  gateBindingExploit: "test/solidity/exploit/GateBinding.t.sol",
  depositAddressExploit: "test/solidity/exploit/DepositAddress.t.sol",
  reclaim: "test/solidity/DepositoryReclaim.t.sol",
  reclaimInvariant: "test/solidity/DepositoryReclaim.invariant.t.sol",
  reclaimExploit: "test/solidity/exploit/DepositoryReclaim.t.sol",
};

export const GUARDS: Guard[] = [
  // ------------------------------------------------------------ Depository
  {
    id: "depository.nonce-check",
    what: "execute: a used nonce reverts (replay under a new expiration)",
    file: DEPOSITORY,
    find: "if (executed[nonce]) revert NonceAlreadyUsed(nonce);",
    replace: "",
    tests: [T.depositoryExploit, T.depositoryInvariant],
  },
  {
    id: "depository.nonce-mark",
    what: "execute: the nonce is marked used",
    file: DEPOSITORY,
    find: "executed[nonce] = true;",
    replace: "",
    tests: [T.depositoryInvariant],
  },
  {
    id: "depository.expiry",
    what: "execute: an expired request reverts",
    file: DEPOSITORY,
    find: "bytes calldata signature) external {\n        if (block.timestamp > request.expiration) revert RequestExpired(request.expiration);",
    replace: "bytes calldata signature) external {",
    tests: [T.depository],
  },
  {
    id: "depository.expiry-compact",
    what: "execute_kJ9b8: an expired request reverts",
    file: DEPOSITORY,
    find: "CompactSignature calldata signature) external {\n        if (block.timestamp > request.expiration) revert RequestExpired(request.expiration);",
    replace: "CompactSignature calldata signature) external {",
    tests: [T.depositoryCompact],
  },
  {
    id: "depository.signature",
    what: "execute: only the allocator's signature releases funds",
    file: DEPOSITORY,
    find: "_checkAllocatorSignature(_hashTypedDataV4(requestHash), signature);\n        _execute(request, requestHash);\n    }\n\n    /// @inheritdoc IDepository\n    function settle(",
    replace: "_execute(request, requestHash);\n    }\n\n    /// @inheritdoc IDepository\n    function settle(",
    tests: [T.depository],
  },
  {
    id: "depository.signature-compact",
    what: "execute_kJ9b8: only the allocator's signature releases funds",
    file: DEPOSITORY,
    find: "_checkAllocatorSignature(_hashTypedDataV4(requestHash), signature);\n        _execute(request, requestHash);\n    }\n\n    /// @inheritdoc IDepository\n    function execute(",
    replace: "_execute(request, requestHash);\n    }\n\n    /// @inheritdoc IDepository\n    function execute(",
    tests: [T.depositoryCompact],
  },
  {
    id: "depository.payout-gas-cap",
    what: "execute: a native payee gets at most NATIVE_PAYOUT_GAS",
    file: DEPOSITORY,
    find: "success := call(NATIVE_PAYOUT_GAS, to, amount,",
    replace: "success := call(gas(), to, amount,",
    tests: [T.depositoryExploit],
  },
  {
    id: "depository.failed-payout-claimable",
    what: "execute: a failed payout becomes claimable instead of reverting the others",
    file: DEPOSITORY,
    find: "                _owe(to, token, amount);\n                emit PayoutClaimable(nonce, i, to, token, amount);",
    replace: '                revert("mutant: all-or-nothing");',
    tests: [T.depositoryExploit],
  },
  {
    id: "depository.balance-check",
    what: "execute: a payout above the balance reverts (claimable stays backed)",
    file: DEPOSITORY,
    find: "if (amount > free) revert InsufficientBalance(i, token, free, amount);",
    replace: "",
    tests: [T.depository, T.depositoryInvariant],
  },
  {
    id: "depository.claim-zeroes",
    what: "claim: the claimable balance is zeroed before paying",
    file: DEPOSITORY,
    find: "claimable[msg.sender][token] = 0;",
    replace: "",
    tests: [T.depository],
  },
  {
    id: "depository.zero-id-native",
    what: "depositNative: orderId 0 is rejected",
    file: DEPOSITORY,
    find: "rejected := or(iszero(id), iszero(callvalue()))",
    replace: "rejected := iszero(callvalue())",
    tests: [T.depositoryExploit],
  },
  {
    id: "depository.zero-id-native-compact",
    what: "depositNative_irOEa: orderId 0 is rejected",
    file: DEPOSITORY,
    find: "costs this entry 28 gas.\n        bool rejected;\n        assembly (\"memory-safe\") {\n            rejected := or(iszero(callvalue()), iszero(id))",
    replace: "costs this entry 28 gas.\n        bool rejected;\n        assembly (\"memory-safe\") {\n            rejected := iszero(callvalue())",
    tests: [T.depositoryCompact],
  },
  {
    id: "depository.zero-id-erc20",
    what: "depositErc20: orderId 0 is rejected before anything is pulled",
    file: DEPOSITORY,
    find: "in one branch: the read has no effect, so ZeroOrderId\n            // still comes first. Yul evaluates right to left: the call runs before returndatasize().\n            mstore(0x00, 0x70a08231) // balanceOf(address)\n            mstore(0x20, address())\n            if or(iszero(id), ",
    replace: "in one branch: the read has no effect, so ZeroOrderId\n            // still comes first. Yul evaluates right to left: the call runs before returndatasize().\n            mstore(0x00, 0x70a08231) // balanceOf(address)\n            mstore(0x20, address())\n            if or(0, ",
    tests: [T.depositoryExploit],
  },
  {
    id: "depository.zero-id-erc20-compact",
    what: "depositErc20_6R0X4: orderId 0 is rejected before anything is pulled",
    file: DEPOSITORY,
    find: "the call runs first.\n            mstore(0x00, 0x70a08231) // balanceOf(address)\n            mstore(0x20, address())\n            if or(iszero(id), ",
    replace: "the call runs first.\n            mstore(0x00, 0x70a08231) // balanceOf(address)\n            mstore(0x20, address())\n            if or(0, ",
    tests: [T.depositoryCompact],
  },
  {
    id: "depository.balance-delta",
    what: "depositErc20: credits the balance delta, not the amount named (fee-on-transfer)",
    file: DEPOSITORY,
    find: "mstore(0x20, sub(balanceAfter, balanceBefore))\n            log3(0x00, 0x40, topic0, id, depositor)",
    replace: "mstore(0x20, amount)\n            log3(0x00, 0x40, topic0, id, depositor)",
    tests: [T.depositoryTokens, T.depositoryInvariant],
  },
  {
    id: "depository.balance-delta-compact",
    what: "depositErc20_6R0X4: credits the balance delta, not the amount named (fee-on-transfer)",
    file: DEPOSITORY,
    find: "mstore(0x20, sub(balanceAfter, balanceBefore))\n            log3(0x00, 0x40, topic0, id, caller())",
    replace: "mstore(0x20, amount)\n            log3(0x00, 0x40, topic0, id, caller())",
    tests: [T.depositoryTokens, T.depositoryInvariant],
  },
  {
    id: "depository.reentrancy-compact",
    what: "depositErc20_6R0X4: a re-entrant token cannot credit a deposit twice",
    file: DEPOSITORY,
    find: "function depositErc20_6R0X4(address token, uint256 amount, bytes32 id) external nonReentrant {",
    replace: "function depositErc20_6R0X4(address token, uint256 amount, bytes32 id) external {",
    tests: [T.depositoryTokens],
  },
  {
    id: "depository.allocator-expiry",
    what: "applyAllocator: a proposal not applied within the window after its eta expires",
    file: DEPOSITORY,
    find: "if (block.timestamp > eta + ALLOCATOR_CHANGE_WINDOW) revert AllocatorChangeExpired(eta + ALLOCATOR_CHANGE_WINDOW);",
    replace: "",
    tests: [T.depositoryAllocatorExploit],
  },
  {
    id: "depository.allocator-expiry-view",
    what: "pendingAllocatorChange: an expired proposal reads as none (what monitoring alerts on)",
    file: DEPOSITORY,
    find: "if (newAllocator != address(0) && block.timestamp > eta + ALLOCATOR_CHANGE_WINDOW) return (address(0), 0);",
    replace: "",
    tests: [T.depository],
  },
  {
    id: "depository.claimables-reserved-native",
    what: "execute/settle: native owed as claimable is not available to payouts and credits",
    file: DEPOSITORY,
    find: "return address(this).balance - _claimableNative;",
    replace: "return address(this).balance;",
    tests: [T.depositoryClaimablesExploit],
  },
  {
    id: "depository.claimables-reserved-token",
    what: "execute/settle: an ERC-20 owed as claimable is not available to payouts and credits",
    file: DEPOSITORY,
    find: "free = held > owed ? held - owed : 0;",
    replace: "free = held;",
    tests: [T.depositoryClaimablesExploit],
  },
  {
    id: "depository.reserve-native",
    what: "a native claimable (failed payout or credit) is added to the native reserve",
    file: DEPOSITORY,
    find: "if (token == address(0)) _claimableNative = SafeCast.toUint96(_claimableNative + amount);\n        else",
    replace: "if (token == address(0)) {} else",
    tests: [T.depositoryClaimablesExploit],
  },
  {
    id: "depository.reserve-token",
    what: "an ERC-20 claimable is added to that token's reserve",
    file: DEPOSITORY,
    find: "else _claimableTokens[token] += amount;",
    replace: "else {}",
    tests: [T.depositoryClaimablesExploit],
  },
  {
    id: "depository.claim-releases-reserve",
    what: "claim: what is claimed leaves the reserve (the rest can be paid out again)",
    file: DEPOSITORY,
    find: "if (token == address(0)) _claimableNative -= uint96(amount);",
    replace: "if (token == address(0)) {}",
    tests: [T.depositoryClaimablesExploit],
  },
  {
    id: "depository.allocator-delay",
    what: "applyAllocator: not before the delay",
    file: DEPOSITORY,
    find: "if (block.timestamp < eta) revert AllocatorChangeNotReady(eta);",
    replace: "",
    tests: [T.depository],
  },
  {
    id: "depository.renounce",
    what: "renounceOwnership reverts",
    file: DEPOSITORY,
    find: "    function renounceOwnership() public pure override(IDepository, Ownable) {\n        revert RenounceOwnershipDisabled();",
    replace: "    function renounceOwnership() public pure override(IDepository, Ownable) {",
    tests: [T.depository],
  },
  {
    id: "depository.permit-frontrun-fallback",
    what: "depositErc20Permit: a permit someone submitted to the token first does not break the deposit",
    file: DEPOSITORY,
    find: "try IERC20Permit(token).permit(owner_, address(this), amount, deadline, v, r, s) {}\n        catch {",
    replace: "IERC20Permit(token).permit(owner_, address(this), amount, deadline, v, r, s);\n        if (false) {",
    tests: [T.depositoryPermitsExploit],
  },
  {
    id: "depository.permit-order-binding",
    what: "depositErc20Permit: the allocator's authorisation binds the orderId (a seen permit cannot fund another order)",
    file: DEPOSITORY,
    find: "_checkAllocatorSignature(\n            _hashTypedDataV4(keccak256(abi.encode(PERMIT_DEPOSIT_TYPEHASH, owner_, token, amount, orderId, deadline))),\n            authorization\n        );",
    replace: "",
    tests: [T.depositoryPermitsExploit],
  },
  {
    id: "depository.permit-replay",
    what: "depositErc20Permit: an authorisation is used once per orderId",
    file: DEPOSITORY,
    find: "if (permitDeposited[orderId]) revert PermitDepositReplayed(orderId);",
    replace: "",
    tests: [T.depositorySignatures],
  },
  {
    id: "depository.settle-nonce",
    what: "settle: a used nonce (by execute or settle) reverts, so a fee is never credited twice",
    file: DEPOSITORY,
    find: "if (executed[n]) revert NonceAlreadyUsed(n);\n        executed[n] = true;\n\n        Call[] calldata payouts",
    replace: "executed[n] = true;\n\n        Call[] calldata payouts",
    tests: [T.depositoryPermitsExploit],
  },
  {
    id: "depository.settle-credit-backed",
    what: "settle: a credit must be backed by the Depository's balance",
    file: DEPOSITORY,
    find: "if (value > free) revert CreditNotBacked(j, asset, free, value);",
    replace: "",
    tests: [T.depositorySignatures],
  },
  // ------------------------------------------------------------ AttestedReceiver: packed fill_7hVe / fillAndCall
  {
    id: "receiver.commitment",
    what: "fill_7hVe: the attestation's digest is stored, not a flag",
    file: RECEIVER,
    find: "if (anyCheckFailed) _revertFailedCheck(p, end, digest);\n        assembly (\"memory-safe\") {\n            sstore(filledSlot, digest)",
    replace: "if (anyCheckFailed) _revertFailedCheck(p, end, digest);\n        assembly (\"memory-safe\") {\n            sstore(filledSlot, 1)",
    tests: [T.receiverExploit, T.receiverInvariant],
  },
  {
    id: "receiver.packed-length",
    what: "fill_7hVe / fillAndCall: a packed fill of any other length than 277 bytes is refused",
    file: RECEIVER,
    find: "or(xor(end, add(p, _PACKED_FILL_LENGTH)), or(iszero(requestId),",
    replace: "or(0, or(iszero(requestId),",
    tests: [T.receiver],
  },
  {
    id: "receiver.not-filled",
    what: "fill_7hVe: a filled requestId cannot be filled again",
    file: RECEIVER,
    find: "or(or(iszero(signer), iszero(signerAllowed)), or(iszero(recipientListed), sload(filledSlot)))",
    replace: "or(or(iszero(signer), iszero(signerAllowed)), iszero(recipientListed))",
    tests: [T.receiverInvariant],
  },
  {
    id: "receiver.signer-allowed",
    what: "fill_7hVe: only an allowed signer's attestation fills",
    file: RECEIVER,
    find: "or(or(iszero(signer), iszero(signerAllowed)), or(iszero(recipientListed)",
    replace: "or(iszero(signer), or(iszero(recipientListed)",
    tests: [T.receiver],
  },
  {
    id: "receiver.deadline",
    what: "fill_7hVe: an expired attestation cannot fill",
    file: RECEIVER,
    find: "or(gt(timestamp(), mload(0x1e0)), gt(s, _HALF_CURVE_ORDER))",
    replace: "or(0, gt(s, _HALF_CURVE_ORDER))",
    tests: [T.receiver],
  },
  {
    id: "receiver.low-s",
    what: "fill_7hVe: a high-s (malleable) EIP-2098 signature is refused",
    file: RECEIVER,
    find: "or(gt(timestamp(), mload(0x1e0)), gt(s, _HALF_CURVE_ORDER))",
    replace: "or(gt(timestamp(), mload(0x1e0)), 0)",
    tests: [T.receiver, T.receiverReplay],
  },
  {
    id: "receiver.recipient-allowed",
    what: "fill_7hVe: an unlisted recipient is refused while the allow-list is on",
    file: RECEIVER,
    find: "or(or(iszero(signer), iszero(signerAllowed)), or(iszero(recipientListed), sload(filledSlot)))",
    replace: "or(or(iszero(signer), iszero(signerAllowed)), sload(filledSlot))",
    tests: [T.receiver],
  },
  {
    id: "receiver.chain-binding",
    what: "fill_7hVe: the digest is rebuilt with this chain's id (not sent; a fixed id instead is the mutant)",
    file: RECEIVER,
    find: "mstore(0x160, chainid())",
    replace: "mstore(0x160, 31338)",
    tests: [T.receiverReplay],
  },
  {
    id: "receiver.payout-gas-cap",
    what: "fill_7hVe: a native recipient gets at most 50,000 gas",
    file: RECEIVER,
    find: "revert(0x1c, 0x44)\n                }\n                if iszero(call(_NATIVE_PAYOUT_GAS, recipient, amount,",
    replace: "revert(0x1c, 0x44)\n                }\n                if iszero(call(gas(), recipient, amount,",
    tests: [T.receiverExploit],
  },
  {
    id: "receiver.currency-list",
    what: "fill_7hVe: an unlisted ERC-20 (phantom currency) cannot fill (the signer × currency read; the mutant reads isSigner only)",
    file: RECEIVER,
    find: "if token {\n                    mstore(0x20, _signerCurrencyAllowed.slot)",
    replace: "if 0 {\n                    mstore(0x20, _signerCurrencyAllowed.slot)",
    tests: [T.receiverExploit],
  },
  {
    id: "receiver.signer-currency-pairs",
    what: "setSigner: a signer allowed after a currency was listed gets the pair, a revoked one loses it",
    file: RECEIVER,
    find: "            _signerCurrencyAllowed[signer][_currencies.at(i)] = allowed;\n",
    replace: "",
    tests: [T.receiver, T.receiverPolicyInvariant],
  },
  {
    id: "receiver.currency-signer-pairs",
    what: "setCurrency: a delisted currency is delisted for every signer (a phantom currency stays out)",
    file: RECEIVER,
    find: "            _signerCurrencyAllowed[_signers.at(i)][currency] = allowed;\n",
    replace: "",
    tests: [T.receiver, T.receiverPolicyInvariant],
  },
  {
    id: "receiver.zero-ids",
    what: "fill_7hVe: requestId 0 and orderId 0 are rejected",
    file: RECEIVER,
    find: "or(iszero(requestId), iszero(calldataload(add(p, _ORDER_ID))))",
    replace: "0",
    tests: [T.receiver, T.receiverExploit],
  },
  {
    id: "receiver.filled-event-filler",
    what: "Filled names the filler",
    file: RECEIVER,
    find: "mstore(0xa0, caller())\n            mstore(0xc0, token)",
    replace: "mstore(0xa0, 0)\n            mstore(0xc0, token)",
    tests: [T.receiverExploit],
  },
  {
    id: "receiver.cancel-mark",
    what: "cancel: a cancelled requestId cannot be filled",
    file: RECEIVER,
    find: "filledDigest[requestId] = _CANCELLED;",
    replace: "",
    tests: [T.receiver],
  },
  {
    id: "receiver.cancel-signer",
    what: "cancel: only a signer may cancel",
    file: RECEIVER,
    find: "if (!isSigner[msg.sender]) revert SignerNotAllowed(msg.sender);",
    replace: "",
    tests: [T.receiver],
  },
  {
    id: "receiver.fillAndCall-sweep",
    what: "fillAndCall: leftover tokens are swept to the filler",
    file: RECEIVER,
    find: "multicaller.multicall{value: rest}(calls, msg.sender, sweepTokens);",
    replace: "multicaller.multicall{value: rest}(calls, msg.sender, new address[](0));",
    tests: [T.receiverExploit],
  },
  // ------------------------------------------------------------ AttestedReceiver: full-ABI fill / fillWithCalls
  {
    id: "receiver.full-chain-check",
    what: "fill(att, sig): an attestation for another chain is refused",
    file: RECEIVER,
    find: "xor(calldataload(_ATT_DESTINATION_CHAIN_ID), chainid()),",
    replace: "0,",
    tests: [T.receiverFull],
  },
  {
    id: "receiver.full-receiver-check",
    what: "fill(att, sig): an attestation for another receiver is refused",
    file: RECEIVER,
    find: "xor(calldataload(_ATT_RECEIVER), address())",
    replace: "0",
    tests: [T.receiverFull],
  },
  {
    id: "receiver.full-commitment",
    what: "fill(att, sig): the attestation's digest is stored, not a flag",
    file: RECEIVER,
    find: "if (policyCheckFailed) _revertFailedPolicyCheck(att, signer);\n            assembly (\"memory-safe\") {\n                sstore(filledSlot, digest)",
    replace: "if (policyCheckFailed) _revertFailedPolicyCheck(att, signer);\n            assembly (\"memory-safe\") {\n                sstore(filledSlot, 1)",
    tests: [T.receiverFull],
  },
  {
    id: "receiver.full-not-filled",
    what: "fill(att, sig): a requestId filled through either form cannot be filled again",
    file: RECEIVER,
    find: "or(or(iszero(signerAllowed), shr(160, recipient)), or(iszero(recipientListed), sload(filledSlot)))",
    replace: "or(or(iszero(signerAllowed), shr(160, recipient)), iszero(recipientListed))",
    tests: [T.receiverFull],
  },
  {
    id: "receiver.calls-typehash",
    what: "fillWithCalls: the signature is over the calls attestation digest (a calls attestation runs only with its calls)",
    file: RECEIVER,
    find: "bytes32 digest = withCalls ? AttestationLib.callsFillDigest(att) : AttestationLib.fillDigest(att);",
    replace: "bytes32 digest = AttestationLib.fillDigest(att);",
    tests: [T.receiverCallsExploit],
  },
  // ------------------------------------------------------------ Multicaller
  {
    id: "multicaller.sweep",
    what: "multicall: native leftovers are swept to refundTo",
    file: MULTICALLER,
    find: "        _sweep(refundTo, sweepTokens);\n",
    replace: "",
    tests: [T.multicallerInvariant],
  },
  {
    id: "multicaller.sweep-gas-cap",
    what: "multicall: the native sweep forwards at most 50,000 gas",
    file: MULTICALLER,
    find: "success := call(_SWEEP_GAS, refundTo,",
    replace: "success := call(gas(), refundTo,",
    tests: [T.multicaller],
  },
  // ------------------------------------------------------------ AttestationGate
  {
    id: "gate.consumed",
    what: "a requestId is consumed once",
    file: GATE,
    find: "if (consumed[requestId]) revert AttestationAlreadyConsumed(requestId);",
    replace: "",
    tests: [T.gateInvariant],
  },
  {
    id: "gate.binding-v2",
    what: "_consumeFill: only a gate attestation made for this gate and chain is accepted",
    file: GATE,
    find: "AttestationLib.gateDigest(AttestationLib.fillDigest(att), address(this), block.chainid)",
    replace: "AttestationLib.fillDigest(att)",
    tests: [T.gateBindingExploit],
  },
  {
    id: "gate.binding-v1",
    what: "_consumeRequest: only a gate attestation made for this gate and chain is accepted (not the bare v1 record)",
    file: GATE,
    find: "AttestationLib.gateDigest(AttestationLib.requestDigest(att), address(this), block.chainid)",
    replace: "AttestationLib.requestDigest(att)",
    tests: [T.gateBindingExploit],
  },
  {
    id: "gate.binding-address",
    what: "gateDigest: the gate's address is part of the bound digest",
    file: LIB,
    find: "mstore(add(m, 0x40), and(gate, 0xffffffffffffffffffffffffffffffffffffffff))",
    replace: "mstore(add(m, 0x40), 0)",
    tests: [T.gateBindingExploit],
  },
  {
    id: "gate.signer",
    what: "only an allowed signer's attestation is accepted",
    file: GATE,
    find: "if (!isSigner[signer]) revert SignerNotAllowed(signer);",
    replace: "",
    tests: [T.gateInvariant],
  },
  {
    id: "gate.amount",
    what: "the paid amount equals the attested one",
    file: GATE,
    find: "if (amount != originAmount) revert AmountMismatch(amount, originAmount);",
    replace: "",
    tests: [T.gateInvariant],
  },
  {
    id: "gate.currency",
    what: "the paid currency equals the attested one",
    file: GATE,
    find: "if (bytes32(uint256(uint160(currency))) != originCurrency) revert CurrencyMismatch(currency, originCurrency);",
    replace: "",
    tests: [T.gateInvariant],
  },
  {
    id: "gate.deadline",
    what: "a v2 attestation is refused after its deadline",
    file: GATE,
    find: "if (block.timestamp > att.deadline) revert AttestationExpired(att.deadline);",
    replace: "",
    tests: [T.gateInvariant],
  },
  // ------------------------------------------------------------ added: every remaining guard
  // Depository: admin
  {
    id: "depository.allocator-nonzero",
    what: "constructor / applyAllocator: the allocator is never the zero address",
    file: DEPOSITORY,
    find: "    function _setAllocator(address newAllocator) internal {\n        if (newAllocator == address(0)) revert ZeroAllocator();",
    replace: "    function _setAllocator(address newAllocator) internal {",
    tests: [T.depository],
  },
  {
    id: "depository.propose-nonzero",
    what: "proposeAllocator: a zero allocator cannot be proposed",
    file: DEPOSITORY,
    find: "if (newAllocator == address(0)) revert ZeroAllocator();\n        uint256 eta",
    replace: "uint256 eta",
    tests: [T.depository],
  },
  {
    id: "depository.propose-owner",
    what: "proposeAllocator: only the owner",
    file: DEPOSITORY,
    find: "function proposeAllocator(address newAllocator) external onlyOwner {",
    replace: "function proposeAllocator(address newAllocator) external {",
    tests: [T.depository],
  },
  {
    id: "depository.apply-owner",
    what: "applyAllocator: only the owner",
    file: DEPOSITORY,
    find: "function applyAllocator() external onlyOwner {",
    replace: "function applyAllocator() external {",
    tests: [T.depository],
  },
  {
    id: "depository.apply-pending",
    what: "applyAllocator: reverts when nothing is pending",
    file: DEPOSITORY,
    find: "if (newAllocator == address(0)) revert NoPendingAllocatorChange();\n        uint256 eta = _pendingAllocatorEta;",
    replace: "uint256 eta = _pendingAllocatorEta;",
    tests: [T.depository],
  },
  {
    id: "depository.cancel-owner",
    what: "cancelAllocatorChange: only the owner",
    file: DEPOSITORY,
    find: "function cancelAllocatorChange() external onlyOwner {",
    replace: "function cancelAllocatorChange() external {",
    tests: [T.depository],
  },
  {
    id: "depository.cancel-pending",
    what: "cancelAllocatorChange: reverts when nothing is pending",
    file: DEPOSITORY,
    find: "if (newAllocator == address(0)) revert NoPendingAllocatorChange();\n        delete _pendingAllocator;\n        delete _pendingAllocatorEta;\n        emit AllocatorChangeCancelled",
    replace: "delete _pendingAllocator;\n        delete _pendingAllocatorEta;\n        emit AllocatorChangeCancelled",
    tests: [T.depository],
  },
  // Depository: deposits
  {
    id: "depository.zero-value-native",
    what: "depositNative: a deposit of nothing is rejected",
    file: DEPOSITORY,
    find: "rejected := or(iszero(id), iszero(callvalue()))",
    replace: "rejected := iszero(id)",
    tests: [T.depository],
  },
  {
    id: "depository.zero-value-native-compact",
    what: "depositNative_irOEa: a deposit of nothing is rejected",
    file: DEPOSITORY,
    find: "costs this entry 28 gas.\n        bool rejected;\n        assembly (\"memory-safe\") {\n            rejected := or(iszero(callvalue()), iszero(id))",
    replace: "costs this entry 28 gas.\n        bool rejected;\n        assembly (\"memory-safe\") {\n            rejected := iszero(id)",
    tests: [T.depositoryCompact],
  },
  {
    id: "depository.transfer-result-compact",
    what: "depositErc20_6R0X4: a transferFrom returning false is a failure",
    file: DEPOSITORY,
    find: "transferFrom(address,address,uint256)\n            // Succeeded, and returned nothing (the token has code: balanceOf answered) or exactly `true`.\n            let pulled := call(gas(), token, 0, 0x1c, 0x64, 0x00, 0x20)\n            if iszero(and(or(iszero(returndatasize()), eq(mload(0x00), 1)), pulled)) {\n                if iszero(pulled) {\n                    returndatacopy(m, 0, returndatasize())\n                    revert(m, returndatasize())\n                }\n                failed(token)\n            }\n            mstore(0x60, 0)\n            mstore(0x40, m)\n            // balanceOf(this) after, and something arrived, in one branch (this entry's copy;",
    replace: "transferFrom(address,address,uint256)\n            // Succeeded, and returned nothing (the token has code: balanceOf answered) or exactly `true`.\n            let pulled := call(gas(), token, 0, 0x1c, 0x64, 0x00, 0x20)\n            if iszero(pulled) {\n                if iszero(pulled) {\n                    returndatacopy(m, 0, returndatasize())\n                    revert(m, returndatasize())\n                }\n                failed(token)\n            }\n            mstore(0x60, 0)\n            mstore(0x40, m)\n            // balanceOf(this) after, and something arrived, in one branch (this entry's copy;",
    tests: [T.depositoryCompact],
  },
  {
    id: "depository.transfer-result-erc20",
    what: "depositErc20: a transferFrom returning false is a failure",
    file: DEPOSITORY,
    find: "transferFrom(address,address,uint256)\n            // Succeeded, and returned nothing (the token has code: balanceOf answered) or exactly `true`.\n            let pulled := call(gas(), token, 0, 0x1c, 0x64, 0x00, 0x20)\n            if iszero(and(or(iszero(returndatasize()), eq(mload(0x00), 1)), pulled)) {\n                if iszero(pulled) {\n                    returndatacopy(m, 0, returndatasize())\n                    revert(m, returndatasize())\n                }\n                failed(token)\n            }\n            mstore(0x60, 0)\n            mstore(0x40, m)\n            // balanceOf(this) after, and something arrived, in one branch (right to left:",
    replace: "transferFrom(address,address,uint256)\n            // Succeeded, and returned nothing (the token has code: balanceOf answered) or exactly `true`.\n            let pulled := call(gas(), token, 0, 0x1c, 0x64, 0x00, 0x20)\n            if iszero(pulled) {\n                if iszero(pulled) {\n                    returndatacopy(m, 0, returndatasize())\n                    revert(m, returndatasize())\n                }\n                failed(token)\n            }\n            mstore(0x60, 0)\n            mstore(0x40, m)\n            // balanceOf(this) after, and something arrived, in one branch (right to left:",
    tests: [T.depositoryTokens],
  },
  {
    id: "depository.zero-deposit-compact",
    what: "depositErc20_6R0X4: nothing arrived (or the balance shrank) reverts ZeroDeposit, never a zero or wrapped credit",
    file: DEPOSITORY,
    find: "read from\n            // nothing having arrived.\n            mstore(0x00, 0x70a08231)\n            mstore(0x20, address())\n            if or(\n                iszero(gt(mload(0x00), balanceBefore)),",
    replace: "read from\n            // nothing having arrived.\n            mstore(0x00, 0x70a08231)\n            mstore(0x20, address())\n            if or(\n                0,",
    tests: [T.depositoryCompact],
  },
  {
    id: "depository.zero-deposit-erc20",
    what: "depositErc20: nothing arrived (or the balance shrank) reverts ZeroDeposit, never a zero or wrapped credit",
    file: DEPOSITORY,
    find: "from nothing having arrived.\n            mstore(0x00, 0x70a08231)\n            mstore(0x20, address())\n            if or(\n                iszero(gt(mload(0x00), balanceBefore)),",
    replace: "from nothing having arrived.\n            mstore(0x00, 0x70a08231)\n            mstore(0x20, address())\n            if or(\n                0,",
    tests: [T.depositoryTokens],
  },
  {
    id: "depository.reentrancy",
    what: "depositErc20: a re-entrant token cannot credit a deposit twice",
    file: DEPOSITORY,
    find: "function depositErc20(address depositor, address token, uint256 amount, bytes32 id) external nonReentrant {",
    replace: "function depositErc20(address depositor, address token, uint256 amount, bytes32 id) external {",
    tests: [T.depositoryTokens],
  },
  {
    id: "depository.zero-deposit-credit",
    what: "depositErc20Permit / depositPermit2: nothing arrived reverts ZeroDeposit",
    file: DEPOSITORY,
    find: "        if (arrived == 0) revert ZeroDeposit();\n        emit Deposited(",
    replace: "        emit Deposited(",
    tests: [T.depositorySignatures],
  },
  {
    id: "depository.permit-zero-id",
    what: "depositErc20Permit: orderId 0 is rejected",
    file: DEPOSITORY,
    find: "if (orderId == bytes32(0)) revert ZeroOrderId();",
    replace: "",
    tests: [T.depositorySignatures],
  },
  {
    id: "depository.permit-zero-depositor",
    what: "depositErc20Permit: a zero depositor is rejected",
    file: DEPOSITORY,
    find: "if (owner_ == address(0)) revert ZeroDepositor();",
    replace: "",
    tests: [T.depositorySignatures],
  },
  {
    id: "depository.permit-deadline",
    what: "depositErc20Permit: an expired authorisation is refused",
    file: DEPOSITORY,
    find: "if (block.timestamp > deadline) revert PermitDepositExpired(deadline);",
    replace: "",
    tests: [T.depositorySignatures],
  },
  {
    id: "depository.permit-allowance",
    what: "depositErc20Permit: a failed permit without the allowance reverts PermitNotUsable",
    file: DEPOSITORY,
    find: "if (allowance < amount) revert PermitNotUsable(token, owner_, allowance);",
    replace: "",
    tests: [T.depositorySignatures],
  },
  {
    id: "depository.permit2-zero-id",
    what: "depositPermit2: orderId 0 is rejected",
    file: DEPOSITORY,
    find: "if (id == bytes32(0)) revert ZeroOrderId();\n        if (depositor == address(0)) revert ZeroDepositor();\n        uint256 before",
    replace: "if (depositor == address(0)) revert ZeroDepositor();\n        uint256 before",
    tests: [T.depositorySignatures],
  },
  {
    id: "depository.permit2-zero-depositor",
    what: "depositPermit2: a zero depositor is rejected",
    file: DEPOSITORY,
    find: "if (depositor == address(0)) revert ZeroDepositor();\n        uint256 before",
    replace: "uint256 before",
    tests: [T.depositorySignatures],
  },
  {
    id: "depository.balance-read",
    what: "a token whose balanceOf fails (no code) never reads as a balance: payouts and credits in it revert",
    file: DEPOSITORY,
    find: "if (!ok) revert SafeERC20.SafeERC20FailedOperation(token);",
    replace: "",
    tests: [T.depository, T.depositoryTokens],
  },
  // Depository: payouts
  {
    id: "depository.signer-check-compact",
    what: "execute_kJ9b8: a signature that neither recovers to the allocator nor passes its EIP-1271 check reverts",
    file: DEPOSITORY,
    find: "        revert SignerNotAllocator(recovered);\n    }\n\n    /// @dev The allocator's ECDSA signature",
    replace: "    }\n\n    /// @dev The allocator's ECDSA signature",
    tests: [T.depositoryCompact],
  },
  {
    id: "depository.signer-check",
    what: "execute / settle / depositErc20Permit: a signature that is not the allocator's reverts",
    file: DEPOSITORY,
    find: "        revert SignerNotAllocator(recovered);\n    }\n\n    /// @dev One payout",
    replace: "    }\n\n    /// @dev One payout",
    tests: [T.depository],
  },
  {
    id: "depository.token-payout-gas-cap",
    what: "execute: an ERC-20 payout's transfer gets at most TOKEN_PAYOUT_GAS",
    file: DEPOSITORY,
    find: "success := call(TOKEN_PAYOUT_GAS, token, 0,",
    replace: "success := call(gas(), token, 0,",
    tests: [T.depositoryExploit],
  },
  {
    id: "depository.token-payout-result",
    what: "execute: an ERC-20 transfer returning false is not counted as paid (it becomes claimable)",
    file: DEPOSITORY,
    find: "success := and(success, or(iszero(returndatasize()), and(gt(returndatasize(), 0x1f), eq(mload(0x00), 1))))",
    replace: "",
    tests: [T.depositoryTokens],
  },
  {
    id: "depository.settle-expiry",
    what: "settle: an expired settlement reverts",
    file: DEPOSITORY,
    find: "if (block.timestamp > expiry) revert RequestExpired(expiry);\n\n        bytes32 settlementHash",
    replace: "\n        bytes32 settlementHash",
    tests: [T.depositorySignatures],
  },
  {
    id: "depository.settle-signature",
    what: "settle: only the allocator's signature pays and credits",
    file: DEPOSITORY,
    find: "_checkAllocatorSignature(_hashTypedDataV4(settlementHash), signature);",
    replace: "",
    tests: [T.depositorySignatures],
  },
  {
    id: "depository.settle-nonce-mark",
    what: "settle: the nonce is marked used (execute or settle cannot reuse it)",
    file: DEPOSITORY,
    find: "executed[n] = true;\n\n        Call[] calldata payouts",
    replace: "\n        Call[] calldata payouts",
    tests: [T.depositorySignatures],
  },
  {
    id: "depository.settle-balance-check",
    what: "settle: a payout above the unreserved balance reverts",
    file: DEPOSITORY,
    find: "if (value > free) revert InsufficientBalance(index, asset, free, value);",
    replace: "",
    tests: [T.depositorySignatures, T.depositoryClaimablesExploit],
  },
  {
    id: "depository.settle-failed-payout-claimable",
    what: "settle: a failed payout becomes claimable instead of reverting the settlement",
    file: DEPOSITORY,
    find: "            _owe(payee, asset, value);\n            emit PayoutClaimable(n, index, payee, asset, value);",
    replace: '            revert("mutant: all-or-nothing");',
    tests: [T.depositorySignatures],
  },
  // Depository: claims
  {
    id: "depository.claim-recipient",
    what: "claim: the zero address cannot receive a claim",
    file: DEPOSITORY,
    find: "if (to == address(0)) revert ZeroClaimRecipient();",
    replace: "",
    tests: [T.depository],
  },
  {
    id: "depository.claim-nothing",
    what: "claim: nothing to claim reverts",
    file: DEPOSITORY,
    find: "if (amount == 0) revert NothingToClaim(msg.sender, token);",
    replace: "",
    tests: [T.depository],
  },
  {
    id: "depository.claim-failed",
    what: "claim: a failed native send reverts (the claimable is not lost)",
    file: DEPOSITORY,
    find: "if (!success) revert ClaimFailed(to);",
    replace: "",
    tests: [T.depository],
  },
  {
    id: "depository.claim-releases-reserve-token",
    what: "claim: an ERC-20 claimed leaves its reserve",
    file: DEPOSITORY,
    find: "else _claimableTokens[token] -= amount;",
    replace: "else {}",
    tests: [T.depositoryClaimablesExploit],
  },
  // AttestedReceiver: admin
  {
    id: "receiver.zero-signer",
    what: "setSigner: the zero address (what a failed recovery yields) cannot be a signer",
    file: RECEIVER,
    find: "if (signer == address(0)) revert ZeroSigner();",
    replace: "",
    tests: [T.receiver],
  },
  {
    id: "receiver.owner-signer",
    what: "setSigner: only the owner",
    file: RECEIVER,
    find: "function setSigner(address signer, bool allowed) external onlyOwner {",
    replace: "function setSigner(address signer, bool allowed) external {",
    tests: [T.receiver],
  },
  {
    id: "receiver.owner-recipient",
    what: "setRecipient: only the owner",
    file: RECEIVER,
    find: "function setRecipient(address recipient, bool allowed) external onlyOwner {",
    replace: "function setRecipient(address recipient, bool allowed) external {",
    tests: [T.receiver],
  },
  {
    id: "receiver.owner-allow-list",
    what: "setRecipientAllowListEnabled: only the owner",
    file: RECEIVER,
    find: "function setRecipientAllowListEnabled(bool enabled) external onlyOwner {",
    replace: "function setRecipientAllowListEnabled(bool enabled) external {",
    tests: [T.receiver],
  },
  {
    id: "receiver.owner-currency",
    what: "setCurrency: only the owner",
    file: RECEIVER,
    find: "function setCurrency(address currency, bool allowed) external onlyOwner {",
    replace: "function setCurrency(address currency, bool allowed) external {",
    tests: [T.receiver],
  },
  {
    id: "receiver.cancel-zero",
    what: "cancel: requestId 0 is rejected",
    file: RECEIVER,
    find: "if (requestId == bytes32(0)) revert ZeroRequestId();\n        bytes32 current = filledDigest[requestId];",
    replace: "bytes32 current = filledDigest[requestId];",
    tests: [T.receiver],
  },
  {
    id: "receiver.cancel-cancelled",
    what: "cancel: a cancelled requestId cannot be cancelled again",
    file: RECEIVER,
    find: "if (current == _CANCELLED) revert RequestCancelled(requestId);\n        if (current != bytes32(0)) revert AlreadyFilled(requestId);\n        filledDigest[requestId] = _CANCELLED;",
    replace: "if (current != bytes32(0)) revert AlreadyFilled(requestId);\n        filledDigest[requestId] = _CANCELLED;",
    tests: [T.receiver],
  },
  {
    id: "receiver.cancel-filled",
    what: "cancel: a filled requestId cannot be cancelled (its commitment would be overwritten)",
    file: RECEIVER,
    find: "if (current != bytes32(0)) revert AlreadyFilled(requestId);\n        filledDigest[requestId] = _CANCELLED;",
    replace: "filledDigest[requestId] = _CANCELLED;",
    tests: [T.receiver],
  },
  // AttestedReceiver: packed fill_7hVe / fillAndCall payment
  {
    id: "receiver.native-amount",
    what: "fill_7hVe: a native fill's msg.value must equal the attested amount",
    file: RECEIVER,
    find: "if xor(callvalue(), amount) {\n                    mstore(0x00, 0x5693fffb)",
    replace: "if 0 {\n                    mstore(0x00, 0x5693fffb)",
    tests: [T.receiver],
  },
  {
    id: "receiver.native-transfer",
    what: "fill_7hVe: a native payment that fails reverts the fill",
    file: RECEIVER,
    find: "revert(0x1c, 0x44)\n                }\n                if iszero(call(_NATIVE_PAYOUT_GAS, recipient, amount, 0x00, 0x00, 0x00, 0x00)) {",
    replace: "revert(0x1c, 0x44)\n                }\n                if and(0, call(_NATIVE_PAYOUT_GAS, recipient, amount, 0x00, 0x00, 0x00, 0x00)) {",
    tests: [T.receiver],
  },
  {
    id: "receiver.erc20-no-value",
    what: "fill_7hVe: an ERC-20 fill carries no msg.value",
    file: RECEIVER,
    find: "if callvalue() {\n                    mstore(0x00, 0x5693fffb)",
    replace: "if 0 {\n                    mstore(0x00, 0x5693fffb)",
    tests: [T.receiver],
  },
  {
    id: "receiver.transfer-from",
    what: "fill_7hVe: a failed transferFrom (revert, false, or no code) reverts the fill",
    file: RECEIVER,
    find: "if iszero(lt(or(iszero(extcodesize(token)), returndatasize()), success)) {",
    replace: "if 0 {",
    tests: [T.receiver],
  },
  {
    id: "receiver.fillAndCall-native-amount",
    what: "fillAndCall: msg.value must cover a native fill's amount",
    file: RECEIVER,
    find: "if (rest < amount) revert IncorrectNativeAmount(rest, amount);",
    replace: "",
    tests: [T.receiver],
  },
  {
    id: "receiver.fillAndCall-native-transfer",
    what: "fillAndCall: a native payment that fails reverts the fill",
    file: RECEIVER,
    find: "if (!success) revert NativeTransferFailed(recipient);",
    replace: "",
    tests: [T.receiver],
  },
  {
    id: "receiver.fillAndCall-payout-gas-cap",
    what: "fillAndCall: a native recipient gets at most 50,000 gas",
    file: RECEIVER,
    find: "success := call(_NATIVE_PAYOUT_GAS, recipient, amount, 0, 0, 0, 0)",
    replace: "success := call(gas(), recipient, amount, 0, 0, 0, 0)",
    tests: [T.receiverExploit],
  },
  // AttestedReceiver: packed checks' cold path (the hot path flags, the cold path must still revert)
  {
    id: "receiver.cold-length",
    what: "fill_7hVe: a flagged fill of the wrong length reverts InvalidFillLength",
    file: RECEIVER,
    find: "if (end - p != AttestationLib.PACKED_FILL_LENGTH) revert InvalidFillLength(end - p);",
    replace: "",
    tests: [T.receiver],
  },
  {
    id: "receiver.cold-zero-request",
    what: "fill_7hVe: a flagged requestId 0 reverts ZeroRequestId",
    file: RECEIVER,
    find: "if (requestId == bytes32(0)) revert ZeroRequestId();\n        if (orderId",
    replace: "if (orderId",
    tests: [T.receiver],
  },
  {
    id: "receiver.cold-zero-order",
    what: "fill_7hVe: a flagged orderId 0 reverts ZeroOrderId",
    file: RECEIVER,
    find: "if (orderId == bytes32(0)) revert ZeroOrderId();",
    replace: "",
    tests: [T.receiver],
  },
  {
    id: "receiver.cold-deadline",
    what: "fill_7hVe: a flagged expired attestation reverts AttestationExpired",
    file: RECEIVER,
    find: "if (block.timestamp > deadline) revert AttestationExpired(deadline);",
    replace: "",
    tests: [T.receiver],
  },
  {
    id: "receiver.cold-signer",
    what: "fill_7hVe: a flagged signer that is not allowed reverts SignerNotAllowed",
    file: RECEIVER,
    find: "r, vs);\n        if (!isSigner[signer]) revert SignerNotAllowed(signer);",
    replace: "r, vs);",
    tests: [T.receiver],
  },
  {
    id: "receiver.cold-recipient",
    what: "fill_7hVe: a flagged unlisted recipient reverts RecipientNotAllowed while the list is on",
    file: RECEIVER,
    find: "if (!isRecipientAllowed[recipient] && recipientAllowListEnabled) revert RecipientNotAllowed(recipient);\n        bytes32 current = filledDigest[requestId];",
    replace: "bytes32 current = filledDigest[requestId];",
    tests: [T.receiver],
  },
  {
    id: "receiver.cold-cancelled",
    what: "fill_7hVe: a flagged cancelled requestId reverts RequestCancelled",
    file: RECEIVER,
    find: "if (current == _CANCELLED) revert RequestCancelled(requestId);\n        if (current != bytes32(0)) revert AlreadyFilled(requestId);\n        // The signer",
    replace: "if (current != bytes32(0)) revert AlreadyFilled(requestId);\n        // The signer",
    tests: [T.receiver],
  },
  {
    id: "receiver.cold-filled",
    what: "fill_7hVe: a flagged filled requestId reverts AlreadyFilled",
    file: RECEIVER,
    find: "if (current != bytes32(0)) revert AlreadyFilled(requestId);\n        // The signer",
    replace: "// The signer",
    tests: [T.receiver, T.receiverInvariant],
  },
  {
    id: "receiver.cold-currency",
    what: "fill_7hVe: a flagged unlisted ERC-20 reverts CurrencyNotAllowed (a phantom currency cannot fill)",
    file: RECEIVER,
    find: "if (token != address(0) && !_signerCurrencyAllowed[signer][token]) revert CurrencyNotAllowed(token);",
    replace: "",
    tests: [T.receiverExploit],
  },
  // AttestedReceiver: full-ABI fill / fillWithCalls
  {
    id: "receiver.full-zero-ids",
    what: "fill(att, sig): requestId 0 and orderId 0 are rejected",
    file: RECEIVER,
    find: "or(iszero(calldataload(_ATT_REQUEST_ID)), iszero(calldataload(_ATT_ORDER_ID))),",
    replace: "0,",
    tests: [T.receiverFull],
  },
  {
    id: "receiver.full-deadline",
    what: "fill(att, sig): an expired attestation cannot fill",
    file: RECEIVER,
    find: "gt(timestamp(), calldataload(_ATT_DEADLINE)),",
    replace: "0,",
    tests: [T.receiverFull],
  },
  {
    id: "receiver.full-signer-allowed",
    what: "fill(att, sig): only an allowed signer's attestation fills",
    file: RECEIVER,
    find: "or(or(iszero(signerAllowed), shr(160, recipient)), or(iszero(recipientListed), sload(filledSlot)))",
    replace: "or(or(0, shr(160, recipient)), or(iszero(recipientListed), sload(filledSlot)))",
    tests: [T.receiverFull],
  },
  // No guard for the hot path's `shr(160, recipient)` in the full-ABI policy check: removing it is an
  // equivalent mutant. A destinationUser with upper bits set can never be a key of isRecipientAllowed
  // (an address-keyed mapping), so iszero(recipientListed) already sends it to the cold path, where
  // AttestationLib.toAddress refuses it (lib.evm-address). The full run of 2026-11-28 reported it
  // "survived" for that reason.
  {
    id: "receiver.full-recipient-allowed",
    what: "fill(att, sig): an unlisted recipient is refused while the allow-list is on",
    file: RECEIVER,
    find: "or(or(iszero(signerAllowed), shr(160, recipient)), or(iszero(recipientListed), sload(filledSlot)))",
    replace: "or(or(iszero(signerAllowed), shr(160, recipient)), or(0, sload(filledSlot)))",
    tests: [T.receiverFull],
  },
  {
    id: "receiver.full-native-amount",
    what: "fill(att, sig): a native fill's msg.value must equal the attested amount",
    file: RECEIVER,
    find: "if xor(callvalue(), amount) {\n                    let m := mload(0x40)",
    replace: "if 0 {\n                    let m := mload(0x40)",
    tests: [T.receiverFull],
  },
  {
    id: "receiver.full-native-transfer",
    what: "fill(att, sig): a native payment that fails reverts the fill",
    file: RECEIVER,
    find: "let recipient := calldataload(_ATT_DESTINATION_USER)\n                if iszero(call(",
    replace: "let recipient := calldataload(_ATT_DESTINATION_USER)\n                if and(0, call(",
    tests: [T.receiverFull],
  },
  {
    id: "receiver.full-payout-gas-cap",
    what: "fill(att, sig): a native recipient gets at most 50,000 gas",
    file: RECEIVER,
    find: "let recipient := calldataload(_ATT_DESTINATION_USER)\n                if iszero(call(_NATIVE_PAYOUT_GAS,",
    replace: "let recipient := calldataload(_ATT_DESTINATION_USER)\n                if iszero(call(gas(),",
    tests: [T.receiverFull, T.receiverExploit],
  },
  {
    id: "receiver.full-currency-evm",
    what: "fill(att, sig): a destinationCurrency that is not an EVM address is refused",
    file: RECEIVER,
    find: "if shr(160, currency) {",
    replace: "if 0 {",
    tests: [T.receiverFull],
  },
  {
    id: "receiver.full-currency-list",
    what: "fill(att, sig): an unlisted ERC-20 (phantom currency) cannot fill",
    file: RECEIVER,
    find: "if (!isCurrencyAllowed[token]) revert CurrencyNotAllowed(token);",
    replace: "",
    tests: [T.receiverFull],
  },
  {
    id: "receiver.full-erc20-no-value",
    what: "fill(att, sig): an ERC-20 fill carries no msg.value",
    file: RECEIVER,
    find: "if (msg.value != 0) revert IncorrectNativeAmount(msg.value, 0);",
    replace: "",
    tests: [T.receiverFull],
  },
  {
    id: "receiver.full-cold-zero-request",
    what: "fill(att, sig): a flagged requestId 0 reverts ZeroRequestId",
    file: RECEIVER,
    find: "if (att.requestId == bytes32(0)) revert ZeroRequestId();",
    replace: "",
    tests: [T.receiverFull],
  },
  {
    id: "receiver.full-cold-zero-order",
    what: "fill(att, sig): a flagged orderId 0 reverts ZeroOrderId",
    file: RECEIVER,
    find: "if (att.orderId == bytes32(0)) revert ZeroOrderId();",
    replace: "",
    tests: [T.receiverFull],
  },
  {
    id: "receiver.full-cold-deadline",
    what: "fill(att, sig): a flagged expired attestation reverts AttestationExpired",
    file: RECEIVER,
    find: "if (block.timestamp > att.deadline) revert AttestationExpired(att.deadline);",
    replace: "",
    tests: [T.receiverFull],
  },
  {
    id: "receiver.full-cold-chain",
    what: "fill(att, sig): a flagged attestation for another chain reverts WrongDestinationChain",
    file: RECEIVER,
    find: "if (att.destinationChainId != block.chainid) revert WrongDestinationChain(att.destinationChainId);",
    replace: "",
    tests: [T.receiverFull],
  },
  {
    id: "receiver.full-cold-receiver",
    what: "fill(att, sig): a flagged attestation for another receiver reverts WrongReceiver",
    file: RECEIVER,
    find: "revert WrongReceiver(att.receiver);",
    replace: "",
    tests: [T.receiverFull],
  },
  {
    id: "receiver.full-cold-signer",
    what: "fill(att, sig): a flagged signer that is not allowed reverts SignerNotAllowed",
    file: RECEIVER,
    find: "if (!isSigner[signer]) revert SignerNotAllowed(signer);\n        address recipient = AttestationLib.toAddress(att.destinationUser);",
    replace: "address recipient = AttestationLib.toAddress(att.destinationUser);",
    tests: [T.receiverFull],
  },
  {
    id: "receiver.full-cold-recipient",
    what: "fill(att, sig): a flagged unlisted recipient reverts RecipientNotAllowed while the list is on",
    file: RECEIVER,
    find: "if (!isRecipientAllowed[recipient] && recipientAllowListEnabled) revert RecipientNotAllowed(recipient);\n        bytes32 current = filledDigest[att.requestId];",
    replace: "bytes32 current = filledDigest[att.requestId];",
    tests: [T.receiverFull],
  },
  {
    id: "receiver.full-cold-cancelled",
    what: "fill(att, sig): a flagged cancelled requestId reverts RequestCancelled",
    file: RECEIVER,
    find: "if (current == _CANCELLED) revert RequestCancelled(att.requestId);",
    replace: "",
    tests: [T.receiverFull],
  },
  {
    id: "receiver.full-cold-filled",
    what: "fill(att, sig): a flagged filled requestId reverts AlreadyFilled",
    file: RECEIVER,
    find: "if (current != bytes32(0)) revert AlreadyFilled(att.requestId);",
    replace: "",
    tests: [T.receiverFull],
  },
  {
    id: "receiver.calls-binding",
    what: "fillWithCalls: the calls and sweep list run are the ones the requestId commits to",
    file: RECEIVER,
    find: "if (att.requestId != expected) revert CallsMismatch(att.requestId, expected);",
    replace: "",
    tests: ["test/solidity/exploit/ReceiverCallBinding.t.sol"],
  },
  {
    id: "receiver.calls-native-amount",
    what: "fillWithCalls: msg.value must cover a native fill's amount",
    file: RECEIVER,
    find: "if (msg.value < amount) revert IncorrectNativeAmount(msg.value, amount);",
    replace: "",
    tests: ["test/solidity/exploit/ReceiverCallBinding.t.sol"],
  },
  {
    id: "receiver.calls-currency-list",
    what: "fillWithCalls: an unlisted ERC-20 cannot fill",
    file: RECEIVER,
    find: "if (!isCurrencyAllowed[currency]) revert CurrencyNotAllowed(currency);",
    replace: "",
    tests: ["test/solidity/exploit/ReceiverCallBinding.t.sol"],
  },
  // Multicaller
  {
    id: "multicaller.zero-refund",
    what: "multicall: a zero refund recipient is refused",
    file: MULTICALLER,
    find: "if (refundTo == address(0)) revert ZeroRefundRecipient();",
    replace: "",
    tests: [T.multicaller],
  },
  {
    id: "multicaller.value",
    what: "multicall: the calls' value must be covered",
    file: MULTICALLER,
    find: "if (required > available) revert InsufficientValue(available, required);",
    replace: "",
    tests: [T.multicaller],
  },
  {
    id: "multicaller.call-reverted",
    what: "multicall: a failing call that does not allow failure reverts everything",
    file: MULTICALLER,
    find: "if (!success && !c.allowFailure) revert CallReverted(i, returnData);",
    replace: "",
    tests: [T.multicaller],
  },
  {
    id: "multicaller.unexpected-native",
    what: "receive: native sent outside a multicall is refused (nothing of value is left behind)",
    file: MULTICALLER,
    find: "if (!_reentrancyGuardEntered()) revert UnexpectedNativeTransfer();",
    replace: "",
    tests: [T.multicaller],
  },
  {
    id: "multicaller.refund-native",
    what: "multicall: a native refund that fails reverts",
    file: MULTICALLER,
    find: "if (!success) revert RefundFailed(refundTo);",
    replace: "",
    tests: [T.multicaller],
  },
  {
    id: "multicaller.refund-token",
    what: "multicall: a token refund that fails reverts",
    file: MULTICALLER,
    find: "if (balance != 0 && !SafeERC20.trySafeTransfer(token, refundTo, balance)) revert RefundFailed(refundTo);",
    replace: "if (balance != 0) SafeERC20.trySafeTransfer(token, refundTo, balance);",
    tests: [T.multicaller],
  },
  // AttestationGate
  {
    id: "gate.binding-chain",
    what: "gateDigest: the chain id is part of the bound digest (a copy of the gate on another chain cannot consume)",
    file: LIB,
    find: "mstore(add(m, 0x60), chainId)",
    replace: "mstore(add(m, 0x60), 0)",
    tests: [T.gateBindingExploit],
  },
  {
    id: "gate.origin-chain",
    what: "an attestation for another origin chain is refused",
    file: GATE,
    find: "if (originChainId != block.chainid) revert WrongOriginChain(originChainId);",
    replace: "",
    tests: [T.gate],
  },
  {
    id: "gate.recipient",
    what: "an unlisted recipient is refused while the allow-list is on",
    file: GATE,
    find: "if (!isRecipientAllowed[recipient]) revert RecipientNotAllowed(recipient);",
    replace: "",
    tests: [T.gate],
  },
  {
    id: "gate.consume-mark",
    what: "the requestId is marked consumed",
    file: GATE,
    find: "consumed[requestId] = true;",
    replace: "",
    tests: [T.gateInvariant],
  },
  {
    id: "gate.zero-signer",
    what: "_setSigner: the zero address cannot be a signer",
    file: GATE,
    find: "if (signer == address(0)) revert ZeroSigner();",
    replace: "",
    tests: [T.gate],
  },
  // AttestationLib (strict recovery, used by the gate and the full-ABI fill)
  {
    id: "lib.signature-length",
    what: "recoverStrict: a signature that is not 65 bytes is refused",
    file: LIB,
    find: "if (signature.length != 65) revert InvalidSignatureLength(signature.length);",
    replace: "",
    tests: [T.gate],
  },
  {
    id: "lib.low-s",
    what: "recoverStrict: a high-s (malleable) 65-byte signature is refused",
    file: LIB,
    find: "s := calldataload(add(signature.offset, 0x20))\n        }\n        if (uint256(s) > HALF_CURVE_ORDER) revert SignatureMalleable(s);",
    replace: "s := calldataload(add(signature.offset, 0x20))\n        }",
    tests: [T.gate],
  },
  {
    id: "lib.low-s-compact",
    what: "recoverStrict: a high-s EIP-2098 signature is refused",
    file: LIB,
    find: "bytes32 s = vs & bytes32(type(uint256).max >> 1);\n        if (uint256(s) > HALF_CURVE_ORDER) revert SignatureMalleable(s);",
    replace: "bytes32 s = vs & bytes32(type(uint256).max >> 1);",
    tests: [T.receiver],
  },
  {
    id: "lib.recovery-failed",
    what: "recoverStrict: a signature that recovers to no one is refused",
    file: LIB,
    find: "calldatacopy(add(m, 0x40), signature.offset, 0x40) // r, s\n            mstore(0x00, 0) // ecrecover writes nothing on failure\n            pop(staticcall(gas(), 0x01, m, 0x80, 0x00, 0x20))\n            signer := mload(0x00)\n        }\n        if (signer == address(0)) revert InvalidSignature();",
    replace: "calldatacopy(add(m, 0x40), signature.offset, 0x40) // r, s\n            mstore(0x00, 0) // ecrecover writes nothing on failure\n            pop(staticcall(gas(), 0x01, m, 0x80, 0x00, 0x20))\n            signer := mload(0x00)\n        }",
    tests: [T.gate],
  },
  {
    id: "lib.evm-address",
    what: "toAddress: a bytes32 with upper bits set is not an EVM address",
    file: LIB,
    find: "if (uint256(value) >> 160 != 0) revert NotAnEvmAddress(value);",
    replace: "",
    tests: [T.gate],
  },
  // ------------------------------------------------------------ deposit addresses
  {
    id: "depaddr.signature",
    what: "deployAndForward: only the Depository allocator's instruction moves funds",
    file: FACTORY,
    find: "        _checkAllocatorSignature(_instructionDigest(forwarder, instruction), signature);\n",
    replace: "",
    tests: [T.depositAddressExploit],
  },
  {
    id: "depaddr.binding-forwarder",
    what: "the instruction digest names the forwarder (a signature for address A is worthless on B)",
    file: FACTORY,
    find: "                    FORWARD_INSTRUCTION_TYPEHASH,\n                    forwarder,",
    replace: "                    FORWARD_INSTRUCTION_TYPEHASH,\n                    address(0),",
    tests: [T.depositAddressExploit],
  },
  {
    id: "depaddr.binding-domain",
    what: "the instruction digest binds the chain id and the factory (EIP-712 domain)",
    file: FACTORY,
    find: "        return _hashTypedData(\n",
    replace: "        return _hashTypedDataSansChainIdAndVerifyingContract(\n",
    tests: [T.depositAddressExploit],
  },
  {
    id: "depaddr.replay-check",
    what: "an instruction id executes once per forwarder",
    file: FACTORY,
    find: "if (instructionUsed[forwarder][id]) revert InstructionAlreadyUsed(forwarder, id);",
    replace: "",
    tests: [T.depositAddressExploit],
  },
  {
    id: "depaddr.strict-order",
    what: "a strict address deposits only under its bound order id",
    file: FACTORY,
    find: "if (instruction.orderId != params.orderId) revert OrderIdMismatch(instruction.orderId, params.orderId);",
    replace: "",
    tests: [T.depositAddressExploit],
  },
  {
    id: "depaddr.reentrancy",
    what: "deployAndForward cannot be re-entered (hostile token, refund recipient)",
    file: FACTORY,
    find: "    ) external nonReentrant returns (address forwarder) {",
    replace: "    ) external returns (address forwarder) {",
    tests: [T.depositAddressExploit],
  },
  {
    id: "depaddr.forwarder-caller-deposit",
    what: "DepositForwarder.deposit: only the factory",
    file: FORWARDER,
    find: "    function deposit(bytes32 orderId, address token, uint256 amount) external {\n        if (msg.sender != _factory) revert CallerNotFactory(msg.sender);",
    replace: "    function deposit(bytes32 orderId, address token, uint256 amount) external {",
    tests: [T.depositAddressExploit],
  },
  {
    id: "depaddr.forwarder-caller-refund",
    what: "DepositForwarder.refund: only the factory",
    file: FORWARDER,
    find: "    function refund(address token, uint256 amount) external {\n        if (msg.sender != _factory) revert CallerNotFactory(msg.sender);",
    replace: "    function refund(address token, uint256 amount) external {",
    tests: [T.depositAddressExploit],
  },
  // ------------------------------------------------------------ reclaimable deposits (issue 27)
  {
    id: "reclaim.native-checks",
    what: "depositNativeReclaimable: id and value not zero",
    file: DEPOSITORY,
    find: "function depositNativeReclaimable_fpifa(bytes32 id, uint256 reclaimAt) external payable {\n        bool rejected;\n        assembly (\"memory-safe\") {\n            rejected := or(iszero(callvalue()), iszero(id))",
    replace: "function depositNativeReclaimable_fpifa(bytes32 id, uint256 reclaimAt) external payable {\n        bool rejected;\n        assembly (\"memory-safe\") {\n            rejected := 0",
    tests: [T.reclaim],
  },
  {
    id: "reclaim.native-live-check",
    what: "depositNativeReclaimable: a live commitment under the id is never replaced",
    file: DEPOSITORY,
    find: "            if sload(slot) {",
    replace: "            if 0 {",
    tests: [T.reclaimExploit],
  },
  {
    id: "reclaim.native-binds-depositor",
    what: "depositNativeReclaimable: the commitment names the depositor (msg.sender)",
    file: DEPOSITORY,
    find: "            mstore(m, caller())\n            mstore(add(m, 0x20), 0)",
    replace: "            mstore(m, 0)\n            mstore(add(m, 0x20), 0)",
    tests: [T.reclaim],
  },
  {
    id: "reclaim.erc20-zero-id",
    what: "depositErc20Reclaimable: id not zero",
    file: DEPOSITORY,
    find: "        if (id == bytes32(0)) revert ZeroOrderId();\n        if (reclaimCommitment[id] != bytes32(0)) revert ReclaimAlreadyCommitted(id);",
    replace: "        if (reclaimCommitment[id] != bytes32(0)) revert ReclaimAlreadyCommitted(id);",
    tests: [T.reclaim],
  },
  {
    id: "reclaim.erc20-live-check",
    what: "depositErc20Reclaimable: a live commitment under the id is never replaced",
    file: DEPOSITORY,
    find: "        if (reclaimCommitment[id] != bytes32(0)) revert ReclaimAlreadyCommitted(id);\n        uint256 before",
    replace: "        uint256 before",
    tests: [T.reclaimExploit],
  },
  {
    id: "reclaim.erc20-arrived",
    what: "depositErc20Reclaimable: the commitment is of what arrived, not the amount named",
    file: DEPOSITORY,
    find: "reclaimCommitment[id] = _reclaimCommitment(msg.sender, token, arrived, reclaimAt);",
    replace: "reclaimCommitment[id] = _reclaimCommitment(msg.sender, token, amount, reclaimAt);",
    tests: [T.reclaimExploit],
  },
  {
    id: "reclaim.live-check",
    what: "reclaim: no live commitment is NoReclaimCommitment",
    file: DEPOSITORY,
    find: "        if (stored == bytes32(0)) revert NoReclaimCommitment(id);\n",
    replace: "",
    tests: [T.reclaim],
  },
  {
    id: "reclaim.commitment-check",
    what: "reclaim: only the depositor, with its deposit's exact fields",
    file: DEPOSITORY,
    find: "if (commitment != stored) revert ReclaimCommitmentMismatch(id, commitment);",
    replace: "",
    tests: [T.reclaimExploit, T.reclaimInvariant],
  },
  {
    id: "reclaim.time-check",
    what: "reclaim: never before reclaimAt",
    file: DEPOSITORY,
    find: "if (block.timestamp < reclaimAt) revert ReclaimNotYet(reclaimAt);",
    replace: "",
    tests: [T.reclaimExploit, T.reclaimInvariant],
  },
  {
    id: "reclaim.delete",
    what: "reclaim: the commitment is deleted (once; release then fails)",
    file: DEPOSITORY,
    find: "        delete reclaimCommitment[id];\n        uint256 free = _unreserved(token);",
    replace: "        uint256 free = _unreserved(token);",
    tests: [T.reclaimExploit, T.reclaimInvariant],
  },
  {
    id: "reclaim.balance-check",
    what: "reclaim: never pays with funds owed as claimable",
    file: DEPOSITORY,
    find: "if (amount > free) revert InsufficientBalance(0, token, free, amount);",
    replace: "",
    tests: [T.reclaimExploit],
  },
  {
    id: "reclaim.claimable-fallback",
    what: "reclaim: a payout that fails becomes claimable by the depositor",
    file: DEPOSITORY,
    find: "if (!paid) _owe(msg.sender, token, amount);",
    replace: "",
    tests: [T.reclaimExploit],
  },
  {
    id: "reclaim.release-expiry",
    what: "release: an expired request reverts",
    file: DEPOSITORY,
    find: "        if (block.timestamp > expiry) revert RequestExpired(expiry);\n\n        bytes32 releaseHash",
    replace: "\n        bytes32 releaseHash",
    tests: [T.reclaimExploit],
  },
  {
    id: "reclaim.release-signature",
    what: "release: only the allocator's signature",
    file: DEPOSITORY,
    find: "        _checkAllocatorSignature(_hashTypedDataV4(releaseHash), signature);\n",
    replace: "",
    tests: [T.reclaimExploit],
  },
  {
    id: "reclaim.release-binds-id",
    what: "release: the signed digest names the commitment's id",
    file: DEPOSITORY,
    find: "                RELEASE_REQUEST_TYPEHASH,\n                request.id,",
    replace: "                RELEASE_REQUEST_TYPEHASH,\n                bytes32(0),",
    tests: [T.reclaimExploit],
  },
  {
    id: "reclaim.release-nonce",
    what: "release: a used nonce reverts (replay)",
    file: DEPOSITORY,
    find: "        if (executed[n]) revert NonceAlreadyUsed(n);\n        executed[n] = true;\n\n        bytes32 id = request.id;",
    replace: "        executed[n] = true;\n\n        bytes32 id = request.id;",
    tests: [T.reclaimExploit],
  },
  {
    id: "reclaim.release-live-check",
    what: "release: a reclaimed deposit's repayment does not pay",
    file: DEPOSITORY,
    find: "if (reclaimCommitment[id] == bytes32(0)) revert NoReclaimCommitment(id);",
    replace: "",
    tests: [T.reclaimExploit, T.reclaimInvariant],
  },
  {
    id: "reclaim.release-delete",
    what: "release: the commitment is deleted (a released deposit cannot be reclaimed)",
    file: DEPOSITORY,
    find: "        delete reclaimCommitment[id];\n        emit ReclaimReleased(id, n);",
    replace: "        emit ReclaimReleased(id, n);",
    tests: [T.reclaimExploit, T.reclaimInvariant],
  },
];

function occurrences(text: string, needle: string): number {
  return text.split(needle).length - 1;
}

type Run = { status: number; output: string; interrupted: boolean };

let current: ChildProcess | undefined;
let interrupted = false;

/** `npx hardhat …`, asynchronously: while it runs, a SIGINT or SIGTERM to this script is handled. */
function run(args: string[]): Promise<Run> {
  return new Promise((resolve) => {
    // Its own process group, so that stopping it stops the compiler workers Hardhat starts too.
    const child = spawn("npx", ["hardhat", ...args], { cwd: root, env: process.env, detached: true });
    current = child;
    let output = "";
    child.stdout.on("data", (chunk: Buffer) => (output += chunk.toString()));
    child.stderr.on("data", (chunk: Buffer) => (output += chunk.toString()));
    child.on("error", (error) => (output += String(error)));
    child.on("close", (code, signal) => {
      current = undefined;
      // A run killed by a signal proves nothing: it is an interruption, never a "killed" mutant.
      resolve({ status: code ?? 1, output, interrupted: interrupted || signal !== null });
    });
  });
}

async function main(): Promise<void> {
  const filters = process.argv.slice(2).filter((arg) => !arg.startsWith("-"));
  const guards = filters.length === 0 ? GUARDS : GUARDS.filter((guard) => filters.some((word) => guard.id.includes(word)));
  const originals = new Map<string, string>();
  const restore = () => {
    for (const [file, text] of originals) writeFileSync(path.join(root, file), text);
  };
  const stop = () => {
    interrupted = true;
    if (current?.pid !== undefined) {
      try {
        process.kill(-current.pid, "SIGTERM");
      } catch {
        // the group has already exited
      }
    }
  };
  process.on("SIGINT", stop);
  process.on("SIGTERM", stop);

  const started = Date.now();
  const results: Array<{ guard: Guard; outcome: "killed" | "SURVIVED" | "NOT APPLIED"; seconds: number; detail: string }> = [];
  try {
    for (const guard of guards) {
      if (interrupted) break;
      const file = path.join(root, guard.file);
      if (!originals.has(guard.file)) originals.set(guard.file, readFileSync(file, "utf8"));
      const original = originals.get(guard.file)!;
      const count = occurrences(original, guard.find);
      if (count !== 1) {
        results.push({ guard, outcome: "NOT APPLIED", seconds: 0, detail: `the guard's text occurs ${count} times in ${guard.file}` });
        continue;
      }
      writeFileSync(file, original.replace(guard.find, guard.replace));
      const mutantStarted = Date.now();
      const { status, output, interrupted: stopped } = await run(["test", "solidity", ...guard.tests]);
      writeFileSync(file, original);
      if (stopped) break;
      const seconds = Math.round((Date.now() - mutantStarted) / 1000);
      const compileError = /HHE910|Compilation failed/.test(output);
      const failing = /(\d+) failing/.exec(output)?.[1];
      const detail = compileError ? "mutant does not compile" : failing ? `${failing} failing` : status === 0 ? "all passed" : `exit ${status}`;
      // A mutant that does not compile proves nothing about the tests: report it as not applied.
      const outcome = compileError ? "NOT APPLIED" : status === 0 ? "SURVIVED" : "killed";
      results.push({ guard, outcome, seconds, detail });
      console.log(`${outcome.padEnd(11)} ${guard.id.padEnd(36)} ${String(seconds).padStart(4)} s  ${detail}`);
    }
  } finally {
    restore();
  }

  // The last mutant's artifacts are on disk, and the incremental builds regrouped the test contracts
  // into other compilation units (which moves fuzz tests' gas and fails the snapshot check): remove
  // them, and rebuild from scratch, so that `npm test` passes in this checkout as it does in a fresh
  // clone. Interrupted, the script only removes them: the next build is then a clean one.
  const removeBuild = () => {
    rmSync(path.join(root, "artifacts"), { recursive: true, force: true });
    rmSync(path.join(root, "cache"), { recursive: true, force: true });
  };
  const exitInterrupted = () => {
    removeBuild();
    console.error(`\ninterrupted after ${results.length} of ${guards.length} guards: sources restored, artifacts/ and cache/ removed (the next build is a clean one)`);
    process.exit(130);
  };
  removeBuild();
  if (interrupted) exitInterrupted();
  const rebuilt = await run(["build"]);
  if (rebuilt.interrupted) exitInterrupted();
  if (rebuilt.status !== 0) {
    console.error(`clean rebuild failed (run \`rm -rf artifacts cache && npx hardhat build\`):\n${rebuilt.output}`);
    process.exitCode = 1;
  }

  console.log("\nguard                                 outcome      tests that caught it / what it guards");
  for (const { guard, outcome, detail } of results) {
    console.log(`${guard.id.padEnd(37)} ${outcome.padEnd(12)} ${detail}; ${guard.what} [${guard.tests.map((t) => path.basename(t)).join(", ")}]`);
  }
  const killed = results.filter((r) => r.outcome === "killed").length;
  const minutes = Math.round((Date.now() - started) / 60_000);
  console.log(`\n${killed} killed, ${results.length - killed} not killed, of ${results.length} guards (${minutes} min)`);
  if (killed !== results.length) process.exitCode = 1;
}

await main();
