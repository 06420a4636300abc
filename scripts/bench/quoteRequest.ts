/** The POST /quote/v2 body the benchmarks send: a native (or fUSD) bridge, or a swap into `destinationCurrency`; EXACT_INPUT, user = recipient. */
import { zeroAddress, type Address } from "viem";

export function quoteRequestBody(args: {
  user: Address;
  originChainId: number;
  destinationChainId: number;
  /** Default: the native currency (zero address) on both sides. */
  currency?: Address;
  /** Smallest units; default 0.01 ETH. */
  amount?: bigint;
  /** Another currency than `currency` makes it a swap. */
  destinationCurrency?: Address;
}) {
  const currency = args.currency ?? zeroAddress;
  return {
    user: args.user,
    recipient: args.user,
    originChainId: args.originChainId,
    destinationChainId: args.destinationChainId,
    originCurrency: currency,
    destinationCurrency: args.destinationCurrency ?? currency,
    amount: (args.amount ?? 10n ** 16n).toString(),
    tradeType: "EXACT_INPUT",
  };
}
