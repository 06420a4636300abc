/**
 * The solver's inventory per chain and currency: its balance (native and every configured ERC-20),
 * what the fills in flight hold of it (../store/solver/solverReservations.ts, database-wide: every replica's
 * fills), and what is left — the capacity a new fill can count on. Read at most once per `ttlMs` per
 * chain (a quote, GET /chains and /metrics share the reads); concurrent callers share one read.
 *
 * For the native currency the capacity also keeps back one fill's gas (`gasReserve`, the gas a fill may
 * cost at today's price), so a quote never promises the last wei the fill's own gas needs.
 */
import { erc20Abi } from "viem";
import type { ChainConfig } from "../config/configSchema.ts";
import { ZERO_ADDRESS, type Address } from "../model/values.ts";
import type { Store } from "../store/createStore.ts";
import type { ChainClients } from "./chainClients.ts";

export type InventoryLine = {
  chainId: number;
  /** Zero address = native. */
  currency: Address;
  symbol: string;
  decimals: number;
  balance: bigint;
  /** What fills in flight hold (for native: their amounts and their gas). */
  reserved: bigint;
  /** balance − reserved (− one fill's gas for native), never below 0. */
  available: bigint;
};

/** A chain's readable lines, and the currencies whose balance could not be read (with why). */
type ChainLines = { lines: InventoryLine[]; failed: Map<Address, unknown> };

export type SolverInventory = {
  /**
   * The chain's lines, one per currency the solver fills in (native first); a currency whose balance
   * cannot be read is left out. Throws when the chain does not answer.
   */
  lines(chainId: number): Promise<InventoryLine[]>;
  /** One currency's line, or undefined when the chain has no such currency configured; throws when its balance cannot be read. */
  line(chainId: number, currency: Address): Promise<InventoryLine | undefined>;
};

export const DEFAULT_INVENTORY_TTL_MS = 1000;
/** Gas one fill may use, kept back from native capacity (a fill measures ~70–90k; calls are not used by the solver). */
export const FILL_GAS_RESERVE = 200_000n;

export function createSolverInventory(options: {
  chains: readonly ChainConfig[];
  clients: ChainClients;
  store: Pick<Store, "reservedAmounts">;
  solver: Address;
  ttlMs?: number;
  now?: () => number;
}): SolverInventory {
  const ttlMs = options.ttlMs ?? DEFAULT_INVENTORY_TTL_MS;
  const now = options.now ?? Date.now;
  const cache = new Map<number, { at: number; lines: Promise<ChainLines> }>();
  let reserved: { at: number; amounts: ReturnType<Store["reservedAmounts"]> } | undefined;

  const reservedNow = () => {
    if (!reserved || now() - reserved.at >= ttlMs) {
      const amounts = options.store.reservedAmounts();
      reserved = { at: now(), amounts };
      amounts.catch(() => {
        if (reserved?.amounts === amounts) reserved = undefined;
      });
    }
    return reserved.amounts;
  };

  /**
   * One chain's lines. Each currency's balance is read on its own: a configured ERC-20 that cannot be
   * read (no code at the address, a token that reverts) leaves its own line out and is remembered as
   * failed — asking for that line throws — instead of taking every other currency of the chain down.
   * The gas price and the reservations are needed by all: their failure fails the chain.
   */
  const read = async (chain: ChainConfig): Promise<ChainLines> => {
    const { publicClient } = options.clients.get(chain.id);
    const currencies = [
      { address: ZERO_ADDRESS, symbol: chain.nativeCurrency.symbol, decimals: chain.nativeCurrency.decimals },
      ...chain.erc20Currencies.map((c) => ({ address: c.address, symbol: c.symbol, decimals: c.decimals })),
    ];
    const [balances, gasPrice, amounts] = await Promise.all([
      Promise.allSettled(
        currencies.map((c) =>
          c.address === ZERO_ADDRESS
            ? publicClient.getBalance({ address: options.solver })
            : publicClient.readContract({ address: c.address, abi: erc20Abi, functionName: "balanceOf", args: [options.solver] }),
        ),
      ),
      publicClient.getGasPrice(),
      reservedNow(),
    ]);
    const lines: InventoryLine[] = [];
    const failed = new Map<Address, unknown>();
    currencies.forEach((c, i) => {
      const balance = balances[i]!;
      if (balance.status === "rejected") {
        failed.set(c.address, balance.reason);
        return;
      }
      const held = amounts.find((a) => a.chainId === chain.id && a.currency === c.address)?.reserved ?? 0n;
      const keep = c.address === ZERO_ADDRESS ? FILL_GAS_RESERVE * gasPrice : 0n;
      const left = balance.value - held - keep;
      lines.push({ chainId: chain.id, currency: c.address, symbol: c.symbol, decimals: c.decimals, balance: balance.value, reserved: held, available: left > 0n ? left : 0n });
    });
    return { lines, failed };
  };

  const chainLines = (chainId: number): Promise<ChainLines> => {
    const chain = options.chains.find((c) => c.id === chainId);
    if (!chain) return Promise.resolve({ lines: [], failed: new Map() });
    const cached = cache.get(chainId);
    if (cached && now() - cached.at < ttlMs) return cached.lines;
    const fresh = read(chain);
    cache.set(chainId, { at: now(), lines: fresh });
    fresh.catch(() => {
      if (cache.get(chainId)?.lines === fresh) cache.delete(chainId);
    });
    return fresh;
  };

  return {
    lines: async (chainId) => (await chainLines(chainId)).lines,
    async line(chainId, currency) {
      const { lines, failed } = await chainLines(chainId);
      if (failed.has(currency)) throw failed.get(currency);
      return lines.find((l) => l.currency === currency);
    },
  };
}
