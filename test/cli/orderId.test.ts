import { expect } from "chai";
import { encodeAbiParameters, hashStruct, zeroAddress, type Hex } from "viem";
import { loadOrderIdVectors } from "../vectors/vectorFiles.ts";
import { errorLine, runCli, tempFiles } from "./runCli.ts";

const vectors = loadOrderIdVectors();
const native = vectors.cases.find((c) => c.name === "native bridge")!;

// Order types declared again here, from docs/architecture.md.
const TYPES = {
  Order: [
    { name: "version", type: "string" },
    { name: "solverChainId", type: "string" },
    { name: "solver", type: "address" },
    { name: "salt", type: "uint256" },
    { name: "inputs", type: "Input[]" },
    { name: "output", type: "Output" },
    { name: "fees", type: "Fee[]" },
  ],
  Input: [
    { name: "payment", type: "InputPayment" },
    { name: "refunds", type: "InputRefund[]" },
  ],
  InputPayment: [
    { name: "chainId", type: "string" },
    { name: "currency", type: "bytes" },
    { name: "amount", type: "uint256" },
    { name: "weight", type: "uint256" },
  ],
  InputRefund: [
    { name: "chainId", type: "string" },
    { name: "recipient", type: "bytes" },
    { name: "currency", type: "bytes" },
    { name: "minimumAmount", type: "uint256" },
    { name: "deadline", type: "uint32" },
    { name: "extraData", type: "bytes" },
  ],
  Output: [
    { name: "chainId", type: "string" },
    { name: "payments", type: "OutputPayment[]" },
    { name: "deadline", type: "uint32" },
    { name: "calls", type: "bytes[]" },
    { name: "extraData", type: "bytes" },
  ],
  OutputPayment: [
    { name: "recipient", type: "bytes" },
    { name: "currency", type: "bytes" },
    { name: "minimumAmount", type: "uint256" },
    { name: "expectedAmount", type: "uint256" },
  ],
  Fee: [
    { name: "recipientChainId", type: "string" },
    { name: "recipient", type: "bytes" },
    { name: "currencyChainId", type: "string" },
    { name: "currency", type: "bytes" },
    { name: "amount", type: "uint256" },
  ],
} as const;

const ALICE = "0x70997970c51812dc3a010c7d01b50e0d17dc79c8";
const BOB = "0x3c44cdddb6a900fa2b585dd299e03d12fa4293bc";
const SOLVER = "0x90F79bf6EB2c4f870365E785982E1f101E93b906";
const FILL = "0x9fE46736679d2D9a65F0992F2272dE9f3c7fa6e0";
const CALL_TO = "0x15d34AAf54267DB7D7c367839AAf71A00a2C6A65";

/** A fresh order, with its id computed here by viem's hashStruct (addresses → raw bytes, calls encoded by hand). */
function freshOrder() {
  const extraData = encodeAbiParameters([{ type: "address" }], [FILL]);
  const call = { to: CALL_TO, data: "0xc0ffee", value: "7" };
  const orderData = {
    version: "v1",
    solverChainId: "ferry-destination",
    solver: SOLVER,
    salt: "0x0000000000000000000000000000000000000000000000000000000000000abc",
    inputs: [{ payment: { chainId: "ferry-origin", currency: zeroAddress, amount: "5", weight: "1" }, refunds: [] }],
    output: { chainId: "ferry-destination", payments: [{ recipient: BOB, currency: zeroAddress, minimumAmount: "4", expectedAmount: "5" }], calls: [call], deadline: 1700000000, extraData },
    fees: [{ recipientChainId: "ferry-origin", recipient: ALICE, currencyChainId: "ferry-origin", currency: zeroAddress, amount: "1" }],
  };
  const encodedCall = encodeAbiParameters(
    [
      { type: "tuple", components: [{ name: "to", type: "address" }] },
      { type: "tuple", components: [{ name: "data", type: "bytes" }] },
      { type: "tuple", components: [{ name: "value", type: "uint256" }] },
    ],
    [{ to: CALL_TO }, { data: "0xc0ffee" }, { value: 7n }],
  );
  const orderId = hashStruct({
    types: TYPES,
    primaryType: "Order",
    data: {
      version: "v1",
      solverChainId: "ferry-destination",
      solver: SOLVER,
      salt: 0xabcn,
      inputs: [{ payment: { chainId: "ferry-origin", currency: zeroAddress, amount: 5n, weight: 1n }, refunds: [] }],
      output: { chainId: "ferry-destination", payments: [{ recipient: BOB, currency: zeroAddress, minimumAmount: 4n, expectedAmount: 5n }], calls: [encodedCall], deadline: 1700000000, extraData },
      fees: [{ recipientChainId: "ferry-origin", recipient: ALICE as Hex, currencyChainId: "ferry-origin", currency: zeroAddress, amount: 1n }],
    },
  });
  return { orderData, orderId };
}

describe("ferry order-id", () => {
  it("prints every vector's orderId", () => {
    for (const c of vectors.cases) {
      const files = tempFiles({ "order.json": JSON.stringify(c.orderData) });
      const run = runCli(["order-id", files["order.json"]]);
      expect(run.status, run.stderr).to.equal(0);
      expect(run.stdout, c.name).to.equal(`${c.orderId}\n`);
    }
  });

  it("matches an orderId computed here with viem's hashStruct", () => {
    const { orderData, orderId } = freshOrder();
    expect(runCli(["order-id", "-"], { input: JSON.stringify(orderData) }).stdout).to.equal(`${orderId}\n`);
  });

  it("accepts a whole quote (protocol.v2.orderData) from stdin, and --json", () => {
    const quote = { steps: [], protocol: { v2: { orderId: native.orderId, orderData: native.orderData, paymentDetails: {} } } };
    const run = runCli(["order-id", "--json", "-"], { input: JSON.stringify(quote) });
    expect(run.status, run.stderr).to.equal(0);
    expect(JSON.parse(run.stdout)).to.deep.equal({ orderId: native.orderId });
  });

  it("exits 2 on a salt shorter than 32 bytes of hex (a truncated copy), naming the salt", () => {
    const { orderData } = freshOrder();
    for (const salt of ["0xabc", `0x${"ab".repeat(31)}`]) {
      const run = runCli(["order-id", "-"], { input: JSON.stringify({ ...orderData, salt }) });
      expect(run.status, salt).to.equal(2);
      expect(run.stdout).to.equal("");
      expect(errorLine(run)).to.match(/^ferry: INVALID_INPUT: salt/);
    }
    // The same number as 32 bytes of hex or in decimal is fine.
    expect(runCli(["order-id", "-"], { input: JSON.stringify({ ...orderData, salt: String(0xabc) }) }).stdout).to.equal(`${freshOrder().orderId}\n`);
  });

  it("exits 2 on bad orderData, naming the field", () => {
    const bad = structuredClone(native.orderData) as any;
    bad.output.payments[0].recipient = "0x1234";
    const run = runCli(["order-id", "-"], { input: JSON.stringify(bad) });
    expect(run.status).to.equal(2);
    expect(errorLine(run)).to.match(/^ferry: INVALID_ADDRESS: output\.payments\[0\]\.recipient/);
    for (const input of ["[]", "42", "{"]) expect(runCli(["order-id", "-"], { input }).status, input).to.equal(2);
    expect(runCli(["order-id"]).status).to.equal(2);
  });
});
