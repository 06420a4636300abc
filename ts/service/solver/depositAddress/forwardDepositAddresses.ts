/**
 * The solver's deposit-address step for one origin chain: every strict address still `watching`
 * (../../store/depositAddresses.ts) whose payment is final is forwarded into the Depository by one
 * `deployAndForward`, after which the Depository's `Deposited` event makes it an ordinary request (the
 * indexer, ../indexer/). Strict only; a payment that cannot be forwarded (too little by the expiry,
 * late, another currency) is refunded to `refundTo` instead (./refundDepositAddresses.ts).
 *
 * Detection reads final blocks only (../../chains/chainFinality.ts: `confirmations` deep, and the
 * finality tag where configured), so a reorg shallower than that never makes the service forward a
 * payment that then disappears; a chain the deposit indexer halted after a deep reorg is left alone.
 * - **Paid**: the address's balance of the bound currency at the final block (`balanceOf`, or the native
 *   balance: a plain value transfer emits no log) covers the bound amount. A Transfer log from another
 *   token contract is never looked at: a "payment" in a token that is not the quoted currency moves
 *   nothing (the factory refuses it too: CurrencyMismatch).
 * - **When**: the first block at which the balance covered the amount (a binary search of balances at
 *   past final blocks, ./paymentSeen.ts), so lateness is judged by when the payer paid, not when the
 *   service looked. Paid after the quote's `expiresAt`, or not fully paid once a final block is past it
 *   (a payer may top up until then): not forwarded but refunded (./refundDepositAddresses.ts). Still
 *   unpaid an hour past the expiry, the address is read at a lower cadence (./checkCadence.ts): a late
 *   payment is still found and refunded, the expired addresses no longer cost reads on every pass.
 * - **Who, which transaction**: ERC-20, the `Transfer` log to the address in that block (the indexer's
 *   ranged scan, ../indexer/logScan.ts); native, the transaction of that block sending value to it, when
 *   it is a plain transfer (an internal transfer from a contract leaves them null).
 *
 * Forwarding, exactly once: the instruction's id is derived from the address's order alone
 * (`strictInstructionId`), the allocator signs it (EIP-712 of the factory, ts/core depositAddress.ts),
 * and it is sent through the solver's nonce manager (purpose `deposit-address-forward`, subject
 * `<chainId>:<address>`) whose store transaction also moves the row `watching` → `forwarding` with the
 * payment (a compare-and-set: a second replica, or this one after a kill -9, finds the row forwarded and
 * sends nothing; a transaction stored but not broadcast is re-broadcast by the nonce manager's follow).
 * Onchain, the factory's replay guard on (forwarder, id) refuses any second execution.
 */
import { encodeAbiParameters, encodeFunctionData, type Hex } from "viem";
import { depositAddressFactoryAbi } from "../../../abi/DepositAddressFactory.ts";
import { depositAddressArgs, forwardInstructionArgs, signForwardInstruction, strictDepositAddress, type ForwardInstruction } from "../../../core/depositAddress.ts";
import type { ChainClient } from "../../chains/chainClients.ts";
import { readChainFinality } from "../../chains/chainFinality.ts";
import { type Address, type Bytes32 } from "../../model/values.ts";
import { keccak256Lowercase } from "../../../core/lowercaseHex.ts";
import type { StoredDepositAddress } from "../../store/depositAddresses.ts";
import { balanceAt, paymentSeen } from "./paymentSeen.ts";
import { planExcessRefunds } from "./misroutePlan.ts";
import { decideElsewhere, heldAt, planDepositAddressRefunds } from "./refundDepositAddresses.ts";
import { nextDepositAddressCheck } from "./checkCadence.ts";
import type { SolverContext } from "../solverContext.ts";

/** The most one forwarding may use: the ERC-20 bench budget with room (a cold token, a fee-on-transfer). */
export const FORWARD_MAX_GAS = 250_000n;

/** How long a signed instruction stays valid: the nonce manager may re-broadcast it for a while. */
export const INSTRUCTION_LIFETIME_SECONDS = 7n * 24n * 3600n;

/** Addresses read per chain and pass. */
const BATCH = 50;

/** The instruction id of a strict address: one deposit per address, whatever is paid and however often it is retried. */
export function strictInstructionId(orderId: Bytes32): Bytes32 {
  return keccak256Lowercase(encodeAbiParameters([{ type: "string" }, { type: "bytes32" }], ["ferry/deposit-address/strict/deposit", orderId]));
}

export type ForwardOutcome = { address: Address; outcome: "forwarded" | "unpaid" | "refunding" | "already-forwarded" | "already-decided" | "decided-elsewhere"; hash?: Bytes32 };

export async function forwardDepositAddresses(ctx: SolverContext, client: ChainClient): Promise<ForwardOutcome[]> {
  const chainId = client.config.id;
  const factory = client.config.contracts.depositAddressFactory;
  if (!factory) return [];
  const checkpoint = await ctx.store.getIndexerCheckpoint(chainId, client.config.contracts.depository);
  if (checkpoint?.halted) return [];
  const watching = await ctx.store.listWatchingDepositAddresses(chainId, BATCH, ctx.now());
  if (watching.length === 0) return [];
  const { final } = await readChainFinality(client);
  const { timestamp } = await client.publicClient.getBlock({ blockNumber: final });
  const outcomes: ForwardOutcome[] = [];
  for (const row of watching) outcomes.push(await forwardOne(ctx, client, row, final, timestamp));
  return outcomes;
}

async function forwardOne(ctx: SolverContext, client: ChainClient, row: StoredDepositAddress, final: bigint, finalTimestamp: bigint): Promise<ForwardOutcome> {
  const expired = Number(finalTimestamp) > Date.parse(row.expiresAt) / 1000;
  if ((await balanceAt(client, row.address, row.currency, final)) < row.amount) {
    // Too little, or nothing: a payer may still top up until the quote expires (on the chain's final blocks); then refunded.
    if (!expired) return { address: row.address, outcome: "unpaid" };
    const planned = await planDepositAddressRefunds(ctx, client, row, { final, boundLate: false });
    // Nothing here, but paid (and refunded) on another chain: the quote ends in that refund (./otherChainPayments.ts).
    if (planned.outcome === "unpaid" && (await decideElsewhere(ctx, row, finalTimestamp))) return { address: row.address, outcome: "decided-elsewhere" };
    // Nothing there long after the expiry: read at a lower cadence from now on (./checkCadence.ts).
    const next = planned.outcome === "unpaid" ? nextDepositAddressCheck(row.expiresAt, ctx.now()) : null;
    if (next) await ctx.store.setDepositAddressNextCheck({ chainId: row.chainId, address: row.address }, next);
    return planned;
  }
  const payment = await paymentSeen(client, { address: row.address, token: row.currency, threshold: row.amount, final });
  if (payment.blockTimestamp > Date.parse(row.expiresAt) / 1000) return planDepositAddressRefunds(ctx, client, row, { final, boundLate: true });
  const { publicClient } = client;
  const block = { timestamp: BigInt(payment.blockTimestamp) };

  const params = strictDepositAddress({ refundTo: row.refundTo, orderId: row.orderId, currency: row.currency, amount: row.amount });
  const id = strictInstructionId(row.orderId);
  const used = await publicClient.readContract({ address: row.factory, abi: depositAddressFactoryAbi, functionName: "instructionUsed", args: [row.address, id] });
  if (used) {
    // Forwarded onchain already (a row restored from an old backup): record it, send nothing.
    await ctx.store.markDepositAddressForwarding({ chainId: row.chainId, address: row.address }, { instructionId: id, payment });
    return { address: row.address, outcome: "already-forwarded" };
  }
  const instruction: ForwardInstruction = {
    action: "deposit",
    orderId: row.orderId,
    token: row.currency,
    amount: row.amount,
    id,
    deadline: block.timestamp + INSTRUCTION_LIFETIME_SECONDS,
  };
  const signature = await signForwardInstruction({ account: ctx.allocator, chainId: row.chainId, factory: row.factory, forwarder: row.address, instruction });
  const data: Hex = encodeFunctionData({
    abi: depositAddressFactoryAbi,
    functionName: "deployAndForward",
    args: [depositAddressArgs(params), forwardInstructionArgs(instruction), signature],
  });
  // Anything besides the bound payment (an overpayment's excess, another currency) is refunded after it (./refundDepositAddresses.ts).
  const refunds = planExcessRefunds({
    orderId: row.orderId,
    currency: row.currency,
    held: await heldAt(client, row.address, final, { token: row.currency, amount: row.amount }),
    chain: client.config,
    strayRefundMinimumUsd: ctx.settings.strayRefundMinimumUsd,
    finalBlock: Number(final),
  });
  const sent = await ctx.transactions.send({
    chainId: row.chainId,
    purpose: "deposit-address-forward",
    subject: `${row.chainId}:${row.address}`,
    tx: { to: row.factory, data, maxGas: FORWARD_MAX_GAS },
    record: async (_sent, repos) => {
      if (!(await repos.markDepositAddressForwarding({ chainId: row.chainId, address: row.address }, { instructionId: id, payment, refunds }))) {
        throw new DepositAddressAlreadyForwardedError(row.chainId, row.address);
      }
    },
    ...(ctx.signal && { signal: ctx.signal }),
    logFields: { requestId: row.requestId, depositAddress: row.address },
  });
  ctx.log.info({ chainId: row.chainId, depositAddress: row.address, requestId: row.requestId, hash: sent.hash }, "deposit address payment forwarded into the Depository");
  return { address: row.address, outcome: "forwarded", hash: sent.hash };
}

/** Another replica (or this one before a restart) moved the row first: nothing was sent. */
export class DepositAddressAlreadyForwardedError extends Error {
  readonly code = "DEPOSIT_ADDRESS_ALREADY_FORWARDED";
  constructor(chainId: number, address: Address) {
    super(`deposit address ${address} on chain ${chainId} is already forwarded`);
  }
}
