/**
 * `OrderData`: a quote's stored order (`quotes.order_data`, the quote's `protocol.v2.orderData`) as a
 * schema, so the row is decoded once where it is read — into core's typed `Order`, the one the quote
 * was built from. The encoded side is the wire form `orderToJson` writes (core's `OrderJson`), checked
 * strictly so a row that is not such an order is a StoredValueInvalidError naming the field; the codec
 * is core's own pair, `orderFromJson` / `orderToJson`, so the order is parsed by one parser only.
 */
import { Type } from "typebox";
import { orderFromJson, orderToJson, type Order, type OrderJson } from "../../core/orderJson.ts";
import { AddressString, Bytes32String, HexDataString, UintString } from "./values.ts";

const Deadline = Type.Integer({ minimum: 0, maximum: 2 ** 32 - 1 });
const ChainName = Type.String({ minLength: 1 });

/** The wire form, as `orderToJson` writes it (every field required, no other field). */
const OrderJsonSchema = Type.Object(
  {
    version: Type.String(),
    solverChainId: ChainName,
    solver: AddressString,
    salt: Bytes32String,
    inputs: Type.Array(
      Type.Object({
        payment: Type.Object({ chainId: ChainName, currency: HexDataString, amount: UintString, weight: UintString }),
        refunds: Type.Array(
          Type.Object({
            chainId: ChainName,
            recipient: HexDataString,
            currency: HexDataString,
            minimumAmount: UintString,
            deadline: Deadline,
            extraData: HexDataString,
          }),
        ),
      }),
    ),
    output: Type.Object({
      chainId: ChainName,
      payments: Type.Array(Type.Object({ recipient: HexDataString, currency: HexDataString, minimumAmount: UintString, expectedAmount: UintString })),
      calls: Type.Array(HexDataString),
      deadline: Deadline,
      extraData: HexDataString,
    }),
    fees: Type.Array(
      Type.Object({ recipientChainId: ChainName, recipient: HexDataString, currencyChainId: ChainName, currency: HexDataString, amount: UintString }),
    ),
  },
  { additionalProperties: false },
);

export const OrderData = Type.Codec(OrderJsonSchema)
  .Decode((json): Order => orderFromJson(json))
  .Encode((order: Order): OrderJson => orderToJson(order));
