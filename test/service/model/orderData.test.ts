/**
 * ts/service/model/orderData.ts: a stored order decodes to core's typed `Order` (the one its wire form
 * was written from) and encodes back to exactly what `orderToJson` writes; a stored value that is not
 * such an order is a StoredValueInvalidError naming the column and the field.
 */
import { expect } from "chai";
import { isFerryError } from "../../../ts/core/errors.ts";
import { orderFromJson, orderToJson } from "../../../ts/core/orderJson.ts";
import { OrderData } from "../../../ts/service/model/orderData.ts";
import { decodeStored, encodeStored, type StoredValueInvalidError } from "../../../ts/service/model/storedValue.ts";
import { loadOrderIdVectors } from "../../vectors/vectorFiles.ts";

describe("OrderData", () => {
  const orders = loadOrderIdVectors().cases.map((vector) => orderFromJson(vector.orderData));

  it("decodeStored_givesTheTypedOrder_andEncodeStoredItsWireForm", () => {
    expect(orders.length).to.be.greaterThan(0);
    for (const order of orders) {
      const stored = JSON.parse(JSON.stringify(encodeStored(OrderData, order))) as unknown; // through jsonb and back
      expect(stored).to.deep.equal(orderToJson(order));
      expect(decodeStored(OrderData, stored, "quotes.order_data", "r1")).to.deep.equal(order);
    }
  });

  it("decodeStored_refusesAValueThatIsNotAnOrder_namingTheField", () => {
    const order = orderToJson(orders[0]!);
    const broken: Array<[unknown, string]> = [
      [{ ...order, salt: "0x5a" }, "salt"],
      [{ ...order, solver: "not an address" }, "solver"],
      [{ ...order, output: { ...order.output, deadline: "soon" } }, "output.deadline"],
      [{ ...order, output: { ...order.output, deadline: 2 ** 32 } }, "output.deadline"],
      [{ ...order, inputs: [{ ...order.inputs[0]!, payment: { ...order.inputs[0]!.payment, amount: 25 } }] }, "inputs.0.payment.amount"],
      [{ ...order, extra: true }, "extra"],
      [{ version: "v1", solverChainId: "31337", inputs: [{ amount: "1000000" }] }, ""],
      ["{}", ""],
      // The shape of an order, but not a valid one (a mixed-case address that is no EIP-55 checksum): core's parser refuses it.
      [{ ...order, solver: `0x${"aB".repeat(20)}` }, ""],
    ];
    for (const [row, field] of broken) {
      const label = JSON.stringify(row).slice(0, 80);
      let error: unknown;
      try {
        decodeStored(OrderData, row, "quotes.order_data", "r1");
      } catch (thrown) {
        error = thrown;
      }
      expect(isFerryError(error, "STORED_VALUE_INVALID"), label).to.equal(true);
      expect((error as StoredValueInvalidError).where).to.equal("quotes.order_data");
      expect((error as StoredValueInvalidError).field, label).to.equal(field);
    }
  });
});
