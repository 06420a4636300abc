/**
 * The protocol order id of a quote (`quote.protocol.v2.orderId`): EIP-712 hashStruct(Order) with no
 * domain and no "\x19\x01" prefix, over the types in docs/architecture.md "Protocol order id". The deposit's
 * bytes32 id onchain is this value.
 */
import { hashStruct, keccak256, toHex, type Hex } from "viem";
import { orderFromJson, type Order, type OrderIdOptions } from "./orderJson.ts";
import { lowercaseHash, type LowercaseHex } from "./lowercaseHex.ts";

/** EIP-712 types of the order. Field order is part of the hash. */
export const ORDER_TYPES = {
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

/** The EIP-712 type string of Order (primary type, then dependencies sorted by name). */
export const ORDER_TYPE =
  "Order(string version,string solverChainId,address solver,uint256 salt,Input[] inputs,Output output,Fee[] fees)" +
  "Fee(string recipientChainId,bytes recipient,string currencyChainId,bytes currency,uint256 amount)" +
  "Input(InputPayment payment,InputRefund[] refunds)" +
  "InputPayment(string chainId,bytes currency,uint256 amount,uint256 weight)" +
  "InputRefund(string chainId,bytes recipient,bytes currency,uint256 minimumAmount,uint32 deadline,bytes extraData)" +
  "Output(string chainId,OutputPayment[] payments,uint32 deadline,bytes[] calls,bytes extraData)" +
  "OutputPayment(bytes recipient,bytes currency,uint256 minimumAmount,uint256 expectedAmount)";

/** keccak256(ORDER_TYPE). */
export const ORDER_TYPEHASH: Hex = keccak256(toHex(ORDER_TYPE));

/**
 * The orderId of a quote's `protocol.v2.orderData` (the JSON form, as integrators pass it; loose
 * notations accepted, see `orderFromJson`). Throws INVALID_INPUT, INVALID_ADDRESS or UNSUPPORTED_VM.
 */
export function getOrderId(orderData: unknown, options: OrderIdOptions = {}): LowercaseHex {
  return hashOrder(orderFromJson(orderData, options));
}

/** hashStruct(Order) of an already normalized order. */
export function hashOrder(order: Order): LowercaseHex {
  return lowercaseHash(hashStruct({ types: ORDER_TYPES, primaryType: "Order", data: order }));
}
