// A sponsored request end to end on two real EDR chains and both store engines: the app balance hold
// taken with the quote is debited exactly once when the fill succeeds (the success recorded again, or
// the solver ticking on, debits nothing more), and released — the app not charged — when the request
// is refunded; and a sponsored bridge through the real service (startServer: HTTP quote with the cap
// hit, deposit, fill, debit of exactly the cap, then the spent balance refusing the next quote).
import { expect } from "chai";
import { createSolver, SPONSORSHIP_HOLD_GRACE_SECONDS, startSolver } from "../../../ts/service/solver/startSolver.ts";
import { startServer } from "../../../ts/service/server.ts";
import type { Quote } from "../../../ts/service/quote/buildQuote.ts";
import { apiKeyStore } from "../../../ts/service/store/apiKeys.ts";
import { canonicalHex } from "../../../ts/service/model/values.ts";
import { settleSponsorship } from "../../../ts/service/solver/sponsorshipSettlement.ts";
import type { QuotedIntent } from "../../../ts/service/model/quotedIntent.ts";
import type { Store } from "../../../ts/service/store/createStore.ts";
import { SILENT_LOG } from "../../../ts/service/logging/logger.ts";
import { describeEachEngine } from "../store/engines.ts";
import { chainNow, deposit, freshAddress, makeIntent, saveQuote, startTwoChains, tokenBalance, type TwoChains } from "./twoChains.ts";
import { tickUntil, waitFor } from "./solverHelpers.ts";

const APP = "key_sponsoring_app_01";
const SPONSORED_USD = 1_500_000n;

describeEachEngine("sponsored fills", (engine) => {
  let env: TwoChains;
  let store: Store;
  before(async function () {
    this.timeout(300_000);
    env = await startTwoChains();
    // The solver's own clock: a wall-clock store on this engine (the suite's store runs on a test clock).
    store = await (await engine.freshDatabase()).open(() => new Date());
  });
  after(async () => {
    await store?.close();
    await env?.close();
  });

  /** A quote the app sponsors: its hold taken as POST /quote/v2 takes it, stored with the intent. */
  async function sponsoredQuote(overrides: Partial<QuotedIntent>, fundUsd: bigint): Promise<QuotedIntent> {
    const base = makeIntent(env, overrides);
    await store.appBalances.credit({ apiKeyId: APP, amountUsd: fundUsd, source: { chainId: env.origin.chainId, txHash: base.requestId, logIndex: 0 }, currency: base.originCurrency, amount: fundUsd });
    const { holdId } = await store.appBalances.hold({ apiKeyId: APP, amountUsd: SPONSORED_USD, purpose: "sponsorship", reference: base.requestId });
    const split = (total: bigint, sponsored: bigint) => ({ selected: true, total, sponsored, userPays: total - sponsored });
    const intent: QuotedIntent = {
      ...base,
      sponsorship: {
        selectedComponents: ["execution", "swap", "relay", "app"],
        capHit: false,
        components: { execution: split(1000n, 1000n), swap: split(0n, 0n), relay: split(2000n, 2000n), app: split(0n, 0n) },
        amount: 3000n,
        amountUsdMicro: SPONSORED_USD,
        holdId,
      },
    };
    await saveQuote(store, intent);
    return intent;
  }

  it("sponsoredSuccess_debitsTheAppOnce_evenWhenTheSuccessIsSettledAgain", async function () {
    this.timeout(300_000);
    const before = await store.appBalances.balance(APP);
    const intent = await sponsoredQuote({}, 2_000_000n);
    await deposit(env, { orderId: intent.orderId, amount: BigInt(intent.originAmount) });
    const solver = createSolver({ config: env.config, store });
    await tickUntil(solver, store, intent.requestId, (r) => r.status === "success" && r.solver?.repayment?.status === "confirmed");
    const after = await store.appBalances.balance(APP);
    expect(after.debitedUsd - before.debitedUsd).to.equal(SPONSORED_USD);
    expect(after.heldUsd - before.heldUsd).to.equal(0n);
    expect((await store.appBalances.getHold(intent.sponsorship!.holdId!))!.state).to.equal("settled");
    // A replayed success (another loop, a duplicated event) and more ticks debit nothing more.
    await store.transaction((tx) => settleSponsorship(tx, intent, SILENT_LOG));
    await solver.tick();
    expect((await store.appBalances.balance(APP)).debitedUsd - before.debitedUsd).to.equal(SPONSORED_USD);
  });

  it("unusedSponsoredQuote_pastItsFillDeadline_hasItsHoldReleasedByTheSolverLoop", async function () {
    this.timeout(300_000);
    const wall = Math.floor(Date.now() / 1000);
    const unused = await sponsoredQuote({ expiresAt: wall - 5000, fillDeadline: wall - SPONSORSHIP_HOLD_GRACE_SECONDS - 60 }, 2_000_000n);
    // Still within its grace: kept (a fill could still land on a destination clock behind the wall clock).
    const recent = await sponsoredQuote({ expiresAt: wall - 100, fillDeadline: wall - 60 }, 2_000_000n);
    await createSolver({ config: env.config, store }).tick();
    expect((await store.appBalances.getHold(unused.sponsorship!.holdId!))!.state).to.equal("released");
    expect((await store.appBalances.getHold(recent.sponsorship!.holdId!))!.state).to.equal("held");
    await store.appBalances.release(recent.sponsorship!.holdId!);
  });

  // The running solver's loops (what `ferry serve` runs), not `tick()`: they once ran every background pass
  // but this one, so an unused quote's hold stayed held for good in production.
  it("unusedSponsoredQuote_pastItsFillDeadline_hasItsHoldReleasedByTheRunningSolver", async function () {
    this.timeout(300_000);
    const wall = Math.floor(Date.now() / 1000);
    const unused = await sponsoredQuote({ expiresAt: wall - 5000, fillDeadline: wall - SPONSORSHIP_HOLD_GRACE_SECONDS - 60 }, 2_000_000n);
    const running = startSolver({ config: env.config, store, log: SILENT_LOG, pollIntervalMs: 100 });
    try {
      await waitFor(async () => (await store.appBalances.getHold(unused.sponsorship!.holdId!))!.state === "released", 15_000, "the unused quote's hold released");
    } finally {
      await running.stop();
    }
  });

  it("sponsoredRefund_releasesTheHold_andTheAppIsNotCharged", async function () {
    this.timeout(300_000);
    const before = await store.appBalances.balance(APP);
    await env.destination.testClient.mine({ blocks: 1 });
    // The fill deadline has passed: the request fails ORDER_EXPIRED and is refunded.
    const intent = await sponsoredQuote({ fillDeadline: await chainNow(env.destination) }, 2_000_000n);
    await deposit(env, { orderId: intent.orderId, amount: BigInt(intent.originAmount) });
    const done = await tickUntil(createSolver({ config: env.config, store }), store, intent.requestId, (r) => r.status === "refund");
    expect(done.failReason).to.equal("ORDER_EXPIRED");
    const after = await store.appBalances.balance(APP);
    expect(after.debitedUsd).to.equal(before.debitedUsd);
    expect(after.heldUsd).to.equal(before.heldUsd);
    expect(after.availableUsd - before.availableUsd).to.equal(2_000_000n);
    expect((await store.appBalances.getHold(intent.sponsorship!.holdId!))!.state).to.equal("released");
  });

  it("sponsoredBridge_capHit_userGetsTheCapMore_appDebitedTheCapOnce_thenExhaustedIsRefused", async function () {
    this.timeout(300_000);
    const server = await startServer({ config: env.config, deps: { store }, solver: { pollIntervalMs: 50 } });
    try {
      const app = await apiKeyStore(store).createApiKey("sponsor-e2e");
      const CAP = 20_000n; // $0.02, below the quote's fees
      await store.appBalances.credit({ apiKeyId: app.id, amountUsd: CAP, source: { chainId: env.origin.chainId, txHash: `0x${"5e".repeat(32)}`, logIndex: 0 }, currency: env.stablecoin.toLowerCase(), amount: CAP });
      const recipient = freshAddress();
      const body = {
        user: env.user.address,
        recipient,
        originChainId: env.origin.chainId,
        destinationChainId: env.destination.chainId,
        originCurrency: env.stablecoin,
        destinationCurrency: env.stablecoin,
        amount: "25000000",
        tradeType: "EXACT_INPUT",
        subsidizeFees: true,
        maxSubsidizationAmount: CAP.toString(),
      };
      const post = () => fetch(`${server.url}/quote/v2`, { method: "POST", headers: { "content-type": "application/json", "x-api-key": app.key }, body: JSON.stringify(body) });
      const response = await post();
      const quote = (await response.json()) as Quote;
      expect(response.status, JSON.stringify(quote)).to.equal(200);
      expect(quote.feeSponsorship!.capHit).to.equal(true);
      expect(quote.fees.subsidized.amount).to.equal(CAP.toString());
      const requestId = canonicalHex(quote.steps.at(-1)!.requestId);
      await deposit(env, { orderId: quote.protocol.v2.orderId, token: env.stablecoin, amount: BigInt(quote.details.currencyIn.amount) });
      await waitFor(async () => (await store.getRequest(requestId))?.status === "success", 60_000, "success");
      expect(await tokenBalance(env.destination, env.stablecoin, recipient)).to.equal(BigInt(quote.details.currencyOut.amount));
      await waitFor(async () => (await store.appBalances.balance(app.id)).debitedUsd === CAP, 10_000, "the debit");
      expect(await store.appBalances.balance(app.id)).to.deep.equal({ creditedUsd: CAP, debitedUsd: CAP, heldUsd: 0n, availableUsd: 0n });
      const record = await store.getRequest(requestId);
      expect(record!.data).to.deep.include({ subsidizedRequest: true });
      expect(record!.data.feeSponsorship!.quoted.capHit).to.equal(true);
      // Served by GET /requests/v2 as stored (the route's response schema includes the sponsorship fields).
      const listed = (await (await fetch(`${server.url}/requests/v2?id=${requestId}`)).json()) as { requests: { data: Record<string, any> }[] };
      expect(listed.requests[0]!.data).to.deep.include({ subsidizedRequest: true });
      expect(listed.requests[0]!.data.subsidizedFee.sponsor.amount).to.equal(CAP.toString());
      expect(listed.requests[0]!.data.feeSponsorship.quoted.components.execution.sponsored.amount).to.equal(quote.feeSponsorship!.components.execution.sponsored.amount);
      // Spent: the next sponsored quote is refused, and nothing is quoted or sent for it.
      const next = await post();
      expect(next.status).to.equal(400);
      expect(((await next.json()) as { errorCode: string }).errorCode).to.equal("SPONSOR_BALANCE_TOO_LOW");
      expect(await store.appBalances.balance(app.id)).to.deep.include({ debitedUsd: CAP, heldUsd: 0n });
    } finally {
      await server.close();
    }
  });
});
