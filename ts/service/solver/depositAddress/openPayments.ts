/**
 * The payments into one open deposit address between two final blocks, each one by itself, so that two
 * payments of the same amount are two payments (read at final blocks only, like ./paymentSeen.ts):
 *
 * - **ERC-20** (each currency the chain watches): one payment per `Transfer` log to the address, keyed
 *   `<token>:<txHash>:<logIndex>`, its payer the log's `from`.
 * - **Native** (a plain value transfer emits no log): one payment per block in which the address's
 *   native balance rose by more than what left it, keyed `native:<block>`. What left it is what the
 *   factory moved out (its `Forwarded` events for this forwarder: the forwarder has no other way out),
 *   so the native received up to block b, `balance(b) − balance(from) + out(from, b]`, never decreases:
 *   the blocks where it rises are found by bisection (O(payments × log blocks) balance reads). Two
 *   native payments in one block are one payment (the block's sum); its payer and transaction are the
 *   block's first plain transfer to the address (null for an internal transfer from a contract).
 */
import { padHex } from "viem";
import { depositAddressFactoryAbi } from "../../../abi/DepositAddressFactory.ts";
import { openDepositAddress, type DepositAddressParams } from "../../../core/depositAddress.ts";
import type { ChainClient } from "../../chains/chainClients.ts";
import { transactionFields } from "../../chains/readTransaction.ts";
import type { DepositAddressPayment } from "../../model/depositAddressPayment.ts";
import { ZERO_ADDRESS, type Address } from "../../model/values.ts";
import type { StoredOpenDepositAddress } from "../../store/openDepositAddresses.ts";
import { scanEvents } from "../indexer/logScan.ts";
import { watchedCurrencies } from "./misroutePlan.ts";
import { balanceAt, TRANSFER_EVENT } from "./paymentSeen.ts";

/** The factory's parameters of an open address (what `deployAndForward` is called with). */
export function openAddressParams(row: Pick<StoredOpenDepositAddress, "refundTo" | "route">): DepositAddressParams {
  return openDepositAddress({
    refundTo: row.refundTo,
    destinationChainId: row.route.destinationChainId,
    destinationCurrency: padHex(row.route.destinationCurrency, { size: 32 }),
    recipient: padHex(row.route.recipient, { size: 32 }),
  });
}

/** A payment found, with the key that makes it one payment. */
export type FoundPayment = { paymentKey: string; payment: DepositAddressPayment };

const FORWARDED_EVENT = depositAddressFactoryAbi.find((item) => item.type === "event" && item.name === "Forwarded")!;

/** The payments into `address` in blocks `from + 1` … `to` (both final). */
export async function openPaymentsBetween(client: ChainClient, args: { address: Address; factory: Address; from: bigint; to: bigint }): Promise<FoundPayment[]> {
  if (args.to <= args.from) return [];
  const found: FoundPayment[] = [];
  const times = new Map<bigint, number>();
  const timeOf = async (block: bigint) => {
    if (!times.has(block)) times.set(block, Number((await client.publicClient.getBlock({ blockNumber: block })).timestamp));
    return times.get(block)!;
  };
  const chainId = client.config.id;
  for (const token of watchedCurrencies(client.config)) {
    if (token === ZERO_ADDRESS) continue;
    const transfers = await scanEvents(client, { address: token, event: TRANSFER_EVENT, args: { to: args.address } }, args.from + 1n, args.to);
    for (const transfer of transfers) {
      if (transfer.args.value === 0n) continue;
      found.push({
        paymentKey: `${token}:${transfer.transactionHash}:${transfer.logIndex}`,
        payment: {
          chainId,
          address: args.address,
          token,
          amount: transfer.args.value,
          depositor: transfer.args.from,
          txHash: transfer.transactionHash,
          blockNumber: Number(transfer.blockNumber),
          blockTimestamp: await timeOf(transfer.blockNumber),
        },
      });
    }
  }
  for (const { block, amount } of await nativeReceipts(client, args)) {
    const detail = await client.publicClient.getBlock({ blockNumber: block, includeTransactions: true });
    const tx = detail.transactions.flatMap((t) => (typeof t === "object" ? [transactionFields(t)] : [])).find((t) => t.to === args.address && t.value > 0n);
    found.push({
      paymentKey: `native:${block}`,
      payment: {
        chainId,
        address: args.address,
        token: ZERO_ADDRESS,
        amount,
        depositor: tx?.from ?? null,
        txHash: tx?.hash ?? null,
        blockNumber: Number(block),
        blockTimestamp: Number(detail.timestamp),
      },
    });
  }
  return found;
}

/** Each block of (from, to] where the address received native currency, and how much. */
async function nativeReceipts(client: ChainClient, args: { address: Address; factory: Address; from: bigint; to: bigint }): Promise<Array<{ block: bigint; amount: bigint }>> {
  const out = await scanEvents(client, { address: args.factory, event: FORWARDED_EVENT, args: { forwarder: args.address } }, args.from + 1n, args.to);
  const outflows = out.filter((log) => log.args.token === ZERO_ADDRESS).map((log) => ({ block: log.blockNumber, amount: log.args.amount }));
  const start = await balanceAt(client, args.address, ZERO_ADDRESS, args.from);
  /** Native received in (from, block]. */
  const received = async (block: bigint) =>
    (await balanceAt(client, args.address, ZERO_ADDRESS, block)) - start + outflows.filter((o) => o.block <= block).reduce((sum, o) => sum + o.amount, 0n);
  const receipts: Array<{ block: bigint; amount: bigint }> = [];
  const bisect = async (low: bigint, lowReceived: bigint, high: bigint, highReceived: bigint): Promise<void> => {
    if (highReceived <= lowReceived) return;
    if (high === low + 1n) {
      receipts.push({ block: high, amount: highReceived - lowReceived });
      return;
    }
    const middle = (low + high) / 2n;
    const middleReceived = await received(middle);
    await bisect(low, lowReceived, middle, middleReceived);
    await bisect(middle, middleReceived, high, highReceived);
  };
  await bisect(args.from, 0n, args.to, await received(args.to));
  return receipts;
}
