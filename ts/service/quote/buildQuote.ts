/**
 * `buildQuote(request, route, environment)`: the whole quote — amounts, fee buckets, details,
 * protocol.v2 and steps — and the QuotedIntent stored with it. Pure: the caller (./quoteService.ts)
 * resolves the route once and passes it with the live gas prices, the allowance and balance it read,
 * the clock and the random salt and requestId. Addresses come in canonical (lowercase, decoded at the
 * HTTP boundary) and are used as they are.
 *
 * Fee buckets (Amount objects; see ./README.md):
 * - `gas`: (deposit gas estimate + `originGasOverhead`) × origin gas price, in the origin native
 *   currency. Paid by the user as transaction gas; not taken from the amount.
 * - `relayerGas`: fill gas estimate × destination gas price, converted into the input currency.
 * - `relayerService`: `serviceFeeBps` of the deposit + `fixedFeeUsd` converted into the input currency.
 * - `relayer` = relayerGas + relayerService; `app` = the sum of the app fees.
 * - `subsidized`: what the app sponsors (`request.sponsorship`, ./feeSponsorship.ts), else 0; the other
 *   buckets still show the full cost, and `feeSponsorship` says who pays what.
 * - Deposit-address quotes (`request.depositAddress`, ./depositAddressQuote.ts): `gas` is the payer's
 *   plain transfer, and `relayerGas` includes the service's `deployAndForward` at the origin gas price
 *   (an open address: the budget of its first, deploying forward, charged to every payment).
 * - `refundGas` (permit quotes only, Ferry's addition): the most a refund keeps for the gas the service
 *   spent on the request (deposit + cancel + refund payout at twice the quote-time gas prices), paid
 *   only if the request ends in refund; `details.refundCurrency.minimumAmount` is the deposit minus it.
 */
import { formatUnits, maxUint256, type Hex } from "viem";
import { callsRequestId } from "../../core/destinationCalls.ts";
import { hashOrder } from "../../core/orderId.ts";
import { orderToJson, type Order, type OrderJson } from "../../core/orderJson.ts";
import type { QuoteSettings } from "../config/configSchema.ts";
import { ServiceError } from "../errors/serviceError.ts";
import type { Address, Bytes32 } from "../model/values.ts";
import { amountObject, type AmountObject } from "./amountObject.ts";
import { BPS_DENOMINATOR, quoteAmounts, sameCurrency, sponsoredAmounts, type AmountConversion } from "./quoteAmounts.ts";
import { sweepTokensOf } from "../model/intentCalls.ts";
import type { IntentCall, QuotedIntent, QuotedSponsorship, SwapTerms, TradeType } from "../model/quotedIntent.ts";
import type { PriceReading } from "../prices/priceSource.ts";
import { checkOutputValue, guardedCurve, pricedBy } from "../prices/priceGuard.ts";
import { QuoteError } from "../errors/quoteErrors.ts";
import { buildOrder, paymentDetails, type PaymentDetails } from "./quoteOrder.ts";
import type { Route, RouteCurrency } from "./quoteRoute.ts";
import { quoteSteps, type Step } from "./quoteSteps.ts";
import {
  DEPOSIT_ADDRESS_FORWARD_GAS,
  DEPOSIT_ADDRESS_TRANSFER_GAS,
  depositAddressFactoryOf,
  depositAddressStep,
  openDepositAddressOf,
  strictDepositAddressOf,
  type DepositAddressRequest,
} from "./depositAddressQuote.ts";
import type { PermitKind } from "../model/permitTypedData.ts";
import { PERMIT_CANCEL_GAS, PERMIT_DEPOSIT_GAS, PERMIT_REFUND_GAS_PRICE_FACTOR, PERMIT_REFUND_PAYOUT_GAS, permitSteps, quotedPermit, type PermitReads } from "./permitSteps.ts";
import { sponsorFees, sponsorshipView, type FeeSponsorship, type SponsorshipRequest, type SponsorshipView } from "./feeSponsorship.ts";
import { convertCeil, formatUsd, parseUsd, rescale, usdToUnitsCeil, usdValueE8 } from "../prices/usdPrice.ts";

/** A quote request, decoded: addresses canonical (lowercase), amounts bigint. */
export type QuoteRequest = {
  user: Address;
  recipient: Address;
  /** Refunds on the origin chain go here (default: the user). */
  refundTo: Address;
  originChainId: number;
  originCurrency: Address;
  destinationChainId: number;
  destinationCurrency: Address;
  tradeType: TradeType;
  /** EXACT_INPUT: the deposit; EXACT_OUTPUT: what the recipient gets (smallest units). */
  amount: bigint;
  appFees: readonly { recipient: Address; bps: bigint }[];
  /** Extra origin gas of a smart wallet; adds to the `gas` fee estimate. */
  originGasOverhead: bigint;
  referrer: string | null;
  /** A shorter deposit window asked by the client (seconds); never longer than `settings.ttlSeconds`. */
  ttlSeconds?: number;
  /** `usePermit`: an ERC-20 deposit authorised by a signature; "auto" = EIP-2612 when the token supports it, else Permit2. */
  permit?: "auto" | PermitKind;
  /** The body's `slippageTolerance` (bps); a swap without one uses `settings.swapSlippageBps`. */
  slippageToleranceBps?: bigint;
  /** The body's `txs`: destination calls, run in order from the Multicaller after the output is paid into it. */
  calls: readonly IntentCall[];
  /** The body's `txsGasLimit`: gas for all the calls; default `settings.gas.callDefault` per call. */
  callsGasLimit?: bigint;
  /** `topupGas`: the recipient also gets destination native currency (`topupGasAmount` wei, else `settings.topupGasUsd`). */
  topupGas: boolean;
  topupGasAmount?: bigint;
  /**
   * `useExternalLiquidity`: a swap is priced (and re-priced at fill time) by a market source — a
   * Uniswap V2 pool on the destination — when the operator configured one for the pair next to a
   * fixed price (./quoteRoute.ts); a bridge, or a pair with one source, is quoted as without it.
   */
  useExternalLiquidity?: boolean;
  /** `subsidizeFees` with an API key: the fee components the app pays from its balance (./feeSponsorship.ts). */
  sponsorship?: SponsorshipRequest;
  /** `useDepositAddress`: the payer sends a plain transfer to the quote's deposit address, strict or open (./depositAddressQuote.ts). */
  depositAddress?: DepositAddressRequest;
  /**
   * `reclaimable`: the deposit step is the Depository's reclaimable form, reclaimable by the depositor
   * from the quote's `reclaimAt` (`fillDeadline` + `settings.reclaimWindowSeconds`) unless released.
   */
  reclaimable?: boolean;
};

export type QuoteEnvironment = {
  settings: QuoteSettings;
  /** The solver key's address, canonical: orderData.solver. */
  solver: Address;
  originGasPrice: bigint;
  destinationGasPrice: bigint;
  /** The user's ERC-20 allowance to the origin Depository (ignored for native deposits). */
  allowance: bigint | undefined;
  /** The user's balance of the origin currency (`details.userBalance`). */
  userBalance: bigint;
  /**
   * Unix seconds on the origin chain's clock: the later of the wall clock and its latest block's time
   * (the deposit's block time is what `expiresAt` is checked against).
   */
  now: number;
  /**
   * How far the destination chain's clock is ahead of the origin's (seconds, ≥ 0; default 0): added
   * to the fill deadline, which the destination's block time is checked against.
   */
  destinationClockAhead?: number;
  /** Random uint256: the order's salt. */
  salt: bigint;
  /** Random bytes32 (lowercase): the service-level requestId (an intent with calls derives its own). */
  requestId: Bytes32;
  /** Set for a usePermit quote of an ERC-20 deposit: what the quote read for the permit (./permitSteps.ts). */
  permit?: PermitReads;
  /**
   * The swap's price reading (read by the caller from `route.swap`); required on a swap route. The quote
   * prices with it through ../prices/priceGuard.ts: refused outside `settings.priceBandBps` of the reference,
   * never above the reference, within the market's depth cap, and value-checked.
   */
  prices?: PriceReading;
  /**
   * With calls: what the Multicaller sweeps to the refund recipient after them (./callOutputs.ts: the
   * destination ERC-20 and every token the calls name). Absent: the destination ERC-20 only.
   */
  sweepTokens?: readonly Address[];
};

type UsdImpact = { usd: string; percent: string };
type SlippageSide = { usd: string; value: string; percent: string };
/** A swap's pricing (`details.route.destination.pricing`): the source, its reference, which of the two priced it. */
export type QuotePricing = { source: string; reference: string; pricedBy: "spot" | "reference" };
type RouteSide = { inputCurrency: AmountObject; outputCurrency: AmountObject; router: string; pricing?: QuotePricing };

/** The spec's `details.operation` values: `swap` when the two currencies differ, else `bridge`. */
export type QuoteOperation = "bridge" | "swap";

export type QuoteDetails = {
  operation: QuoteOperation;
  sender: string;
  recipient: string;
  timeEstimate: number;
  currencyIn: AmountObject;
  currencyOut: AmountObject;
  refundCurrency: AmountObject;
  totalImpact: UsdImpact;
  swapImpact: UsdImpact;
  expandedPriceImpact: { swap: { usd: string }; execution: { usd: string }; relay: { usd: string }; app: { usd: string } };
  rate: string;
  slippageTolerance: { origin: SlippageSide; destination: SlippageSide };
  userBalance: string;
  isFixedRate: boolean;
  route: { origin: RouteSide; destination: RouteSide };
};

/** The spec's buckets, plus Ferry's `refundGas` on a permit quote: charged only when the request ends in refund. */
export type QuoteFees = Record<"gas" | "relayer" | "relayerGas" | "relayerService" | "app" | "subsidized", AmountObject> & { refundGas?: AmountObject };

export type Quote = {
  steps: Step[];
  fees: QuoteFees;
  details: QuoteDetails;
  protocol: { v2: { orderId: Hex; orderData: OrderJson; paymentDetails: PaymentDetails; orderSignature?: Hex } };
  /** Unix seconds: a deposit mined after this is refunded (ORDER_EXPIRED). Ferry's addition. */
  expiresAt: number;
  /** Unix seconds: no fill after this (the fill attestation's deadline). Ferry's addition. */
  fillDeadline: number;
  /** A reclaimable quote: unix seconds from which the depositor may reclaim a deposit not released. Ferry's addition. */
  reclaimAt?: number;
  /** A sponsored quote: who pays what (the record's `feeSponsorship.quoted`). Ferry's addition. */
  feeSponsorship?: SponsorshipView<AmountObject>;
};

/** `order` is the typed order the quote carries as `protocol.v2.orderData` (stored with the quote). */
export type BuiltQuote = { quote: Quote; intent: QuotedIntent; order: Order };

/** The router name in `details.route`: Ferry fills from its own liquidity. */
export const FERRY_ROUTER = "ferry";

const negUsd = (valueE8: bigint | undefined) => formatUsd(valueE8 === undefined ? undefined : -valueE8);

export function buildQuote(request: QuoteRequest, route: Route, env: QuoteEnvironment): BuiltQuote {
  const { origin, destination } = route;
  const input: RouteCurrency = origin.currency;
  const output: RouteCurrency = destination.currency;
  const { settings } = env;
  const swap = route.swap;
  if (swap && !env.prices) throw new QuoteError("PRICE_UNAVAILABLE", "the swap's price was not read");
  const bandBps = BigInt(settings.priceBandBps);
  const prices = env.prices && guardedCurve(env.prices, bandBps);

  // Destination calls: the body's txs, then the gas top-up (a transfer to the recipient). With calls
  // the output is paid into the Multicaller and what the calls leave goes to the refund recipient.
  const topupGas = request.topupGas && !output.isNative ? (request.topupGasAmount ?? usdToUnitsCeil(settings.topupGasUsd, destination.native)) : 0n;
  if (topupGas > 0n) {
    const maxTopup = usdToUnitsCeil(settings.topupGasMaxUsd, destination.native);
    if (topupGas > maxTopup) {
      throw new QuoteError(
        "TOPUP_GAS_TOO_HIGH",
        `body/topupGasAmount: ${topupGas} wei is worth more than the top-up maximum of $${settings.topupGasMaxUsd} (${maxTopup} wei)`,
      );
    }
  }
  const recipient = request.calls.length > 0 ? request.refundTo : request.recipient;
  const calls: IntentCall[] = [...request.calls, ...(topupGas > 0n ? [{ to: recipient, data: "0x" as const, value: topupGas }] : [])];
  const callsValue = request.calls.reduce((sum, call) => sum + call.value, 0n);
  if (callsValue > 0n && !output.isNative) {
    throw new ServiceError("INVALID_REQUEST", "body/txs: calls carry native value, but the output currency is an ERC-20 (the calls spend the output)");
  }

  const fillGas =
    calls.length === 0
      ? BigInt(output.isNative ? settings.gas.fillNative : settings.gas.fillErc20)
      : BigInt(settings.gas.fillWithCalls) +
        (request.calls.length === 0 ? 0n : (request.callsGasLimit ?? BigInt(settings.gas.callDefault) * BigInt(request.calls.length))) +
        (topupGas > 0n ? BigInt(settings.gas.topupCall) : 0n);
  const fillGasCost = convertCeil(fillGas * env.destinationGasPrice, destination.native, input);
  const topupCost = convertCeil(topupGas, destination.native, input);
  // A permit deposit is sent by the service's relayer: its origin gas is the relayer's too.
  const permit = input.isNative || request.depositAddress ? undefined : env.permit;
  const permitGasCost = permit ? convertCeil(PERMIT_DEPOSIT_GAS[permit.kind] * env.originGasPrice, origin.native, input) : 0n;
  // A deposit-address payment is moved into the Depository by the service (deployAndForward).
  const depositAddressFactory = request.depositAddress && depositAddressFactoryOf(route);
  const forwardGasCost = depositAddressFactory
    ? convertCeil(DEPOSIT_ADDRESS_FORWARD_GAS[input.isNative ? "native" : "erc20"] * env.originGasPrice, origin.native, input)
    : 0n;
  const relayerGas = fillGasCost + topupCost + permitGasCost + forwardGasCost;
  // A permit request that ends in refund cost the service the deposit, the cancel and the refund
  // payout while its user sent nothing: the refund keeps what that actually cost, up to this bound.
  const refundGas = permit
    ? convertCeil((PERMIT_DEPOSIT_GAS[permit.kind] + PERMIT_REFUND_PAYOUT_GAS) * env.originGasPrice * PERMIT_REFUND_GAS_PRICE_FACTOR, origin.native, input) +
      convertCeil(PERMIT_CANCEL_GAS * env.destinationGasPrice * PERMIT_REFUND_GAS_PRICE_FACTOR, destination.native, input)
    : undefined;
  const fixedFee = usdToUnitsCeil(settings.fixedFeeUsd, input);

  const convert: AmountConversion = prices
    ? { out: (net) => prices.price("EXACT_INPUT", net).amountOut, in: (out) => prices.price("EXACT_OUTPUT", out).amountIn }
    : sameCurrency(input.decimals, output.decimals);
  const unsponsored = quoteAmounts({
    tradeType: request.tradeType,
    amount: request.amount,
    convert,
    relayerGas,
    fixedFee,
    serviceFeeBps: BigInt(settings.serviceFeeBps),
    appFeeBps: request.appFees.map((fee) => fee.bps),
  });
  // Sponsorship: the buckets keep their full cost; the app's part raises the output (EXACT_INPUT) or
  // lowers the deposit (EXACT_OUTPUT, EXPECTED_OUTPUT).
  const sponsorship =
    request.sponsorship &&
    sponsorFees(
      request.sponsorship,
      { execution: unsponsored.relayerGas, swap: swapLossInInput(prices, unsponsored.netInput), relay: unsponsored.relayerService, app: unsponsored.app },
      input,
    );
  const amounts = sponsorship ? sponsoredAmounts(unsponsored, sponsorship.amount, request.tradeType, convert) : unsponsored;
  // The order carries both amounts as uint256 (fees are parts of the deposit).
  if (amounts.originAmount > maxUint256 || amounts.destinationAmount > maxUint256) {
    throw new ServiceError("INVALID_REQUEST", "body/amount: the deposit or the output would not fit a uint256");
  }
  if (env.prices) checkOutputValue(env.prices.reference, amounts.netInput, amounts.destinationAmount, bandBps);
  if (callsValue > amounts.destinationAmount) {
    throw new ServiceError("INVALID_REQUEST", `body/txs: the calls spend ${callsValue} wei, more than the output (${amounts.destinationAmount})`);
  }

  // Slippage: a currency to itself has a fixed 1:1 rate (tolerance 0, minimum = amount). A swap's
  // tolerance sets the least the deposit must still buy at fill time (`floorAmount`) and, except for
  // EXACT_OUTPUT (the recipient gets exactly `amount`), the order's minimum.
  const toleranceBps = swap ? (request.slippageToleranceBps ?? BigInt(settings.swapSlippageBps)) : 0n;
  const lessTolerance = (amount: bigint) => (amount * (BPS_DENOMINATOR - toleranceBps)) / BPS_DENOMINATOR;
  const minimumAmount = swap && request.tradeType !== "EXACT_OUTPUT" ? lessTolerance(amounts.destinationAmount) : amounts.destinationAmount;
  const swapPrice = prices?.price("EXACT_INPUT", amounts.netInput);
  const swapTerms: SwapTerms | undefined = swap && {
    priceSource: swap.id,
    netInput: amounts.netInput,
    toleranceBps: toleranceBps.toString(),
    floorAmount: lessTolerance(amounts.destinationAmount),
  };

  const ttl = Math.min(settings.ttlSeconds, request.ttlSeconds ?? settings.ttlSeconds);
  const expiresAt = env.now + ttl;
  const fillDeadline = expiresAt + settings.fillWindowSeconds + Math.max(0, env.destinationClockAhead ?? 0);
  const reclaimAt = request.reclaimable === true ? fillDeadline + settings.reclaimWindowSeconds : undefined;
  const appFees = request.appFees.map((fee, i) => ({ recipient: fee.recipient, bps: fee.bps, amount: amounts.appFees[i]! }));

  const order = buildOrder({
    route,
    solver: env.solver,
    salt: env.salt,
    recipient,
    refundTo: request.refundTo,
    originAmount: amounts.originAmount,
    destinationAmount: amounts.destinationAmount,
    minimumAmount,
    calls,
    fillDeadline,
    appFees,
  });
  const sweepTokens = calls.length > 0 ? (env.sweepTokens ? [...env.sweepTokens] : sweepTokensOf({ destinationCurrency: output.address })) : undefined;
  const orderId = hashOrder(order);
  const requestId = sweepTokens ? callsRequestId(orderId, calls, sweepTokens) : env.requestId;

  const currencyIn = amountObject(input, amounts.originAmount);
  const currencyOut = amountObject(output, amounts.destinationAmount, minimumAmount);
  const payText = `${currencyIn.amountFormatted} ${input.symbol}`;
  const receiveText = `${currencyOut.amountFormatted} ${output.symbol} on ${destination.chain.displayName}`;
  // The user sends no deposit transaction for a permit (the relayer does; its gas is in relayerGas).
  const signedPermit = permit && quotedPermit(permit, orderId, expiresAt);
  const depositAddressMode = request.depositAddress?.mode ?? "strict";
  const depositAddress =
    depositAddressFactory &&
    (depositAddressMode === "open"
      ? openDepositAddressOf({ factory: depositAddressFactory, depository: origin.depository, refundTo: request.refundTo, destinationChainId: destination.chain.id, destinationCurrency: output.address, recipient })
      : strictDepositAddressOf({ factory: depositAddressFactory, depository: origin.depository, refundTo: request.refundTo, orderId, currency: input.address, amount: amounts.originAmount }));
  const depositGas = signedPermit
    ? 0n
    : (depositAddress
        ? DEPOSIT_ADDRESS_TRANSFER_GAS[input.isNative ? "native" : "erc20"]
        : BigInt(depositGasOf(settings.gas, input.isNative, reclaimAt !== undefined))) + request.originGasOverhead;
  const steps = depositAddress
    ? [depositAddressStep({ route, requestId, address: depositAddress, user: request.user, originAmount: amounts.originAmount, transferGas: depositGas, payText, receiveText, mode: depositAddressMode })]
    : signedPermit
    ? permitSteps({
        route,
        requestId,
        orderId,
        user: request.user,
        originAmount: amounts.originAmount,
        permit: signedPermit,
        ...(permit.kind === "permit2" && { permit2Allowance: permit.permit2Allowance }),
        payText,
        receiveText,
      })
    : quoteSteps({ route, requestId, orderId, user: request.user, originAmount: amounts.originAmount, allowance: env.allowance, depositGas, payText, receiveText, ...(reclaimAt !== undefined && { reclaimAt }) });

  const fees: QuoteFees = {
    gas: amountObject(origin.native, depositGas * env.originGasPrice),
    relayer: amountObject(input, relayerGas + amounts.relayerService),
    relayerGas: amountObject(input, relayerGas),
    relayerService: amountObject(input, amounts.relayerService),
    app: amountObject(input, amounts.app),
    subsidized: amountObject(input, sponsorship?.amount ?? 0n),
    ...(refundGas !== undefined && { refundGas: amountObject(input, refundGas) }),
  };

  const inUsd = usdValueE8(amounts.originAmount, input);
  const outUsd = usdValueE8(amounts.destinationAmount, output);
  // The output in input units: at the swap's mid price (what the same input would buy without fee or
  // impact), or 1:1 up to decimals for a currency to itself.
  const outInInputUnits = swapPrice
    ? swapPrice.amountOutAtSpot === 0n
      ? 0n
      : (amounts.destinationAmount * swapPrice.amountIn) / swapPrice.amountOutAtSpot
    : rescale(amounts.destinationAmount, output.decimals, input.decimals);
  const totalImpact = {
    usd: inUsd !== undefined && outUsd !== undefined ? formatUsd(outUsd - inUsd) : "0",
    percent: percentOf(outInInputUnits - amounts.originAmount, amounts.originAmount),
  };
  // The swap's own loss against the mid price (pool fee and price impact), at the quoted input.
  const swapLoss = swapPrice ? swapPrice.amountOut - swapPrice.amountOutAtSpot : 0n;
  const swapImpact = swapPrice
    ? { usd: formatUsd(usdValueE8Signed(swapLoss, output)), percent: percentOf(swapLoss, swapPrice.amountOutAtSpot) }
    : { usd: "0", percent: "0" };
  const zeroSlippage = { usd: "0", value: "0", percent: "0" };
  const slippageSide = (amount: bigint, currency: RouteCurrency) => ({
    usd: formatUsd(usdValueE8(amount, currency)),
    value: amount.toString(),
    percent: formatUnits(toleranceBps, 2),
  });
  const slippageTolerance = !swap
    ? { origin: zeroSlippage, destination: { ...zeroSlippage } }
    : request.tradeType === "EXACT_OUTPUT"
      ? { origin: slippageSide(amounts.netInput - lessTolerance(amounts.netInput), input), destination: { ...zeroSlippage } }
      : { origin: zeroSlippage, destination: slippageSide(amounts.destinationAmount - minimumAmount, output) };
  const rate = formatUnits((amounts.destinationAmount * 10n ** BigInt(input.decimals) * 10n ** 18n) / (10n ** BigInt(output.decimals) * amounts.originAmount), 18);
  const netIn = amountObject(input, amounts.netInput);

  const details: QuoteDetails = {
    operation: swap ? "swap" : "bridge",
    sender: request.user,
    recipient,
    timeEstimate: settings.timeEstimateSeconds,
    currencyIn,
    currencyOut,
    refundCurrency: amountObject(input, amounts.originAmount, refundGas === undefined ? undefined : amounts.originAmount - (refundGas < amounts.originAmount ? refundGas : amounts.originAmount)),
    totalImpact,
    swapImpact,
    expandedPriceImpact: {
      swap: { usd: swapImpact.usd },
      execution: { usd: negUsd(usdValueE8(relayerGas, input)) },
      relay: { usd: negUsd(usdValueE8(amounts.relayerService, input)) },
      app: { usd: negUsd(usdValueE8(amounts.app, input)) },
    },
    rate,
    slippageTolerance,
    userBalance: env.userBalance.toString(),
    isFixedRate: swap ? swap.isFixed : true,
    route: swap
      ? {
          origin: { inputCurrency: currencyIn, outputCurrency: netIn, router: FERRY_ROUTER },
          destination: {
            inputCurrency: netIn,
            outputCurrency: currencyOut,
            router: swap.router,
            pricing: { source: swap.id, reference: env.prices!.referenceLabel, pricedBy: pricedBy(env.prices!, amounts.netInput) },
          },
        }
      : {
          origin: { inputCurrency: currencyIn, outputCurrency: currencyIn, router: FERRY_ROUTER },
          destination: { inputCurrency: currencyOut, outputCurrency: currencyOut, router: FERRY_ROUTER },
        },
  };

  const intent: QuotedIntent = {
    requestId,
    orderId,
    tradeType: request.tradeType,
    user: request.user,
    recipient,
    refundTo: request.refundTo,
    originChainId: origin.chain.id,
    originCurrency: input.address,
    originAmount: amounts.originAmount,
    destinationChainId: destination.chain.id,
    destinationCurrency: output.address,
    destinationAmount: amounts.destinationAmount,
    minimumAmount,
    ...(swapTerms ? { swap: swapTerms } : {}),
    ...(calls.length > 0 ? { calls } : {}),
    ...(sweepTokens ? { sweepTokens } : {}),
    ...(topupGas > 0n ? { topupGas } : {}),
    ...(calls.length > 0 ? { fillGasLimit: fillGas } : {}),
    expiresAt,
    fillDeadline,
    ...(reclaimAt !== undefined && { reclaimAt }),
    fees: {
      relayerGas: fillGasCost,
      relayerService: amounts.relayerService,
      app: amounts.app,
      ...(topupGas > 0n ? { topupGas: topupCost } : {}),
      ...(refundGas !== undefined && { refundGas }),
    },
    appFees: appFees.map((fee) => ({ recipient: fee.recipient, bps: fee.bps.toString(), amount: fee.amount })),
    ...(input.usdPrice !== undefined && { originUsdPriceE8: parseUsd(input.usdPrice) }),
    slippageToleranceBps: toleranceBps.toString(),
    referrer: request.referrer,
    ...(signedPermit && { permit: signedPermit }),
    ...(sponsorship && sponsorship.amount > 0n && { sponsorship: quotedSponsorship(sponsorship) }),
    ...(depositAddress && { depositAddress: { address: depositAddress, mode: depositAddressMode, factory: depositAddressFactory!, forwardGas: forwardGasCost } }),
  };

  return {
    quote: {
      steps,
      fees,
      details,
      protocol: { v2: { orderId, orderData: orderToJson(order), paymentDetails: paymentDetails(route, amounts.originAmount) } },
      expiresAt,
      fillDeadline,
      ...(reclaimAt !== undefined && { reclaimAt }),
      ...(sponsorship && sponsorship.amount > 0n && { feeSponsorship: sponsorshipView(sponsorship, (units) => amountObject(input, units)) }),
    },
    intent,
    order,
  };
}

/** The user's deposit transaction's gas estimate: native or ERC-20, plain or reclaimable. */
function depositGasOf(gas: QuoteSettings["gas"], isNative: boolean, reclaimable: boolean): number {
  if (reclaimable) return isNative ? gas.depositNativeReclaimable : gas.depositErc20Reclaimable;
  return isNative ? gas.depositNative : gas.depositErc20;
}

/** A swap's loss against the source's mid price at `netInput` (pool fee and impact), in input units rounded down; 0 on a bridge. */
function swapLossInInput(prices: ReturnType<typeof guardedCurve> | undefined, netInput: bigint): bigint {
  if (!prices) return 0n;
  const price = prices.price("EXACT_INPUT", netInput);
  if (price.amountOutAtSpot === 0n || price.amountOutAtSpot <= price.amountOut) return 0n;
  return ((price.amountOutAtSpot - price.amountOut) * price.amountIn) / price.amountOutAtSpot;
}

/** The intent's record of a sponsorship (no hold yet: ./quoteService.ts takes it). */
function quotedSponsorship(s: FeeSponsorship): QuotedSponsorship {
  return {
    selectedComponents: s.selectedComponents,
    ...(s.maxUsdMicro !== undefined && { maxUsdMicro: s.maxUsdMicro }),
    capHit: s.capHit,
    components: s.components,
    amount: s.amount,
    amountUsdMicro: s.amountUsdMicro,
  };
}

/** `part / whole` in percent with two decimals, rounded toward zero ("0" when `whole` is 0). */
function percentOf(part: bigint, whole: bigint): string {
  return whole === 0n ? "0" : formatUnits((part * 10_000n) / whole, 2);
}

/** usdValueE8 of a signed amount. */
function usdValueE8Signed(amount: bigint, currency: RouteCurrency): bigint | undefined {
  const value = usdValueE8(amount < 0n ? -amount : amount, currency);
  return value === undefined ? undefined : amount < 0n ? -value : value;
}
