/**
 * verifyPermitSignature (pure): a usePermit signature step is accepted only when its typed data is the
 * permit the quote commits to, for GET /chains' Depository; each difference is refused with the field
 * named. (The end-to-end runs, signing on a devnet, are in test/e2e/permitDeposits.test.ts.)
 */
import { expect } from "chai";
import { getAddress, type Hex } from "viem";
import type { ChainRecord, Quote } from "../../ts/client/apiTypes.ts";
import { ExecuteQuoteError } from "../../ts/client/clientErrors.ts";
import { verifyPermitSignature } from "../../ts/client/permitSignature.ts";
import { getOrderId } from "../../ts/core/orderId.ts";
import { eip2612PermitTypedData, permit2DepositTypedData, permit2Nonce } from "../../ts/core/permitDeposit.ts";
import { loadOrderIdVectors } from "../vectors/vectorFiles.ts";

const USER = "0x70997970C51812dc3A010C7d01b50e0d17dc79C8";
const OTHER = "0x3C44CdDdB6a900fa2b585dd299e03d12FA4293BC";
const DEPOSITORY = "0x5FbDB2315678afecb367f032d93F642f64180aa3";
const REQUEST_ID = `0x${"ab".repeat(32)}`;
const EXPIRES_AT = 1_900_000_000;
const CHAINS = [{ id: 1, name: "ethereum", protocol: { v2: { chainId: "ethereum", depository: DEPOSITORY } } }] as unknown as ChainRecord[];

const json = (value: unknown): unknown => JSON.parse(JSON.stringify(value, (_, v) => (typeof v === "bigint" ? v.toString() : v)));

/** A usePermit quote of the "erc20 bridge" order vector (1 USDC on chain "ethereum"), signed data built by ts/core as the service builds it. */
function permitQuote(kind: "eip2612" | "permit2"): Quote {
  const orderData = structuredClone(loadOrderIdVectors().cases.find((c) => c.name === "erc20 bridge")!.orderData) as unknown as Quote["protocol"]["v2"]["orderData"];
  const orderId = getOrderId(orderData) as Hex;
  const { currency, amount } = orderData.inputs[0]!.payment;
  const token = getAddress(currency);
  const typed =
    kind === "eip2612"
      ? eip2612PermitTypedData(
          { name: "USD Coin", version: "2", chainId: 1n, verifyingContract: token },
          { owner: USER, spender: DEPOSITORY, value: BigInt(amount), nonce: 3n, deadline: BigInt(EXPIRES_AT) },
        )
      : permit2DepositTypedData({ chainId: 1, deposit: { token, amount: BigInt(amount), depository: DEPOSITORY, orderId, nonce: permit2Nonce(orderId), deadline: BigInt(EXPIRES_AT) } });
  const wire = json(typed) as { domain: Record<string, unknown>; types: Record<string, unknown>; primaryType: string; message: Record<string, unknown> };
  return {
    steps: [
      {
        id: "authorize",
        action: "Sign authorization",
        description: "",
        kind: "signature",
        requestId: REQUEST_ID,
        depositAddress: "",
        items: [
          {
            status: "incomplete",
            data: {
              sign: { signatureKind: "eip712", domain: wire.domain, types: wire.types, primaryType: wire.primaryType, value: wire.message, message: structuredClone(wire.message) },
              post: { endpoint: "/execute/permits", method: "POST", body: { kind, requestId: REQUEST_ID, api: "bridge" } },
            },
          },
        ],
      },
    ],
    fees: {} as Quote["fees"],
    details: { sender: USER.toLowerCase(), currencyIn: { currency: { address: currency }, amount } } as unknown as Quote["details"],
    expiresAt: EXPIRES_AT,
    protocol: { v2: { orderId, orderData, paymentDetails: { chainId: "ethereum", depository: DEPOSITORY.toLowerCase(), currency, amount } } },
  };
}

const verify = (quote: Quote, account = USER) =>
  verifyPermitSignature({ quote, step: quote.steps[0]!, item: quote.steps[0]!.items[0]!, path: "steps[0].items[0].data", chains: CHAINS, account });
const sign = (quote: Quote) => (quote.steps[0]!.items[0]!.data as { sign: { domain: Record<string, unknown>; types: Record<string, unknown>; primaryType: string; value: Record<string, unknown>; message?: Record<string, unknown> } }).sign;

function refusal(fn: () => unknown): { code: string; field: string | undefined } {
  try {
    fn();
  } catch (error) {
    expect(error).to.be.instanceOf(ExecuteQuoteError);
    return { code: (error as ExecuteQuoteError).code, field: (error as ExecuteQuoteError).field };
  }
  throw new Error("expected a refusal");
}

describe("verifyPermitSignature", () => {
  it("accepts the quoted EIP-2612 and Permit2 permits (addresses in any case, uints as strings) and returns ts/core's typed data and the post body", () => {
    for (const kind of ["eip2612", "permit2"] as const) {
      const quote = permitQuote(kind);
      const verified = verify(quote, USER.toLowerCase());
      expect(verified).to.deep.include({ kind, chainId: 1, signer: USER, body: { kind, requestId: REQUEST_ID, api: "bridge" } });
      expect(json(verified.typedData)).to.deep.equal(json({ domain: sign(quote).domain, types: sign(quote).types, primaryType: sign(quote).primaryType, message: sign(quote).value }));
      expect(typeof verified.typedData.message.deadline, "bigints, as viem signs them").to.equal("bigint");
    }
  });

  it("PERMIT_MISMATCH naming the field for each tampered part of the typed data", () => {
    const cases: [string, "eip2612" | "permit2", (quote: Quote) => void][] = [
      ["primaryType", "eip2612", (q) => (sign(q).primaryType = "PermitSingle")],
      ["types.Permit", "eip2612", (q) => (sign(q).types.Permit = [...(sign(q).types.Permit as object[])].reverse())],
      ["types.Extra", "eip2612", (q) => (sign(q).types.Extra = [{ name: "x", type: "uint256" }])],
      ["types.TokenPermissions", "permit2", (q) => (sign(q).types.TokenPermissions = [{ name: "token", type: "address" }])],
      ["domain.salt", "eip2612", (q) => (sign(q).domain.salt = `0x${"00".repeat(32)}`)],
      ["domain.name", "permit2", (q) => (sign(q).domain.name = "Permit3")],
      ["value.extra", "eip2612", (q) => (sign(q).value.extra = "1")],
      ["message.deadline", "permit2", (q) => (sign(q).message!.deadline = "1")],
      ["value.owner", "eip2612", (q) => (sign(q).value.owner = OTHER)],
      ["value.witness.orderId", "permit2", (q) => (sign(q).value.witness = { orderId: REQUEST_ID })],
      ["post.body.requestId", "permit2", (q) => ((q.steps[0]!.items[0]!.data as { post: { body: Record<string, unknown> } }).post.body.requestId = `0x${"cd".repeat(32)}`)],
    ];
    for (const [field, kind, tamper] of cases) {
      const quote = permitQuote(kind);
      tamper(quote);
      expect(refusal(() => verify(quote)), field).to.deep.equal({ code: "PERMIT_MISMATCH", field });
    }
  });

  it("QUOTE_INVALID when the quote itself disagrees: orderId, Depository of GET /chains, currencyIn, expiresAt; WALLET_MISMATCH for another account", () => {
    const cases: [string, (quote: Quote) => void][] = [
      ["orderId", (q) => (q.protocol.v2.orderId = REQUEST_ID)],
      ["paymentDetails.depository", (q) => (q.protocol.v2.paymentDetails.depository = OTHER)],
      ["currencyIn.amount", (q) => (q.details.currencyIn.amount = "1000001")],
      ["expiresAt", (q) => delete q.expiresAt],
      ["unknown chain", (q) => (q.protocol.v2.paymentDetails.chainId = "base")],
    ];
    for (const [what, tamper] of cases) {
      const quote = permitQuote("eip2612");
      tamper(quote);
      expect(refusal(() => verify(quote)).code, what).to.equal("QUOTE_INVALID");
    }
    expect(refusal(() => verify(permitQuote("permit2"), OTHER)).code).to.equal("WALLET_MISMATCH");
  });

  it("UNSUPPORTED_STEP for an unknown permit kind or a post to another endpoint", () => {
    const quote = permitQuote("eip2612");
    (quote.steps[0]!.items[0]!.data as { post: { body: Record<string, unknown> } }).post.body.kind = "dai";
    expect(refusal(() => verify(quote)).code).to.equal("UNSUPPORTED_STEP");
    const elsewhere = permitQuote("eip2612");
    (elsewhere.steps[0]!.items[0]!.data as { post: { endpoint: string } }).post.endpoint = "/execute/permits/../../admin";
    expect(refusal(() => verify(elsewhere)).code).to.equal("UNSUPPORTED_STEP");
  });
});
