/**
 * Payments into a strict deposit address after its one decision — a second payment after the first was
 * forwarded, or any payment after the address was refunded — refunded to `refundTo` (issue 23 item 4).
 * Without this step they would stay at the address for good (it only ever pays the Depository or
 * `refundTo`, and the service stopped reading it).
 *
 * - **Which addresses**: `forwarding` (once the forwarding instruction is executed at a final block:
 *   before that the bound payment itself is still there) and `refunded` rows with no refund under way,
 *   due for a read (./checkCadence.ts: every pass until the quote's expiry plus a grace, then hourly,
 *   then daily; the next read is stored on the row).
 * - **What is new**: per watched currency (./misroutePlan.ts `watchedCurrencies`), the balance at the
 *   final block minus what is known to be left there — the `ignored` refunds (below the threshold)
 *   recorded since the last refund that swept the currency. Anything above that arrived after the
 *   decision.
 * - **The refund**: the whole balance of that currency (a sweep: dust left earlier goes with it), when it
 *   reaches the currency's `strayRefundMinimum`; else only the new part is recorded `ignored`
 *   (AMOUNT_TOO_LOW_TO_REFUND), as strays are. Reason: the bound currency after a forwarding
 *   `DOUBLE_SPEND` (the order was paid already), after a refund `ORDER_EXPIRED` (an address is refunded
 *   only once its quote expired); another currency `INCORRECT_DEPOSIT_CURRENCY`.
 * - **Exactly once**: the entries are appended with a compare-and-set on the number of refunds the row
 *   had when read (../../store/depositAddresses.ts `addDepositAddressLaterRefunds`), so two replicas or
 *   a restart plan a later payment once; the instruction id is derived from the order, the currency and
 *   that currency's count of entries (`laterRefundInstructionId`), so it is new for every later refund
 *   and the factory's replay guard still refuses a second execution of each. Sending and confirming
 *   are ./refundDepositAddresses.ts's, as for every refund; the request keeps the address's first
 *   outcome, the later refunds are recorded on the address.
 */
import { encodeAbiParameters } from "viem";
import { depositAddressFactoryAbi } from "../../../abi/DepositAddressFactory.ts";
import { keccak256Lowercase } from "../../../core/lowercaseHex.ts";
import type { ChainClient } from "../../chains/chainClients.ts";
import { readChainFinality } from "../../chains/chainFinality.ts";
import { type Address, type Bytes32 } from "../../model/values.ts";
import type { StoredDepositAddress } from "../../store/depositAddresses.ts";
import type { SolverContext } from "../solverContext.ts";
import { nextDepositAddressCheck } from "./checkCadence.ts";
import { strictInstructionId } from "./forwardDepositAddresses.ts";
import { knownLeft, planSweepRefunds, watchedCurrencies, type Balance } from "./misroutePlan.ts";
import { balanceAt, paymentSeen } from "./paymentSeen.ts";
import { FORWARDED_EVENT } from "./refundDepositAddresses.ts";
import { scanLogs } from "../indexer/logScan.ts";

/** Addresses read per chain and pass. */
const BATCH = 50;

export type LaterPaymentOutcome = { address: Address; outcome: "none" | "refunding" | "already-decided" | "forward-not-final" };

/** The instruction id of the `n`th refund (0-based, per currency) of a strict address's `token`, after its decision. */
export function laterRefundInstructionId(orderId: Bytes32, token: Address, n: number): Bytes32 {
  return keccak256Lowercase(
    encodeAbiParameters([{ type: "string" }, { type: "bytes32" }, { type: "address" }, { type: "uint256" }], ["ferry/deposit-address/strict/later-refund", orderId, token, BigInt(n)]),
  );
}

export async function refundLaterPayments(ctx: SolverContext, client: ChainClient): Promise<LaterPaymentOutcome[]> {
  if (!client.config.contracts.depositAddressFactory) return [];
  const checkpoint = await ctx.store.getIndexerCheckpoint(client.config.id, client.config.contracts.depository);
  if (checkpoint?.halted) return [];
  const rows = await ctx.store.listSettledDepositAddresses(client.config.id, ctx.now(), BATCH);
  if (rows.length === 0) return [];
  const { final } = await readChainFinality(client);
  const outcomes: LaterPaymentOutcome[] = [];
  for (const row of rows) outcomes.push(await checkOne(ctx, client, row, final));
  return outcomes;
}

/**
 * The last block where the address's decision moved funds out of it (the forwarding's `Forwarded`
 * event, each confirmed refund's transaction) or recorded what stays (an ignored refund's plan): the
 * balance has only grown since, so the later payment is searched for after it (./paymentSeen.ts).
 */
async function settledAt(client: ChainClient, row: StoredDepositAddress, final: bigint): Promise<bigint> {
  let at = 0n;
  if (row.state === "forwarding" && row.payment) {
    const id = row.instructionId ?? strictInstructionId(row.orderId);
    const logs = await scanLogs(client, { address: row.factory, event: FORWARDED_EVENT, args: { forwarder: row.address, id } }, BigInt(row.payment.blockNumber), final);
    if (logs[0]?.blockNumber) at = logs[0].blockNumber;
  }
  for (const refund of row.refunds ?? []) {
    if (refund.state === "confirmed" && refund.txHash) {
      const { blockNumber } = await client.publicClient.getTransactionReceipt({ hash: refund.txHash });
      if (blockNumber > at) at = blockNumber;
    } else if (BigInt(refund.plannedAtBlock) > at) at = BigInt(refund.plannedAtBlock);
  }
  return at;
}

async function checkOne(ctx: SolverContext, client: ChainClient, row: StoredDepositAddress, final: bigint): Promise<LaterPaymentOutcome> {
  const key = { chainId: row.chainId, address: row.address };
  if (row.state === "forwarding") {
    const id = row.instructionId ?? strictInstructionId(row.orderId);
    const executed = await client.publicClient.readContract({ address: row.factory, abi: depositAddressFactoryAbi, functionName: "instructionUsed", args: [row.address, id], blockNumber: final });
    if (!executed) return { address: row.address, outcome: "forward-not-final" };
  }
  const refunds = row.refunds ?? [];
  const balances: Balance[] = [];
  let from: bigint | undefined;
  for (const token of watchedCurrencies(client.config)) {
    const balance = await balanceAt(client, row.address, token, final);
    if (balance <= knownLeft(refunds, token)) continue;
    balances.push({ token, balance, payment: await paymentSeen(client, { address: row.address, token, threshold: balance, final, from: (from ??= await settledAt(client, row, final)) }) });
  }
  const later = planSweepRefunds({
    refunds,
    balances,
    chain: client.config,
    strayRefundMinimumUsd: ctx.settings.strayRefundMinimumUsd,
    finalBlock: Number(final),
    reason: (token) => (token !== row.currency ? "INCORRECT_DEPOSIT_CURRENCY" : row.state === "forwarding" ? "DOUBLE_SPEND" : "ORDER_EXPIRED"),
    instructionId: (token, n) => laterRefundInstructionId(row.orderId, token, n),
  });
  if (later.length === 0) {
    const next = nextDepositAddressCheck(row.expiresAt, ctx.now());
    if (next) await ctx.store.setDepositAddressNextCheck(key, next);
    return { address: row.address, outcome: "none" };
  }
  if (!(await ctx.store.addDepositAddressLaterRefunds(key, refunds.length, later))) return { address: row.address, outcome: "already-decided" };
  ctx.log.info(
    { chainId: row.chainId, depositAddress: row.address, requestId: row.requestId, refunds: later.map((r) => ({ token: r.token, amount: r.amount.toString(), reason: r.reason, state: r.state })) },
    "deposit address paid again after its decision: refunding to refundTo",
  );
  return { address: row.address, outcome: "refunding" };
}
