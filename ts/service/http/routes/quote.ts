/**
 * POST /quote/v2 — one quote endpoint for a bridge (a currency to itself across chains, or on one
 * chain), a swap (two currencies priced by a configured price source) and a cross-chain call (`txs`):
 * fees, details, `protocol.v2` and the steps to submit. Every quote is stored with its QuotedIntent
 * (../../model/quotedIntent.ts), which the solver matches deposits against, and with the API key that
 * asked for it — the `x-api-key` header's, else the key the operator tied the body's `referrer` to.
 *
 * Expiry: the deposit must be mined by `expiresAt` = now + `quotes.ttlSeconds` (default 5 minutes;
 * a smaller `ttl` in the body shortens it); a later deposit is refunded (ORDER_EXPIRED). The fill
 * deadline is `expiresAt` + `quotes.fillWindowSeconds` (default 10 minutes). Both are in the response.
 *
 * Body fields acted on: user, recipient (default user), originChainId, destinationChainId,
 * originCurrency, destinationCurrency, amount, tradeType (EXACT_INPUT, EXACT_OUTPUT, EXPECTED_OUTPUT),
 * refundTo (default user), appFees, referrer (stored; attribution), originGasOverhead (added to the
 * `gas` estimate), includeProtocolData (adds `orderSignature`), ttl, slippageTolerance (bps; a swap's
 * tolerance, default `quotes.swapSlippageBps`; 0 for a currency to itself), txs (destination calls),
 * txsGasLimit (the calls' gas), topupGas / topupGasAmount (destination gas for the recipient),
 * subsidizeFees / sponsoredFeeComponents / maxSubsidizationAmount (fee sponsorship from the app
 * balance of the caller's own, re-verified x-api-key; ../../quote/feeSponsorship.ts).
 * useExternalLiquidity: a swap is priced from an onchain market (a Uniswap V2 pool configured for the
 * pair on the destination) rather than an operator-set fixed price, when both are configured
 * (../../prices/priceSources.ts); otherwise it changes nothing. Accepted with a documented meaning but
 * no effect: the fields the schema marks `Ignored()` (kept for the public client's bodies). Refused
 * with 400 UNSUPPORTED_ROUTE: a non-empty `authorizationList`.
 *
 * Deposit addresses: `useDepositAddress: true` with `strict: true` quotes a strict deposit address (the
 * step is a plain transfer to `steps[0].depositAddress`; ../../quote/depositAddressQuote.ts), without
 * it (or with `strict: false`) the open address of the user and route (the same for every such quote;
 * each payment is re-quoted when it arrives); refunds go to `refundTo` (default `user`, as for every
 * quote). Not served yet, 400 UNSUPPORTED_ROUTE: a deposit address with `txs`, `usePermit` or
 * `subsidizeFees`, on a same-chain route or on an origin chain without a DepositAddressFactory.
 * A field this schema does not know is accepted and ignored (a newer client must not break); every
 * known field is validated strictly.
 */
import { Type, type StaticDecode } from "typebox";
import type { QuoteRequest } from "../../quote/buildQuote.ts";
import type { DepositAddressRequest } from "../../quote/depositAddressQuote.ts";
import type { QuoteService } from "../../quote/quoteService.ts";
import { ServiceError } from "../../errors/serviceError.ts";
import { isFerryError } from "../../../core/errors.ts";
import { withRpcDeadline } from "../../chains/rpcDeadline.ts";
import { type Address, AddressString, CanonicalHexOf, fitsUint256, HexDataString, UintString, ZERO_ADDRESS } from "../../model/values.ts";
import { addressInput } from "../addressInput.ts";
import type { FerryApp } from "../ferryApp.ts";
import { bodyErrorResponses, commonErrorResponses, ErrorBody } from "../httpErrors.ts";
import { QuoteSchema } from "../quoteRecord.ts";
import { sponsorshipRequest } from "../../quote/feeSponsorship.ts";
import type { ApiKeyVerifier } from "../../store/apiKeys.ts";

const ChainId = Type.Integer({ minimum: 1, maximum: Number.MAX_SAFE_INTEGER });
/** A positive integer in smallest units that fits a uint256 (at most 78 digits). */
const PositiveAmount = Type.String({ pattern: "^[1-9][0-9]{0,77}$", description: "Positive integer, smallest units" });
const Bps = Type.String({ pattern: "^(0|[1-9][0-9]{0,4})$", description: "Basis points, 0–10000" });
const Text = (maxLength: number, description?: string) => Type.String({ maxLength, ...(description ? { description } : {}) });
const Ignored = (description = "Accepted and ignored") => ({ description });

export const QuoteBody = Type.Object(
  {
    user: Type.String({ ...AddressString, description: "Depositor on the origin chain; the deposit step's `from`" }),
    recipient: Type.Optional(Type.String({ ...AddressString, description: "Receives the output; default `user`" })),
    originChainId: ChainId,
    destinationChainId: ChainId,
    originCurrency: Type.String({ ...AddressString, description: "The zero address is the native currency" }),
    destinationCurrency: Type.String({ ...AddressString, description: "The zero address is the native currency" }),
    amount: PositiveAmount,
    tradeType: Type.Union([Type.Literal("EXACT_INPUT"), Type.Literal("EXACT_OUTPUT"), Type.Literal("EXPECTED_OUTPUT")], {
      description:
        "EXACT_INPUT: `amount` is the deposit; EXACT_OUTPUT: `amount` is exactly what the recipient gets; " +
        "EXPECTED_OUTPUT: `amount` is the expected output, the minimum is that less the slippage tolerance",
    }),
    refundTo: Type.Optional(Type.String({ ...AddressString, description: "Refunds on the origin chain; default `user`" })),
    referrer: Type.Optional(Text(256, "Stored with the request; a filter of GET /requests/v2")),
    appFees: Type.Optional(
      Type.Array(Type.Object({ recipient: AddressString, fee: Bps }, { additionalProperties: false }), {
        maxItems: 10,
        description: "App fees in bps of the deposit, paid in the origin currency on the origin chain",
      }),
    ),
    slippageTolerance: Type.Optional(
      Type.String({ ...Bps, description: "bps 0–10000: a swap's tolerance (default quotes.swapSlippageBps); a currency to itself is quoted with 0" }),
    ),
    originGasOverhead: Type.Optional(
      Type.Union([Type.Integer({ minimum: 0, maximum: 30_000_000 }), Type.String({ pattern: "^[0-9]{1,8}$" })], {
        description: "Extra origin gas of a smart wallet; added to the `gas` fee estimate",
      }),
    ),
    includeProtocolData: Type.Optional(Type.Boolean({ description: "Adds protocol.v2.orderSignature (the solver key's)" })),
    ttl: Type.Optional(Type.Integer({ minimum: 1, maximum: 86_400, description: "Seconds to deposit; capped by the service's quote TTL" })),
    useExternalLiquidity: Type.Optional(
      Type.Boolean({
        description:
          "true: a swap is priced (and re-priced at fill time) from an onchain market — a Uniswap V2 pool the operator configured for the pair on the destination chain — instead of an operator-set fixed price, when both are configured; shown in details.route.destination.router and pricing.source. A bridge, or a pair with one price source, is quoted as without it. The solver still fills from its own inventory.",
      }),
    ),
    txs: Type.Optional(
      Type.Array(
        Type.Object(
          {
            to: AddressString,
            value: Type.Optional(Type.String({ ...UintString, description: "Native wei the call carries (native outputs only); default 0" })),
            data: Type.Optional(CanonicalHexOf(Type.String({ ...HexDataString, maxLength: 24_578, description: "Calldata; default 0x" }))),
            originalTxValue: Type.Optional(Type.String({ maxLength: 80, description: "Accepted and ignored" })),
          },
          { additionalProperties: false },
        ),
        {
          maxItems: 16,
          description:
            "Destination calls, run in order from the approval-free Multicaller after the output is paid into it; " +
            "what they leave goes to the refund recipient. Bound into the order (output.calls) and the requestId",
        },
      ),
    ),
    authorizationList: Type.Optional(
      Type.Array(Type.Object({}, { additionalProperties: true }), { maxItems: 16, description: "Only an empty list (no destination calls)" }),
    ),
    useDepositAddress: Type.Optional(
      Type.Boolean({
        description:
          "Pay by a plain transfer to a deposit address (steps[0].depositAddress) instead of a Depository call: with strict: true a strict address (this quote only); otherwise the open address of the user and route (reusable, the same for every such quote; each payment is re-quoted for the amount paid when it arrives)",
      }),
    ),
    reclaimable: Type.Optional(
      Type.Boolean({
        description:
          "Ferry's addition: the deposit step is the Depository's reclaimable form. The quote's `reclaimAt` (the fill deadline + quotes.reclaimWindowSeconds, default an hour) is committed onchain with the deposit: if the service has not released the deposit (repaid the fill or refunded it) by then, the depositor alone takes it back in one transaction (Depository.reclaim; `ferry reclaim`). Not with usePermit or useDepositAddress (400 UNSUPPORTED_ROUTE)",
      }),
    ),
    txsGasLimit: Type.Optional(
      Type.Integer({ minimum: 21_000, maximum: 15_000_000, description: "Gas for all of `txs` (default quotes.gas.callDefault per call)" }),
    ),
    topupGas: Type.Optional(Type.Boolean({ description: "The recipient also gets destination native currency (ERC-20 outputs)" })),
    topupGasAmount: Type.Optional(
      Type.String({ ...UintString, description: "The top-up in destination native wei; default quotes.topupGasUsd" }),
    ),
    // Accepted and ignored (the public client may send them).
    additionalData: Type.Optional(Type.Object({ userPublicKey: Type.Optional(Text(256)) }, { additionalProperties: false, ...Ignored() })),
    referrerAddress: Type.Optional(Text(128, "Accepted and ignored")),
    recoveryAddress: Type.Optional(Text(128, "Accepted and ignored")),
    refundOnOrigin: Type.Optional(Type.Boolean(Ignored("Accepted; Ferry always refunds on the origin chain"))),
    enableTrueExactOutput: Type.Optional(Type.Boolean(Ignored())),
    explicitDeposit: Type.Optional(Type.Boolean(Ignored("Accepted; Ferry deposits are always explicit Depository calls"))),
    useFallbacks: Type.Optional(Type.Boolean(Ignored())),
    usePermit: Type.Optional(
      Type.Boolean({
        description:
          "ERC-20 deposits authorised by a signature instead of an approval: a `signature` step (EIP-712) posted to POST /execute/permits; the service submits the deposit. EIP-2612 when the token supports it, else Permit2 (see permitKind). Ignored for native deposits",
      }),
    ),
    permitKind: Type.Optional(
      Type.Union([Type.Literal("eip2612"), Type.Literal("permit2")], {
        description: "Ferry's addition, with usePermit: force the token's EIP-2612 permit or the canonical Permit2 (default: EIP-2612 when supported)",
      }),
    ),
    permitExpiry: Type.Optional(Type.Integer({ minimum: 0, ...Ignored() })),
    strict: Type.Optional(
      Type.Boolean({
        description:
          "With useDepositAddress: true, a strict address: one address for this quote only, bound to its order (currency, amount, refundTo); anything else sent there (too little by the expiry, late, another currency) is refunded to refundTo. Absent or false: an open address (one per user and route, reusable)",
      }),
    ),
    latePaymentSlippageTolerance: Type.Optional(Text(8, "Accepted and ignored")),
    gasLimitForDepositSpecifiedTxs: Type.Optional(Type.Integer({ minimum: 0, ...Ignored() })),
    forceSolverExecution: Type.Optional(Type.Boolean(Ignored())),
    subsidizeFees: Type.Optional(
      Type.Boolean({
        description:
          "The app (the `x-api-key`, required: 401 SPONSORSHIP_REQUIRES_API_KEY) pays the selected fee components from its app balance: " +
          "EXACT_INPUT delivers more, EXACT_OUTPUT asks a smaller deposit; `fees.subsidized` is the sponsored amount and `feeSponsorship` says who pays what. " +
          "All or nothing: a balance that cannot cover it is 400 SPONSOR_BALANCE_TOO_LOW (the quote is not made)",
      }),
    ),
    sponsoredFeeComponents: Type.Optional(
      Type.Array(Type.Union([Type.Literal("execution"), Type.Literal("swap"), Type.Literal("relay"), Type.Literal("app")]), {
        maxItems: 4,
        description: "With subsidizeFees: the components the app pays (default all four), sponsored in the order execution, swap, relay, app",
      }),
    ),
    maxSubsidizationAmount: Type.Optional(
      Type.String({ pattern: "^(0|[1-9][0-9]{0,29})$", description: "With subsidizeFees: the most the app pays, USD micro-units (1000000 = $1); past it the user pays the rest (capHit)" }),
    ),
    subsidizeRent: Type.Optional(Type.Boolean(Ignored())),
    includedSwapSources: Type.Optional(Type.Array(Text(64), { maxItems: 32, ...Ignored() })),
    excludedSwapSources: Type.Optional(Type.Array(Text(64), { maxItems: 32, ...Ignored() })),
    includedOriginSwapSources: Type.Optional(Type.Array(Text(64), { maxItems: 32, ...Ignored() })),
    includedDestinationSwapSources: Type.Optional(Type.Array(Text(64), { maxItems: 32, ...Ignored() })),
    depositFeePayer: Type.Optional(Text(128, "Accepted and ignored")),
    maxRouteLength: Type.Optional(Type.Integer({ minimum: 0, ...Ignored() })),
    useSharedAccounts: Type.Optional(Type.Boolean(Ignored())),
    includeComputeUnitLimit: Type.Optional(Type.Boolean(Ignored())),
    overridePriceImpact: Type.Optional(Type.Boolean(Ignored())),
    disableSwapProviderPreference: Type.Optional(Type.Boolean(Ignored())),
    disableOriginSwaps: Type.Optional(Type.Boolean(Ignored())),
    fixedRate: Type.Optional(Text(80, "Accepted and ignored")),
  },
  // Unknown fields are accepted and ignored: a newer client's extra field must not break a quote.
  { additionalProperties: true },
);
export type QuoteBody = StaticDecode<typeof QuoteBody>;

export const quoteSchema = {
  summary: "Quote",
  description:
    "A quote: fees, details, protocol.v2 (orderId, orderData, paymentDetails; orderSignature with includeProtocolData) and the steps " +
    "to submit — an `approve` step only when the ERC-20 allowance is short, then the `deposit`. Routes: a bridge (a currency to " +
    "itself across configured chains, or on one chain), a swap (two currencies a configured price source prices; slippageTolerance), " +
    "and destination calls (`txs`) on either; `topupGas` adds destination gas for the recipient. Unknown body fields are ignored. " +
    "Expiry: the deposit must be mined by `expiresAt` (unix seconds; default 5 minutes after the quote; `ttl` may shorten it), " +
    "else it is refunded (ORDER_EXPIRED); no fill after `fillDeadline` (default 10 minutes later). " +
    "Fee sponsorship: `subsidizeFees` with the app's x-api-key has the app's balance pay the selected fee components (`fees.subsidized`, `feeSponsorship`); " +
    "401 SPONSORSHIP_REQUIRES_API_KEY without a valid key, 400 SPONSOR_BALANCE_TOO_LOW when its balance cannot cover them (never partially sponsored). " +
    "400 UNSUPPORTED_CHAIN / UNSUPPORTED_CURRENCY / UNSUPPORTED_ROUTE / AMOUNT_TOO_LOW / INVALID_APP_FEES / PRICE_UNAVAILABLE / " +
    "INSUFFICIENT_LIQUIDITY / PRICE_OUT_OF_BAND / TOPUP_GAS_TOO_HIGH / INVALID_REQUEST; " +
    "503 SOLVER_NOT_CONFIGURED, CHAIN_UNAVAILABLE.",
  tags: ["Quotes"],
  body: QuoteBody,
  response: { 200: QuoteSchema, 503: ErrorBody, ...bodyErrorResponses, ...commonErrorResponses },
};

/**
 * An address of the body, canonical: a mixed-case address must carry its own EIP-55 checksum
 * (INVALID_ADDRESS: most likely a typo), and an address funds are paid to may not be the zero address
 * (ZERO_ADDRESS_NOT_ALLOWED: they would be burned). All-lowercase and all-uppercase hex are unchecksummed.
 */
function bodyAddress(value: string, field: string, { payee }: { payee: boolean }) {
  const address = addressInput(value, `body/${field}`);
  if (payee && address === ZERO_ADDRESS) throw new ServiceError("ZERO_ADDRESS_NOT_ALLOWED", `body/${field} may not be the zero address (funds sent there are burned)`);
  return address;
}

/**
 * Body → the quote's request, decoded once: addresses canonical (lowercase), amounts and bps bigint,
 * calls typed, defaults applied. Runs before any quote work (solver check, chain reads): refuses
 * amounts above 2^256 − 1 and bps above 10000 (INVALID_REQUEST), bad checksums and zero payees
 * (above), and what Ferry cannot do (UNSUPPORTED_ROUTE).
 */
export function toQuoteRequest(body: QuoteBody): QuoteRequest {
  if (body.authorizationList?.length) throw new ServiceError("UNSUPPORTED_ROUTE", "destination calls (authorizationList) are not supported");
  const depositAddress = depositAddressRequest(body);
  const bps = (value: string, field: string) => {
    if (BigInt(value) > 10_000n) throw new ServiceError("INVALID_REQUEST", `body/${field} must be at most 10000 bps`);
    return BigInt(value);
  };
  const uint256 = (value: string, field: string) => {
    const amount = BigInt(value);
    if (!fitsUint256(amount)) throw new ServiceError("INVALID_REQUEST", `body/${field} must be at most 2^256 - 1`);
    return amount;
  };
  const amount = uint256(body.amount, "amount");
  const user = bodyAddress(body.user, "user", { payee: true });
  const recipient = body.recipient ? bodyAddress(body.recipient, "recipient", { payee: true }) : user;
  const refundTo = body.refundTo ? bodyAddress(body.refundTo, "refundTo", { payee: true }) : user;
  const originCurrency = bodyAddress(body.originCurrency, "originCurrency", { payee: false });
  const destinationCurrency = bodyAddress(body.destinationCurrency, "destinationCurrency", { payee: false });
  const appFees = (body.appFees ?? []).map((fee, i) => ({
    recipient: bodyAddress(fee.recipient, `appFees/${i}/recipient`, { payee: true }),
    bps: bps(fee.fee, `appFees/${i}/fee`),
  }));
  const calls = (body.txs ?? []).map((tx, i) => ({
    to: bodyAddress(tx.to, `txs/${i}/to`, { payee: false }),
    data: tx.data ?? "0x",
    value: uint256(tx.value ?? "0", `txs/${i}/value`),
  }));
  return {
    user,
    recipient,
    refundTo,
    originChainId: body.originChainId,
    originCurrency,
    destinationChainId: body.destinationChainId,
    destinationCurrency,
    tradeType: body.tradeType,
    amount,
    appFees,
    originGasOverhead: BigInt(body.originGasOverhead ?? 0),
    referrer: body.referrer ?? null,
    ...(body.ttl !== undefined && { ttlSeconds: body.ttl }),
    ...(body.usePermit === true && { permit: body.permitKind ?? "auto" }),
    ...(body.slippageTolerance !== undefined && { slippageToleranceBps: bps(body.slippageTolerance, "slippageTolerance") }),
    calls,
    ...(body.txsGasLimit !== undefined && { callsGasLimit: BigInt(body.txsGasLimit) }),
    topupGas: body.topupGas === true,
    ...(body.useExternalLiquidity === true && { useExternalLiquidity: true }),
    ...(body.topupGasAmount !== undefined && { topupGasAmount: uint256(body.topupGasAmount, "topupGasAmount") }),
    ...(body.subsidizeFees === true && { sponsorship: sponsorshipRequest(body.sponsoredFeeComponents, body.maxSubsidizationAmount) }),
    ...(depositAddress && { depositAddress }),
    ...(reclaimableRequest(body, originCurrency) && { reclaimable: true }),
  };
}

/** `reclaimable` decoded: only for a deposit the user sends to the Depository itself (UNSUPPORTED_ROUTE otherwise). */
function reclaimableRequest(body: QuoteBody, originCurrency: Address): boolean {
  if (body.reclaimable !== true) return false;
  if (body.usePermit === true && originCurrency !== ZERO_ADDRESS) throw new ServiceError("UNSUPPORTED_ROUTE", "reclaimable deposits are sent by the depositor itself: not with usePermit (the service submits a permit deposit)");
  if (body.useDepositAddress === true) throw new ServiceError("UNSUPPORTED_ROUTE", "reclaimable deposits are sent by the depositor itself: not with useDepositAddress (the service forwards the payment)");
  return true;
}

/** `useDepositAddress` decoded: strict with `strict: true`, else open; not combined with what is not served (UNSUPPORTED_ROUTE). */
function depositAddressRequest(body: QuoteBody): DepositAddressRequest | undefined {
  if (!body.useDepositAddress) return undefined;
  if (body.txs?.length) throw new ServiceError("UNSUPPORTED_ROUTE", "deposit addresses with destination calls (txs) are not supported yet");
  if (body.usePermit === true) throw new ServiceError("UNSUPPORTED_ROUTE", "usePermit does not apply to a deposit address (the payer sends a plain transfer)");
  if (body.subsidizeFees === true) throw new ServiceError("UNSUPPORTED_ROUTE", "deposit addresses with sponsored fees are not supported yet");
  return { mode: body.strict === true ? "strict" : "open" };
}

/**
 * The most a quote body may take: the largest body the schema admits is about 100 KiB (16 `txs` of
 * 4 KiB of data); reading more only costs CPU (a 1 MiB body of 90,000 keys takes ~30 ms to parse).
 * The app's `server.bodyLimitBytes`, when smaller, still applies.
 */
export const QUOTE_BODY_LIMIT_BYTES = 256 * 1024;

export type QuoteRouteOptions = {
  quotes: QuoteService;
  /** The API key an operator tied a referrer to (`ferry keys referrer`); absent → no referrer attribution. */
  referrers?: { keyIdForReferrer(referrer: string): Promise<string | undefined> };
  /**
   * The API keys, uncached: a sponsored quote spends the app's balance, so its key is verified again
   * against the store (a key revoked a moment ago still passes the request cache for its TTL).
   * Without it, no quote is sponsored (SPONSORSHIP_UNAVAILABLE).
   */
  sponsorKeys?: ApiKeyVerifier;
};

/**
 * The API key that pays a sponsored quote: the caller's own `x-api-key`, verified uncached — never a
 * key the body's `referrer` is attributed to (attribution gives no privilege, and spending an app's
 * balance is one). SPONSORSHIP_REQUIRES_API_KEY without a valid, unrevoked key.
 */
async function sponsoringKeyId(request: { apiKey?: { id: string } | undefined; headers: Record<string, unknown> }, sponsorKeys: ApiKeyVerifier | undefined): Promise<string> {
  const header = request.headers["x-api-key"];
  if (!request.apiKey || typeof header !== "string") {
    throw new ServiceError("SPONSORSHIP_REQUIRES_API_KEY", "subsidizeFees needs the app's x-api-key: sponsored fees are paid from the app's balance");
  }
  if (!sponsorKeys) throw new ServiceError("SPONSORSHIP_UNAVAILABLE", "this service keeps no app balances: it sponsors no fees");
  const verified = await sponsorKeys.verify(header);
  if (!verified || verified.id !== request.apiKey.id) throw new ServiceError("SPONSORSHIP_REQUIRES_API_KEY", "x-api-key is revoked: it cannot sponsor fees");
  return verified.id;
}

/** How long a quote waits for its chain reads: a hanging RPC answers 503 CHAIN_UNAVAILABLE (Retry-After) after this. */
export const QUOTE_CHAIN_READS_MS = 5_000;

/**
 * The API key a quote is stored under: the `x-api-key` header's; else, for an anonymous quote, the key
 * the operator tied the body's `referrer` to — the official client sends its `source` as `referrer` on
 * every quote but `x-api-key` only to the reference's own hosts, so this is how its requests reach
 * their app's webhooks. Attribution only (no rate limit, no privilege); null when neither.
 */
async function attributedKeyId(request: { apiKey?: { id: string } | undefined; body: QuoteBody }, referrers: QuoteRouteOptions["referrers"]): Promise<string | null> {
  if (request.apiKey) return request.apiKey.id;
  if (!referrers || !request.body.referrer) return null;
  return (await referrers.keyIdForReferrer(request.body.referrer)) ?? null;
}

export function registerQuoteRoute(app: FerryApp, { quotes, referrers, sponsorKeys }: QuoteRouteOptions): void {
  const bodyLimit = Math.min(app.initialConfig.bodyLimit ?? QUOTE_BODY_LIMIT_BYTES, QUOTE_BODY_LIMIT_BYTES);
  app.post("/quote/v2", { schema: quoteSchema, bodyLimit }, async (request, reply) => {
    const quoteRequest = toQuoteRequest(request.body);
    const sponsorKeyId = quoteRequest.sponsorship ? await sponsoringKeyId(request, sponsorKeys) : undefined;
    const apiKeyId = sponsorKeyId ?? (await attributedKeyId(request, referrers));
    try {
      return await withRpcDeadline(QUOTE_CHAIN_READS_MS, "POST /quote/v2", () =>
        quotes.quote(quoteRequest, {
          includeOrderSignature: request.body.includeProtocolData === true,
          apiKeyId,
          ...(sponsorKeyId !== undefined && { sponsorKeyId }),
          log: request.log,
        }),
      );
    } catch (error) {
      if (isFerryError(error) && error.code === "CHAIN_UNAVAILABLE") reply.header("retry-after", String(QUOTE_CHAIN_READS_MS / 1000));
      throw error;
    }
  });
}
