/**
 * Two real EDR chains on loopback (hardhat.config.ts "origin" 31337 and "destination" 31338) with
 * Ferry and the 6-decimal stablecoin deployed on both exactly as the devnet does it, the deployment
 * records in a temp folder, and the service config (devnet roles: allocator, attester, solver keys
 * in an env object, never in process.env). Plus helpers to quote (a stored quote with its
 * QuotedIntent) and to deposit as a user.
 */
import type { EngineUnderTest, TestDatabase } from "../store/engines.ts";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { network } from "hardhat";
import { erc20Abi, keccak256, numberToHex, parseEther, toHex, zeroAddress, type Address, type Hex } from "viem";
import { generatePrivateKey, privateKeyToAccount } from "viem/accounts";
import { depositoryAbi } from "../../../ts/abi/Depository.ts";
import { accountWithRole, hardhatTestAccount } from "../../../ts/devnet/devnetAccounts.ts";
import type { DevnetChain } from "../../../ts/devnet/devnetChain.ts";
import type { DevnetNode } from "../../../ts/devnet/devnetNode.ts";
import { startDevnetChains } from "../../../ts/devnet/devnetChains.ts";
import type { DevnetMarket } from "../../../ts/devnet/devnetMarket.ts";
import { devnetConfig } from "../../../ts/devnet/devnetConfig.ts";
import type { FerryConfig } from "../../../ts/service/config/configSchema.ts";
import type { QuotedIntent } from "../../../ts/service/model/quotedIntent.ts";
import { createStore, type Store } from "../../../ts/service/store/createStore.ts";
import { canonicalAddress, canonicalHex, type Address as CanonicalAddress, type Bytes32 } from "../../../ts/service/model/values.ts";
import { testOrder } from "../fixtures/testOrder.ts";

export type TwoChains = {
  origin: DevnetChain;
  destination: DevnetChain;
  config: FerryConfig;
  /** The keys as env variables (for a child service process). */
  keyEnv: Record<string, string>;
  stablecoin: Address;
  /** The destination's market (a Uniswap V2 WETH/fUSD pair with price history, ts/devnet/devnetMarket.ts); not in `config`'s price sources. */
  market: DevnetMarket & { chainId: number };
  dir: string;
  deploymentsDir: string;
  solver: Address;
  user: { address: Address; privateKey: Hex };
  close(): Promise<void>;
};

/**
 * A suite's two chains and its own store (a fresh PGlite), made before its tests and closed after them
 * (mocha's `before`/`after`, registered here); `use` receives them once made.
 */
export function useTwoChainsAndStore(use: (made: { env: TwoChains; store: Store }) => void): void {
  let env: TwoChains | undefined;
  let store: Store | undefined;
  before(async function () {
    this.timeout(240_000);
    env = await startTwoChains();
    store = await createStore();
    use({ env, store });
  });
  after(async () => {
    await store?.close();
    await env?.close();
  });
}

/** A suite's two chains, started before its tests and closed after them; `use` receives them once started. */
export function useTwoChains(use: (env: TwoChains) => void): void {
  let env: TwoChains | undefined;
  before(async function () {
    this.timeout(300_000);
    env = await startTwoChains();
    use(env);
  });
  after(async () => {
    await env?.close();
  });
}

/**
 * Each test's own fresh database of `engine` (a PostgreSQL schema or a PGlite folder) and a store on it,
 * opened before the test on `now` (default the wall clock) and closed after it; `use` receives both.
 */
export function useFreshDatabase(engine: EngineUnderTest, use: (made: { db: TestDatabase; store: Store }) => void, now: () => Date = () => new Date()): void {
  let store: Store | undefined;
  beforeEach(async function () {
    this.timeout(60_000);
    const db = await engine.freshDatabase();
    store = await db.open(now);
    use({ db, store });
  });
  afterEach(async () => {
    await store?.close();
  });
}

/** `node`: the devnet's node (default EDR in this process; `{ kind: "anvil" }`: Anvil child processes). */
export async function startTwoChains(options: { attesterKey?: Hex; node?: DevnetNode } = {}): Promise<TwoChains> {
  const dir = await mkdtemp(join(tmpdir(), "ferry-solver-"));
  const deploymentsDir = join(dir, "deployments");
  const { chains, inputs, stablecoin, market, accounts, serviceEnv, close } = await startDevnetChains({ network, deploymentsDir, ...(options.node && { node: options.node }) });
  const keyEnv: Record<string, string> = { ...serviceEnv, ...(options.attesterKey ? { FERRY_ATTESTER_KEY: options.attesterKey } : {}) };
  const solver = accountWithRole(accounts, "solver");
  const config = devnetConfig({
    chains: inputs,
    stablecoin,
    dataDir: join(dir, "data"),
    deploymentsDir,
    host: "127.0.0.1",
    port: 0,
    env: keyEnv,
    cwd: dir,
  });
  return {
    origin: chains[0]!,
    destination: chains[1]!,
    config,
    keyEnv,
    stablecoin,
    market,
    dir,
    deploymentsDir,
    solver: solver.address,
    user: hardhatTestAccount(7),
    async close() {
      await close();
      await rm(dir, { recursive: true, force: true });
    },
  };
}

let counter = 0n;
const SEED = generatePrivateKey();
/** A fresh bytes32 (random seed, then a counter). */
export function freshId(): Bytes32 {
  counter += 1n;
  return canonicalHex(keccak256(`${SEED}${numberToHex(counter, { size: 32 }).slice(2)}` as Hex));
}

/** A fresh address with no history (a clean balance to measure refunds and fills against). */
export function freshAddress(): CanonicalAddress {
  return canonicalAddress(privateKeyToAccount(generatePrivateKey()).address);
}

export const NATIVE: Address = zeroAddress;

/** The latest block's time on `chain` (chain time, which need not be wall-clock time). */
export async function chainNow(chain: DevnetChain): Promise<number> {
  return Number((await chain.publicClient.getBlock({ blockTag: "latest" })).timestamp);
}

/**
 * A quote's intent; defaults: native → native, 1 ETH in, 0.99 ETH out, origin → destination, valid
 * for a day from the later of wall-clock and chain time (EDR chain clocks drift from the wall clock).
 */
export function makeIntent(env: TwoChains, overrides: Partial<QuotedIntent> = {}): QuotedIntent {
  const now = Math.floor(Date.now() / 1000) + 86_400;
  return {
    requestId: freshId(),
    orderId: freshId(),
    tradeType: "EXACT_INPUT",
    user: canonicalAddress(env.user.address),
    recipient: freshAddress(),
    refundTo: freshAddress(),
    originChainId: env.origin.chainId,
    originCurrency: canonicalAddress(NATIVE),
    originAmount: parseEther("1"),
    destinationChainId: env.destination.chainId,
    destinationCurrency: canonicalAddress(NATIVE),
    destinationAmount: parseEther("0.99"),
    expiresAt: now,
    fillDeadline: now + 3600,
    fees: { relayerGas: 1000n, relayerService: 2000n, app: 0n },
    appFees: [],
    slippageToleranceBps: "0",
    referrer: null,
    ...overrides,
  };
}

/** Stores a quote with `intent` as POST /quote/v2 would. */
export async function saveQuote(store: Store, intent: QuotedIntent): Promise<void> {
  await store.saveQuote({
    requestId: intent.requestId,
    orderId: intent.orderId,
    orderData: testOrder(intent),
    quote: { test: true },
    intent,
    expiresAt: new Date(intent.expiresAt * 1000),
  });
}

/** The user deposits under `orderId` on `chain`: native (`token` = zero) or ERC-20 (approve + amount form). Returns the tx hash. */
export async function deposit(env: TwoChains, args: { chain?: DevnetChain; orderId: Hex; token?: Address; amount: bigint; wait?: boolean }): Promise<Hex> {
  const chain = args.chain ?? env.origin;
  const wallet = chain.walletClient(env.user.privateKey);
  const depository = env.config.chains.find((c) => c.id === chain.chainId)!.contracts.depository;
  const token = args.token ?? NATIVE;
  let hash: Hex;
  if (token === NATIVE) {
    hash = await wallet.writeContract({ chain: wallet.chain, address: depository, abi: depositoryAbi, functionName: "depositNative", args: [zeroAddress, args.orderId], value: args.amount });
  } else {
    const approve = await wallet.writeContract({ chain: wallet.chain, address: token, abi: erc20Abi, functionName: "approve", args: [depository, args.amount] });
    await chain.publicClient.waitForTransactionReceipt({ hash: approve });
    hash = await wallet.writeContract({
      chain: wallet.chain,
      address: depository,
      abi: depositoryAbi,
      functionName: "depositErc20",
      args: [zeroAddress, token, args.amount, args.orderId],
    });
  }
  if (args.wait !== false) {
    const receipt = await chain.publicClient.waitForTransactionReceipt({ hash });
    if (receipt.status !== "success") throw new Error(`deposit ${hash} reverted`);
  }
  return hash;
}

/** POST /quote/v2 of native → native from origin to destination for the test user, `amount` in wei. */
export function quoteNative(apiUrl: string, env: TwoChains, amount: bigint, tradeType: "EXACT_INPUT" | "EXACT_OUTPUT" = "EXACT_INPUT"): Promise<Response> {
  return fetch(`${apiUrl}/quote/v2`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({
      user: env.user.address,
      recipient: env.user.address,
      originChainId: env.origin.chainId,
      destinationChainId: env.destination.chainId,
      originCurrency: NATIVE,
      destinationCurrency: NATIVE,
      amount: amount.toString(),
      tradeType,
    }),
  });
}

export async function tokenBalance(chain: DevnetChain, token: Address, holder: Address): Promise<bigint> {
  if (token === NATIVE) return chain.publicClient.getBalance({ address: holder });
  return chain.publicClient.readContract({ address: token, abi: erc20Abi, functionName: "balanceOf", args: [holder] });
}

export { parseEther, toHex };
