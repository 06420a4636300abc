/**
 * The Depository's deposit, as the indexer sees it: the `Deposited` event decoded from logs, and the
 * deposit call decoded from a transaction's input (for a deposit not yet mined). Pure.
 */
import { decodeEventLog, decodeFunctionData, getAddress, type Address, type Hex, type Log } from "viem";
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
    const args = decoded.args as { id: Hex; depositor: Address; token: Address; amount: bigint };
    out.push({
      chainId,
      depository: getAddress(depository),
      orderId: args.id.toLowerCase() as Hex,
      depositor: args.depositor.toLowerCase() as Address,
      token: args.token.toLowerCase() as Address,
      amount: args.amount,
      txHash: log.transactionHash.toLowerCase() as Hex,
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
  try {
    const { functionName, args } = decodeFunctionData({ abi: DEPOSITORY_DEPOSIT_ABI, data: input });
    if (functionName === "depositNative") {
      const [, id] = args as readonly [Address, Hex];
      return { orderId: id.toLowerCase() as Hex, token: "0x0000000000000000000000000000000000000000", amount: value };
    }
    if (args.length === 4) {
      const [, token, amount, id] = args as readonly [Address, Address, bigint, Hex];
      return { orderId: id.toLowerCase() as Hex, token: token.toLowerCase() as Address, amount };
    }
    const [, token, id] = args as readonly [Address, Address, Hex];
    return { orderId: id.toLowerCase() as Hex, token: token.toLowerCase() as Address, amount: null };
  } catch {
    return null;
  }
}
