// `npm run test:mutation`: removes (or weakens) each listed guard of the contracts, one at a time, by a
// textual patch of the .sol source in place, runs the Solidity tests meant to catch it, and restores
// the source. A mutant is "killed" when those tests fail, "survived" when they pass. Exits 1 when any
// guard survives (or a patch no longer applies: the list must follow the code). The source is restored
// after every mutant, on Ctrl-C too, and at the end artifacts/ and cache/ are removed and rebuilt from
// scratch: the checkout is left as a fresh clone builds it (npm test's snapshot check passes).
//
//   npm run test:mutation                 every guard
//   npm run test:mutation -- nonce cap    only guards whose id contains one of the words
import { spawnSync } from "node:child_process";
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
  gateInvariant: "test/solidity/AttestationGate.invariant.t.sol",
  depositorySignatures: "test/solidity/DepositorySignatures.t.sol",
  depositoryPermitsExploit: "test/solidity/exploit/DepositoryPermits.t.sol",
  depositoryClaimablesExploit: "test/solidity/exploit/DepositoryClaimables.t.sol",
  depositoryAllocatorExploit: "test/solidity/exploit/DepositoryAllocatorLock.t.sol",
  receiverCallsExploit: "test/solidity/exploit/ReceiverCallsAttestation.t.sol",
  gateBindingExploit: "test/solidity/exploit/GateBinding.t.sol",
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
    find: "rejected := or(iszero(callvalue()), iszero(id))",
    replace: "rejected := iszero(callvalue())",
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
    find: "if (executed[n]) revert NonceAlreadyUsed(n);",
    replace: "",
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
    file: "contracts/libraries/AttestationLib.sol",
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
  // ------------------------------------------------------------ checks without a guard before
  {
    id: "depository.balance-read",
    what: "a token whose balanceOf fails (no code) never reads as a balance: payouts and credits in it revert",
    file: DEPOSITORY,
    find: "if (!ok) revert SafeERC20.SafeERC20FailedOperation(token);",
    replace: "",
    tests: [T.depository, T.depositoryTokens],
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
    id: "depository.claim-releases-reserve-token",
    what: "claim: an ERC-20 claimed leaves its reserve",
    file: DEPOSITORY,
    find: "else _claimableTokens[token] -= amount;",
    replace: "else {}",
    tests: [T.depositoryClaimablesExploit],
  },
  {
    id: "receiver.fillAndCall-payout-gas-cap",
    what: "fillAndCall: a native recipient gets at most 50,000 gas",
    file: RECEIVER,
    find: "success := call(_NATIVE_PAYOUT_GAS, recipient, amount, 0, 0, 0, 0)",
    replace: "success := call(gas(), recipient, amount, 0, 0, 0, 0)",
    tests: [T.receiverExploit],
  },
  {
    id: "receiver.full-payout-gas-cap",
    what: "fill(att, sig): a native recipient gets at most 50,000 gas",
    file: RECEIVER,
    find: "let recipient := calldataload(_ATT_DESTINATION_USER)\n                if iszero(call(_NATIVE_PAYOUT_GAS,",
    replace: "let recipient := calldataload(_ATT_DESTINATION_USER)\n                if iszero(call(gas(),",
    tests: [T.receiverFull, T.receiverExploit],
  },
];

function occurrences(text: string, needle: string): number {
  return text.split(needle).length - 1;
}

function run(args: string[]): { status: number; output: string } {
  const result = spawnSync("npx", ["hardhat", ...args], { cwd: root, encoding: "utf8", env: process.env, maxBuffer: 64 * 1024 * 1024 });
  return { status: result.status ?? 1, output: `${result.stdout ?? ""}${result.stderr ?? ""}` };
}

async function main(): Promise<void> {
  const filters = process.argv.slice(2).filter((arg) => !arg.startsWith("-"));
  const guards = filters.length === 0 ? GUARDS : GUARDS.filter((guard) => filters.some((word) => guard.id.includes(word)));
  const originals = new Map<string, string>();
  const restore = () => {
    for (const [file, text] of originals) writeFileSync(path.join(root, file), text);
  };
  process.on("SIGINT", () => {
    restore();
    process.exit(130);
  });

  const results: Array<{ guard: Guard; outcome: "killed" | "SURVIVED" | "NOT APPLIED"; seconds: number; detail: string }> = [];
  try {
    for (const guard of guards) {
      const file = path.join(root, guard.file);
      if (!originals.has(guard.file)) originals.set(guard.file, readFileSync(file, "utf8"));
      const original = originals.get(guard.file)!;
      const count = occurrences(original, guard.find);
      if (count !== 1) {
        results.push({ guard, outcome: "NOT APPLIED", seconds: 0, detail: `the guard's text occurs ${count} times in ${guard.file}` });
        continue;
      }
      writeFileSync(file, original.replace(guard.find, guard.replace));
      const started = Date.now();
      const { status, output } = run(["test", "solidity", ...guard.tests]);
      writeFileSync(file, original);
      const seconds = Math.round((Date.now() - started) / 1000);
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
  // into other compilation units (which moves fuzz tests' gas and fails the snapshot check): rebuild
  // from scratch, so that `npm test` passes in this checkout as it does in a fresh clone.
  rmSync(path.join(root, "artifacts"), { recursive: true, force: true });
  rmSync(path.join(root, "cache"), { recursive: true, force: true });
  const rebuilt = run(["build"]);
  if (rebuilt.status !== 0) {
    console.error(`clean rebuild failed (run \`rm -rf artifacts cache && npx hardhat build\`):\n${rebuilt.output}`);
    process.exitCode = 1;
  }

  console.log("\nguard                                 outcome      tests that caught it / what it guards");
  for (const { guard, outcome, detail } of results) {
    console.log(`${guard.id.padEnd(37)} ${outcome.padEnd(12)} ${detail}; ${guard.what} [${guard.tests.map((t) => path.basename(t)).join(", ")}]`);
  }
  const killed = results.filter((r) => r.outcome === "killed").length;
  console.log(`\n${killed} killed, ${results.length - killed} not killed, of ${results.length} guards`);
  if (killed !== results.length) process.exitCode = 1;
}

await main();
