/** The pure planning helpers of executeQuote: steps → transactions, sender/chain checks, outcomes. */
import { expect } from "chai";
import type { Quote, Step } from "../../ts/client/apiTypes.ts";
import { ExecuteQuoteError } from "../../ts/client/clientErrors.ts";
import { assertSendable, planQuoteExecution, statusOutcome, type PlannedTransaction } from "../../ts/client/quoteExecutionPlan.ts";

const ALICE = "0x70997970C51812dc3A010C7d01b50e0d17dc79C8";
const TOKEN = "0xa0b86991c6218b36c1d19d4a2e9eb0ce3606eb48";
const REQUEST_ID = `0x${"ab".repeat(32)}`;

function step(id: string, overrides: Partial<Step> = {}, data: Record<string, unknown> = {}): Step {
  return {
    id,
    action: "",
    description: "",
    kind: "transaction",
    requestId: REQUEST_ID,
    depositAddress: "",
    items: [
      {
        status: "incomplete",
        data: { from: ALICE.toLowerCase(), to: TOKEN, data: "0x1234", value: "5", chainId: 31337, ...data },
        ...(id === "deposit" && { check: { endpoint: `/intents/status/v3?requestId=${REQUEST_ID}`, method: "GET" } }),
      },
    ],
    ...overrides,
  };
}
const quote = (...steps: Step[]) => ({ steps }) as unknown as Quote;

function code(fn: () => unknown): string {
  try {
    fn();
  } catch (error) {
    expect(error).to.be.instanceOf(ExecuteQuoteError);
    return (error as ExecuteQuoteError).code;
  }
  throw new Error("expected a throw");
}

describe("planQuoteExecution", () => {
  it("lists the transactions in order, with bigint values and checksummed addresses", () => {
    const plan = planQuoteExecution(quote(step("approve", {}, { value: "0" }), step("deposit", {}, { gas: "90000", maxFeePerGas: "7" })));
    expect(plan.map((t) => t.step.id)).to.deep.equal(["approve", "deposit"]);
    const [approve, deposit] = plan as PlannedTransaction[];
    expect(plan.map((t) => t.kind)).to.deep.equal(["transaction", "transaction"]);
    expect(approve!.request).to.deep.equal({ from: ALICE, to: "0xA0b86991c6218b36c1d19D4a2e9Eb0cE3606eB48", data: "0x1234", value: 0n, chainId: 31337 });
    expect(deposit!.request).to.include({ value: 5n, gas: 90000n, maxFeePerGas: 7n });
  });

  it("follows the status only after the last step (an approve completes with its receipt)", () => {
    const plan = planQuoteExecution(quote(step("approve"), step("deposit")));
    expect(plan.map((t) => t.followRequestId)).to.deep.equal([undefined, REQUEST_ID]);
  });

  it("takes the requestId from either check.endpoint form, else the step's", () => {
    const other = `0x${"cd".repeat(32)}`;
    const withV2Path = step("deposit");
    withV2Path.items[0]!.check = { endpoint: `/intents/status?requestId=${other}`, method: "GET" };
    expect(planQuoteExecution(quote(withV2Path))[0]!.followRequestId).to.equal(other);
    const noCheck = step("deposit");
    delete noCheck.items[0]!.check;
    expect(planQuoteExecution(quote(noCheck))[0]!.followRequestId).to.equal(REQUEST_ID);
  });

  it("skips items already complete", () => {
    const done = step("approve");
    done.items[0]!.status = "complete";
    expect(planQuoteExecution(quote(done, step("deposit"))).map((t) => t.step.id)).to.deep.equal(["deposit"]);
  });

  it("plans a permit signature step in its place, and follows it when it is the last step", () => {
    const authorize = step("authorize", { kind: "signature" });
    authorize.items[0]!.data = {
      sign: { signatureKind: "eip712", domain: {}, types: {}, primaryType: "Permit", value: {} },
      post: { endpoint: "/execute/permits", method: "POST", body: { kind: "eip2612", requestId: REQUEST_ID } },
    };
    authorize.items[0]!.check = { endpoint: `/intents/status/v3?requestId=${REQUEST_ID}`, method: "GET" };
    const plan = planQuoteExecution(quote(step("approve"), authorize));
    expect(plan.map((a) => [a.step.id, a.kind, a.followRequestId])).to.deep.equal([
      ["approve", "transaction", undefined],
      ["authorize", "signature", REQUEST_ID],
    ]);
    // A signature passes assertSendable: its signer and chain are verifyPermitSignature's to check.
    expect(() => assertSendable(plan[1]!, { address: TOKEN, chainId: 1 })).to.not.throw();
  });

  it("refuses other step kinds, signature items that are not an EIP-712 permit posted to /execute/permits, malformed items and foreign check endpoints with UNSUPPORTED_STEP", () => {
    expect(code(() => planQuoteExecution(quote()))).to.equal("UNSUPPORTED_STEP");
    expect(code(() => planQuoteExecution(quote(step("sign", { kind: "signature" }))))).to.equal("UNSUPPORTED_STEP");
    expect(code(() => planQuoteExecution(quote(step("other", { kind: "message" }))))).to.equal("UNSUPPORTED_STEP");
    const post = { endpoint: "/execute/permits", method: "POST", body: { kind: "eip2612", requestId: REQUEST_ID } };
    const sign = { signatureKind: "eip712", domain: {}, types: {}, primaryType: "Permit", value: {} };
    for (const data of [
      { sign: { ...sign, signatureKind: "eip191" }, post },
      { sign, post: { ...post, endpoint: "https://elsewhere.example/execute/permits" } },
      { sign, post: { ...post, endpoint: "/execute" } },
      { sign, post: { ...post, method: "GET" } },
      { sign },
    ]) {
      const signature = step("authorize", { kind: "signature" });
      signature.items[0]!.data = data as never;
      expect(code(() => planQuoteExecution(quote(signature))), JSON.stringify(data)).to.equal("UNSUPPORTED_STEP");
    }
    expect(code(() => planQuoteExecution(quote(step("deposit", {}, { to: "0x12" }))))).to.equal("UNSUPPORTED_STEP");
    expect(code(() => planQuoteExecution(quote(step("deposit", {}, { data: "1234" }))))).to.equal("UNSUPPORTED_STEP");
    expect(code(() => planQuoteExecution(quote(step("deposit", {}, { value: "-1" }))))).to.equal("UNSUPPORTED_STEP");
    expect(code(() => planQuoteExecution(quote(step("deposit", {}, { chainId: "31337" }))))).to.equal("UNSUPPORTED_STEP");
    const foreign = step("deposit");
    foreign.items[0]!.check = { endpoint: `https://elsewhere.example/intents/status/v3?requestId=${REQUEST_ID}`, method: "GET" };
    expect(code(() => planQuoteExecution(quote(foreign)))).to.equal("UNSUPPORTED_STEP");
  });
});

describe("assertSendable", () => {
  const [tx] = planQuoteExecution(quote(step("deposit")));
  it("passes for the transaction's account (any case) on its chain", () => {
    expect(() => assertSendable(tx!, { address: ALICE.toLowerCase(), chainId: 31337 })).to.not.throw();
  });
  it("WALLET_MISMATCH for another account, CHAIN_MISMATCH for another chain", () => {
    expect(code(() => assertSendable(tx!, { address: TOKEN, chainId: 31337 }))).to.equal("WALLET_MISMATCH");
    expect(code(() => assertSendable(tx!, { address: ALICE, chainId: 1 }))).to.equal("CHAIN_MISMATCH");
  });
});

describe("statusOutcome", () => {
  it("success ends well; failure, refund and fallback end badly; the rest is open", () => {
    expect(statusOutcome({ status: "success" })).to.equal("success");
    for (const status of ["failure", "refund", "fallback"]) expect(statusOutcome({ status }), status).to.equal("failed");
    for (const status of ["waiting", "depositing", "pending", "submitted", "unknown-new-status"]) expect(statusOutcome({ status }), status).to.equal("open");
  });
});
