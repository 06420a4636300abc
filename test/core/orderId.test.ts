import { expect } from "chai";
import { concat, encodeAbiParameters, keccak256, numberToHex, pad, size, stringToHex, zeroAddress, type Hex } from "viem";
import { ORDER_TYPE, ORDER_TYPEHASH, getOrderId, hashOrder, hashOrderGeneric } from "../../ts/core/orderId.ts";
import { encodeEvmCall, orderFromJson, type Order } from "../../ts/core/orderJson.ts";
import { loadOrderIdVectors } from "../vectors/vectorFiles.ts";

const vectors = loadOrderIdVectors();
const byName = (name: string) => structuredClone(vectors.cases.find((c) => c.name === name)!.orderData) as any;

// ---------------------------------------------------------------------------------------------
// An independent EIP-712 encoder for Order, written from docs/architecture.md with keccak256 and 32-byte words
// only (no viem hashStruct / ABI coder), working on the raw orderData JSON.
const STRUCTS: Record<string, string> = {
  Order: "Order(string version,string solverChainId,address solver,uint256 salt,Input[] inputs,Output output,Fee[] fees)",
  Input: "Input(InputPayment payment,InputRefund[] refunds)",
  InputPayment: "InputPayment(string chainId,bytes currency,uint256 amount,uint256 weight)",
  InputRefund: "InputRefund(string chainId,bytes recipient,bytes currency,uint256 minimumAmount,uint32 deadline,bytes extraData)",
  Output: "Output(string chainId,OutputPayment[] payments,uint32 deadline,bytes[] calls,bytes extraData)",
  OutputPayment: "OutputPayment(bytes recipient,bytes currency,uint256 minimumAmount,uint256 expectedAmount)",
  Fee: "Fee(string recipientChainId,bytes recipient,string currencyChainId,bytes currency,uint256 amount)",
};
const typeHash = (primary: string, deps: string[]) => keccak256(stringToHex([primary, ...[...deps].sort()].map((n) => STRUCTS[n]).join("")));
const u = (value: string | number) => numberToHex(BigInt(value), { size: 32 });
const str = (value: string) => keccak256(stringToHex(value));
const bytes = (value: string) => keccak256(value.toLowerCase() as Hex);
const arr = (hashes: Hex[]) => keccak256(hashes.length === 0 ? "0x" : concat(hashes));
const struct = (th: Hex, words: Hex[]) => keccak256(concat([th, ...words]));

function handRolledCall(call: string | { to: string; data: string; value: string }): Hex {
  if (typeof call === "string") return call as Hex;
  const data = call.data as Hex;
  const length = size(data);
  const padded = length === 0 ? [] : [pad(data, { dir: "right", size: Math.ceil(length / 32) * 32 })];
  // head: (address) inline, offset of the dynamic (bytes) tuple, (uint256) inline; then the tuple:
  // its own offset word (0x20), the length and the right-padded data.
  return concat([pad(call.to.toLowerCase() as Hex), u(0x60), u(call.value), u(0x20), u(length), ...padded]);
}

function handRolledOrderId(o: any): Hex {
  const inputs = o.inputs.map((input: any) =>
    struct(typeHash("Input", ["InputPayment", "InputRefund"]), [
      struct(typeHash("InputPayment", []), [str(input.payment.chainId), bytes(input.payment.currency), u(input.payment.amount), u(input.payment.weight)]),
      arr(
        input.refunds.map((r: any) =>
          struct(typeHash("InputRefund", []), [str(r.chainId), bytes(r.recipient), bytes(r.currency), u(r.minimumAmount), u(r.deadline), bytes(r.extraData)]),
        ),
      ),
    ]),
  );
  const output = struct(typeHash("Output", ["OutputPayment"]), [
    str(o.output.chainId),
    arr(o.output.payments.map((p: any) => struct(typeHash("OutputPayment", []), [bytes(p.recipient), bytes(p.currency), u(p.minimumAmount), u(p.expectedAmount)]))),
    u(o.output.deadline),
    arr(o.output.calls.map((c: any) => bytes(handRolledCall(c)))),
    bytes(o.output.extraData),
  ]);
  const fees = o.fees.map((f: any) =>
    struct(typeHash("Fee", []), [str(f.recipientChainId), bytes(f.recipient), str(f.currencyChainId), bytes(f.currency), u(f.amount)]),
  );
  return struct(typeHash("Order", ["Input", "InputPayment", "InputRefund", "Output", "OutputPayment", "Fee"]), [
    str(o.version),
    str(o.solverChainId),
    pad(o.solver.toLowerCase() as Hex),
    u(o.salt),
    arr(inputs),
    output,
    arr(fees),
  ]);
}
// ---------------------------------------------------------------------------------------------

describe("orderId", () => {
  it("has the type string of docs/architecture.md with dependencies sorted by name", () => {
    expect(ORDER_TYPE).to.equal([STRUCTS.Order, STRUCTS.Fee, STRUCTS.Input, STRUCTS.InputPayment, STRUCTS.InputRefund, STRUCTS.Output, STRUCTS.OutputPayment].join(""));
    expect(ORDER_TYPEHASH).to.equal(keccak256(stringToHex(ORDER_TYPE)));
  });

  it("covers native, ERC-20, calls and fees in the vectors", () => {
    expect(vectors.cases.length).to.be.at.least(4);
    expect(vectors.cases.map((c) => c.name)).to.include.members(["native bridge", "erc20 bridge", "with calls", "with fees and two inputs"]);
  });

  it("reproduces every vector byte for byte", () => {
    for (const c of vectors.cases) expect(getOrderId(c.orderData), c.name).to.equal(c.orderId);
  });

  it("equals an independent hand-rolled EIP-712 encoding of every vector", () => {
    for (const c of vectors.cases) expect(handRolledOrderId(c.orderData), c.name).to.equal(c.orderId);
  });

  it("encodes an EVM call as abi.encode((address),(bytes),(uint256)) with the offset word before data", () => {
    const calls = byName("with calls").output.calls as any[];
    for (const call of calls.filter((c) => typeof c === "object")) {
      expect(encodeEvmCall(call)).to.equal(handRolledCall(call));
      expect(encodeEvmCall(call)).to.not.equal(encodeAbiParameters([{ type: "address" }, { type: "bytes" }, { type: "uint256" }], [call.to, call.data, BigInt(call.value)]));
    }
  });

  it("hashes an object call and its pre-encoded hex the same", () => {
    const objects = byName("with calls");
    const encoded = byName("with calls");
    encoded.output.calls = encoded.output.calls.map((c: any) => (typeof c === "string" ? c : encodeEvmCall(c)));
    expect(getOrderId(encoded)).to.equal(getOrderId(objects));
  });

  it("does not depend on address case, hex case, or the salt's notation", () => {
    const order = byName("erc20 bridge");
    const variant = byName("erc20 bridge");
    variant.inputs[0].payment.currency = "0xA0b86991c6218b36c1d19D4a2e9Eb0cE3606eB48";
    variant.solver = variant.solver.toLowerCase();
    variant.output.extraData = variant.output.extraData.toUpperCase().replace("0X", "0x");
    variant.salt = BigInt(order.salt).toString();
    expect(getOrderId(variant)).to.equal(getOrderId(order));
  });

  it("changes when a nested field changes", () => {
    const base = getOrderId(byName("with fees and two inputs"));
    const mutations: ((o: any) => void)[] = [
      (o) => (o.version = "v2"),
      (o) => (o.inputs[1].payment.weight = "3"),
      (o) => (o.inputs[0].refunds[0].deadline -= 1),
      (o) => (o.output.payments[0].expectedAmount = "998501"),
      (o) => (o.fees[0].amount = "1501"),
      (o) => (o.fees.reverse()),
      (o) => (o.inputs.reverse()),
      (o) => (o.output.chainId = "ethereum"),
    ];
    for (const mutate of mutations) {
      const order = byName("with fees and two inputs");
      mutate(order);
      expect(getOrderId(order), mutate.toString()).to.not.equal(base);
    }
  });

  describe("chain VMs", () => {
    const svm = (chain: string) => (chain === "solana" ? "svm" : "evm");

    it("treats every chain as evm by default", () => {
      expect(getOrderId(byName("native bridge"), {})).to.equal(getOrderId(byName("native bridge"), { vmTypeOf: () => "evm" }));
    });

    it("throws UNSUPPORTED_VM when an address sits on a non-evm chain", () => {
      const order = byName("with fees and two inputs");
      order.fees[0].recipientChainId = "solana";
      expect(() => getOrderId(order, { vmTypeOf: svm })).to.throw().with.property("code", "UNSUPPORTED_VM");
      const refund = byName("native bridge");
      refund.inputs[0].refunds[0].chainId = "solana";
      expect(() => getOrderId(refund, { vmTypeOf: svm })).to.throw().with.property("code", "UNSUPPORTED_VM");
    });

    it("throws UNSUPPORTED_VM for an object call on a non-evm output chain, but hashes pre-encoded calls", () => {
      const order = byName("empty arrays and edge values");
      order.output.chainId = "solana";
      order.output.calls = [{ to: zeroAddress, data: "0x", value: "0" }];
      expect(() => getOrderId(order, { vmTypeOf: svm })).to.throw().with.property("code", "UNSUPPORTED_VM");
      order.output.calls = ["0x0102"];
      expect(getOrderId(order, { vmTypeOf: svm })).to.match(/^0x[0-9a-f]{64}$/);
    });
  });

  describe("bad input", () => {
    const cases: [string, (o: any) => void, string, string?][] = [
      ["missing inputs", (o) => delete o.inputs, "INVALID_INPUT", "inputs"],
      ["amount as a JSON number beyond 2^53", (o) => (o.inputs[0].payment.amount = 2 ** 60), "INVALID_INPUT", "inputs[0].payment.amount"],
      ["deadline beyond uint32", (o) => (o.output.deadline = 2 ** 32), "INVALID_INPUT", "output.deadline"],
      ["odd-length extraData", (o) => (o.output.extraData = "0x123"), "INVALID_INPUT", "output.extraData"],
      ["32-byte EVM recipient", (o) => (o.output.payments[0].recipient = `0x${"11".repeat(32)}`), "INVALID_ADDRESS", "output.payments[0].recipient"],
      ["bad solver", (o) => (o.solver = "0x1234"), "INVALID_ADDRESS", "solver"],
      ["salt over 32 bytes", (o) => (o.salt = `0x${"11".repeat(33)}`), "INVALID_INPUT", "salt"],
      ["salt under 32 bytes of hex", (o) => (o.salt = "0xabc"), "INVALID_INPUT", "salt"],
      ["empty chain name", (o) => (o.output.chainId = ""), "INVALID_INPUT", "output.chainId"],
      ["call without data", (o) => (o.output.calls = [{ to: zeroAddress, value: "0" }]), "INVALID_INPUT", "output.calls[0].data"],
      ["not an object", () => undefined, "INVALID_INPUT"],
    ];
    for (const [name, mutate, code, path] of cases) {
      it(`rejects ${name} with ${code}`, () => {
        const order = name === "not an object" ? "nope" : byName("native bridge");
        mutate(order);
        expect(() => orderFromJson(order)).to.throw().with.property("code", code);
        if (path) expect(() => getOrderId(order)).to.throw().with.property("path", path);
      });
    }
  });

  it("hashOrder (type hashes once) equals viem's generic hashStruct on random orders", () => {
    let seed = 0x5eed;
    const next = () => (seed = (seed * 1103515245 + 12345) & 0x7fffffff);
    const hex = (bytes: number) => `0x${Array.from({ length: bytes }, () => (next() & 0xff).toString(16).padStart(2, "0")).join("")}` as Hex;
    const uint = (bits: number) => (bits <= 30 ? BigInt(next() % 2 ** Math.min(bits, 30)) : BigInt(hex(bits / 8)));
    const text = () => ["", "evm", "ferry-origin", "é✓ chain", "x".repeat(next() % 90)][next() % 5]!;
    const many = <T>(max: number, make: () => T) => Array.from({ length: next() % (max + 1) }, make);
    for (let i = 0; i < 200; i++) {
      const order: Order = {
        version: text(),
        solverChainId: text(),
        solver: hex(20),
        salt: uint(256),
        inputs: many(2, () => ({
          payment: { chainId: text(), currency: hex(next() % 33), amount: uint(256), weight: uint(64) },
          refunds: many(2, () => ({ chainId: text(), recipient: hex(20), currency: hex(next() % 21), minimumAmount: uint(256), deadline: Number(uint(30)), extraData: hex(next() % 70) })),
        })),
        output: {
          chainId: text(),
          payments: many(2, () => ({ recipient: hex(20), currency: hex(20), minimumAmount: uint(256), expectedAmount: uint(256) })),
          deadline: Number(uint(30)),
          calls: many(3, () => hex(next() % 200)),
          extraData: hex(next() % 40),
        },
        fees: many(3, () => ({ recipientChainId: text(), recipient: hex(20), currencyChainId: text(), currency: hex(20), amount: uint(256) })),
      };
      expect(hashOrder(order), `order ${i}`).to.equal(hashOrderGeneric(order));
    }
    // Edge values: the largest uint256 and uint32, empty everything.
    const edge: Order = { version: "", solverChainId: "", solver: zeroAddress, salt: 2n ** 256n - 1n, inputs: [], output: { chainId: "", payments: [], deadline: 2 ** 32 - 1, calls: [], extraData: "0x" }, fees: [] };
    expect(hashOrder(edge)).to.equal(hashOrderGeneric(edge));
  });
});
