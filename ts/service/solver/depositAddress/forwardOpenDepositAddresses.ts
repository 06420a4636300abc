/**
 * The solver's step for the open deposit addresses of one origin chain (one reusable address per refund
 * recipient and route, ../../store/openDepositAddresses.ts). Every payment into one becomes its own
 * request:
 *
 * 1. **Find** (`scanOpenAddress`): the payments between the address's scan cursor and the chain's final
 *    block (./openPayments.ts: one per ERC-20 Transfer log, one per block whose native balance rose),
 *    stored with the cursor's move in one store transaction (a compare-and-set on the cursor: found once).
 * 2. **Re-quote** each `detected` payment through the service's own quote path (../../quote/
 *    quoteService.ts): EXACT_INPUT for the currency and amount actually paid, at the price and gas of
 *    now, the forwarding gas included (`relayerGas`), the route's user, recipient, app fees and referrer,
 *    the address's API key. The quote is stored like any other (its own requestId and orderId).
 * 3. **Forward** it exactly once, as a strict address is (./forwardDepositAddresses.ts): the allocator
 *    signs a Deposit instruction naming the new orderId, with an id derived from the payment's key
 *    (`openInstructionId`: the factory's replay guard on (forwarder, id) refuses a second execution
 *    whatever order a second attempt would name), sent through the nonce manager (purpose
 *    `deposit-address-forward`) whose store transaction moves the payment `detected` → `forwarding`
 *    (a compare-and-set: a second replica, or this one after a kill -9, sends nothing). The Depository's
 *    `Deposited` event then makes it an ordinary request (the indexer), which fills.
 *
 * A payment that cannot be re-quoted — a refusal that is not transient (`retryable` false in the error
 * registry: below the minimum, the route or a chain switched off, the price guard, an amount the solver
 * cannot fill) — is refunded to `refundTo`, whole, from the address (./openPaymentRefunds.ts), its
 * reason the quote's error code. A transient refusal (a chain not answering) is retried next pass.
 */
import { encodeAbiParameters, encodeFunctionData, getAddress, type Hex } from "viem";
import { depositAddressFactoryAbi } from "../../../abi/DepositAddressFactory.ts";
import { depositAddressArgs, forwardInstructionArgs, signForwardInstruction, type ForwardInstruction } from "../../../core/depositAddress.ts";
import { isFerryError } from "../../../core/errors.ts";
import { keccak256Lowercase } from "../../../core/lowercaseHex.ts";
import type { ChainClient } from "../../chains/chainClients.ts";
import { readChainFinality } from "../../chains/chainFinality.ts";
import { errorPolicy } from "../../errors/errorRegistry.ts";
import { errorFields } from "../../logging/logger.ts";
import type { Address, Bytes32 } from "../../model/values.ts";
import type { StoredOpenDepositAddress, StoredOpenPayment } from "../../store/openDepositAddresses.ts";
import type { SolverContext } from "../solverContext.ts";
import { FORWARD_MAX_GAS, INSTRUCTION_LIFETIME_SECONDS } from "./forwardDepositAddresses.ts";
import { planOpenPaymentRefund } from "./openPaymentRefunds.ts";
import { openAddressParams, openPaymentsBetween } from "./openPayments.ts";

/** Addresses scanned, and payments handled, per chain and pass. */
const BATCH = 50;

/** The most blocks one address's scan covers per pass (the rest next pass). */
const MAX_SCAN_BLOCKS = 2_000n;

/** The instruction id of one payment into an open address: one deposit per payment, whatever order it names and however often it is retried. */
export function openInstructionId(paymentKey: string): Bytes32 {
  return keccak256Lowercase(encodeAbiParameters([{ type: "string" }, { type: "string" }], ["ferry/deposit-address/open/deposit", paymentKey]));
}

export type OpenForwardOutcome = {
  address: Address;
  paymentKey?: string;
  outcome: "scanned" | "forwarded" | "refunding" | "retry" | "already-forwarded" | "already-decided";
  requestId?: Bytes32;
  hash?: Bytes32;
};

export async function forwardOpenDepositAddresses(ctx: SolverContext, client: ChainClient): Promise<OpenForwardOutcome[]> {
  const chainId = client.config.id;
  if (!client.config.contracts.depositAddressFactory || !ctx.quotes) return [];
  const checkpoint = await ctx.store.getIndexerCheckpoint(chainId, client.config.contracts.depository);
  if (checkpoint?.halted) return [];
  const addresses = await ctx.store.listOpenDepositAddresses(chainId, BATCH);
  if (addresses.length === 0) return [];
  const { final } = await readChainFinality(client);
  const outcomes: OpenForwardOutcome[] = [];
  for (const row of addresses) {
    const scanned = await scanOpenAddress(ctx, client, row, final);
    if (scanned) outcomes.push(scanned);
  }
  const byAddress = new Map(addresses.map((a) => [a.address, a]));
  for (const payment of await ctx.store.listOpenPaymentWork(chainId, BATCH)) {
    if (payment.state !== "detected") continue;
    const row = byAddress.get(payment.address) ?? (await ctx.store.getOpenDepositAddress(chainId, payment.address));
    if (row) outcomes.push(await forwardPayment(ctx, client, row, payment));
  }
  return outcomes;
}

/** Step 1 for one address: its payments up to `final`, stored with the cursor. */
async function scanOpenAddress(ctx: SolverContext, client: ChainClient, row: StoredOpenDepositAddress, final: bigint): Promise<OpenForwardOutcome | undefined> {
  const from = BigInt(row.scannedBlock ?? 0);
  if (final <= from) return undefined;
  const to = final - from > MAX_SCAN_BLOCKS ? from + MAX_SCAN_BLOCKS : final;
  const payments = await openPaymentsBetween(client, { address: row.address, factory: row.factory, from, to });
  const moved = await ctx.store.transaction((tx) => tx.recordOpenPayments({ chainId: row.chainId, address: row.address }, { from: row.scannedBlock, to: Number(to), payments }));
  if (!moved) return { address: row.address, outcome: "already-decided" };
  if (payments.length > 0) {
    ctx.log.info(
      { chainId: row.chainId, depositAddress: row.address, payments: payments.map((p) => ({ key: p.paymentKey, token: p.payment.token, amount: p.payment.amount.toString() })) },
      "open deposit address: payments found",
    );
  }
  return { address: row.address, outcome: "scanned" };
}

/** Steps 2 and 3 for one payment. */
async function forwardPayment(ctx: SolverContext, client: ChainClient, row: StoredOpenDepositAddress, payment: StoredOpenPayment): Promise<OpenForwardOutcome> {
  const key = { chainId: row.chainId, address: row.address, paymentKey: payment.paymentKey };
  const base = { address: row.address, paymentKey: payment.paymentKey };
  const id = openInstructionId(payment.paymentKey);
  if (await client.publicClient.readContract({ address: row.factory, abi: depositAddressFactoryAbi, functionName: "instructionUsed", args: [row.address, id] })) {
    // Executed onchain already (a store restored from an old backup): nothing more is sent for it.
    ctx.log.warn({ chainId: row.chainId, depositAddress: row.address, paymentKey: payment.paymentKey }, "open deposit address payment already forwarded onchain; left for an operator");
    return { ...base, outcome: "already-forwarded" };
  }
  let quoted;
  try {
    quoted = await ctx.quotes!.quote(
      {
        user: row.route.user,
        recipient: row.route.recipient,
        refundTo: row.refundTo,
        originChainId: row.chainId,
        originCurrency: payment.payment.token,
        destinationChainId: row.route.destinationChainId,
        destinationCurrency: row.route.destinationCurrency,
        tradeType: "EXACT_INPUT",
        amount: payment.payment.amount,
        appFees: row.route.appFees.map((fee) => ({ recipient: fee.recipient, bps: BigInt(fee.bps) })),
        originGasOverhead: 0n,
        referrer: row.route.referrer,
        calls: [],
        topupGas: false,
        depositAddress: { mode: "open" },
      },
      { includeOrderSignature: false, apiKeyId: row.apiKeyId, openPayment: true, log: ctx.log },
    );
  } catch (error) {
    const code = isFerryError(error) ? error.code : undefined;
    if (!code || errorPolicy(code)?.retryable !== false) {
      ctx.log.warn({ chainId: row.chainId, depositAddress: row.address, paymentKey: payment.paymentKey, err: errorFields(error) }, "open deposit address payment: re-quote failed; retrying next pass");
      return { ...base, outcome: "retry" };
    }
    return planOpenPaymentRefund(ctx, client, row, payment, code);
  }
  const step = quoted.steps[0]!;
  const orderId = quoted.protocol.v2.orderId as Bytes32;
  const requestId = step.requestId as Bytes32;
  if (getAddress(step.depositAddress) !== getAddress(row.address)) throw new Error(`the re-quote of ${payment.paymentKey} names ${step.depositAddress}, not ${row.address}`);
  const instruction: ForwardInstruction = {
    action: "deposit",
    orderId,
    token: payment.payment.token,
    amount: payment.payment.amount,
    id,
    deadline: BigInt(Math.floor(ctx.now().getTime() / 1000)) + INSTRUCTION_LIFETIME_SECONDS,
  };
  const signature = await signForwardInstruction({ account: ctx.allocator, chainId: row.chainId, factory: row.factory, forwarder: row.address, instruction });
  const data: Hex = encodeFunctionData({
    abi: depositAddressFactoryAbi,
    functionName: "deployAndForward",
    args: [depositAddressArgs(openAddressParams(row)), forwardInstructionArgs(instruction), signature],
  });
  const sent = await ctx.transactions.send({
    chainId: row.chainId,
    purpose: "deposit-address-forward",
    subject: `${row.chainId}:${row.address}:${payment.paymentKey}`,
    tx: { to: row.factory, data, maxGas: FORWARD_MAX_GAS },
    record: async (_sent, repos) => {
      if (!(await repos.markOpenPaymentForwarding(key, { requestId, orderId, instructionId: id }))) throw new OpenPaymentAlreadyDecidedError(row.chainId, row.address, payment.paymentKey);
    },
    ...(ctx.signal && { signal: ctx.signal }),
    logFields: { requestId, depositAddress: row.address },
  });
  ctx.log.info({ chainId: row.chainId, depositAddress: row.address, paymentKey: payment.paymentKey, requestId, hash: sent.hash }, "open deposit address payment re-quoted and forwarded into the Depository");
  return { ...base, outcome: "forwarded", requestId, hash: sent.hash };
}

/** Another replica (or this one before a restart) forwarded or refunded the payment first: nothing was sent. */
export class OpenPaymentAlreadyDecidedError extends Error {
  readonly code = "DEPOSIT_ADDRESS_ALREADY_FORWARDED";
  constructor(chainId: number, address: Address, paymentKey: string) {
    super(`payment ${paymentKey} into open deposit address ${address} on chain ${chainId} is already forwarded or refunded`);
  }
}
