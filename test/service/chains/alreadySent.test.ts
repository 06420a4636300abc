// ts/service/chains/alreadySent.ts: the one matcher of "this raw transaction is not new" across the
// shapes nodes and viem give it (message, details, case), and what it must not match.
import { expect } from "chai";
import { BaseError, NonceTooLowError, RpcRequestError } from "viem";
import { alreadySent } from "../../../ts/service/chains/alreadySent.ts";

const rpcError = (message: string) => new RpcRequestError({ body: {}, url: "http://127.0.0.1:1", error: { code: -32000, message } });

describe("alreadySent", function () {
  it("alreadySent_theNodeHasTheTransaction_isKnown", function () {
    for (const message of ["already known", "Known transaction: 0xabc", "Transaction with the same hash was already imported.", "transaction already exists"]) {
      expect(alreadySent(rpcError(message)), message).to.equal("known");
      expect(alreadySent(new Error(message.toUpperCase())), message).to.equal("known");
    }
  });

  it("alreadySent_theNonceIsTaken_isNonceUsed", function () {
    for (const message of ["nonce too low: next nonce 5, tx nonce 4", "Nonce too low. Expected nonce to be 1 but got 0.", "the nonce has already been used"]) {
      expect(alreadySent(rpcError(message)), message).to.equal("nonce-used");
    }
    // viem's own wrapper keeps the node's text in `details` only.
    const wrapped = new NonceTooLowError({ cause: new BaseError("x", { details: "nonce too low" }) });
    expect(alreadySent({ message: "Nonce provided for the transaction is lower than the current nonce.", details: "nonce too low" })).to.equal("nonce-used");
    expect(alreadySent(wrapped)).to.equal("nonce-used");
  });

  it("alreadySent_aKnownTransactionWithALowNonce_isKnown", function () {
    expect(alreadySent(rpcError("already known (nonce too low)"))).to.equal("known");
  });

  it("alreadySent_anythingElse_isUndefined", function () {
    for (const error of [rpcError("nonce too high"), rpcError("replacement transaction underpriced"), rpcError("execution reverted"), new Error("fetch failed"), undefined, null, "already known", { message: 42 }]) {
      expect(alreadySent(error), String(error)).to.equal(undefined);
    }
  });
});
