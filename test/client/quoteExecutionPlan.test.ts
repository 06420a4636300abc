/** The pure planning helpers of executeQuote: steps → transactions, sender/chain checks, outcomes. */
import { expect } from "chai";
import type { Quote, Step } from "../../ts/client/apiTypes.ts";
import { ExecuteQuoteError } from "../../ts/client/clientErrors.ts";
import { assertSendable, planQuoteExecution, statusOutcome } from "../../ts/client/quoteExecutionPlan.ts";

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
    expect(plan[0]!.request).to.deep.equal({ from: ALICE, to: "0xA0b86991c6218b36c1d19D4a2e9Eb0cE3606eB48", data: "0x1234", value: 0n, chainId: 31337 });
    expect(plan[1]!.request).to.include({ value: 5n, gas: 90000n, maxFeePerGas: 7n });
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

  it("refuses signature steps, malformed items and foreign check endpoints with UNSUPPORTED_STEP", () => {
    expect(code(() => planQuoteExecution(quote()))).to.equal("UNSUPPORTED_STEP");
    expect(code(() => planQuoteExecution(quote(step("sign", { kind: "signature" }))))).to.equal("UNSUPPORTED_STEP");
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
