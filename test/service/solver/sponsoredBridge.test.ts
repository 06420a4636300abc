// A sponsored bridge end to end: the real service (startServer: HTTP, quote, store, solver) on two
// real EDR chains — an app funds its balance, quotes with subsidizeFees over HTTP with a cap the fees
// exceed (capHit), the user deposits what the quote asks, the recipient gets the sponsored output and
// the app is debited exactly the cap; the app's next sponsored quote, with its balance spent, is
// refused before anything is sent.
import { expect } from "chai";
import { startServer } from "../../../ts/service/server.ts";
import type { Quote } from "../../../ts/service/quote/buildQuote.ts";
import { apiKeyStore } from "../../../ts/service/store/apiKeys.ts";
import type { Store } from "../../../ts/service/store/createStore.ts";
import { describeEachEngine } from "../store/engines.ts";
import { canonicalHex } from "../../../ts/service/model/values.ts";
import { deposit, freshAddress, startTwoChains, tokenBalance, type TwoChains } from "./twoChains.ts";
import { waitFor } from "./solverHelpers.ts";

describeEachEngine("sponsored bridge end to end", (engine) => {
  let env: TwoChains;
  let store: Store;
  before(async function () {
    this.timeout(300_000);
    env = await startTwoChains();
    // The service's own clock: a wall-clock store on this engine.
    store = await (await engine.freshDatabase()).open(() => new Date());
  });
  after(async () => {
    await store?.close();
    await env?.close();
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
