/**
 * The client's record types are written from the spec, not imported from the server. This keeps
 * the two from drifting: at compile time (`tsc --noEmit`, part of `npm test`) every record the
 * server answers must be assignable to the client's type for it. The runtime part only makes mocha
 * list the file.
 */
import { expect } from "chai";
import type { Static } from "typebox";
import type * as Client from "../../ts/client/apiTypes.ts";
import type { ChainRecord as ServerChainRecord } from "../../ts/service/http/chainRecord.ts";
import type { RequestRecord as ServerRequestRecord, StatusRecord as ServerStatusRecord } from "../../ts/service/model/publicRecords.ts";
import type { AttestationRecord as ServerAttestationSchema } from "../../ts/service/http/routes/requestSignature.ts";
import type { QuoteBody as ServerQuoteBody } from "../../ts/service/http/routes/quote.ts";
import type { Quote as ServerQuote } from "../../ts/service/quote/buildQuote.ts";

type Assignable<From, To> = [Wire<From>] extends [To] ? true : false;
/** A record as a client receives it: an open JSON object (TypeBox's `object`) is a string-keyed record. */
type Wire<T> = T extends readonly unknown[]
  ? { [K in keyof T]: Wire<T[K]> }
  : T extends object
    ? keyof T extends never
      ? Record<string, unknown>
      : { [K in keyof T]: Wire<T[K]> }
    : T;
const checks: [
  Assignable<ServerStatusRecord, Client.StatusRecord>,
  Assignable<ServerRequestRecord, Client.RequestRecord>,
  Assignable<ServerChainRecord, Client.ChainRecord>,
  Assignable<Static<typeof ServerAttestationSchema>, Client.AttestationRecord>,
  Assignable<ServerQuote, Client.Quote>,
  // What the client sends is what the server accepts (the spec's body fields).
  Assignable<Pick<Client.QuoteRequest, "user" | "originChainId" | "destinationChainId" | "originCurrency" | "destinationCurrency" | "amount">, Partial<ServerQuoteBody>>,
] = [true, true, true, true, true, true];

describe("client record types", () => {
  it("accept every record the server's schemas describe (checked by tsc)", () => {
    expect(checks.every(Boolean)).to.equal(true);
  });
});
