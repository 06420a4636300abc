/**
 * The Depository's deposit, as the indexer sees it: the `Deposited` event decoded from logs, and the
 * deposit call decoded from a transaction's input (for a deposit not yet mined: the direct forms and the
 * signature-authorised ones). Pure.
 */
import { decodeEventLog, decodeFunctionData, type Address, type Hex, type Log } from "viem";
import { canonicalAddress, canonicalHex, ZERO_ADDRESS } from "../../model/values.ts";
import { decodeDeposit } from "../../../core/depositCalldata.ts";
import { DEPOSITORY_DEPOSIT_ABI } from "../../../core/depositoryAbi.ts";
import { depositoryAbi } from "../../../abi/Depository.ts";

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

/**
 * A deposit call read from a transaction's input: the orderId it deposits under (amounts may be unknown
 * until mined); `relayed` for the signature-authorised forms (`depositErc20Permit`, `depositPermit2`),
 * which anyone may send for the depositor.
 */
export type DepositCall = { orderId: Hex; token: Address; amount: bigint | null; relayed: boolean };

/** The signature-authorised deposit functions (the full ABI's items: the core's fragments cover the direct forms only). */
const PERMIT_DEPOSIT_ABI = depositoryAbi.filter((item) => item.type === "function" && (item.name === "depositErc20Permit" || item.name === "depositPermit2"));

/** Decodes `input` as one of the Depository's deposit functions (direct or signature-authorised), or null. */
export function decodeDepositCall(input: Hex, value: bigint): DepositCall | null {
  return decodeDirectDepositCall(input, value) ?? decodePermitDepositCall(input);
}

function decodePermitDepositCall(input: Hex): DepositCall | null {
  try {
    const call = decodeFunctionData({ abi: PERMIT_DEPOSIT_ABI, data: input });
    if (call.functionName === "depositErc20Permit") {
      const [deposit] = call.args;
      return { orderId: canonicalHex(deposit.id), token: canonicalAddress(deposit.token), amount: deposit.amount, relayed: true };
    }
    if (call.functionName === "depositPermit2") {
      const [, token, amount, id] = call.args;
      return { orderId: canonicalHex(id), token: canonicalAddress(token), amount, relayed: true };
    }
    return null;
  } catch {
    return null;
  }
}

/** The direct forms (the sender-credited compact ones included), through ts/core's `decodeDeposit`. */
function decodeDirectDepositCall(input: Hex, value: bigint): DepositCall | null {
  let call;
  try {
    call = decodeDeposit(input);
  } catch {
    return null;
  }
  if (call.kind === "native") return { orderId: canonicalHex(call.id), token: ZERO_ADDRESS, amount: value, relayed: false };
  return { orderId: canonicalHex(call.id), token: canonicalAddress(call.token), amount: call.amount, relayed: false };
}
