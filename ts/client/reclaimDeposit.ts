/**
 * The depositor's one-transaction reclaim of a reclaimable deposit (ts/core reclaimableDeposit.ts): if
 * the allocator has not released the deposit by its reclaim time, its depositor takes it back from the
 * origin chain's Depository alone — no service, no other chain. `findReclaimableDeposit` reads the
 * deposit's `DepositedReclaimable` event by orderId and whether its commitment is still live;
 * `reclaimDeposit` checks it can succeed (live, sent by the depositor, its time reached on the chain)
 * and sends `reclaim` from the wallet, waiting for the receipt.
 */
import { publicActions, type Account, type Address, type Chain, type Hash, type Hex, type PublicClient, type Transport, type WalletClient } from "viem";
import { FerryError } from "../core/errors.ts";
import { DEPOSITORY_RECLAIM_ABI, decodeReclaimableDeposit, encodeReclaim, reclaimCommitment, type ReclaimableDeposit } from "../core/reclaimableDeposit.ts";

export const ReclaimErrorCode = {
  /** No `DepositedReclaimable` event under this orderId at this Depository. */
  RECLAIM_NOT_FOUND: "RECLAIM_NOT_FOUND",
  /** The commitment is gone: the allocator released the deposit (the order was repaid or refunded) or it was reclaimed. */
  RECLAIM_NOT_LIVE: "RECLAIM_NOT_LIVE",
  /** The wallet is not the deposit's depositor (only the depositor can reclaim). */
  RECLAIM_NOT_DEPOSITOR: "RECLAIM_NOT_DEPOSITOR",
  /** The origin chain's latest block is before the deposit's reclaim time. */
  RECLAIM_NOT_YET: "RECLAIM_NOT_YET",
  /** The reclaim transaction reverted. */
  RECLAIM_REVERTED: "RECLAIM_REVERTED",
} as const;
export type ReclaimErrorCode = (typeof ReclaimErrorCode)[keyof typeof ReclaimErrorCode];

export class ReclaimError extends FerryError {
  constructor(code: ReclaimErrorCode, message: string, options: { cause?: unknown } = {}) {
    super(code, message, { cause: options.cause, retryable: code === ReclaimErrorCode.RECLAIM_NOT_YET });
  }
}

type Reader = Pick<PublicClient, "getLogs" | "readContract" | "getBlock">;

/** The reclaimable deposit under `id` at `depository` (its latest `DepositedReclaimable`), and whether its commitment is live. */
export async function findReclaimableDeposit(options: { publicClient: Reader; depository: Address; id: Hex; fromBlock?: bigint }): Promise<ReclaimableDeposit & { live: boolean }> {
  const { publicClient, depository, id } = options;
  const event = DEPOSITORY_RECLAIM_ABI.find((entry) => entry.type === "event" && entry.name === "DepositedReclaimable")!;
  const logs = await publicClient.getLogs({ address: depository, event, args: { id }, fromBlock: options.fromBlock ?? 0n, toBlock: "latest" });
  const last = logs.at(-1);
  if (last === undefined) throw new ReclaimError(ReclaimErrorCode.RECLAIM_NOT_FOUND, `no reclaimable deposit under ${id} at ${depository}`);
  const deposit = decodeReclaimableDeposit({ topics: last.topics as Hex[], data: last.data });
  const stored = await publicClient.readContract({ address: depository, abi: DEPOSITORY_RECLAIM_ABI, functionName: "reclaimCommitment", args: [id] });
  return { ...deposit, live: stored.toLowerCase() === reclaimCommitment(deposit) };
}

/** Sends the depositor's `reclaim` of the deposit under `id` from `walletClient` (its account must be the depositor) and waits for it. */
export async function reclaimDeposit(options: {
  walletClient: WalletClient<Transport, Chain | undefined, Account>;
  publicClient?: Reader & Pick<PublicClient, "waitForTransactionReceipt">;
  depository: Address;
  id: Hex;
  fromBlock?: bigint;
}): Promise<{ txHash: Hash; deposit: ReclaimableDeposit }> {
  const { walletClient, depository, id } = options;
  const publicClient = options.publicClient ?? walletClient.extend(publicActions);
  const deposit = await findReclaimableDeposit({ publicClient, depository, id, fromBlock: options.fromBlock });
  if (!deposit.live) throw new ReclaimError(ReclaimErrorCode.RECLAIM_NOT_LIVE, `the deposit under ${id} was released or already reclaimed`);
  if (deposit.depositor.toLowerCase() !== walletClient.account.address.toLowerCase()) {
    throw new ReclaimError(ReclaimErrorCode.RECLAIM_NOT_DEPOSITOR, `only ${deposit.depositor} can reclaim the deposit under ${id}`);
  }
  // The next block's timestamp is at least the latest one's: reclaimable once the latest has reached it.
  const latest = await publicClient.getBlock({ blockTag: "latest" });
  if (latest.timestamp < deposit.reclaimAt) {
    throw new ReclaimError(ReclaimErrorCode.RECLAIM_NOT_YET, `the deposit under ${id} is reclaimable from ${deposit.reclaimAt} (chain time ${latest.timestamp})`);
  }
  const txHash = await walletClient.sendTransaction({
    account: walletClient.account,
    chain: walletClient.chain ?? null,
    to: depository,
    data: encodeReclaim({ id, currency: deposit.currency, amount: deposit.amount, reclaimAt: deposit.reclaimAt }),
  } as Parameters<typeof walletClient.sendTransaction>[0]);
  const receipt = await publicClient.waitForTransactionReceipt({ hash: txHash });
  if (receipt.status !== "success") throw new ReclaimError(ReclaimErrorCode.RECLAIM_REVERTED, `reclaim ${txHash} reverted`);
  return { txHash, deposit: { id, depositor: deposit.depositor, currency: deposit.currency, amount: deposit.amount, reclaimAt: deposit.reclaimAt } };
}
