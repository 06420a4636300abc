/**
 * The fixture the deposit-address solver tests share: two real EDR chains with Ferry and its
 * DepositAddressFactory deployed as the devnet does (../twoChains.ts), started once per suite, and the
 * helpers every test uses on the origin chain — the chain's config and solver client, the user's
 * wallet, a transaction mined (and successful), enough blocks that the latest is final, the next block's
 * timestamp, a strict address stored as a quote stores it, and one solver pass over the addresses
 * (forward or plan, refund later payments, then send and confirm refunds).
 *
 * Call `depositAddressChains()` inside a `describe`: it registers the suite's `before`/`after` hooks.
 * The store is the test's own (`store` argument), so a suite may run on either engine.
 */
import { expect } from "chai";
import type { Hex } from "viem";
import type { Address as CanonicalAddress, Bytes32 } from "../../../../ts/service/model/values.ts";
import { strictDepositAddressOf } from "../../../../ts/service/quote/depositAddressQuote.ts";
import { forwardDepositAddresses } from "../../../../ts/service/solver/depositAddress/forwardDepositAddresses.ts";
import { refundLaterPayments } from "../../../../ts/service/solver/depositAddress/laterPayments.ts";
import { refundDepositAddresses } from "../../../../ts/service/solver/depositAddress/refundDepositAddresses.ts";
import { createSolver } from "../../../../ts/service/solver/startSolver.ts";
import type { Store } from "../../../../ts/service/store/createStore.ts";
import { chainNow, freshAddress, makeIntent, saveQuote, startTwoChains, type TwoChains } from "../twoChains.ts";

export type Solver = ReturnType<typeof createSolver>;

export type DepositAddressChains = {
  /** The chains (set by the suite's `before`). */
  env(): TwoChains;
  originConfig(): TwoChains["config"]["chains"][number];
  clientOf(solver: Solver): ReturnType<Solver["ctx"]["clients"]["get"]>;
  /** A solver on `store` (its clock `now`, else the wall clock). */
  solver(store: Store, now?: () => Date): Solver;
  wallet(): ReturnType<TwoChains["origin"]["walletClient"]>;
  /** Waits for `hash` and expects it to have succeeded. */
  mined(hash: Hex): ReturnType<TwoChains["origin"]["publicClient"]["waitForTransactionReceipt"]>;
  /** Enough blocks that the latest is final (the chain's confirmations). */
  mine(): Promise<void>;
  /** The next block at `timestamp` (chain time). */
  at(timestamp: number): Promise<void>;
  /**
   * A strict address and its quote (stored as POST /quote/v2 does), expiring `ttl` seconds from now (the
   * later of chain and wall-clock time: an idle EDR chain's next block takes the wall clock).
   */
  strictAddress(
    store: Store,
    currency: CanonicalAddress,
    amount: bigint,
    ttl: number,
  ): Promise<{ address: CanonicalAddress; orderId: Bytes32; refundTo: CanonicalAddress; expiresAt: number; requestId: Bytes32 }>;
  /** One solver pass over the origin's deposit addresses, as the solver loop makes it: forward/plan, later payments, then send and confirm refunds. */
  pass(
    store: Store,
    solver?: Solver,
  ): Promise<{ forwarded: Awaited<ReturnType<typeof forwardDepositAddresses>>; later: Awaited<ReturnType<typeof refundLaterPayments>>; refunded: Awaited<ReturnType<typeof refundDepositAddresses>> }>;
};

export function depositAddressChains(): DepositAddressChains {
  let env: TwoChains | undefined;
  before(async function () {
    this.timeout(180_000);
    env = await startTwoChains();
  });
  after(async () => env?.close());

  const chains: DepositAddressChains = {
    env: () => env!,
    originConfig: () => env!.config.chains.find((c) => c.id === env!.origin.chainId)!,
    clientOf: (solver) => solver.ctx.clients.get(env!.origin.chainId),
    solver: (store, now) => createSolver({ config: env!.config, store, ...(now && { now }) }),
    wallet: () => env!.origin.walletClient(env!.user.privateKey),
    async mined(hash) {
      const receipt = await env!.origin.publicClient.waitForTransactionReceipt({ hash });
      expect(receipt.status).to.equal("success");
      return receipt;
    },
    mine: () => env!.origin.testClient.mine({ blocks: Math.max(1, chains.originConfig().confirmations) }),
    at: (timestamp) => env!.origin.testClient.setNextBlockTimestamp({ timestamp: BigInt(timestamp) }),
    async strictAddress(store, currency, amount, ttl) {
      const chain = chains.originConfig();
      // The config's addresses are canonical (lowercase) already.
      const factory = chain.contracts.depositAddressFactory!;
      const refundTo = freshAddress();
      const expiresAt = Math.max(await chainNow(env!.origin), Math.floor(Date.now() / 1000)) + ttl;
      const intent = makeIntent(env!, { originCurrency: currency, originAmount: amount, refundTo, expiresAt, fillDeadline: expiresAt + 3600 });
      const address = strictDepositAddressOf({ factory, depository: chain.contracts.depository, refundTo, orderId: intent.orderId, currency, amount });
      await saveQuote(store, { ...intent, depositAddress: { address, mode: "strict", factory, forwardGas: 0n } });
      await store.saveDepositAddress({ chainId: chain.id, address, mode: "strict", factory, refundTo, requestId: intent.requestId, orderId: intent.orderId, currency, amount, expiresAt: new Date(expiresAt * 1000) });
      return { address, orderId: intent.orderId, refundTo, expiresAt, requestId: intent.requestId };
    },
    async pass(store, solver = chains.solver(store)) {
      const forwarded = await forwardDepositAddresses(solver.ctx, chains.clientOf(solver));
      const later = await refundLaterPayments(solver.ctx, chains.clientOf(solver));
      const refunded = await refundDepositAddresses(solver.ctx, chains.clientOf(solver));
      return { forwarded, later, refunded };
    },
  };
  return chains;
}
