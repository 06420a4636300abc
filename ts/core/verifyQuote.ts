/**
 * Local verification of a quote before sending its deposit: the orderId must be the hash of the
 * quote's orderData, the payment details must be one of the order's input payments, and the deposit
 * transaction must pay exactly that into the depository under that orderId for the right depositor.
 * Pure: everything comes from the quote and the options.
 */
import { zeroAddress, type Address, type Hex } from "viem";
import { decodeDeposit } from "./depositCalldata.ts";
import { DepositMismatchError, FerryError, InvalidInputError, OrderIdMismatchError } from "./errors.ts";
import { parseAddress, parseArray, parseBytes32, parseHexBytes, parseObject, parseString, parseUint } from "./inputParsers.ts";
import { hashOrder } from "./orderId.ts";
import { orderFromJson, type OrderIdOptions } from "./orderJson.ts";

export type VerifyQuoteOptions = OrderIdOptions & {
  /** Who the deposit must credit. Default: `details.sender`, else the transaction's `from`. */
  depositor?: string;
  /** Maps a protocol chain name to its numeric chain id; when given, the deposit's chainId is checked. */
  chainIdOf?: (chainName: string) => number | bigint | undefined;
};

/** What the deposit step will do, once verified. */
export type VerifiedDeposit = {
  kind: "native" | "erc20";
  chainId: number | undefined;
  depository: Address;
  /** The depositor argument; the zero address (and the sender-credited forms) credits the transaction sender. */
  depositor: Address;
  currency: Address;
  amount: bigint;
  id: Hex;
  /** A reclaimable deposit's reclaim time (the quote's `reclaimAt`); absent for a plain deposit. */
  reclaimAt?: bigint;
};

export type VerifyQuoteResult =
  | { valid: true; orderId: Hex; deposit: VerifiedDeposit }
  | { valid: false; error: FerryError };

/** Verifies a quote; bad input and mismatches come back as `{ valid: false, error }`. */
export function verifyQuote(quote: unknown, options: VerifyQuoteOptions = {}): VerifyQuoteResult {
  try {
    return { valid: true, ...assertQuote(quote, options) };
  } catch (error) {
    if (error instanceof FerryError) return { valid: false, error };
    throw error;
  }
}

/**
 * Like verifyQuote, but throws: INVALID_INPUT / INVALID_ADDRESS / UNSUPPORTED_VM for a malformed
 * quote, ORDER_ID_MISMATCH, or DEPOSIT_MISMATCH with `field` naming what disagrees.
 */
export function assertQuote(quote: unknown, options: VerifyQuoteOptions = {}): { orderId: Hex; deposit: VerifiedDeposit } {
  const q = parseObject(quote, "quote");
  const { orderId, payment } = assertQuotePayment(q, options);

  const tx = depositTransaction(q);
  if (options.chainIdOf) {
    const expectedChainId = options.chainIdOf(payment.chainId);
    if (expectedChainId === undefined) throw new DepositMismatchError("chain", `unknown chain ${payment.chainId}`);
    if (tx.chainId === undefined || BigInt(tx.chainId) !== BigInt(expectedChainId)) {
      throw new DepositMismatchError("chain", `transaction chainId ${tx.chainId} is not ${payment.chainId} (${expectedChainId})`);
    }
  }
  if (tx.to !== payment.depository) throw new DepositMismatchError("depository", `transaction goes to ${tx.to}, not ${payment.depository}`);

  let call;
  try {
    call = decodeDeposit(tx.data);
  } catch (cause) {
    throw new DepositMismatchError("calldata", "not a Depository deposit call", { cause });
  }

  let deposit: VerifiedDeposit;
  const base = { chainId: tx.chainId, depository: payment.depository, depositor: call.depositor, id: call.id, ...(call.reclaimAt !== undefined && { reclaimAt: call.reclaimAt }) };
  if (call.kind === "native") {
    deposit = { ...base, kind: "native", currency: zeroAddress, amount: tx.value };
  } else if (call.amount !== null) {
    deposit = { ...base, kind: "erc20", currency: call.token, amount: call.amount };
    if (tx.value !== 0n) throw new DepositMismatchError("amount", "an ERC-20 deposit sends native value");
  } else {
    throw new DepositMismatchError("amount", "allowance deposit: the calldata does not bind the amount");
  }

  if (deposit.id !== orderId) throw new DepositMismatchError("id", `deposit id ${deposit.id} is not the orderId`);
  if (deposit.currency.toLowerCase() !== payment.currency.toLowerCase()) {
    throw new DepositMismatchError("currency", `deposits ${deposit.currency}, quote pays ${payment.currency}`);
  }
  if (deposit.amount !== payment.amount) throw new DepositMismatchError("amount", `deposits ${deposit.amount}, quote pays ${payment.amount}`);
  // A reclaimable quote's deposit commits to the quote's reclaim time; a plain quote's is a plain deposit.
  const quotedReclaimAt = q.reclaimAt === undefined ? undefined : parseUint(q.reclaimAt, "reclaimAt");
  if (quotedReclaimAt !== deposit.reclaimAt) {
    throw new DepositMismatchError("reclaimAt", `the deposit's reclaim time is ${deposit.reclaimAt ?? "none"}, the quote's ${quotedReclaimAt ?? "none"}`);
  }

  // Depositor 0 credits msg.sender, i.e. whoever sends the transaction: always the user's own.
  if (deposit.depositor !== zeroAddress) {
    const expected = expectedDepositor(q, tx.from, options.depositor);
    if (expected.toLowerCase() !== deposit.depositor.toLowerCase()) {
      throw new DepositMismatchError("depositor", `deposit credits ${deposit.depositor}, not ${expected}`);
    }
  }
  return { orderId, deposit };
}

type DepositTransaction = { from: Address | undefined; to: Address; data: Hex; value: bigint; chainId: number | undefined };

function depositTransaction(q: Record<string, unknown>): DepositTransaction {
  const steps = parseArray(q.steps, "steps");
  const index = steps.findIndex((step) => typeof step === "object" && step !== null && (step as { id?: unknown }).id === "deposit");
  if (index < 0) throw new DepositMismatchError("step", "the quote has no deposit step");
  const path = `steps[${index}]`;
  const step = parseObject(steps[index], path);
  if (step.kind !== "transaction") throw new DepositMismatchError("step", "the deposit step is not a transaction");
  const items = parseArray(step.items, `${path}.items`);
  if (items.length !== 1) throw new DepositMismatchError("step", `the deposit step has ${items.length} items, expected 1`);
  const data = parseObject(parseObject(items[0], `${path}.items[0]`).data, `${path}.items[0].data`);
  const dataPath = `${path}.items[0].data`;
  return {
    from: data.from === undefined ? undefined : parseAddress(data.from, `${dataPath}.from`),
    to: parseAddress(data.to, `${dataPath}.to`),
    data: parseHexBytes(data.data, `${dataPath}.data`),
    value: data.value === undefined ? 0n : parseUint(data.value, `${dataPath}.value`),
    chainId: data.chainId === undefined ? undefined : Number(parseUint(data.chainId, `${dataPath}.chainId`, 53)),
  };
}

function expectedDepositor(q: Record<string, unknown>, from: Address | undefined, override: string | undefined): string {
  if (override !== undefined) return parseAddress(override, "options.depositor");
  const details = q.details;
  if (typeof details === "object" && details !== null && "sender" in details && details.sender !== undefined) {
    return parseAddress(details.sender, "details.sender");
  }
  if (from !== undefined) return from;
  throw new InvalidInputError("no depositor to compare: pass options.depositor", { path: "details.sender" });
}

/** The payment a quote asks for (`protocol.v2.paymentDetails`; `chainId` is the protocol chain name). */
export type QuotePayment = { chainId: string; depository: Address; currency: Address; amount: bigint };

/**
 * The part of assertQuote that needs no deposit step (a signature-authorised deposit has none): the
 * orderData hashes to `protocol.v2.orderId`, and `paymentDetails` is one of the order's input payments.
 * Throws ORDER_ID_MISMATCH, DEPOSIT_MISMATCH (`payment`) or INVALID_INPUT for a malformed quote.
 */
export function assertQuotePayment(quote: unknown, options: OrderIdOptions = {}): { orderId: Hex; payment: QuotePayment } {
  const q = parseObject(quote, "quote");
  const v2 = parseObject(parseObject(q.protocol, "protocol").v2, "protocol.v2");
  const orderId = parseBytes32(v2.orderId, "protocol.v2.orderId");
  const order = orderFromJson(v2.orderData, options);
  const details = parseObject(v2.paymentDetails, "protocol.v2.paymentDetails");
  const payment = {
    chainId: parseString(details.chainId, "protocol.v2.paymentDetails.chainId"),
    depository: parseAddress(details.depository, "protocol.v2.paymentDetails.depository"),
    currency: parseAddress(details.currency, "protocol.v2.paymentDetails.currency"),
    amount: parseUint(details.amount, "protocol.v2.paymentDetails.amount"),
  };

  const expectedOrderId = hashOrder(order);
  if (expectedOrderId !== orderId) throw new OrderIdMismatchError(expectedOrderId, orderId);

  const paysAnInput = order.inputs.some(
    ({ payment: input }) =>
      input.chainId === payment.chainId &&
      input.currency === payment.currency.toLowerCase() &&
      input.amount === payment.amount,
  );
  if (!paysAnInput) throw new DepositMismatchError("payment", "paymentDetails matches no input payment of the order");
  return { orderId, payment };
}
