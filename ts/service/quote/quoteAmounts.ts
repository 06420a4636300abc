/**
 * The amount math of a quote, bigint only. Fees are taken from the input (origin currency, smallest
 * units); what is left (`netInput`) is converted into the output by `convert`: 1:1 up to decimals for
 * a currency to itself (`sameCurrency`), a price curve for a swap (../prices/priceSource.ts).
 *
 * Rounding, always in the service's favour:
 * - every fee is rounded up (`ceil(amount × bps / 10000)` per bucket and per app fee; converted fees
 *   are rounded up by their conversion);
 * - EXACT_INPUT: the output is `amount − fees`, rescaled to the output decimals rounded down (any dust
 *   below one output unit stays with the service);
 * - EXACT_OUTPUT and EXPECTED_OUTPUT: the output is exactly `amount`; the input is the smallest
 *   deposit whose `deposit − fees(deposit)` covers it (the output converted back, rounded up).
 */
import type { TradeType } from "../model/quotedIntent.ts";
import { QuoteError } from "../errors/quoteErrors.ts";
import { ceilDiv, rescale } from "../prices/usdPrice.ts";

export const BPS_DENOMINATOR = 10_000n;

/** Input ↔ output after fees: `out(net)` rounds down, `in(out)` rounds up (both in the service's favour). */
export type AmountConversion = { out(netInput: bigint): bigint; in(output: bigint): bigint };

/** A currency to itself: a rescale between decimals. */
export function sameCurrency(inputDecimals: number, outputDecimals: number): AmountConversion {
  return { out: (net) => rescale(net, inputDecimals, outputDecimals), in: (output) => rescale(output, outputDecimals, inputDecimals, true) };
}

export type AmountInputs = {
  tradeType: TradeType;
  /** EXACT_INPUT: the deposit; EXACT_OUTPUT / EXPECTED_OUTPUT: what the recipient gets. Smallest units of that side. */
  amount: bigint;
  convert: AmountConversion;
  /** The destination fill cost, already in input units. */
  relayerGas: bigint;
  /** The fixed part of the service fee, in input units. */
  fixedFee: bigint;
  serviceFeeBps: bigint;
  /** One entry per app fee, in bps of the deposit. */
  appFeeBps: readonly bigint[];
};

export type QuoteAmounts = {
  /** The deposit (input units). */
  originAmount: bigint;
  /** What the recipient gets (output units). */
  destinationAmount: bigint;
  /** The deposit less every fee (input units): what is converted into the output. */
  netInput: bigint;
  relayerGas: bigint;
  /** bps part + fixed part. */
  relayerService: bigint;
  /** Sum of `appFees`. */
  app: bigint;
  /** Per app fee, in the order given. */
  appFees: bigint[];
};

const bpsOf = (amount: bigint, bps: bigint) => ceilDiv(amount * bps, BPS_DENOMINATOR);

function feesAt(deposit: bigint, inputs: AmountInputs) {
  const relayerService = bpsOf(deposit, inputs.serviceFeeBps) + inputs.fixedFee;
  const appFees = inputs.appFeeBps.map((bps) => bpsOf(deposit, bps));
  const app = appFees.reduce((a, b) => a + b, 0n);
  return { relayerGas: inputs.relayerGas, relayerService, app, appFees, total: inputs.relayerGas + relayerService + app };
}

function tooLow(message: string): QuoteError {
  return new QuoteError("AMOUNT_TOO_LOW", message);
}

export function quoteAmounts(inputs: AmountInputs): QuoteAmounts {
  if (inputs.amount <= 0n) throw tooLow("amount must be positive");
  const totalBps = inputs.serviceFeeBps + inputs.appFeeBps.reduce((a, b) => a + b, 0n);
  if (totalBps >= BPS_DENOMINATOR) {
    throw new QuoteError("INVALID_APP_FEES", `service and app fees add up to ${totalBps} bps: nothing would be left`);
  }

  if (inputs.tradeType === "EXACT_INPUT") {
    const deposit = inputs.amount;
    const fees = feesAt(deposit, inputs);
    const net = deposit - fees.total;
    if (net <= 0n) throw tooLow(`the fees (${fees.total}) take the whole amount (${deposit})`);
    const destinationAmount = inputs.convert.out(net);
    if (destinationAmount === 0n) throw tooLow("less than one unit of the output currency is left after fees");
    const { total: _total, ...buckets } = fees;
    return { originAmount: deposit, destinationAmount, netInput: net, ...buckets };
  }

  const destinationAmount = inputs.amount;
  const net = inputs.convert.in(destinationAmount);
  // deposit − ceil(deposit × bps / 10000) − fixed ≥ net: start from the real-valued solution and step
  // up over the per-bucket rounding (at most one unit per bucket).
  let deposit = ceilDiv((net + inputs.relayerGas + inputs.fixedFee) * BPS_DENOMINATOR, BPS_DENOMINATOR - totalBps);
  while (deposit - feesAt(deposit, inputs).total < net) deposit += 1n;
  const { total, ...buckets } = feesAt(deposit, inputs);
  return { originAmount: deposit, destinationAmount, netInput: deposit - total, ...buckets };
}

/**
 * The amounts once the app sponsors `sponsored` input units of the fees (./feeSponsorship.ts): the fee
 * buckets keep their full cost; EXACT_INPUT keeps the deposit and converts `netInput + sponsored` (the
 * user receives more); EXACT_OUTPUT and EXPECTED_OUTPUT keep the output and ask `sponsored` less of the
 * deposit. Either way the solver is owed `deposit − app fees + sponsored`: the sponsored part comes from
 * the app balance.
 */
export function sponsoredAmounts(amounts: QuoteAmounts, sponsored: bigint, tradeType: TradeType, convert: AmountConversion): QuoteAmounts {
  if (sponsored === 0n) return amounts;
  if (sponsored < 0n || sponsored > amounts.relayerGas + amounts.relayerService + amounts.app + amounts.netInput) throw new RangeError("sponsored amount out of range");
  if (tradeType === "EXACT_INPUT") {
    const netInput = amounts.netInput + sponsored;
    return { ...amounts, netInput, destinationAmount: convert.out(netInput) };
  }
  const originAmount = amounts.originAmount - sponsored;
  // The app fees are still paid from the deposit (orderData.fees): it must cover them.
  if (originAmount <= amounts.app) throw new QuoteError("INVALID_APP_FEES", `the sponsored deposit (${originAmount}) would not cover the app fees (${amounts.app})`);
  return { ...amounts, originAmount };
}
