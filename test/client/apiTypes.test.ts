/**
 * The client's record types are written from the spec, not imported from the server. This keeps
 * the two from drifting: at compile time (`tsc --noEmit`, part of `npm test`) every record the
 * server answers must be assignable to the client's type for it. The runtime part only makes mocha
 * list the file. The order is the exception: one type, ts/core's wire form (`OrderJson`), which the
 * server writes and the client reads.
 */
import { expect } from "chai";
import type { Static } from "typebox";
import type * as Client from "../../ts/client/apiTypes.ts";
import type { OrderJson } from "../../ts/core/orderJson.ts";
import type { ChainRecord as ServerChainRecord } from "../../ts/service/http/chainRecord.ts";
import type { RequestRecord as ServerRequestRecord, StatusRecord as ServerStatusRecord } from "../../ts/service/model/publicRecords.ts";
import type { AttestationRecord as ServerAttestationSchema } from "../../ts/service/http/routes/requestSignature.ts";
import type { QuoteBody as ServerQuoteBody } from "../../ts/service/http/routes/quote.ts";
import type { ExecutePermitsResponse as ServerExecutePermitsResponse } from "../../ts/service/http/routes/executePermits.ts";
import type { Quote as ServerQuote } from "../../ts/service/quote/buildQuote.ts";

/** The same type (not merely mutually assignable). */
type Same<A, B> = (<T>() => T extends A ? 1 : 2) extends <T>() => T extends B ? 1 : 2 ? true : false;
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
  Assignable<Static<typeof ServerExecutePermitsResponse>, Client.ExecutePermitResult>,
  // What the client sends is what the server accepts (the spec's body fields).
  Assignable<Pick<Client.QuoteRequest, "user" | "originChainId" | "destinationChainId" | "originCurrency" | "destinationCurrency" | "amount">, Partial<ServerQuoteBody>>,
  // One order type: the client's and the server's protocol.v2.orderData are ts/core's OrderJson.
  Same<Client.Quote["protocol"]["v2"]["orderData"], OrderJson>,
  Same<ServerQuote["protocol"]["v2"]["orderData"], OrderJson>,
] = [true, true, true, true, true, true, true, true, true];

describe("client record types", () => {
  it("accept every record the server's schemas describe, and share ts/core's order type (checked by tsc)", () => {
    expect(checks.every(Boolean)).to.equal(true);
  });
});
