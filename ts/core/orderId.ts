/**
 * The protocol order id of a quote (`quote.protocol.v2.orderId`): EIP-712 hashStruct(Order) with no
 * domain and no "\x19\x01" prefix, over the types in docs/architecture.md "Protocol order id". The deposit's
 * bytes32 id onchain is this value.
 */
import { encodeAbiParameters, hashStruct, keccak256, toHex, type Hex } from "viem";
import { InvalidInputError, UnsupportedVmError } from "./errors.ts";
import {
  parseAddress,
  parseArray,
  parseHexBytes,
  parseObject,
  parseString,
  parseUint,
} from "./inputParsers.ts";

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

/** The order as hashed: chain ids are protocol chain names, addresses are their raw bytes. */
export type Order = {
  version: string;
  solverChainId: string;
  solver: Hex;
  salt: bigint;
  inputs: {
    payment: { chainId: string; currency: Hex; amount: bigint; weight: bigint };
    refunds: { chainId: string; recipient: Hex; currency: Hex; minimumAmount: bigint; deadline: number; extraData: Hex }[];
  }[];
  output: {
    chainId: string;
    payments: { recipient: Hex; currency: Hex; minimumAmount: bigint; expectedAmount: bigint }[];
    deadline: number;
    calls: Hex[];
    extraData: Hex;
  };
  fees: { recipientChainId: string; recipient: Hex; currencyChainId: string; currency: Hex; amount: bigint }[];
};

/** A virtual machine family; only `evm` addresses and calls can be encoded by the core today. */
export type VmType = string;

export type OrderIdOptions = {
  /** Maps a protocol chain name to its VM (the chain's `vmType` in /chains). Default: every chain is `evm`. */
  vmTypeOf?: (chainName: string) => VmType;
};

/** An EVM call in `output.calls`, before encoding. */
export type EvmCall = { to: string; data: string; value: bigint | number | string };

const EVM_CALL_PARAMS = [
  { type: "tuple", components: [{ name: "to", type: "address" }] },
  { type: "tuple", components: [{ name: "data", type: "bytes" }] },
  { type: "tuple", components: [{ name: "value", type: "uint256" }] },
] as const;

/**
 * Encodes one EVM call as the reference settlement SDK does: abi.encode((address to), (bytes data),
 * (uint256 value)) — three one-field tuples, so an offset word precedes `data`.
 */
export function encodeEvmCall(call: unknown, path = "call"): Hex {
  const o = parseObject(call, path);
  return encodeAbiParameters(EVM_CALL_PARAMS, [
    { to: parseAddress(o.to, `${path}.to`) },
    { data: parseHexBytes(o.data, `${path}.data`) },
    { value: parseUint(o.value, `${path}.value`) },
  ]);
}

/** Parses a quote's `protocol.v2.orderData` JSON into the struct that is hashed. */
export function normalizeOrderData(orderData: unknown, options: OrderIdOptions = {}): Order {
  const vmTypeOf = options.vmTypeOf ?? (() => "evm");
  const addressBytes = (value: unknown, chainName: string, path: string): Hex => {
    const vm = vmTypeOf(chainName);
    if (vm !== "evm") throw new UnsupportedVmError(chainName, vm);
    return parseAddress(value, path).toLowerCase() as Hex;
  };

  const o = parseObject(orderData, "orderData");
  const inputs = parseArray(o.inputs, "inputs").map((rawInput, i) => {
    const input = parseObject(rawInput, `inputs[${i}]`);
    const payment = parseObject(input.payment, `inputs[${i}].payment`);
    const paymentPath = `inputs[${i}].payment`;
    const paymentChain = parseString(payment.chainId, `${paymentPath}.chainId`);
    return {
      payment: {
        chainId: paymentChain,
        currency: addressBytes(payment.currency, paymentChain, `${paymentPath}.currency`),
        amount: parseUint(payment.amount, `${paymentPath}.amount`),
        weight: parseUint(payment.weight, `${paymentPath}.weight`),
      },
      refunds: parseArray(input.refunds, `inputs[${i}].refunds`).map((rawRefund, j) => {
        const path = `inputs[${i}].refunds[${j}]`;
        const refund = parseObject(rawRefund, path);
        const chainId = parseString(refund.chainId, `${path}.chainId`);
        return {
          chainId,
          recipient: addressBytes(refund.recipient, chainId, `${path}.recipient`),
          currency: addressBytes(refund.currency, chainId, `${path}.currency`),
          minimumAmount: parseUint(refund.minimumAmount, `${path}.minimumAmount`),
          deadline: Number(parseUint(refund.deadline, `${path}.deadline`, 32)),
          extraData: parseHexBytes(refund.extraData, `${path}.extraData`),
        };
      }),
    };
  });

  const output = parseObject(o.output, "output");
  const outputChain = parseString(output.chainId, "output.chainId");
  const calls = parseArray(output.calls, "output.calls").map((call, k) => {
    const path = `output.calls[${k}]`;
    if (typeof call === "string") return parseHexBytes(call, path);
    const vm = vmTypeOf(outputChain);
    if (vm !== "evm") throw new UnsupportedVmError(outputChain, vm);
    return encodeEvmCall(call, path);
  });

  return {
    version: parseString(o.version, "version"),
    solverChainId: parseString(o.solverChainId, "solverChainId"),
    solver: parseAddress(o.solver, "solver"),
    salt: parseSalt(o.salt),
    inputs,
    output: {
      chainId: outputChain,
      payments: parseArray(output.payments, "output.payments").map((rawPayment, k) => {
        const path = `output.payments[${k}]`;
        const payment = parseObject(rawPayment, path);
        return {
          recipient: addressBytes(payment.recipient, outputChain, `${path}.recipient`),
          currency: addressBytes(payment.currency, outputChain, `${path}.currency`),
          minimumAmount: parseUint(payment.minimumAmount, `${path}.minimumAmount`),
          expectedAmount: parseUint(payment.expectedAmount, `${path}.expectedAmount`),
        };
      }),
      deadline: Number(parseUint(output.deadline, "output.deadline", 32)),
      calls,
      extraData: parseHexBytes(output.extraData, "output.extraData"),
    },
    fees: parseArray(o.fees, "fees").map((rawFee, k) => {
      const path = `fees[${k}]`;
      const fee = parseObject(rawFee, path);
      const recipientChainId = parseString(fee.recipientChainId, `${path}.recipientChainId`);
      const currencyChainId = parseString(fee.currencyChainId, `${path}.currencyChainId`);
      return {
        recipientChainId,
        recipient: addressBytes(fee.recipient, recipientChainId, `${path}.recipient`),
        currencyChainId,
        currency: addressBytes(fee.currency, currencyChainId, `${path}.currency`),
        amount: parseUint(fee.amount, `${path}.amount`),
      };
    }),
  };
}

/** The orderId of a quote's `protocol.v2.orderData`. Throws INVALID_INPUT, INVALID_ADDRESS or UNSUPPORTED_VM. */
export function getOrderId(orderData: unknown, options: OrderIdOptions = {}): Hex {
  return hashOrder(normalizeOrderData(orderData, options));
}

/** hashStruct(Order) of an already normalized order. */
export function hashOrder(order: Order): Hex {
  return hashStruct({ types: ORDER_TYPES, primaryType: "Order", data: order });
}

/**
 * The salt is a uint256 that quotes carry as bytes32 hex: hex must be exactly 32 bytes (a shorter one
 * is a truncated copy, not a number to pad); decimal is accepted too.
 */
function parseSalt(value: unknown): bigint {
  if (typeof value === "string" && /^0x[0-9a-fA-F]{64}$/.test(value)) return BigInt(value);
  if (typeof value === "string" && value.startsWith("0x")) {
    throw new InvalidInputError(`expected 32 bytes of hex (0x + 64 hex digits), got ${value.length - 2} digits`, { path: "salt" });
  }
  return parseUint(value, "salt");
}
