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
 * - `relayer` = relayerGas + relayerService; `app` = the sum of the app fees; `subsidized` 0.
 */
import { formatUnits, maxUint256, type Address, type Hex } from "viem";
import { hashOrder } from "../../core/orderId.ts";
import { orderToJson, type OrderJson } from "../../core/orderJson.ts";
import type { QuoteSettings } from "../config/configSchema.ts";
import { ServiceError } from "../errors/serviceError.ts";
import { amountObject, type AmountObject } from "./amountObject.ts";
import { quoteAmounts } from "./quoteAmounts.ts";
import type { QuotedIntent, TradeType } from "../model/quotedIntent.ts";
import { buildOrder, paymentDetails, type PaymentDetails } from "./quoteOrder.ts";
import type { Route, RouteCurrency } from "./quoteRoute.ts";
import { quoteSteps, type Step } from "./quoteSteps.ts";
import { PERMIT_DEPOSIT_GAS, permitSteps, quotedPermit, type PermitKind, type PermitReads } from "./permitSteps.ts";
import { convertCeil, formatUsd, rescale, usdToUnitsCeil, usdValueE8 } from "./usdPrice.ts";

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
  /** Random bytes32 (lowercase): the service-level requestId. */
  requestId: Hex;
  /** Set for a usePermit quote of an ERC-20 deposit: what the quote read for the permit (./permitSteps.ts). */
  permit?: PermitReads;
};

type UsdImpact = { usd: string; percent: string };
type SlippageSide = { usd: string; value: string; percent: string };
type RouteSide = { inputCurrency: AmountObject; outputCurrency: AmountObject; router: string };

export type QuoteDetails = {
  operation: "bridge" | "send";
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

export type QuoteFees = Record<"gas" | "relayer" | "relayerGas" | "relayerService" | "app" | "subsidized", AmountObject>;

export type Quote = {
  steps: Step[];
  fees: QuoteFees;
  details: QuoteDetails;
  protocol: { v2: { orderId: Hex; orderData: OrderJson; paymentDetails: PaymentDetails; orderSignature?: Hex } };
  /** Unix seconds: a deposit mined after this is refunded (ORDER_EXPIRED). Ferry's addition. */
  expiresAt: number;
  /** Unix seconds: no fill after this (the fill attestation's deadline). Ferry's addition. */
  fillDeadline: number;
};

export type BuiltQuote = { quote: Quote; intent: QuotedIntent };

/** The router name in `details.route`: Ferry fills from its own liquidity. */
export const FERRY_ROUTER = "ferry";

const negUsd = (valueE8: bigint | undefined) => formatUsd(valueE8 === undefined ? undefined : -valueE8);

export function buildQuote(request: QuoteRequest, route: Route, env: QuoteEnvironment): BuiltQuote {
  const { origin, destination } = route;
  const input: RouteCurrency = origin.currency;
  const output: RouteCurrency = destination.currency;
  const { settings } = env;

  const fillGas = BigInt(output.isNative ? settings.gas.fillNative : settings.gas.fillErc20);
  // A permit deposit is sent by the service's relayer: its origin gas is the relayer's too.
  const permit = input.isNative ? undefined : env.permit;
  const relayerGas =
    convertCeil(fillGas * env.destinationGasPrice, destination.native, input) +
    (permit ? convertCeil(PERMIT_DEPOSIT_GAS[permit.kind] * env.originGasPrice, origin.native, input) : 0n);
  const fixedFee = usdToUnitsCeil(settings.fixedFeeUsd, input);

  const amounts = quoteAmounts({
    tradeType: request.tradeType,
    amount: request.amount,
    inputDecimals: input.decimals,
    outputDecimals: output.decimals,
    relayerGas,
    fixedFee,
    serviceFeeBps: BigInt(settings.serviceFeeBps),
    appFeeBps: request.appFees.map((fee) => fee.bps),
  });
  // The order carries both amounts as uint256 (fees are parts of the deposit).
  if (amounts.originAmount > maxUint256 || amounts.destinationAmount > maxUint256) {
    throw new ServiceError("INVALID_REQUEST", "body/amount: the deposit or the output would not fit a uint256");
  }

  const ttl = Math.min(settings.ttlSeconds, request.ttlSeconds ?? settings.ttlSeconds);
  const expiresAt = env.now + ttl;
  const fillDeadline = expiresAt + settings.fillWindowSeconds + Math.max(0, env.destinationClockAhead ?? 0);
  const appFees = request.appFees.map((fee, i) => ({ recipient: fee.recipient, bps: fee.bps, amount: amounts.appFees[i]! }));

  const order = buildOrder({
    route,
    solver: env.solver,
    salt: env.salt,
    recipient: request.recipient,
    refundTo: request.refundTo,
    originAmount: amounts.originAmount,
    destinationAmount: amounts.destinationAmount,
    fillDeadline,
    appFees,
  });
  const orderId = hashOrder(order);

  const currencyIn = amountObject(input, amounts.originAmount);
  const currencyOut = amountObject(output, amounts.destinationAmount);
  const payText = `${currencyIn.amountFormatted} ${input.symbol}`;
  const receiveText = `${currencyOut.amountFormatted} ${output.symbol} on ${destination.chain.displayName}`;
  const signedPermit = permit && quotedPermit(permit, orderId, expiresAt);
  const steps = signedPermit
    ? permitSteps({
        route,
        requestId: env.requestId,
        orderId,
        user: request.user,
        originAmount: amounts.originAmount,
        permit: signedPermit,
        ...(permit.kind === "permit2" && { permit2Allowance: permit.permit2Allowance }),
        payText,
        receiveText,
      })
    : quoteSteps({ route, requestId: env.requestId, orderId, user: request.user, originAmount: amounts.originAmount, allowance: env.allowance, payText, receiveText });

  // The user sends no deposit transaction for a permit (the relayer does; its gas is in relayerGas).
  const depositGas = signedPermit ? 0n : BigInt(input.isNative ? settings.gas.depositNative : settings.gas.depositErc20) + request.originGasOverhead;
  const relayer = relayerGas + amounts.relayerService;
  const fees: QuoteFees = {
    gas: amountObject(origin.native, depositGas * env.originGasPrice),
    relayer: amountObject(input, relayer),
    relayerGas: amountObject(input, relayerGas),
    relayerService: amountObject(input, amounts.relayerService),
    app: amountObject(input, amounts.app),
    subsidized: amountObject(input, 0n),
  };

  const inUsd = usdValueE8(amounts.originAmount, input);
  const outUsd = usdValueE8(amounts.destinationAmount, output);
  const outInInputUnits = rescale(amounts.destinationAmount, output.decimals, input.decimals);
  // Percent with two decimals, rounded toward zero: (out − in) / in × 100.
  const impactPercent = formatUnits(((outInInputUnits - amounts.originAmount) * 10_000n) / amounts.originAmount, 2);
  const totalImpact = { usd: inUsd !== undefined && outUsd !== undefined ? formatUsd(outUsd - inUsd) : "0", percent: impactPercent };
  const zeroSlippage = { usd: "0", value: "0", percent: "0" };
  const rate = formatUnits((amounts.destinationAmount * 10n ** BigInt(input.decimals) * 10n ** 18n) / (10n ** BigInt(output.decimals) * amounts.originAmount), 18);

  const details: QuoteDetails = {
    operation: route.sameChain ? "send" : "bridge",
    sender: request.user,
    recipient: request.recipient,
    timeEstimate: settings.timeEstimateSeconds,
    currencyIn,
    currencyOut,
    refundCurrency: amountObject(input, amounts.originAmount),
    totalImpact,
    swapImpact: { usd: "0", percent: "0" },
    expandedPriceImpact: {
      swap: { usd: "0" },
      execution: { usd: negUsd(usdValueE8(relayerGas, input)) },
      relay: { usd: negUsd(usdValueE8(amounts.relayerService, input)) },
      app: { usd: negUsd(usdValueE8(amounts.app, input)) },
    },
    rate,
    slippageTolerance: { origin: zeroSlippage, destination: { ...zeroSlippage } },
    userBalance: env.userBalance.toString(),
    isFixedRate: true,
    route: {
      origin: { inputCurrency: currencyIn, outputCurrency: currencyIn, router: FERRY_ROUTER },
      destination: { inputCurrency: currencyOut, outputCurrency: currencyOut, router: FERRY_ROUTER },
    },
  };

  const intent: QuotedIntent = {
    requestId: env.requestId,
    orderId,
    tradeType: request.tradeType,
    user: request.user,
    recipient: request.recipient,
    refundTo: request.refundTo,
    originChainId: origin.chain.id,
    originCurrency: input.address,
    originAmount: amounts.originAmount,
    destinationChainId: destination.chain.id,
    destinationCurrency: output.address,
    destinationAmount: amounts.destinationAmount,
    expiresAt,
    fillDeadline,
    fees: { relayerGas, relayerService: amounts.relayerService, app: amounts.app },
    appFees: appFees.map((fee) => ({ recipient: fee.recipient, bps: fee.bps.toString(), amount: fee.amount })),
    slippageToleranceBps: "0",
    referrer: request.referrer,
    ...(signedPermit && { permit: signedPermit }),
  };

  return {
    quote: {
      steps,
      fees,
      details,
      protocol: { v2: { orderId, orderData: orderToJson(order), paymentDetails: paymentDetails(route, amounts.originAmount) } },
      expiresAt,
      fillDeadline,
    },
    intent,
  };
}
