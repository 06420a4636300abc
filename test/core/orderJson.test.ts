/**
 * ts/core/orderJson.ts: the order's wire form. `orderToJson` writes the exact JSON quotes carry
 * (pinned byte for byte), `orderFromJson` reads it back, and the orderId of the JSON is the hash of the
 * typed order — for a typed order and for every shared vector.
 */
import { expect } from "chai";
import { encodeAbiParameters } from "viem";
import { getOrderId, hashOrder } from "../../ts/core/orderId.ts";
import { orderFromJson, orderToJson, type Order } from "../../ts/core/orderJson.ts";
import { loadOrderIdVectors } from "../vectors/vectorFiles.ts";

const vectors = loadOrderIdVectors();

/** A typed order shaped like an ERC-20 quote's: one input with its refund, one output payment, one app fee. */
const ORDER: Order = {
  version: "v1",
  solverChainId: "ferry-origin",
  solver: "0x90f79bf6eb2c4f870365e785982e1f101e93b906",
  salt: 0x5an,
  inputs: [
    {
      payment: { chainId: "ferry-origin", currency: "0x4444444444444444444444444444444444444444", amount: 100_000_000n, weight: 1n },
      refunds: [
        {
          chainId: "ferry-origin",
          recipient: "0xa1a1a1a1a1a1a1a1a1a1a1a1a1a1a1a1a1a1a1a1",
          currency: "0x4444444444444444444444444444444444444444",
          minimumAmount: 100_000_000n,
          deadline: 1_767_226_500,
          extraData: "0x",
        },
      ],
    },
  ],
  output: {
    chainId: "ferry-destination",
    payments: [
      { recipient: "0xb1b1b1b1b1b1b1b1b1b1b1b1b1b1b1b1b1b1b1b1", currency: "0x4444444444444444444444444444444444444444", minimumAmount: 99_545_000n, expectedAmount: 99_545_000n },
    ],
    deadline: 1_767_226_500,
    calls: [],
    extraData: encodeAbiParameters([{ type: "address" }], ["0x2222222222222222222222222222222222222222"]),
  },
  fees: [
    { recipientChainId: "ferry-origin", recipient: "0xc1c1c1c1c1c1c1c1c1c1c1c1c1c1c1c1c1c1c1c1", currencyChainId: "ferry-origin", currency: "0x4444444444444444444444444444444444444444", amount: 25_000n },
  ],
};

describe("orderJson", () => {
  it("orderToJson_writesTheQuoteWireFormByteForByte", () => {
    // The JSON Ferry's quotes carry in protocol.v2.orderData: field order, string amounts, a 32-byte salt.
    const salt = `0x${"0".repeat(62)}5a`;
    const receiver = `0x${"0".repeat(24)}${"22".repeat(20)}`;
    expect(JSON.stringify(orderToJson(ORDER))).to.equal(
      `{"version":"v1","solverChainId":"ferry-origin","solver":"0x90f79bf6eb2c4f870365e785982e1f101e93b906","salt":"${salt}",` +
        `"inputs":[{"payment":{"chainId":"ferry-origin","currency":"0x4444444444444444444444444444444444444444","amount":"100000000","weight":"1"},` +
        `"refunds":[{"chainId":"ferry-origin","recipient":"0xa1a1a1a1a1a1a1a1a1a1a1a1a1a1a1a1a1a1a1a1","currency":"0x4444444444444444444444444444444444444444",` +
        `"minimumAmount":"100000000","deadline":1767226500,"extraData":"0x"}]}],` +
        `"output":{"chainId":"ferry-destination","payments":[{"recipient":"0xb1b1b1b1b1b1b1b1b1b1b1b1b1b1b1b1b1b1b1b1",` +
        `"currency":"0x4444444444444444444444444444444444444444","minimumAmount":"99545000","expectedAmount":"99545000"}],` +
        `"calls":[],"deadline":1767226500,"extraData":"${receiver}"},` +
        `"fees":[{"recipientChainId":"ferry-origin","recipient":"0xc1c1c1c1c1c1c1c1c1c1c1c1c1c1c1c1c1c1c1c1","currencyChainId":"ferry-origin",` +
        `"currency":"0x4444444444444444444444444444444444444444","amount":"25000"}]}`,
    );
  });

  it("getOrderIdOfTheJson_equalsTheHashOfTheTypedOrder", () => {
    expect(getOrderId(orderToJson(ORDER))).to.equal(hashOrder(ORDER));
    expect(getOrderId(orderToJson({ ...ORDER, salt: 2n ** 256n - 1n }))).to.equal(hashOrder({ ...ORDER, salt: 2n ** 256n - 1n }));
  });

  it("orderFromJson_roundTripsACanonicalOrder", () => {
    expect(orderFromJson(orderToJson(ORDER))).to.deep.equal(ORDER);
    expect(orderFromJson(JSON.parse(JSON.stringify(orderToJson(ORDER))))).to.deep.equal(ORDER);
  });

  it("orderFromJson_canonicalizesAddresses_soEveryVectorRoundTripsToItsOrderId", () => {
    for (const c of vectors.cases) {
      const order = orderFromJson(c.orderData);
      for (const address of [order.solver, ...order.inputs.map((i) => i.payment.currency), ...order.output.payments.map((p) => p.recipient)]) {
        expect(address, c.name).to.equal(address.toLowerCase());
      }
      const json = orderToJson(order);
      expect(getOrderId(json), c.name).to.equal(c.orderId);
      expect(orderFromJson(json), c.name).to.deep.equal(order);
    }
  });

  it("orderToJson_writesEncodedCallsAsHex", () => {
    const withCall: Order = { ...ORDER, output: { ...ORDER.output, calls: ["0x0102"] } };
    expect(orderToJson(withCall).output.calls).to.deep.equal(["0x0102"]);
    expect(orderToJson({ ...ORDER, inputs: [], fees: [] })).to.deep.include({ inputs: [], fees: [] });
  });
});
