/**
 * The Depository's deposit, as the indexer sees it: the `Deposited` and `DepositedReclaimable` events
 * decoded from logs, and the
 * deposit call decoded from a transaction's input (for a deposit not yet mined: the direct forms and the
 * signature-authorised ones). Pure.
 */
import { decodeEventLog, decodeFunctionData, type Hex, type Log } from "viem";
import { canonicalFields, ZERO_ADDRESS, type Address, type Bytes32 } from "../../model/values.ts";
import { decodeDeposit } from "../../../core/depositCalldata.ts";
import { DEPOSITORY_DEPOSIT_ABI } from "../../../core/depositoryAbi.ts";
import { depositoryAbi } from "../../../abi/Depository.ts";
import { DEPOSITORY_RECLAIM_ABI } from "../../../core/reclaimableDeposit.ts";

type DepositoryItem = (typeof DEPOSITORY_DEPOSIT_ABI)[number];

/** The `Deposited(bytes32 indexed id, address indexed depositor, address token, uint256 amount)` ABI item. */
export const DEPOSITED_EVENT = DEPOSITORY_DEPOSIT_ABI.find((item): item is Extract<DepositoryItem, { type: "event" }> => item.type === "event")!;

type ReclaimItem = (typeof DEPOSITORY_RECLAIM_ABI)[number];

/** `DepositedReclaimable(bytes32 indexed id, address depositor, address token, uint256 amount, uint256 reclaimAt)`: a reclaimable deposit. */
export const DEPOSITED_RECLAIMABLE_EVENT = DEPOSITORY_RECLAIM_ABI.find((item): item is Extract<ReclaimItem, { type: "event" }> => item.type === "event")!;

/** Both events a deposit emits: what the indexer's log scan asks for. */
export const DEPOSIT_EVENTS = [DEPOSITED_EVENT, DEPOSITED_RECLAIMABLE_EVENT] as const;

/** One `Deposited` log: what actually arrived at the Depository under `orderId`. */
export type DepositLog = {
  chainId: number;
  depository: Address;
  orderId: Bytes32;
  depositor: Address;
  /** Zero address = native. */
  token: Address;
  amount: bigint;
  txHash: Bytes32;
  logIndex: number;
  blockNumber: bigint;
  blockHash: Bytes32;
  /** A reclaimable deposit's reclaim time (`DepositedReclaimable`); absent for a plain `Deposited`. */
  reclaimAt?: bigint;
};

/**
 * The `Deposited` and `DepositedReclaimable` logs of `depository` among `logs` (other contracts' and
 * other events' logs are skipped), decoded once: every address, id and hash canonical.
 */
export function decodeDepositLogs(chainId: number, depository: Address, logs: readonly Log[]): DepositLog[] {
  const out: DepositLog[] = [];
  for (const raw of logs) {
    if (raw.blockNumber === null || raw.transactionHash === null || raw.blockHash === null) continue;
    let decoded;
    try {
      decoded = decodeEventLog({ abi: DEPOSIT_EVENTS, data: raw.data, topics: raw.topics, strict: true });
    } catch {
      continue;
    }
    const reclaimAt = decoded.eventName === "DepositedReclaimable" ? decoded.args.reclaimAt : undefined;
    const args = canonicalFields({ id: decoded.args.id, depositor: decoded.args.depositor, token: decoded.args.token, amount: decoded.args.amount, emitter: raw.address, transactionHash: raw.transactionHash, blockHash: raw.blockHash });
    if (args.emitter !== depository) continue;
    out.push({
      chainId,
      depository,
      orderId: args.id,
      depositor: args.depositor,
      token: args.token,
      amount: args.amount,
      txHash: args.transactionHash,
      logIndex: raw.logIndex ?? 0,
      blockNumber: raw.blockNumber,
      blockHash: args.blockHash,
      ...(reclaimAt !== undefined && { reclaimAt }),
    });
  }
  return out;
}

/**
 * A deposit call read from a transaction's input: the orderId it deposits under (amounts may be unknown
 * until mined); `relayed` for the signature-authorised forms (`depositErc20Permit`, `depositPermit2`),
 * which anyone may send for the depositor.
 */
export type DepositCall = { orderId: Bytes32; token: Address; amount: bigint | null; relayed: boolean; reclaimAt?: bigint };

/** The signature-authorised deposit functions (the full ABI's items: the core's fragments cover the direct forms only). */
const PERMIT_DEPOSIT_ABI = depositoryAbi.filter((item) => item.type === "function" && (item.name === "depositErc20Permit" || item.name === "depositPermit2"));

/** Decodes `input` as one of the Depository's deposit functions (direct or signature-authorised), or null: its orderId and token canonical. */
export function decodeDepositCall(input: Hex, value: bigint): DepositCall | null {
  const call = decodeDirectDepositCall(input, value) ?? decodePermitDepositCall(input);
  return call && { ...call, ...canonicalFields({ orderId: call.orderId, token: call.token }) };
}

/** A deposit call as decoded, its orderId and token as the input spells them. */
type RawDepositCall = { orderId: Hex; token: Hex; amount: bigint | null; relayed: boolean; reclaimAt?: bigint };

function decodePermitDepositCall(input: Hex): RawDepositCall | null {
  try {
    const call = decodeFunctionData({ abi: PERMIT_DEPOSIT_ABI, data: input });
    const fields = call.functionName === "depositErc20Permit" ? call.args[0] : call.functionName === "depositPermit2" ? { id: call.args[3], token: call.args[1], amount: call.args[2] } : null;
    if (!fields) return null;
    return { orderId: fields.id, token: fields.token, amount: fields.amount, relayed: true };
  } catch {
    return null;
  }
}

/** The direct forms (the sender-credited compact ones included), through ts/core's `decodeDeposit`. */
function decodeDirectDepositCall(input: Hex, value: bigint): RawDepositCall | null {
  let call;
  try {
    call = decodeDeposit(input);
  } catch {
    return null;
  }
  const reclaim = call.reclaimAt !== undefined ? { reclaimAt: call.reclaimAt } : {};
  if (call.kind === "native") return { orderId: call.id, token: ZERO_ADDRESS, amount: value, relayed: false, ...reclaim };
  return { orderId: call.id, token: call.token, amount: call.amount, relayed: false, ...reclaim };
}
