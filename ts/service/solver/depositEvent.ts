/**
 * The Depository's deposit, as the indexer sees it: the `Deposited` event decoded from logs, and the
 * deposit call decoded from a transaction's input (for a deposit not yet mined). Pure.
 */
import { decodeEventLog, type Address, type Hex, type Log } from "viem";
import { canonicalAddress, canonicalHex, ZERO_ADDRESS } from "../model/values.ts";
import { decodeDeposit } from "../../core/depositCalldata.ts";
import { DEPOSITORY_DEPOSIT_ABI } from "../../core/depositoryAbi.ts";

type DepositoryItem = (typeof DEPOSITORY_DEPOSIT_ABI)[number];

/** The `Deposited(bytes32 indexed id, address indexed depositor, address token, uint256 amount)` ABI item. */
export const DEPOSITED_EVENT = DEPOSITORY_DEPOSIT_ABI.find((item): item is Extract<DepositoryItem, { type: "event" }> => item.type === "event")!;

/** One `Deposited` log: what actually arrived at the Depository under `orderId`. */
export type DepositLog = {
  chainId: number;
  depository: Address;
  orderId: Hex;
  depositor: Address;
  /** Zero address = native. */
  token: Address;
  amount: bigint;
  txHash: Hex;
  logIndex: number;
  blockNumber: bigint;
  blockHash: Hex;
};

/** The `Deposited` logs of `depository` among `logs` (other contracts' and other events' logs are skipped). */
export function decodeDepositLogs(chainId: number, depository: Address, logs: readonly Log[]): DepositLog[] {
  const out: DepositLog[] = [];
  for (const log of logs) {
    if (log.address.toLowerCase() !== depository.toLowerCase() || log.blockNumber === null || log.transactionHash === null) continue;
    let decoded;
    try {
      decoded = decodeEventLog({ abi: [DEPOSITED_EVENT], data: log.data, topics: log.topics, strict: true });
    } catch {
      continue;
    }
    const { args } = decoded;
    out.push({
      chainId,
      depository: canonicalAddress(depository),
      orderId: canonicalHex(args.id),
      depositor: canonicalAddress(args.depositor),
      token: canonicalAddress(args.token),
      amount: args.amount,
      txHash: canonicalHex(log.transactionHash),
      logIndex: log.logIndex ?? 0,
      blockNumber: log.blockNumber,
      blockHash: log.blockHash!,
    });
  }
  return out;
}

/** A deposit call read from a transaction's input: the orderId it deposits under (amounts may be unknown until mined). */
export type DepositCall = { orderId: Hex; token: Address; amount: bigint | null };

/** Decodes `input` as one of the Depository's deposit functions, or null. */
export function decodeDepositCall(input: Hex, value: bigint): DepositCall | null {
  let call;
  try {
    call = decodeDeposit(input);
  } catch {
    return null;
  }
  if (call.kind === "native") return { orderId: canonicalHex(call.id), token: ZERO_ADDRESS, amount: value };
  return { orderId: canonicalHex(call.id), token: canonicalAddress(call.token), amount: call.amount };
}
