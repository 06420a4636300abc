/**
 * What a deposit address holds and when it got it, read at final blocks only: its balance of one
 * currency (`balanceOf`, or the native balance: a plain value transfer emits no log), the first block
 * at which that balance reached a threshold (a binary search over past final blocks, so a payment is
 * judged by when the payer paid, not when the service looked), and who paid in which transaction
 * there (ERC-20: the `Transfer` log to the address in that block; native: the block's plain transfer
 * to it — an internal transfer from a contract leaves both null). Used to forward a payment and to
 * refund a mis-routed one (./forwardDepositAddresses.ts, ./refundDepositAddresses.ts).
 */
import { erc20Abi, parseAbiItem } from "viem";
import type { ChainClient } from "../../chains/chainClients.ts";
import type { DepositAddressPayment } from "../../model/depositAddressPayment.ts";
import { ZERO_ADDRESS, type Address } from "../../model/values.ts";
import { transactionFields } from "../../chains/readTransaction.ts";
import { scanEvents } from "../indexer/logScan.ts";

/** ERC-20 Transfer, for the payer of a token payment. */
export const TRANSFER_EVENT = parseAbiItem("event Transfer(address indexed from, address indexed to, uint256 value)");

/** `address`'s balance of `token` (zero address = native) at `blockNumber`. */
export function balanceAt(client: ChainClient, address: Address, token: Address, blockNumber: bigint): Promise<bigint> {
  const { publicClient } = client;
  return token === ZERO_ADDRESS
    ? publicClient.getBalance({ address, blockNumber })
    : publicClient.readContract({ address: token, abi: erc20Abi, functionName: "balanceOf", args: [address], blockNumber });
}

/**
 * The payment that brought `address`'s balance of `token` to `threshold` (> 0) by block `final`
 * (which must already hold it): the first such block, its time, and its payer and transaction when
 * they can be told.
 */
export async function paymentSeen(client: ChainClient, args: { address: Address; token: Address; threshold: bigint; final: bigint; from?: bigint }): Promise<DepositAddressPayment> {
  const { address, token, threshold } = args;
  // `from`: the search starts there (the balance only grew since: after a forwarding or a refund drained it).
  let low = args.from ?? 0n;
  let high = args.final;
  while (low < high) {
    const middle = (low + high) / 2n;
    if ((await balanceAt(client, address, token, middle)) >= threshold) high = middle;
    else low = middle + 1n;
  }
  const block = await client.publicClient.getBlock({ blockNumber: low, includeTransactions: token === ZERO_ADDRESS });
  const payment: DepositAddressPayment = {
    chainId: client.config.id,
    address,
    token,
    amount: threshold,
    depositor: null,
    txHash: null,
    blockNumber: Number(low),
    blockTimestamp: Number(block.timestamp),
  };
  if (token === ZERO_ADDRESS) {
    const tx = block.transactions.flatMap((t) => (typeof t === "object" ? [transactionFields(t)] : [])).find((t) => t.to === address && t.value > 0n);
    if (tx) Object.assign(payment, { depositor: tx.from, txHash: tx.hash });
  } else {
    const last = (await scanEvents(client, { address: token, event: TRANSFER_EVENT, args: { to: address } }, low, low)).at(-1);
    if (last) Object.assign(payment, { depositor: last.args.from, txHash: last.transactionHash });
  }
  return payment;
}
