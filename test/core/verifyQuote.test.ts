import { expect } from "chai";
import { encodeFunctionData, parseAbi, zeroAddress, type Hex } from "viem";
import { assertQuote, verifyQuote, type VerifyQuoteOptions } from "../../ts/core/verifyQuote.ts";
import { loadOrderIdVectors } from "../vectors/vectorFiles.ts";

// Written from docs/architecture.md, independently of ts/core/depositoryAbi.ts.
const depositoryAbi = parseAbi([
  "function depositNative(address depositor, bytes32 id) payable",
  "function depositErc20(address depositor, address token, uint256 amount, bytes32 id)",
  "function depositErc20(address depositor, address token, bytes32 id)",
]);
const erc20Abi = parseAbi(["function approve(address spender, uint256 amount) returns (bool)"]);

const DEPOSITORY = "0xe7f1725E7734CE288F8367e1Bb143E90bb3F0512";
const ALICE = "0x70997970C51812dc3A010C7d01b50e0d17dc79C8";
const MALLORY = "0x976EA74026E726554dB657fA54763abd0C3a0aa9";
const USDC = "0xA0b86991c6218b36c1d19D4a2e9Eb0cE3606eB48";
const vectors = loadOrderIdVectors();
const vector = (name: string) => structuredClone(vectors.cases.find((c) => c.name === name)!);

function step(id: string, data: Record<string, unknown>) {
  return {
    id,
    action: "Confirm transaction in your wallet",
    description: id,
    kind: "transaction",
    requestId: `0x${"ab".repeat(32)}`,
    items: [{ status: "incomplete", data, check: { endpoint: "/intents/status/v3?requestId=0x", method: "GET" } }],
    depositAddress: "",
  };
}

function nativeQuote(): any {
  const { orderData, orderId } = vector("native bridge");
  const amount = "1000000000000000000";
  return {
    steps: [step("deposit", { from: ALICE, to: DEPOSITORY, data: encodeFunctionData({ abi: depositoryAbi, functionName: "depositNative", args: [zeroAddress, orderId] }), value: amount, chainId: 31337 })],
    details: { operation: "bridge", sender: ALICE, recipient: ALICE },
    protocol: { v2: { orderId, orderData, paymentDetails: { chainId: "ferry-origin", depository: DEPOSITORY, currency: zeroAddress, amount } } },
  };
}

function erc20Quote(depositor: string = ALICE): any {
  const { orderData, orderId } = vector("erc20 bridge");
  return {
    steps: [
      step("approve", { from: ALICE, to: USDC, data: encodeFunctionData({ abi: erc20Abi, functionName: "approve", args: [DEPOSITORY, 1000000n] }), value: "0", chainId: 1 }),
      step("deposit", {
        from: ALICE,
        to: DEPOSITORY,
        data: encodeFunctionData({ abi: depositoryAbi, functionName: "depositErc20", args: [depositor as Hex, USDC, 1000000n, orderId] }),
        value: "0",
        chainId: 1,
      }),
    ],
    details: { operation: "bridge", sender: ALICE, recipient: ALICE },
    protocol: { v2: { orderId, orderData, paymentDetails: { chainId: "ethereum", depository: DEPOSITORY, currency: USDC, amount: "1000000" } } },
  };
}

const depositData = (quote: any) => quote.steps.find((s: any) => s.id === "deposit").items[0].data;

function failure(quote: unknown, options?: VerifyQuoteOptions): { code: string; field?: string } | undefined {
  const result = verifyQuote(quote, options);
  if (result.valid) return undefined;
  const { code, field } = result.error as { code: string; field?: string };
  return field === undefined ? { code } : { code, field };
}

describe("verifyQuote", () => {
  it("accepts a native bridge quote and describes the deposit", () => {
    const result = verifyQuote(nativeQuote());
    expect(result.valid).to.equal(true);
    if (result.valid) {
      expect(result.orderId).to.equal(vector("native bridge").orderId);
      expect(result.deposit).to.deep.include({ kind: "native", depository: DEPOSITORY, depositor: zeroAddress, currency: zeroAddress, amount: 10n ** 18n, chainId: 31337 });
    }
  });

  it("accepts an ERC-20 quote (approve step first) crediting the sender explicitly or through depositor 0", () => {
    expect(failure(erc20Quote(ALICE))).to.equal(undefined);
    expect(failure(erc20Quote(zeroAddress))).to.equal(undefined);
    const result = verifyQuote(erc20Quote());
    if (result.valid) expect(result.deposit).to.deep.include({ kind: "erc20", currency: USDC, amount: 1000000n });
  });

  it("rejects an orderId that is not the hash of orderData with ORDER_ID_MISMATCH", () => {
    const quote = nativeQuote();
    quote.protocol.v2.orderData.output.payments[0].minimumAmount = "1";
    expect(failure(quote)).to.deep.equal({ code: "ORDER_ID_MISMATCH" });
    const other = nativeQuote();
    other.protocol.v2.orderId = vector("erc20 bridge").orderId;
    expect(failure(other)).to.deep.equal({ code: "ORDER_ID_MISMATCH" });
  });

  const mismatches: [string, () => any, string][] = [
    ["payment details that match no order input", () => {
      const q = nativeQuote();
      q.protocol.v2.paymentDetails.amount = "1";
      depositData(q).value = "1";
      return q;
    }, "payment"],
    ["a deposit to another contract", () => {
      const q = nativeQuote();
      depositData(q).to = MALLORY;
      return q;
    }, "depository"],
    ["calldata that is no deposit", () => {
      const q = erc20Quote();
      depositData(q).data = encodeFunctionData({ abi: erc20Abi, functionName: "approve", args: [MALLORY, 1n] });
      return q;
    }, "calldata"],
    ["a deposit under another id", () => {
      const q = nativeQuote();
      depositData(q).data = encodeFunctionData({ abi: depositoryAbi, functionName: "depositNative", args: [zeroAddress, `0x${"11".repeat(32)}`] });
      return q;
    }, "id"],
    ["a native deposit of the wrong value", () => {
      const q = nativeQuote();
      depositData(q).value = "999999999999999999";
      return q;
    }, "amount"],
    ["an ERC-20 deposit of another token", () => {
      const q = erc20Quote();
      depositData(q).data = encodeFunctionData({ abi: depositoryAbi, functionName: "depositErc20", args: [ALICE, MALLORY, 1000000n, q.protocol.v2.orderId] });
      return q;
    }, "currency"],
    ["an ERC-20 deposit of another amount", () => {
      const q = erc20Quote();
      depositData(q).data = encodeFunctionData({ abi: depositoryAbi, functionName: "depositErc20", args: [ALICE, USDC, 999999n, q.protocol.v2.orderId] });
      return q;
    }, "amount"],
    ["an ERC-20 deposit that also sends native value", () => {
      const q = erc20Quote();
      depositData(q).value = "1";
      return q;
    }, "amount"],
    ["the allowance form, whose calldata binds no amount", () => {
      const q = erc20Quote();
      depositData(q).data = encodeFunctionData({ abi: depositoryAbi, functionName: "depositErc20", args: [ALICE, USDC, q.protocol.v2.orderId] });
      return q;
    }, "amount"],
    ["a native deposit for an ERC-20 payment", () => {
      const q = erc20Quote();
      depositData(q).data = encodeFunctionData({ abi: depositoryAbi, functionName: "depositNative", args: [zeroAddress, q.protocol.v2.orderId] });
      return q;
    }, "currency"],
    ["a deposit crediting someone else", () => erc20Quote(MALLORY), "depositor"],
    ["no deposit step", () => {
      const q = nativeQuote();
      q.steps[0].id = "send";
      return q;
    }, "step"],
    ["a deposit step with two items", () => {
      const q = nativeQuote();
      q.steps[0].items.push(q.steps[0].items[0]);
      return q;
    }, "step"],
    ["a signature-kind deposit step", () => {
      const q = nativeQuote();
      q.steps[0].kind = "signature";
      return q;
    }, "step"],
  ];
  for (const [name, build, field] of mismatches) {
    it(`rejects ${name} with DEPOSIT_MISMATCH (${field})`, () => {
      expect(failure(build())).to.deep.equal({ code: "DEPOSIT_MISMATCH", field });
    });
  }

  it("holds the depositor to options.depositor when given", () => {
    expect(failure(erc20Quote(ALICE), { depositor: ALICE.toLowerCase() })).to.equal(undefined);
    expect(failure(erc20Quote(ALICE), { depositor: MALLORY })).to.deep.equal({ code: "DEPOSIT_MISMATCH", field: "depositor" });
  });

  it("checks the deposit chain when chainIdOf is given", () => {
    const chains: Record<string, number> = { ethereum: 1, "ferry-origin": 31337 };
    expect(failure(erc20Quote(), { chainIdOf: (name) => chains[name] })).to.equal(undefined);
    expect(failure(erc20Quote(), { chainIdOf: () => 8453 })).to.deep.equal({ code: "DEPOSIT_MISMATCH", field: "chain" });
    expect(failure(erc20Quote(), { chainIdOf: () => undefined })).to.deep.equal({ code: "DEPOSIT_MISMATCH", field: "chain" });
  });

  it("rejects malformed quotes with INVALID_INPUT / INVALID_ADDRESS", () => {
    expect(failure({})).to.deep.equal({ code: "INVALID_INPUT" });
    expect(failure(null)).to.deep.equal({ code: "INVALID_INPUT" });
    const badDepository = nativeQuote();
    badDepository.protocol.v2.paymentDetails.depository = "0x12";
    expect(failure(badDepository)).to.deep.equal({ code: "INVALID_ADDRESS" });
    const noSender = erc20Quote();
    delete noSender.details.sender;
    delete depositData(noSender).from;
    expect(failure(noSender)).to.deep.equal({ code: "INVALID_INPUT" });
  });

  it("passes the VM map through to the orderId", () => {
    expect(failure(nativeQuote(), { vmTypeOf: (chain) => (chain === "ferry-destination" ? "svm" : "evm") })).to.deep.equal({ code: "UNSUPPORTED_VM" });
  });

  it("assertQuote returns the same values or throws the typed error", () => {
    expect(assertQuote(nativeQuote()).orderId).to.equal(vector("native bridge").orderId);
    expect(() => assertQuote(erc20Quote(MALLORY))).to.throw().with.property("field", "depositor");
  });
});
