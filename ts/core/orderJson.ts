/**
 * The typed `Order` and its wire form, `quote.protocol.v2.orderData`: the JSON a quote carries and integrators hash
 * with `getOrderId`. `orderToJson` writes the typed `Order` (below) in exactly the form Ferry's
 * quotes have always carried (field order included); `orderFromJson` reads it back, and also the looser
 * notations other producers use.
 *
 * Wire form: amounts and weights are decimal strings, the salt is 32 bytes of hex, deadlines are JSON
 * numbers, addresses and bytes are 0x-hex as held in the order (lowercase when built or parsed here),
 * calls are encoded hex.
 */
import { encodeAbiParameters, toHex, type Address, type Hex } from "viem";
import { InvalidInputError, UnsupportedVmError } from "./errors.ts";
import { parseAddress, parseArray, parseHexBytes, parseObject, parseString, parseUint } from "./inputParsers.ts";

/**
 * The order, typed: what is hashed, what the quote builds and what `orderFromJson` parses the wire
 * form into. Chain ids are protocol chain names; amounts are bigints; addresses are their raw bytes
 * as lowercase hex (`bytes` fields, since a chain may not be EVM); `calls` are encoded calls.
 * `hashOrder` (./orderId.ts) hashes it, `orderToJson` writes it as `protocol.v2.orderData`.
 */
export type Order = {
  version: string;
  solverChainId: string;
  solver: Address;
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

/** `protocol.v2.orderData` as `orderToJson` writes it (and as the client receives it). */
export type OrderJson = {
  version: string;
  solverChainId: string;
  solver: string;
  salt: string;
  inputs: {
    payment: { chainId: string; currency: string; amount: string; weight: string };
    refunds: { chainId: string; recipient: string; currency: string; minimumAmount: string; deadline: number; extraData: string }[];
  }[];
  output: {
    chainId: string;
    payments: { recipient: string; currency: string; minimumAmount: string; expectedAmount: string }[];
    calls: string[];
    deadline: number;
    extraData: string;
  };
  fees: { recipientChainId: string; recipient: string; currencyChainId: string; currency: string; amount: string }[];
};

/**
 * The wire form of a typed order. Values are written as the order holds them (no re-casing): an
 * order built from canonical values gives the canonical JSON. `getOrderId(orderToJson(order))` is
 * `hashOrder(order)`, and `orderFromJson(orderToJson(order))` is `order` for a canonical order.
 */
export function orderToJson(order: Order): OrderJson {
  return {
    version: order.version,
    solverChainId: order.solverChainId,
    solver: order.solver,
    salt: toHex(order.salt, { size: 32 }),
    inputs: order.inputs.map(({ payment, refunds }) => ({
      payment: { chainId: payment.chainId, currency: payment.currency, amount: payment.amount.toString(), weight: payment.weight.toString() },
      refunds: refunds.map((refund) => ({
        chainId: refund.chainId,
        recipient: refund.recipient,
        currency: refund.currency,
        minimumAmount: refund.minimumAmount.toString(),
        deadline: refund.deadline,
        extraData: refund.extraData,
      })),
    })),
    output: {
      chainId: order.output.chainId,
      payments: order.output.payments.map((payment) => ({
        recipient: payment.recipient,
        currency: payment.currency,
        minimumAmount: payment.minimumAmount.toString(),
        expectedAmount: payment.expectedAmount.toString(),
      })),
      calls: [...order.output.calls],
      deadline: order.output.deadline,
      extraData: order.output.extraData,
    },
    fees: order.fees.map((fee) => ({
      recipientChainId: fee.recipientChainId,
      recipient: fee.recipient,
      currencyChainId: fee.currencyChainId,
      currency: fee.currency,
      amount: fee.amount.toString(),
    })),
  };
}

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

/**
 * Parses a quote's `protocol.v2.orderData` (loose JSON) into the typed order, canonical: addresses
 * lowercase (mixed case must be a valid EIP-55 checksum), amounts bigint, calls encoded. Accepts more
 * notations than `orderToJson` writes (decimal salts, safe-integer JSON numbers, calls as objects);
 * none of them changes the hash. Throws INVALID_INPUT, INVALID_ADDRESS or UNSUPPORTED_VM naming the field.
 */
export function orderFromJson(orderData: unknown, options: OrderIdOptions = {}): Order {
  const vmTypeOf = options.vmTypeOf ?? (() => "evm");
  const addressBytes = (value: unknown, chainName: string, path: string): Hex => {
    const vm = vmTypeOf(chainName);
    if (vm !== "evm") throw new UnsupportedVmError(chainName, vm);
    return lowercase(parseAddress(value, path));
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
    solver: lowercase(parseAddress(o.solver, "solver")),
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

/** The canonical (lowercase) bytes of an address. */
const lowercase = (address: Address): Address => `0x${address.slice(2).toLowerCase()}`;

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
