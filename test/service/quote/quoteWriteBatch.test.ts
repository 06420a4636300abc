/**
 * ts/service/quote/quoteWriteBatch.ts over both store engines (PGlite, PostgreSQL) with
 * ts/service/store/quotes.ts `saveQuotes`: quotes saved at the same moment share statements, each
 * `save` resolves only once its row is committed (found by requestId and by orderId, as the deposit's
 * lookup does), each row is what `saveQuote` writes, a lone quote is written at once, and a failed
 * statement rejects every quote in it without blocking the next ones.
 */
import { expect } from "chai";
import { orderToJson } from "../../../ts/core/orderJson.ts";
import { createQuoteWriteBatch } from "../../../ts/service/quote/quoteWriteBatch.ts";
import type { NewQuote } from "../../../ts/service/store/quotes.ts";
import { describeEachEngine } from "../store/engines.ts";
import { hex } from "../fixtures/testRequest.ts";
import { testIntent } from "../fixtures/testIntent.ts";
import { testOrder } from "../fixtures/testOrder.ts";

const newQuote = (n: number, expiresAt: Date): NewQuote => {
  const order = testOrder(testIntent(n));
  return {
    requestId: hex(n),
    orderId: hex(1000 + n),
    orderData: order,
    quote: { steps: [{ requestId: hex(n) }], protocol: { v2: { orderId: hex(1000 + n), orderData: orderToJson(order) } } },
    intent: testIntent(n),
    expiresAt,
    apiKeyId: null,
  };
};

describeEachEngine("quoteWriteBatch", (engine) => {
  /** The store's saveQuotes, with the size of each statement recorded. */
  const counting = () => {
    const statements: number[] = [];
    return {
      statements,
      store: {
        saveQuotes: (quotes: readonly NewQuote[]) => {
          statements.push(quotes.length);
          return engine.store.saveQuotes(quotes);
        },
      },
    };
  };

  it("save_sharesStatementsBetweenQuotesOfTheSameMoment_andResolvesOnceEachIsStored", async () => {
    const { store, clock } = engine;
    const { statements, store: saving } = counting();
    const writes = createQuoteWriteBatch(saving);
    const quotes = Array.from({ length: 20 }, (_, i) => newQuote(i + 1, new Date(clock.ms + 60_000)));
    await Promise.all(
      quotes.map(async (quote) => {
        await writes.save(quote);
        // Resolved: the deposit's lookup (by orderId) finds it at once.
        expect((await store.getQuoteByOrderId(quote.orderId))?.requestId, `quote ${quote.requestId} stored when save resolves`).to.equal(quote.requestId);
      }),
    );
    expect(statements.reduce((a, b) => a + b, 0)).to.equal(20);
    expect(statements[0], "the first is written at once, alone").to.equal(1);
    expect(statements.length, "the rest queued behind it and went together").to.be.at.most(3);
    // Each row as saveQuote writes it: the quote read back with its order, the typed order, the intent.
    await store.saveQuote(newQuote(99, new Date(clock.ms + 60_000)));
    const lone = (await store.getQuote(hex(99)))!;
    for (const quote of quotes) {
      const stored = (await store.getQuote(quote.requestId))!;
      expect(stored.quote).to.deep.equal(quote.quote);
      expect(stored.orderData).to.deep.equal(quote.orderData);
      expect(stored.intent).to.deep.equal(quote.intent);
      expect([stored.expiresAt, stored.apiKeyId, stored.createdAt]).to.deep.equal([lone.expiresAt, lone.apiKeyId, lone.createdAt]);
    }
    const { rows } = await store.engine.query<{ quote: unknown }>("SELECT quote FROM quotes WHERE request_id = $1", [hex(1)]);
    expect(rows[0]!.quote, "the quote column without its order, as saveQuote stores it").to.deep.equal({ steps: [{ requestId: hex(1) }], protocol: { v2: { orderId: hex(1001) } } });
  });

  it("save_aFailedStatementRejectsEveryQuoteInIt_andTheNextAreWritten", async () => {
    const { store, clock } = engine;
    const { statements, store: saving } = counting();
    const writes = createQuoteWriteBatch(saving);
    const expiresAt = new Date(clock.ms + 60_000);
    await writes.save(newQuote(1, expiresAt));
    // Queued behind a write in flight: 2, then 1 again (a duplicate requestId) — one statement, refused whole.
    const first = writes.save(newQuote(3, expiresAt));
    const together = [writes.save(newQuote(2, expiresAt)), writes.save(newQuote(1, expiresAt))];
    await first;
    const outcomes = await Promise.allSettled(together);
    expect(outcomes.map((o) => o.status)).to.deep.equal(["rejected", "rejected"]);
    expect(statements).to.deep.equal([1, 1, 2]);
    expect(await store.getQuote(hex(2)), "all or none").to.equal(null);
    await writes.save(newQuote(2, expiresAt));
    expect((await store.getQuote(hex(2)))?.requestId).to.equal(hex(2));
  });

  it("saveQuotes_ofNothing_writesNothing", async () => {
    await engine.store.saveQuotes([]);
    const { rows } = await engine.store.engine.query<{ n: string }>("SELECT count(*)::text AS n FROM quotes");
    expect(rows[0]!.n).to.equal("0");
  });
});
