/**
 * `createQuoteService({...deps}).quote(request, options)`: one quote, end to end — resolve the route
 * (once), read the chains it needs (gas prices, the user's allowance and balance; a swap's price
 * source: its market, e.g. a pool's reserves), build the quote
 * (./buildQuote.ts, pure), sign the orderId when asked, store the quote with its intent, return it.
 * The HTTP route decodes the body and calls this; everything with I/O (clients, clock, randomness,
 * store) is injected.
 *
 * Errors (codes of ../errors/errorRegistry.ts): the route's QuoteError codes; SOLVER_NOT_CONFIGURED
 * without a solver key; CHAIN_UNAVAILABLE when a chain of the route has no client or does not answer.
 */
import { randomBytes } from "node:crypto";
import { bytesToBigInt, erc20Abi, type LocalAccount, type PublicClient } from "viem";
import { signOrder } from "../../core/orderSignature.ts";
import type { ChainConfig, QuoteSettings } from "../config/configSchema.ts";
import { ServiceError } from "../errors/serviceError.ts";
import { errorFields, SILENT_LOG, type Logger } from "../logging/logger.ts";
import { bytes32Of, ZERO_ADDRESS, type Address } from "../model/values.ts";
import type { Store } from "../store/createStore.ts";
import { buildQuote, type Quote, type QuoteRequest } from "./buildQuote.ts";
import { capacityShortfall } from "./quoteCapacity.ts";
import type { SolverInventory } from "../chains/solverInventory.ts";
import type { ServiceAccount } from "../chains/serviceAccounts.ts";
import { isFerryError } from "../../core/errors.ts";
import type { PriceReading } from "../prices/priceSource.ts";
import { referenceUsdPrice } from "../prices/referenceUsdPrice.ts";
import { createPriceSources, type PriceSources } from "../prices/priceSources.ts";
import { resolveRoute, type ChainHealthOf, type Route, type RouteRequest } from "./quoteRoute.ts";
import { readPermit } from "./permitReads.ts";
import { readCallOutputs, traceCallOutputs, withTracedOutputs, type TraceClient } from "./callOutputs.ts";
import { signAttestationDigest } from "../../core/signAttestation.ts";
import { preparedFillOf } from "../model/attestations.ts";
import { fillTransaction } from "../transactions/fillTransaction.ts";
import type { QuotedIntent } from "../model/quotedIntent.ts";
import { createBlockReadCache, type BlockReadCache, type HeadOf } from "../chains/blockReadCache.ts";
import { createQuoteWriteBatch } from "./quoteWriteBatch.ts";
import type { NewQuote } from "../store/quotes.ts";

/** The chain reads a quote makes. */
export type QuoteChainClient = Pick<PublicClient, "getGasPrice" | "getBalance" | "readContract" | "getCode" | "getBlock"> & Partial<Pick<PublicClient, "request">>;

export type QuoteServiceDeps = {
  chains: readonly ChainConfig[];
  settings: QuoteSettings;
  /** A client per chain id (the app's chain clients). */
  clients: { get(chainId: number): QuoteChainClient | undefined };
  /** The solver key's account: orderData.solver, and the orderSignature. Without it every quote is SOLVER_NOT_CONFIGURED. */
  solver: ServiceAccount | undefined;
  /**
   * Where the quote is stored. With `transaction` (the real store), a sponsored quote holds its amount
   * on the app balance (../store/appBalances.ts: purpose "sponsorship", reference the requestId) in the
   * same transaction that stores the quote: both or neither. Without it no quote is sponsored
   * (SPONSORSHIP_UNAVAILABLE). With `saveQuotes`, a plain quote's write joins the quotes written at the
   * same moment in one statement (./quoteWriteBatch.ts); it is still committed before the quote is answered.
   */
  store: Pick<Store, "saveQuote"> & Partial<Pick<Store, "transaction" | "saveDepositAddress" | "saveOpenDepositAddress" | "saveQuotes">>;
  /** Default: the system clock. */
  now?: () => Date;
  /** 32 random bytes (the order's salt, the requestId). Default: node:crypto. */
  randomBytes32?: () => Uint8Array;
  /** Default: `resolveRoute` over `chains`, `priceSources` and `chainHealth` (tests inject a counting one). */
  resolveRoute?: (request: RouteRequest) => Route;
  /** Each chain's health now (../chains/chainWatch.ts): a disabled chain, or an origin closed for deposits, is refused UNSUPPORTED_CHAIN. */
  chainHealth?: ChainHealthOf;
  /**
   * The solver's inventory (../chains/solverInventory.ts): a quote for more than the solver can fill
   * now is SOLVER_BALANCE_TOO_LOW / SOLVER_CAPACITY_EXCEEDED (./quoteCapacity.ts). Without it, no check.
   */
  inventory?: Pick<SolverInventory, "line">;
  /** Swap price sources; default: `settings.priceSources` read through `clients`. */
  priceSources?: PriceSources;
  /**
   * The attester key: with it, a quote with destination calls traces its fill (`debug_traceCall`) to
   * list every token the calls send to the Multicaller (./callOutputs.ts). Without it, the calldata
   * scan only.
   */
  attester?: LocalAccount;
  /**
   * Each chain's head (the chain watch's, ../chains/chainWatch.ts): the chain reads and price readings
   * are cached per head (../chains/blockReadCache.ts). Without it (or while a chain's head is unknown) every
   * quote reads its chains.
   */
  heads?: HeadOf;
  /** The per-block cache itself (tests inject one with their own clock); default: one over `heads`. */
  blockReads?: BlockReadCache;
};

export type QuoteOptions = {
  /** Adds protocol.v2.orderSignature (the body's `includeProtocolData`). */
  includeOrderSignature: boolean;
  /** Stored with the quote (the caller's API key), null when anonymous. */
  apiKeyId: string | null;
  /** A sponsored quote (`request.sponsorship`): the verified API key whose app balance pays (routes/quote.ts). */
  sponsorKeyId?: string;
  /** The request's logger (a failed chain read is logged there). */
  log?: Logger;
  /**
   * The re-quote of a payment into an open deposit address (the solver's,
   * ../solver/depositAddress/forwardOpenDepositAddresses.ts): stored as a plain quote (the address is
   * stored already, and this quote is no placeholder of it).
   */
  openPayment?: boolean;
};

export type QuoteService = { quote(request: QuoteRequest, options: QuoteOptions): Promise<Quote> };

export function createQuoteService(deps: QuoteServiceDeps): QuoteService {
  const { chains, settings, clients, solver, store } = deps;
  const now = deps.now ?? (() => new Date());
  const random = deps.randomBytes32 ?? (() => randomBytes(32));
  const priceSources = deps.priceSources ?? createPriceSources(settings.priceSources, clients);
  const route = deps.resolveRoute ?? ((request: RouteRequest) => resolveRoute(chains, request, priceSources, deps.chainHealth));
  const solverAddress = solver?.address;
  const blockReads = deps.blockReads ?? createBlockReadCache({ head: deps.heads ?? (() => undefined) });
  const writes = store.saveQuotes ? createQuoteWriteBatch({ saveQuotes: store.saveQuotes.bind(store) }) : undefined;
  /** Destination chains whose RPC cannot trace (found once, logged once): the calldata scan only. */
  const untraceable = new Set<number>();

  return {
    async quote(request, options) {
      if (!solver || !solverAddress) throw new ServiceError("SOLVER_NOT_CONFIGURED", "this service has no solver key: it cannot quote");
      if (request.sponsorship && !options.sponsorKeyId) throw new ServiceError("SPONSORSHIP_REQUIRES_API_KEY", "subsidizeFees needs the app's x-api-key");
      if (request.sponsorship && !store.transaction) throw new ServiceError("SPONSORSHIP_UNAVAILABLE", "this service keeps no app balances: it sponsors no fees");
      const log = options.log ?? SILENT_LOG;
      const routed = route(request);
      const topup = request.topupGas && !routed.destination.currency.isNative;
      const [{ originTime, destinationTime, originBlockNumber, ...reads }, prices, permit, capacity, resolved, nativeCapacity, sweepTokens] = await Promise.all([
        readChains(routed, request, log),
        readPrices(routed, log),
        request.permit && !routed.origin.currency.isNative ? readPermit(clients.get(routed.origin.chain.id)!, routed, request.user, request.permit, log) : undefined,
        inventoryLine(routed.destination.chain.id, routed.destination.currency.address, log),
        topup ? withReferenceNativePrice(routed, log) : routed,
        // The gas top-up is paid from the solver's native balance on the destination.
        topup ? inventoryLine(routed.destination.chain.id, ZERO_ADDRESS, log) : undefined,
        readSweepTokens(routed, request, log),
      ]);
      // Expiry is checked against chain time (the deposit's block, the destination's latest block), so it
      // is computed on the chains' clocks: a chain running ahead of the wall clock (a busy devnet) must
      // not shorten the deposit window.
      const wall = Math.floor(now().getTime() / 1000);
      const originNow = Math.max(wall, originTime);
      const env = {
        settings,
        solver: solverAddress,
        ...reads,
        now: originNow,
        destinationClockAhead: Math.max(wall, destinationTime) - originNow,
        salt: bytesToBigInt(random()),
        requestId: bytes32Of(random()),
        ...(permit && { permit }),
        ...(prices ? { prices } : {}),
        ...(sweepTokens && { sweepTokens }),
      };
      let { quote, intent, order } = buildQuote(request, resolved, env);
      // With calls: the fill is traced once; tokens it sends to the Multicaller that the calldata scan
      // missed join the sweep list (a new list is a new requestId: the quote is rebuilt, same salt).
      const traced = sweepTokens && (await traceSweepTokens(intent, routed, solverAddress, log));
      if (traced && sweepTokens && traced.length > sweepTokens.length) ({ quote, intent, order } = buildQuote(request, resolved, { ...env, sweepTokens: traced }));
      // The gas top-up is paid from the solver's native balance on the destination: it must fit too.
      const topupShortfall = nativeCapacity && intent.topupGas ? capacityShortfall(nativeCapacity, intent.topupGas) : null;
      if (topupShortfall) {
        throw new ServiceError(topupShortfall, `the solver cannot pay the gas top-up of ${intent.topupGas} ${nativeCapacity!.symbol} on chain ${nativeCapacity!.chainId} now`);
      }
      const shortfall = capacity ? capacityShortfall(capacity, intent.destinationAmount) : null;
      if (shortfall) {
        throw new ServiceError(
          shortfall,
          shortfall === "SOLVER_BALANCE_TOO_LOW"
            ? `the solver's ${capacity!.symbol} balance on chain ${capacity!.chainId} is below ${intent.destinationAmount}`
            : `the solver can fill at most ${capacity!.available} ${capacity!.symbol} on chain ${capacity!.chainId} now (the rest is held by fills in flight)`,
        );
      }
      if (options.includeOrderSignature) quote.protocol.v2.orderSignature = await signOrder(solver, quote.protocol.v2.orderId);
      const row = (stored: QuotedIntent): NewQuote => ({
        requestId: stored.requestId,
        orderId: stored.orderId,
        orderData: order,
        quote,
        intent: stored,
        expiresAt: new Date(stored.expiresAt * 1000),
        apiKeyId: options.apiKeyId,
      });
      const saved = (repos: Pick<Store, "saveQuote">, stored: QuotedIntent) => repos.saveQuote(row(stored));
      const depositAddress = intent.depositAddress;
      if (depositAddress?.mode === "open" && !options.openPayment) {
        // The address row once per user and route (idempotent), and this quote as one of its placeholders, with the quote.
        if (!store.transaction || !store.saveOpenDepositAddress) throw new ServiceError("UNSUPPORTED_ROUTE", "this service keeps no deposit addresses");
        await store.transaction(async (tx) => {
          await saved(tx, intent);
          await tx.saveOpenDepositAddress({
            chainId: intent.originChainId,
            address: depositAddress.address,
            factory: depositAddress.factory,
            refundTo: intent.refundTo,
            route: {
              user: intent.user,
              recipient: intent.recipient,
              originCurrency: intent.originCurrency,
              destinationChainId: intent.destinationChainId,
              destinationCurrency: intent.destinationCurrency,
              appFees: request.appFees.map((fee) => ({ recipient: fee.recipient, bps: fee.bps.toString() })),
              referrer: request.referrer,
            },
            apiKeyId: options.apiKeyId,
            requestId: intent.requestId,
            orderId: intent.orderId,
            expiresAt: new Date(intent.expiresAt * 1000),
            quotedAtBlock: originBlockNumber,
          });
        });
        return quote;
      }
      if (depositAddress?.mode === "open") {
        await saved(store, intent);
        return quote;
      }
      if (depositAddress) {
        // The quote and its deposit address are stored together: the solver watches only addresses of stored quotes.
        if (!store.transaction || !store.saveDepositAddress) throw new ServiceError("UNSUPPORTED_ROUTE", "this service keeps no deposit addresses");
        await store.transaction(async (tx) => {
          await saved(tx, intent);
          await tx.saveDepositAddress({
            chainId: intent.originChainId,
            address: depositAddress.address,
            mode: "strict",
            factory: depositAddress.factory,
            refundTo: intent.refundTo,
            requestId: intent.requestId,
            orderId: intent.orderId,
            currency: intent.originCurrency,
            amount: intent.originAmount,
            expiresAt: new Date(intent.expiresAt * 1000),
          });
        });
        return quote;
      }
      const sponsorship = intent.sponsorship;
      if (!sponsorship) {
        // Stored before it is answered (a deposit for it must find it), in one statement with the quotes made at the same moment.
        await (writes ? writes.save(row(intent)) : saved(store, intent));
        return quote;
      }
      // Sponsored: the app's balance is held last, once nothing else can refuse the quote, in the
      // transaction that stores it — all of the sponsored amount or nothing (SPONSOR_BALANCE_TOO_LOW,
      // no quote). The hold lives as long as the quote (released when it expires unused).
      const destination = { chainId: intent.destinationChainId, currency: intent.destinationCurrency };
      await store.transaction!(async (tx) => {
        const { holdId } = await tx.appBalances.hold({ apiKeyId: options.sponsorKeyId!, amountUsd: sponsorship.amountUsdMicro, purpose: "sponsorship", reference: intent.requestId, exposure: destination });
        await saved(tx, { ...intent, sponsorship: { ...sponsorship, holdId } });
      });
      return quote;
    },
  };

  function inventoryLine(chainId: number, currency: Address, log: Logger) {
    return deps.inventory?.line(chainId, currency).catch((cause: unknown) => {
      log.warn({ err: errorFields(cause) }, "quote: inventory read failed");
      throw isFerryError(cause) ? cause : new ServiceError("CHAIN_UNAVAILABLE", "the destination chain did not answer; retry", { cause });
    });
  }

  /** A swap's price reading (its source's one read); a source that cannot be read is CHAIN_UNAVAILABLE. */
  async function readPrices(resolved: Route, log: Logger): Promise<PriceReading | undefined> {
    if (!resolved.swap) return undefined;
    return readSource(resolved.swap, resolved.origin.currency, resolved.destination.currency, log);
  }

  async function readSource(source: NonNullable<Route["swap"]>, from: Route["origin"]["currency"], to: Route["origin"]["currency"], log: Logger): Promise<PriceReading> {
    try {
      // One reading per source, pair and head: the source reads its market at the latest block.
      return await blockReads.read(source.chainId, `price:${source.id}:${from.address}:${to.address}`, () => source.read(from, to));
    } catch (cause) {
      if (cause instanceof ServiceError) throw cause;
      log.warn({ err: errorFields(cause), priceSource: source.id }, "quote: price source read failed");
      throw new ServiceError("CHAIN_UNAVAILABLE", "the swap's price source did not answer; retry", { cause });
    }
  }

  /** With calls: the tokens they may leave in the Multicaller (./callOutputs.ts), swept to the refund recipient. */
  async function readSweepTokens(resolved: Route, request: QuoteRequest, log: Logger): Promise<Address[] | undefined> {
    if (request.calls.length === 0) return undefined;
    const client = clients.get(resolved.destination.chain.id);
    if (!client) throw new ServiceError("CHAIN_UNAVAILABLE", "no RPC client for the destination chain");
    const multicaller = resolved.destination.chain.contracts.multicaller;
    try {
      return await readCallOutputs(client, { calls: request.calls, destinationCurrency: resolved.destination.currency.address, multicaller });
    } catch (cause) {
      if (isFerryError(cause)) throw cause;
      log.warn({ err: errorFields(cause) }, "quote: reading the calls' tokens failed");
      throw new ServiceError("CHAIN_UNAVAILABLE", "the destination chain did not answer; retry", { cause });
    }
  }

  /**
   * The quote's fill as the solver will send it (`fillWithCalls`, the attestation signed alike), traced
   * from the solver's address on the destination chain: the sweep list extended by every ERC-20 it
   * transfers to the Multicaller (./callOutputs.ts). Undefined — the calldata scan stands — without an
   * attester, when the node cannot trace (logged once per chain) or when the simulated fill reverts
   * (the fill-time checks decide). INVALID_REQUEST when the list grows past MAX_SWEEP_TOKENS.
   */
  async function traceSweepTokens(intent: QuotedIntent, resolved: Route, from: Address, log: Logger): Promise<Address[] | undefined> {
    if (!deps.attester || !intent.calls?.length || !intent.sweepTokens) return undefined;
    const chain = resolved.destination.chain;
    if (untraceable.has(chain.id)) return undefined;
    const client = clients.get(chain.id);
    if (!client?.request) return undefined;
    const receiver = chain.contracts.attestedReceiver;
    const multicaller = chain.contracts.multicaller;
    const { attestation, digest } = preparedFillOf(intent, receiver);
    const signature = await signAttestationDigest(deps.attester, digest);
    // fillWithCalls exactly as the solver sends it (the intent has calls).
    const tx = { to: receiver, ...fillTransaction(intent, attestation, signature, { chainId: chain.id, receiver }) };
    let traced: Awaited<ReturnType<typeof traceCallOutputs>>;
    try {
      traced = await traceCallOutputs(client as unknown as TraceClient, { from, tx, multicaller });
    } catch (cause) {
      log.warn({ err: errorFields(cause) }, "quote: tracing the calls failed");
      throw new ServiceError("CHAIN_UNAVAILABLE", "the destination chain did not answer; retry", { cause });
    }
    if (traced === "unsupported") {
      untraceable.add(chain.id);
      log.warn({ chainId: chain.id }, "quote: the destination RPC has no debug_traceCall/callTracer: calls' outputs are listed from their calldata only");
      return undefined;
    }
    if (traced === "reverted") return undefined;
    return withTracedOutputs(intent.sweepTokens, traced);
  }

  /**
   * The route with the destination's native currency priced from the price sources: when a source on
   * the destination chain prices the native currency against the output currency (which has a USD
   * price), the native's USD price is that source's reference (TWAP, oracle, fixed) times the output's;
   * else the configured `usdPrice` stays. The gas top-up (its default amount, its cap, its cost) and the
   * fill's gas are converted with it.
   */
  async function withReferenceNativePrice(resolved: Route, log: Logger): Promise<Route> {
    const { native, currency } = resolved.destination;
    const source = priceSources.find(resolved.destination.chain.id, native, currency);
    if (!source) return resolved;
    const usdPrice = referenceUsdPrice((await readSource(source, native, currency, log)).reference, native, currency);
    return usdPrice === undefined ? resolved : { ...resolved, destination: { ...resolved.destination, native: { ...native, usdPrice } } };
  }

  /**
   * Gas prices and head block times of both chains (one read each on a same-chain route), the user's
   * allowance (ERC-20) and balance, in parallel; each but the allowance once per chain head
   * (../chains/blockReadCache.ts: the block time and balance read at that head's block). The allowance is read
   * at the latest block on every quote: it decides the approve step.
   */
  async function readChains(resolved: Route, request: QuoteRequest, log: Logger) {
    const originClient = clients.get(resolved.origin.chain.id);
    const destinationClient = clients.get(resolved.destination.chain.id);
    if (!originClient || !destinationClient) throw new ServiceError("CHAIN_UNAVAILABLE", "no RPC client for the route's chains");
    const { address: token, isNative } = resolved.origin.currency;
    const { user } = request;
    try {
      const origin = resolved.origin.chain.id;
      const destination = resolved.destination.chain.id;
      const depository = resolved.origin.depository;
      const [originGasPrice, destinationGasPrice, originBlock, destinationBlock, allowance, userBalance] = await Promise.all([
        blockReads.read(origin, "gasPrice", () => originClient.getGasPrice()),
        resolved.sameChain ? undefined : blockReads.read(destination, "gasPrice", () => destinationClient.getGasPrice()),
        blockReads.read(origin, "block", (at) => headBlock(originClient, at)),
        resolved.sameChain ? undefined : blockReads.read(destination, "block", (at) => headBlock(destinationClient, at)),
        isNative
          ? undefined
          : // Read at the latest block, never cached: it decides whether the quote has an approve step, and
            // a deposit made since the cached head may have spent it (an approve step left out would revert).
            originClient.readContract({ address: token, abi: erc20Abi, functionName: "allowance", args: [user, depository] }),
        blockReads.read(origin, `balance:${token}:${user}`, (at) =>
          isNative
            ? originClient.getBalance({ address: user, ...atBlock(at) })
            : originClient.readContract({ address: token, abi: erc20Abi, functionName: "balanceOf", args: [user], ...atBlock(at) }),
        ),
      ]);
      return {
        originBlockNumber: originBlock.number,
        originGasPrice,
        destinationGasPrice: destinationGasPrice ?? originGasPrice,
        originTime: originBlock.time,
        destinationTime: (destinationBlock ?? originBlock).time,
        allowance,
        userBalance,
      };
    } catch (cause) {
      log.warn({ err: errorFields(cause) }, "quote: chain read failed");
      throw new ServiceError("CHAIN_UNAVAILABLE", "a chain of this route did not answer; retry", { cause });
    }
  }
}

/** A read at `blockNumber` (the cached head), or at the latest block when there is none. */
const atBlock = (blockNumber: bigint | undefined) => (blockNumber === undefined ? {} : { blockNumber });

/** The number and time (unix seconds) of block `blockNumber`, or of the latest block. */
async function headBlock(client: QuoteChainClient, blockNumber: bigint | undefined): Promise<{ number: number; time: number }> {
  const block = await client.getBlock(blockNumber === undefined ? { blockTag: "latest" } : { blockNumber });
  return { number: Number(block.number ?? 0n), time: Number(block.timestamp) };
}
