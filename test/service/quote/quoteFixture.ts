/** Shared fixture of the quote tests: a two-chain config with prices, and a quote request/environment. */
import { zeroAddress, type Address, type Hex } from "viem";
import { isFerryError } from "../../../ts/core/errors.ts";
import type { FerryConfig } from "../../../ts/service/config/configSchema.ts";
import { parseConfig, resolveChainContracts } from "../../../ts/service/config/parseConfig.ts";
import { buildQuote, type BuiltQuote, type QuoteEnvironment, type QuoteRequest } from "../../../ts/service/quote/buildQuote.ts";
import { resolveRoute } from "../../../ts/service/quote/quoteRoute.ts";
import { canonicalHex } from "../../../ts/service/model/values.ts";

export const ADDR = {
  depository: "0x1111111111111111111111111111111111111111",
  attestedReceiver: "0x2222222222222222222222222222222222222222",
  multicaller: "0x3333333333333333333333333333333333333333",
  stablecoin: "0x4444444444444444444444444444444444444444",
  user: "0xa1a1a1a1a1a1a1a1a1a1a1a1a1a1a1a1a1a1a1a1",
  recipient: "0xb1b1b1b1b1b1b1b1b1b1b1b1b1b1b1b1b1b1b1b1",
  app: "0xc1c1c1c1c1c1c1c1c1c1c1c1c1c1c1c1c1c1c1c1",
  solver: "0x90f79bf6eb2c4f870365e785982e1f101e93b906",
} as const satisfies Record<string, Address>;

export const ORIGIN = 31337;
export const DESTINATION = 31338;
export const NOW = 1_767_225_600; // 2026-01-01T00:00:00Z

/** Two chains (ETH at 3000 USD, the 6-decimal stablecoin at 1 USD), with optional file overrides. */
export function quoteConfig(overrides: { quotes?: Record<string, unknown>; chain?: (id: number) => Record<string, unknown> } = {}): FerryConfig {
  const chain = (id: number, name: string) => ({
    id,
    name,
    displayName: name[0]!.toUpperCase() + name.slice(1),
    rpcUrl: "http://127.0.0.1:1",
    nativeCurrency: { symbol: "ETH", name: "Ether", decimals: 18, usdPrice: "3000" },
    erc20Currencies: [{ address: ADDR.stablecoin, symbol: "USDC", name: "USD Coin", decimals: 6, usdPrice: "1" }],
    contracts: { depository: ADDR.depository, attestedReceiver: ADDR.attestedReceiver, multicaller: ADDR.multicaller },
    ...overrides.chain?.(id),
  });
  return resolveChainContracts(
    parseConfig({ chains: [chain(ORIGIN, "ferry-origin"), chain(DESTINATION, "ferry-destination")], ...(overrides.quotes && { quotes: overrides.quotes }) }, {}, "/tmp"),
    new Map(),
  );
}

export function nativeRequest(overrides: Partial<QuoteRequest> = {}): QuoteRequest {
  return {
    user: ADDR.user,
    recipient: ADDR.recipient,
    refundTo: ADDR.user,
    originChainId: ORIGIN,
    originCurrency: zeroAddress,
    destinationChainId: DESTINATION,
    destinationCurrency: zeroAddress,
    tradeType: "EXACT_INPUT",
    amount: 10n ** 18n,
    appFees: [],
    originGasOverhead: 0n,
    referrer: null,
    calls: [],
    topupGas: false,
    ...overrides,
  };
}

export function stableRequest(overrides: Partial<QuoteRequest> = {}): QuoteRequest {
  return nativeRequest({ originCurrency: ADDR.stablecoin, destinationCurrency: ADDR.stablecoin, amount: 100_000_000n, ...overrides });
}

/** The quote's environment, with the chains its route is resolved on. */
export type TestEnvironment = QuoteEnvironment & { chains: FerryConfig["chains"] };

export function environment(config: FerryConfig, overrides: Partial<QuoteEnvironment> = {}): TestEnvironment {
  return {
    chains: config.chains,
    settings: config.quotes,
    solver: ADDR.solver,
    originGasPrice: 2_000_000_000n,
    destinationGasPrice: 1_000_000_000n,
    allowance: 0n,
    userBalance: 5n * 10n ** 18n,
    now: NOW,
    salt: BigInt(`0x${"5a".repeat(32)}`),
    requestId: canonicalHex(`0x${"7e".repeat(32)}`),
    ...overrides,
  };
}

/** What the quote service does without its I/O: resolve the route once, then build the quote. */
export function quoteOf(request: QuoteRequest, env: TestEnvironment): BuiltQuote {
  return buildQuote(request, resolveRoute(env.chains, request), env);
}

/** The error code `run` fails with (a FerryError's code, else the error as a string), or undefined when it succeeds. */
export async function codeOf(run: () => unknown): Promise<string | undefined> {
  try {
    await run();
  } catch (error) {
    return isFerryError(error) ? error.code : String(error);
  }
  return undefined;
}
