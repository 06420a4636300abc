/**
 * The quote route's store write as a group commit: `save(quote)` resolves once the quote's row is
 * committed — a quote is never answered before it is stored, so a deposit made against any answered
 * quote finds it (the solver matches deposits to stored quotes) — but quotes asked for at the same time
 * share one statement. While one INSERT is in flight, the quotes that arrive queue; when it commits, they
 * go together as the next (../store/quotes.ts `saveQuotes`: one multi-row INSERT, all or none; at most
 * `maxRows` per statement). With nothing in flight a quote is written at once: no added wait at low load.
 *
 * Why not answer first and write after: the write would have to land before any deposit could be
 * indexed, and a process that stops between the answer and the write leaves a quote the user can pay
 * that nothing knows — a deposit for it would be a stray (refunded, not filled). The group commit keeps
 * the order "stored, then answered" at a fraction of the cost (docs/performance.md).
 *
 * A failed statement fails every quote in it (each answers the error a lone failed write would).
 */
import type { NewQuote } from "../store/quotes.ts";
import type { Store } from "../store/createStore.ts";

export type QuoteWriteBatch = { save(quote: NewQuote): Promise<void> };

/** Rows per INSERT (8 parameters each). */
export const QUOTE_WRITE_MAX_ROWS = 64;

type Pending = { quote: NewQuote; resolve: () => void; reject: (error: unknown) => void };

export function createQuoteWriteBatch(store: Pick<Store, "saveQuotes">, options: { maxRows?: number } = {}): QuoteWriteBatch {
  const maxRows = options.maxRows ?? QUOTE_WRITE_MAX_ROWS;
  let queue: Pending[] = [];
  let writing = false;

  const writeNext = async () => {
    writing = true;
    while (queue.length > 0) {
      const batch = queue.slice(0, maxRows);
      queue = queue.slice(batch.length);
      try {
        await store.saveQuotes(batch.map((p) => p.quote));
        for (const p of batch) p.resolve();
      } catch (error) {
        for (const p of batch) p.reject(error);
      }
    }
    writing = false;
  };

  return {
    save(quote) {
      return new Promise<void>((resolve, reject) => {
        queue.push({ quote, resolve, reject });
        if (!writing) void writeNext();
      });
    },
  };
}
