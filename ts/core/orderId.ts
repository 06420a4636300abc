/**
 * The protocol order id of a quote (`quote.protocol.v2.orderId`): EIP-712 hashStruct(Order) with no
 * domain and no "\x19\x01" prefix, over the types in docs/architecture.md "Protocol order id". The deposit's
 * bytes32 id onchain is this value.
 *
 * `hashOrder` encodes the fixed types directly: each struct's type hash is computed once, at load
 * (a generic EIP-712 encoder rebuilds and hashes every type string for every struct it meets — a fifth
 * of a quote's CPU), and the fields are written into one buffer per struct. `hashOrderGeneric` is the
 * same hash through viem's generic `hashStruct`; a test holds the two equal on random orders.
 */
import { hashStruct, hexToBytes, keccak256, numberToBytes, pad, toBytes, toHex, type Hex } from "viem";
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
  return lowercaseHash(toHex(orderStruct(order)));
}

/** The same hash through viem's generic EIP-712 encoder (the reference `hashOrder` is tested against). */
export function hashOrderGeneric(order: Order): LowercaseHex {
  return lowercaseHash(hashStruct({ types: ORDER_TYPES, primaryType: "Order", data: order }));
}

type TypeName = keyof typeof ORDER_TYPES;

/** EIP-712 encodeType: the type, then every struct it references (transitively), sorted by name. */
function encodeType(name: TypeName): string {
  const deps = new Set<TypeName>();
  const visit = (type: TypeName) => {
    for (const field of ORDER_TYPES[type]) {
      const base = field.type.replace(/\[\]$/, "");
      if (base in ORDER_TYPES && base !== name && !deps.has(base as TypeName)) {
        deps.add(base as TypeName);
        visit(base as TypeName);
      }
    }
  };
  visit(name);
  const one = (type: TypeName) => `${type}(${ORDER_TYPES[type].map((f) => `${f.type} ${f.name}`).join(",")})`;
  return [one(name), ...[...deps].sort().map(one)].join("");
}

/** Each struct's type hash, once. */
const TYPEHASH = Object.fromEntries((Object.keys(ORDER_TYPES) as TypeName[]).map((name) => [name, keccak256(toBytes(encodeType(name)), "bytes")])) as Record<TypeName, Uint8Array>;

/**
 * The hashes of short field values, kept: chain names, currencies, the version and empty extraData
 * repeat in every order, and a keccak in JavaScript costs tens of microseconds. Bounded: cleared when full.
 */
const fieldHashes = new Map<string, Uint8Array>();
const FIELD_HASHES_MAX = 4096;
function remembered(key: string, hash: () => Uint8Array): Uint8Array {
  if (key.length > 66) return hash();
  let found = fieldHashes.get(key);
  if (!found) {
    if (fieldHashes.size >= FIELD_HASHES_MAX) fieldHashes.clear();
    found = hash();
    fieldHashes.set(key, found);
  }
  return found;
}
const hashBytes = (hex: Hex): Uint8Array => remembered(`b${hex.toLowerCase()}`, () => keccak256(hexToBytes(hex), "bytes"));
const hashString = (text: string): Uint8Array => remembered(`s${text}`, () => keccak256(toBytes(text), "bytes"));
const uintWord = (value: bigint | number): Uint8Array => numberToBytes(value, { size: 32 });
const addressWord = (address: Hex): Uint8Array => hexToBytes(pad(address, { size: 32 }));

/** keccak256(typeHash ‖ the fields' 32-byte words). */
function struct(type: TypeName, words: readonly Uint8Array[]): Uint8Array {
  const buffer = new Uint8Array(32 * (words.length + 1));
  buffer.set(TYPEHASH[type], 0);
  words.forEach((word, i) => buffer.set(word, 32 * (i + 1)));
  return keccak256(buffer, "bytes");
}

/** keccak256 of the concatenated words (an array field). */
function array(words: readonly Uint8Array[]): Uint8Array {
  const buffer = new Uint8Array(32 * words.length);
  words.forEach((word, i) => buffer.set(word, 32 * i));
  return keccak256(buffer, "bytes");
}

function orderStruct(order: Order): Uint8Array {
  const inputs = order.inputs.map((input) =>
    struct("Input", [
      struct("InputPayment", [hashString(input.payment.chainId), hashBytes(input.payment.currency), uintWord(input.payment.amount), uintWord(input.payment.weight)]),
      array(
        input.refunds.map((refund) =>
          struct("InputRefund", [hashString(refund.chainId), hashBytes(refund.recipient), hashBytes(refund.currency), uintWord(refund.minimumAmount), uintWord(refund.deadline), hashBytes(refund.extraData)]),
        ),
      ),
    ]),
  );
  const { output } = order;
  const outputStruct = struct("Output", [
    hashString(output.chainId),
    array(output.payments.map((p) => struct("OutputPayment", [hashBytes(p.recipient), hashBytes(p.currency), uintWord(p.minimumAmount), uintWord(p.expectedAmount)]))),
    uintWord(output.deadline),
    array(output.calls.map(hashBytes)),
    hashBytes(output.extraData),
  ]);
  const fees = order.fees.map((fee) => struct("Fee", [hashString(fee.recipientChainId), hashBytes(fee.recipient), hashString(fee.currencyChainId), hashBytes(fee.currency), uintWord(fee.amount)]));
  return struct("Order", [hashString(order.version), hashString(order.solverChainId), addressWord(order.solver), uintWord(order.salt), array(inputs), outputStruct, array(fees)]);
}
