/**
 * Payments into a deposit address on a chain other than its quote's origin (issue 23 item 4: "wrong
 * chain"), refunded there to the address's refund recipient. The DepositAddressFactory sits at the same
 * address on every chain Ferry deploys to, and an address's salt has no chain in it, so a strict or open
 * address handed out on one chain is the same forwarder on every other one: what a payer sends there can
 * only go to that chain's Depository or to `refundTo`, and the allocator's Refund instruction for that
 * chain (its EIP-712 domain names the chain) moves it.
 *
 * Per chain and pass (the solver loop, after the origin's own steps):
 * 1. **Copy** (`mirrorDepositAddresses`): every address handed out on another chain by this chain's
 *    factory gets a row of this chain in state `elsewhere` (the origin row's binding, mode, route, expiry;
 *    an address with its own row here — an open address also quoted from this chain — is left to it).
 * 2. **Read**, at the origin's cadence (./checkCadence.ts on the quote's `expiresAt`, the next read
 *    stored on the row, so expired addresses cost a read an hour, then a day): ERC-20 by one ranged
 *    `eth_getLogs` for the chain — the Transfer events of every watched token to any due address (a topic
 *    set), from the lowest cursor — and the balance of a token only where a log shows one arrived; native
 *    by the balance at the final block (a plain transfer leaves no log). A row read for the first time has
 *    no cursor: its balances are read (a payment made before the copy is found too).
 * 3. **Plan** (./misroutePlan.ts `planSweepRefunds`): what exceeds what is known to be left there is new:
 *    the whole balance is refunded (reason `DEPOSIT_CHAIN_MISMATCH`), below the currency's
 *    `strayRefundMinimum` only recorded `ignored`, as strays are — appended with the cursor's move and the
 *    next read in one compare-and-set on the number of refunds (`recordElsewhereCheck`): planned once
 *    across replicas and restarts. Instruction id = keccak256("ferry/deposit-address/other-chain/refund",
 *    address, token, n), n = that currency's count of entries on the row: fresh for every refund.
 * 4. **Send and confirm**: ./refundDepositAddresses.ts, as every refund (nonce manager, `planned` → `sent` in
 *    the nonce's store transaction, `confirmed` at a final block, a mined revert recorded and alerted).
 *
 * **The request**: a strict quote whose only payment came on another chain ends in refund with
 * `DEPOSIT_CHAIN_MISMATCH` (`decideElsewhere`): once a refund there is confirmed and the quote has expired
 * with its origin row still `watching`, one store transaction closes the origin row (`watching` →
 * `refunded`, the same compare-and-set that forwarding and the origin's refunds need) and writes the
 * request `failure` → `refund` with the payer's transfers and the refund transactions. Before the expiry the
 * payer may still pay the origin (forwarded as usual, the other chain's refund stays on the address), and
 * dust below the threshold never decides a quote, so nobody can end another's quote for a few wei. An
 * open address's payment on another chain is recorded on the address (`ferry deposit-addresses show`).
 * The whole amount goes back, as for every deposit-address refund (the forwarder's refund cannot keep a
 * part for the service's gas: docs/decisions.md).
 */
import { encodeAbiParameters } from "viem";
import { keccak256Lowercase } from "../../../core/lowercaseHex.ts";
import type { ChainClient } from "../../chains/chainClients.ts";
import { readChainFinality } from "../../chains/chainFinality.ts";
import type { DepositAddressRefund } from "../../model/depositAddressRefund.ts";
import { ZERO_ADDRESS, type Address, type Bytes32 } from "../../model/values.ts";
import type { StoredDepositAddress } from "../../store/depositAddresses.ts";
import { scanEvents, type ScannedEvent } from "../indexer/logScan.ts";
import type { SolverContext } from "../solverContext.ts";
import { nextDepositAddressCheck } from "./checkCadence.ts";
import { knownLeft, planSweepRefunds, watchedCurrencies, type Balance } from "./misroutePlan.ts";
import { balanceAt, paymentSeen, TRANSFER_EVENT } from "./paymentSeen.ts";

/** Addresses copied, and read, per chain and pass. */
const BATCH = 50;

export type OtherChainOutcome = { address: Address; outcome: "none" | "refunding" | "already-decided" };

/** The instruction id of the `n`th refund (0-based, per currency) of `token` out of `address` on a chain other than its quote's. */
export function otherChainRefundInstructionId(address: Address, token: Address, n: number): Bytes32 {
  return keccak256Lowercase(
    encodeAbiParameters([{ type: "string" }, { type: "address" }, { type: "address" }, { type: "uint256" }], ["ferry/deposit-address/other-chain/refund", address, token, BigInt(n)]),
  );
}

/** Steps 1 to 3 on `client`'s chain. */
export async function refundOtherChainPayments(ctx: SolverContext, client: ChainClient): Promise<OtherChainOutcome[]> {
  const factory = client.config.contracts.depositAddressFactory;
  if (!factory) return [];
  const checkpoint = await ctx.store.getIndexerCheckpoint(client.config.id, client.config.contracts.depository);
  if (checkpoint?.halted) return [];
  await ctx.store.mirrorDepositAddresses(client.config.id, factory, BATCH);
  const rows = await ctx.store.listElsewhereDepositAddresses(client.config.id, ctx.now(), BATCH);
  if (rows.length === 0) return [];
  const { final } = await readChainFinality(client);
  const transfers = await transfersTo(client, rows, final);
  const outcomes: OtherChainOutcome[] = [];
  for (const row of rows) outcomes.push(await checkOne(ctx, client, row, final, transfers));
  return outcomes;
}

/** The watched tokens' Transfer events to the rows read before, after the lowest cursor: one ranged log read for the chain. */
async function transfersTo(client: ChainClient, rows: readonly StoredDepositAddress[], final: bigint): Promise<ScannedEvent<typeof TRANSFER_EVENT>[]> {
  const tokens = watchedCurrencies(client.config).filter((t) => t !== ZERO_ADDRESS);
  const scanned = rows.filter((r) => r.scannedBlock !== null && BigInt(r.scannedBlock) < final);
  if (tokens.length === 0 || scanned.length === 0) return [];
  const from = scanned.reduce((low, r) => (BigInt(r.scannedBlock!) < low ? BigInt(r.scannedBlock!) : low), final) + 1n;
  return scanEvents(client, { address: tokens, event: TRANSFER_EVENT, args: { to: scanned.map((r) => r.address) } }, from, final);
}

async function checkOne(ctx: SolverContext, client: ChainClient, row: StoredDepositAddress, final: bigint, transfers: readonly ScannedEvent<typeof TRANSFER_EVENT>[]): Promise<OtherChainOutcome> {
  const refunds = row.refunds ?? [];
  const balances: Balance[] = [];
  for (const token of watchedCurrencies(client.config)) {
    // Since the cursor, the token's logs to the address (none: nothing arrived, no read); native has none, its balance is read.
    const arrived = transfers.filter((t) => t.args.emitter === token && t.args.to === row.address && t.blockNumber > BigInt(row.scannedBlock ?? -1));
    if (token !== ZERO_ADDRESS && row.scannedBlock !== null && arrived.length === 0) continue;
    const balance = await balanceAt(client, row.address, token, final);
    if (balance <= knownLeft(refunds, token)) continue;
    const last = arrived.at(-1);
    const payment = last
      ? { chainId: row.chainId, address: row.address, token, amount: last.args.value, depositor: last.args.from, txHash: last.transactionHash, blockNumber: Number(last.blockNumber), blockTimestamp: await blockTime(client, last.blockNumber) }
      : await paymentSeen(client, { address: row.address, token, threshold: balance, final, ...(row.scannedBlock !== null && { from: BigInt(row.scannedBlock) }) });
    balances.push({ token, balance, payment });
  }
  const planned: DepositAddressRefund[] = planSweepRefunds({
    refunds,
    balances,
    chain: client.config,
    strayRefundMinimumUsd: ctx.settings.strayRefundMinimumUsd,
    finalBlock: Number(final),
    reason: () => "DEPOSIT_CHAIN_MISMATCH",
    instructionId: (token, n) => otherChainRefundInstructionId(row.address, token, n),
  });
  const key = { chainId: row.chainId, address: row.address };
  const check = { refunds: planned, scannedBlock: Number(final), nextCheckAt: nextDepositAddressCheck(row.expiresAt, ctx.now()) };
  if (!(await ctx.store.recordElsewhereCheck(key, refunds.length, check))) return { address: row.address, outcome: "already-decided" };
  if (planned.length === 0) return { address: row.address, outcome: "none" };
  ctx.log.info(
    { chainId: row.chainId, depositAddress: row.address, requestId: row.requestId, refunds: planned.map((r) => ({ token: r.token, amount: r.amount.toString(), state: r.state })) },
    "deposit address paid on a chain other than its quote's: refunding there",
  );
  return { address: row.address, outcome: "refunding" };
}

async function blockTime(client: ChainClient, blockNumber: bigint): Promise<number> {
  return Number((await client.publicClient.getBlock({ blockNumber })).timestamp);
}
