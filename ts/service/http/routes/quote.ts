/**
 * POST /quote/v2 — a quote for moving a currency to itself on another configured chain (or to another
 * account on the same chain): fees, details, `protocol.v2` and the steps to submit. Every quote is
 * stored with its QuotedIntent (../../model/quotedIntent.ts), which the solver matches deposits
 * against, and with the API key that asked for it.
 *
 * Expiry: the deposit must be mined by `expiresAt` = now + `quotes.ttlSeconds` (default 5 minutes;
 * a smaller `ttl` in the body shortens it); a later deposit is refunded (ORDER_EXPIRED). The fill
 * deadline is `expiresAt` + `quotes.fillWindowSeconds` (default 10 minutes). Both are in the response.
 *
 * Body fields the public client (`@relayprotocol/relay-sdk` getQuote) sends are all accepted. Acted on:
 * user, recipient (default user), originChainId, destinationChainId, originCurrency,
 * destinationCurrency, amount, tradeType, refundTo (default user), appFees, referrer (stored),
 * originGasOverhead (added to the `gas` estimate), includeProtocolData (adds `orderSignature`), ttl,
 * slippageTolerance (validated 0–10000 bps; Ferry's rates are fixed, so the quoted tolerance is 0),
 * useExternalLiquidity (accepted; Ferry has one liquidity source). Refused with 400 UNSUPPORTED_ROUTE:
 * non-empty `txs` or `authorizationList` (no destination calls) and `useDepositAddress: true`. Every
 * other field of that client is accepted and ignored (listed in BODY_IGNORED); an unknown field is 400.
 */
import { Type, type Static } from "typebox";
import type { QuoteRequest } from "../../quote/buildQuote.ts";
import type { QuoteService } from "../../quote/quoteService.ts";
import { ServiceError } from "../../errors/serviceError.ts";
import { isFerryError } from "../../../core/errors.ts";
import { withRpcDeadline } from "../../chains/rpcDeadline.ts";
import { AddressString, canonicalAddress, fitsUint256, hasValidChecksum, ZERO_ADDRESS } from "../../model/values.ts";
import type { FerryApp } from "../ferryApp.ts";
import { bodyErrorResponses, commonErrorResponses, ErrorBody } from "../httpErrors.ts";
import { QuoteSchema } from "../quoteRecord.ts";

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
    tradeType: Type.Union([Type.Literal("EXACT_INPUT"), Type.Literal("EXACT_OUTPUT")], {
      description: "EXACT_INPUT: `amount` is the deposit; EXACT_OUTPUT: `amount` is what the recipient gets",
    }),
    refundTo: Type.Optional(Type.String({ ...AddressString, description: "Refunds on the origin chain; default `user`" })),
    referrer: Type.Optional(Text(256, "Stored with the request; a filter of GET /requests/v2")),
    appFees: Type.Optional(
      Type.Array(Type.Object({ recipient: AddressString, fee: Bps }, { additionalProperties: false }), {
        maxItems: 10,
        description: "App fees in bps of the deposit, paid in the origin currency on the origin chain",
      }),
    ),
    slippageTolerance: Type.Optional(Type.String({ ...Bps, description: "bps 0–10000; Ferry's rates are fixed: quoted tolerance is 0" })),
    originGasOverhead: Type.Optional(
      Type.Union([Type.Integer({ minimum: 0, maximum: 30_000_000 }), Type.String({ pattern: "^[0-9]{1,8}$" })], {
        description: "Extra origin gas of a smart wallet; added to the `gas` fee estimate",
      }),
    ),
    includeProtocolData: Type.Optional(Type.Boolean({ description: "Adds protocol.v2.orderSignature (the solver key's)" })),
    ttl: Type.Optional(Type.Integer({ minimum: 1, maximum: 86_400, description: "Seconds to deposit; capped by the service's quote TTL" })),
    useExternalLiquidity: Type.Optional(Type.Boolean(Ignored("Accepted; Ferry has one liquidity source"))),
    txs: Type.Optional(
      Type.Array(
        Type.Object(
          { to: Type.Optional(AddressString), value: Type.Optional(Text(80)), data: Type.Optional(Text(4096)), originalTxValue: Type.Optional(Text(80)) },
          { additionalProperties: false },
        ),
        { maxItems: 16, description: "Destination calls: only an empty list (400 UNSUPPORTED_ROUTE otherwise)" },
      ),
    ),
    authorizationList: Type.Optional(
      Type.Array(Type.Object({}, { additionalProperties: true }), { maxItems: 16, description: "Only an empty list (no destination calls)" }),
    ),
    useDepositAddress: Type.Optional(Type.Boolean({ description: "Only false: Ferry has no deposit addresses" })),
    // Accepted and ignored (the public client may send them).
    txsGasLimit: Type.Optional(Type.Integer({ minimum: 0, ...Ignored() })),
    additionalData: Type.Optional(Type.Object({ userPublicKey: Type.Optional(Text(256)) }, { additionalProperties: false, ...Ignored() })),
    referrerAddress: Type.Optional(Text(128, "Accepted and ignored")),
    recoveryAddress: Type.Optional(Text(128, "Accepted and ignored")),
    refundOnOrigin: Type.Optional(Type.Boolean(Ignored("Accepted; Ferry always refunds on the origin chain"))),
    topupGas: Type.Optional(Type.Boolean(Ignored())),
    topupGasAmount: Type.Optional(Text(80, "Accepted and ignored")),
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
    strict: Type.Optional(Type.Boolean(Ignored())),
    latePaymentSlippageTolerance: Type.Optional(Text(8, "Accepted and ignored")),
    gasLimitForDepositSpecifiedTxs: Type.Optional(Type.Integer({ minimum: 0, ...Ignored() })),
    forceSolverExecution: Type.Optional(Type.Boolean(Ignored())),
    subsidizeFees: Type.Optional(Type.Boolean(Ignored("Accepted; quotes are not sponsored (`subsidized` is 0)"))),
    sponsoredFeeComponents: Type.Optional(Type.Array(Text(16), { maxItems: 8, ...Ignored() })),
    maxSubsidizationAmount: Type.Optional(Text(80, "Accepted and ignored")),
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
  { additionalProperties: false },
);
export type QuoteBody = Static<typeof QuoteBody>;

/** The body fields accepted only for compatibility with the public client; they change nothing. */
export const BODY_IGNORED = [
  "useExternalLiquidity", "txsGasLimit", "additionalData", "referrerAddress", "recoveryAddress", "refundOnOrigin", "topupGas",
  "topupGasAmount", "enableTrueExactOutput", "explicitDeposit", "useFallbacks", "permitExpiry", "strict",
  "latePaymentSlippageTolerance", "gasLimitForDepositSpecifiedTxs", "forceSolverExecution", "subsidizeFees",
  "sponsoredFeeComponents", "maxSubsidizationAmount", "subsidizeRent", "includedSwapSources", "excludedSwapSources",
  "includedOriginSwapSources", "includedDestinationSwapSources", "depositFeePayer", "maxRouteLength", "useSharedAccounts",
  "includeComputeUnitLimit", "overridePriceImpact", "disableSwapProviderPreference", "disableOriginSwaps", "fixedRate",
] as const;

export const quoteSchema = {
  summary: "Quote",
  description:
    "A quote: fees, details, protocol.v2 (orderId, orderData, paymentDetails; orderSignature with includeProtocolData) and the steps " +
    "to submit — an `approve` step only when the ERC-20 allowance is short, then the `deposit`. Routes: a currency to the same " +
    "currency (native→native, ERC-20→ERC-20 of one symbol) across configured chains, or on one chain. " +
    "Expiry: the deposit must be mined by `expiresAt` (unix seconds; default 5 minutes after the quote; `ttl` may shorten it), " +
    "else it is refunded (ORDER_EXPIRED); no fill after `fillDeadline` (default 10 minutes later). " +
    "400 UNSUPPORTED_CHAIN / UNSUPPORTED_CURRENCY / UNSUPPORTED_ROUTE / AMOUNT_TOO_LOW / INVALID_APP_FEES / PRICE_UNAVAILABLE / INVALID_REQUEST; " +
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
  if (!hasValidChecksum(value)) throw new ServiceError("INVALID_ADDRESS", `body/${field} has a mixed-case EIP-55 checksum that does not match: check it for a typo`);
  const address = canonicalAddress(value);
  if (payee && address === ZERO_ADDRESS) throw new ServiceError("ZERO_ADDRESS_NOT_ALLOWED", `body/${field} may not be the zero address (funds sent there are burned)`);
  return address;
}

/**
 * Body → the quote's request, decoded once: addresses canonical (lowercase), amounts and bps bigint,
 * defaults applied. Runs before any quote work (solver check, chain reads): refuses an amount above
 * 2^256 − 1 and bps above 10000 (INVALID_REQUEST), bad checksums and zero payees (above), and what
 * Ferry cannot do (UNSUPPORTED_ROUTE).
 */
export function toQuoteRequest(body: QuoteBody): QuoteRequest {
  const amount = BigInt(body.amount);
  if (!fitsUint256(amount)) throw new ServiceError("INVALID_REQUEST", "body/amount must be at most 2^256 - 1");
  const user = bodyAddress(body.user, "user", { payee: true });
  const recipient = body.recipient ? bodyAddress(body.recipient, "recipient", { payee: true }) : user;
  const refundTo = body.refundTo ? bodyAddress(body.refundTo, "refundTo", { payee: true }) : user;
  const originCurrency = bodyAddress(body.originCurrency, "originCurrency", { payee: false });
  const destinationCurrency = bodyAddress(body.destinationCurrency, "destinationCurrency", { payee: false });
  const bps = (value: string, field: string) => {
    if (BigInt(value) > 10_000n) throw new ServiceError("INVALID_REQUEST", `body/${field} must be at most 10000 bps`);
    return BigInt(value);
  };
  const appFees = (body.appFees ?? []).map((fee, i) => ({
    recipient: bodyAddress(fee.recipient, `appFees/${i}/recipient`, { payee: true }),
    bps: bps(fee.fee, `appFees/${i}/fee`),
  }));
  if (body.slippageTolerance !== undefined) bps(body.slippageTolerance, "slippageTolerance");
  for (const [i, tx] of (body.txs ?? []).entries()) if (tx.to !== undefined) bodyAddress(tx.to, `txs/${i}/to`, { payee: false });
  if (body.txs?.length) throw new ServiceError("UNSUPPORTED_ROUTE", "destination calls (txs) are not supported");
  if (body.authorizationList?.length) throw new ServiceError("UNSUPPORTED_ROUTE", "destination calls (authorizationList) are not supported");
  if (body.useDepositAddress) throw new ServiceError("UNSUPPORTED_ROUTE", "deposit addresses are not supported");
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
  };
}

/**
 * The most a quote body may take: the largest body the schema admits is about 100 KiB (16 `txs` of
 * 4 KiB of data); reading more only costs CPU (a 1 MiB body of 90,000 keys takes ~30 ms to parse).
 * The app's `server.bodyLimitBytes`, when smaller, still applies.
 */
export const QUOTE_BODY_LIMIT_BYTES = 256 * 1024;

export type QuoteRouteOptions = { quotes: QuoteService };

/** How long a quote waits for its chain reads: a hanging RPC answers 503 CHAIN_UNAVAILABLE (Retry-After) after this. */
export const QUOTE_CHAIN_READS_MS = 5_000;

export function registerQuoteRoute(app: FerryApp, { quotes }: QuoteRouteOptions): void {
  const bodyLimit = Math.min(app.initialConfig.bodyLimit ?? QUOTE_BODY_LIMIT_BYTES, QUOTE_BODY_LIMIT_BYTES);
  app.post("/quote/v2", { schema: quoteSchema, bodyLimit }, async (request, reply) => {
    try {
      return await withRpcDeadline(QUOTE_CHAIN_READS_MS, "POST /quote/v2", () =>
        quotes.quote(toQuoteRequest(request.body), {
          includeOrderSignature: request.body.includeProtocolData === true,
          apiKeyId: request.apiKey?.id ?? null,
          log: request.log,
        }),
      );
    } catch (error) {
      if (isFerryError(error) && error.code === "CHAIN_UNAVAILABLE") reply.header("retry-after", String(QUOTE_CHAIN_READS_MS / 1000));
      throw error;
    }
  });
}
