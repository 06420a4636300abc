/**
 * Pure helpers of executeQuote: what a quote asks the wallet to do, checked before anything is
 * sent, and how a status is read. No I/O.
 */
import { getAddress, type Address, type Hex } from "viem";
import { assertQuote, type VerifiedDeposit } from "../core/verifyQuote.ts";
import { FerryError } from "../core/errors.ts";
import type { ChainRecord, Quote, StatusRecord, Step, StepItem, TransactionData } from "./apiTypes.ts";
import { ExecuteQuoteError, ExecuteQuoteErrorCode } from "./clientErrors.ts";
import { statusRequestIdOf } from "./requestPaths.ts";

/** One transaction to send, in quote order. */
export type PlannedTransaction = {
  stepIndex: number;
  itemIndex: number;
  step: Step;
  item: StepItem;
  request: {
    from: Address;
    to: Address;
    data: Hex;
    value: bigint;
    chainId: number;
    gas?: bigint;
    maxFeePerGas?: bigint;
    maxPriorityFeePerGas?: bigint;
  };
  /**
   * The requestId whose status to follow after this transaction, or undefined. Only the items of the
   * last step are followed to a terminal status: earlier steps (an `approve`) complete with their
   * receipt, since the request itself stays `waiting` until the deposit.
   */
  followRequestId: string | undefined;
};

const bigintOf = (value: unknown, field: string): bigint => {
  if (typeof value === "bigint") return value;
  if ((typeof value === "string" && /^\d+$/.test(value)) || (typeof value === "number" && Number.isSafeInteger(value) && value >= 0)) {
    return BigInt(value);
  }
  throw new ExecuteQuoteError(ExecuteQuoteErrorCode.UNSUPPORTED_STEP, `${field} is not an unsigned integer`);
};

/**
 * The transactions of `quote.steps`, in order, skipping items already `complete`. A `signature` step
 * or a malformed item is refused before anything is sent.
 */
export function planQuoteExecution(quote: Quote): PlannedTransaction[] {
  if (!Array.isArray(quote.steps) || quote.steps.length === 0) {
    throw new ExecuteQuoteError(ExecuteQuoteErrorCode.UNSUPPORTED_STEP, "the quote has no steps");
  }
  const plan: PlannedTransaction[] = [];
  const last = quote.steps.length - 1;
  quote.steps.forEach((step, stepIndex) => {
    if (step.kind !== "transaction") {
      throw new ExecuteQuoteError(ExecuteQuoteErrorCode.UNSUPPORTED_STEP, `step ${step.id} is a ${step.kind} step; only transaction steps are supported`);
    }
    step.items.forEach((item, itemIndex) => {
      if (item.status === "complete") return;
      const path = `steps[${stepIndex}].items[${itemIndex}].data`;
      const data = item.data as TransactionData;
      let from: Address;
      let to: Address;
      try {
        from = getAddress(data.from);
        to = getAddress(data.to);
      } catch (cause) {
        throw new ExecuteQuoteError(ExecuteQuoteErrorCode.UNSUPPORTED_STEP, `${path}: from/to is not an address`, { cause });
      }
      if (typeof data.data !== "string" || !/^0x([0-9a-fA-F]{2})*$/.test(data.data)) {
        throw new ExecuteQuoteError(ExecuteQuoteErrorCode.UNSUPPORTED_STEP, `${path}.data is not hex`);
      }
      if (!Number.isSafeInteger(data.chainId) || data.chainId <= 0) {
        throw new ExecuteQuoteError(ExecuteQuoteErrorCode.UNSUPPORTED_STEP, `${path}.chainId is not a chain id`);
      }
      const request: PlannedTransaction["request"] = {
        from,
        to,
        data: data.data as Hex,
        value: data.value === undefined ? 0n : bigintOf(data.value, `${path}.value`),
        chainId: data.chainId,
      };
      if (data.gas !== undefined) request.gas = bigintOf(data.gas, `${path}.gas`);
      if (data.maxFeePerGas !== undefined) request.maxFeePerGas = bigintOf(data.maxFeePerGas, `${path}.maxFeePerGas`);
      if (data.maxPriorityFeePerGas !== undefined) {
        request.maxPriorityFeePerGas = bigintOf(data.maxPriorityFeePerGas, `${path}.maxPriorityFeePerGas`);
      }
      let followRequestId: string | undefined;
      if (stepIndex === last) {
        try {
          followRequestId = item.check ? statusRequestIdOf(item.check.endpoint) : step.requestId;
        } catch (cause) {
          throw new ExecuteQuoteError(ExecuteQuoteErrorCode.UNSUPPORTED_STEP, `${path}: ${(cause as Error).message}`, { cause });
        }
      }
      plan.push({ stepIndex, itemIndex, step, item, request, followRequestId });
    });
  });
  return plan;
}

/** Refuses a transaction the wallet would send from another account or on another chain. */
export function assertSendable(tx: PlannedTransaction, wallet: { address: string; chainId: number }): void {
  if (tx.request.from.toLowerCase() !== wallet.address.toLowerCase()) {
    throw new ExecuteQuoteError(
      ExecuteQuoteErrorCode.WALLET_MISMATCH,
      `step ${tx.step.id} must be sent from ${tx.request.from}, the wallet's account is ${wallet.address}`,
    );
  }
  if (tx.request.chainId !== wallet.chainId) {
    throw new ExecuteQuoteError(
      ExecuteQuoteErrorCode.CHAIN_MISMATCH,
      `step ${tx.step.id} is for chain ${tx.request.chainId}, the wallet is on chain ${wallet.chainId}`,
    );
  }
}

/**
 * ts/core's verifyQuote with the chain names of GET /chains: the orderData hashes to the orderId, the
 * payment is one of the order's inputs, and the deposit step pays exactly that into the depository
 * under that orderId, on the payment's chain. Throws QUOTE_INVALID (cause: the core error).
 */
export function verifyDepositStep(quote: Quote, chains: readonly ChainRecord[], depositor?: string): { orderId: Hex; deposit: VerifiedDeposit } {
  const ids = new Map(chains.map((chain) => [chain.protocol?.v2?.chainId ?? chain.name, chain.id]));
  try {
    return assertQuote(quote, { chainIdOf: (name) => ids.get(name), ...(depositor !== undefined && { depositor }) });
  } catch (error) {
    if (error instanceof FerryError) {
      throw new ExecuteQuoteError(ExecuteQuoteErrorCode.QUOTE_INVALID, `the quote does not verify: ${error.code}: ${error.message}`, {
        cause: error,
      });
    }
    throw error;
  }
}

export type StatusOutcome = "success" | "failed" | "open";

/** `success`; `failure`, `refund` and `fallback` end the request unsuccessfully; anything else is still open. */
export function statusOutcome(status: Pick<StatusRecord, "status">): StatusOutcome {
  if (status.status === "success") return "success";
  if (status.status === "failure" || status.status === "refund" || status.status === "fallback") return "failed";
  return "open";
}
