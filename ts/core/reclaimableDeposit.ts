/**
 * Reclaimable deposits (the opt-in `Depository.depositNativeReclaimable_fpifa` /
 * `depositErc20Reclaimable`): the deposit's calldata, the commitment it records, its event, and the
 * depositor's one-transaction `reclaim`. The commitment is `keccak256(abi.encode(depositor, currency,
 * amount, reclaimAt))`, stored under the orderId; the event `DepositedReclaimable(id, depositor, token,
 * amount, reclaimAt)` carries its preimage as data. If the allocator has not released it (ts/core
 * releaseRequest.ts) by `reclaimAt`, the depositor alone takes the deposit back with `encodeReclaim`'s
 * call. Pure.
 */
import { decodeEventLog, encodeAbiParameters, encodeFunctionData, keccak256, zeroAddress, type Address, type Hex } from "viem";
import { InvalidInputError } from "./errors.ts";
import { parseAddress, parseBytes32, parseUint } from "./inputParsers.ts";
import { lowercaseHash, type LowercaseHex } from "./lowercaseHex.ts";

/** The native form's name: a mined suffix makes its selector 0x00000725 (tried fourth by the dispatcher). */
export const DEPOSIT_NATIVE_RECLAIMABLE_FUNCTION = "depositNativeReclaimable_fpifa";

/** The reclaimable deposit and reclaim functions and the event, as minimal ABI fragments (a test checks them against the compiled Depository). */
export const DEPOSITORY_RECLAIM_ABI = [
  {
    type: "function",
    name: DEPOSIT_NATIVE_RECLAIMABLE_FUNCTION,
    stateMutability: "payable",
    inputs: [
      { name: "id", type: "bytes32" },
      { name: "reclaimAt", type: "uint256" },
    ],
    outputs: [],
  },
  {
    type: "function",
    name: "depositErc20Reclaimable",
    stateMutability: "nonpayable",
    inputs: [
      { name: "token", type: "address" },
      { name: "amount", type: "uint256" },
      { name: "id", type: "bytes32" },
      { name: "reclaimAt", type: "uint256" },
    ],
    outputs: [],
  },
  {
    type: "function",
    name: "reclaim",
    stateMutability: "nonpayable",
    inputs: [
      { name: "id", type: "bytes32" },
      { name: "token", type: "address" },
      { name: "amount", type: "uint256" },
      { name: "reclaimAt", type: "uint256" },
    ],
    outputs: [],
  },
  {
    type: "function",
    name: "reclaimCommitment",
    stateMutability: "view",
    inputs: [{ name: "id", type: "bytes32" }],
    outputs: [{ name: "", type: "bytes32" }],
  },
  {
    type: "event",
    name: "DepositedReclaimable",
    inputs: [
      { name: "id", type: "bytes32", indexed: true },
      { name: "depositor", type: "address", indexed: false },
      { name: "token", type: "address", indexed: false },
      { name: "amount", type: "uint256", indexed: false },
      { name: "reclaimAt", type: "uint256", indexed: false },
    ],
  },
] as const;

/** What a reclaimable deposit commits to: its depositor, currency (zero address: native), amount and reclaim time. */
export type ReclaimableDeposit = { id: Hex; depositor: Address; currency: Address; amount: bigint; reclaimAt: bigint };

/** The commitment `Depository.reclaimCommitment(id)` holds for a deposit (zero once released or reclaimed). */
export function reclaimCommitment(deposit: Omit<ReclaimableDeposit, "id">): LowercaseHex {
  return lowercaseHash(
    keccak256(
      encodeAbiParameters(
        [{ type: "address" }, { type: "address" }, { type: "uint256" }, { type: "uint256" }],
        [parseAddress(deposit.depositor, "depositor"), parseAddress(deposit.currency, "currency"), parseUint(deposit.amount, "amount"), parseUint(deposit.reclaimAt, "reclaimAt")],
      ),
    ),
  );
}

/** The reclaimable deposit transaction of `amount` of `currency` under `id`, reclaimable by its sender from `reclaimAt` (unix seconds). */
export function encodeReclaimableDeposit(params: { currency: Address; amount: bigint; id: Hex; reclaimAt: bigint }): { data: Hex; value: bigint } {
  const currency = parseAddress(params.currency, "currency");
  const amount = parseUint(params.amount, "amount");
  const id = parseBytes32(params.id, "id");
  const reclaimAt = parseUint(params.reclaimAt, "reclaimAt");
  if (currency === zeroAddress) {
    return { data: encodeFunctionData({ abi: DEPOSITORY_RECLAIM_ABI, functionName: DEPOSIT_NATIVE_RECLAIMABLE_FUNCTION, args: [id, reclaimAt] }), value: amount };
  }
  return { data: encodeFunctionData({ abi: DEPOSITORY_RECLAIM_ABI, functionName: "depositErc20Reclaimable", args: [currency, amount, id, reclaimAt] }), value: 0n };
}

/** The depositor's `reclaim` call for its deposit (sent from the depositor's account, from `reclaimAt` on). */
export function encodeReclaim(deposit: Omit<ReclaimableDeposit, "depositor">): Hex {
  return encodeFunctionData({
    abi: DEPOSITORY_RECLAIM_ABI,
    functionName: "reclaim",
    args: [parseBytes32(deposit.id, "id"), parseAddress(deposit.currency, "currency"), parseUint(deposit.amount, "amount"), parseUint(deposit.reclaimAt, "reclaimAt")],
  });
}

/** Reads a `DepositedReclaimable` log (its topics and data), or throws INVALID_INPUT (path `log`). */
export function decodeReclaimableDeposit(log: { topics: readonly Hex[]; data: Hex }): ReclaimableDeposit {
  let event;
  try {
    event = decodeEventLog({ abi: DEPOSITORY_RECLAIM_ABI, eventName: "DepositedReclaimable", topics: log.topics as [Hex, ...Hex[]], data: log.data });
  } catch (cause) {
    throw new InvalidInputError("not a DepositedReclaimable log", { path: "log", cause });
  }
  const { id, depositor, token, amount, reclaimAt } = event.args;
  return { id, depositor, currency: token, amount, reclaimAt };
}
