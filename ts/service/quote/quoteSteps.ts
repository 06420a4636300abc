/**
 * The `steps` of a quote: an `approve` step when the user's ERC-20 allowance to the Depository is short,
 * then the `deposit` step. Pure: the caller reads the allowance.
 *
 * - deposit: ts/core's `encodeDeposit` — `depositNative_irOEa(orderId)` with the amount as `value`, or
 *   `depositErc20_6R0X4(token, amount, orderId)`: both credit the sender, so the deposit is always the
 *   user's own; the item's `check` polls `/intents/status/v3?requestId=…`. A reclaimable quote's deposit
 *   is ts/core's `encodeReclaimableDeposit` (`depositNativeReclaimable_fpifa(orderId, reclaimAt)` /
 *   `depositErc20Reclaimable(token, amount, orderId, reclaimAt)`), also credited to the sender.
 * - approve: `approve(depository, originAmount)` on the token (exactly the amount, no unlimited
 *   approval). Its item has **no `check`**: it completes with its receipt (the request's status only
 *   moves once the deposit is indexed, so a client polling it after the approval would wait forever).
 */
import { encodeFunctionData, erc20Abi, zeroAddress, type Address, type Hex } from "viem";
import { encodeDeposit } from "../../core/depositCalldata.ts";
import { encodeReclaimableDeposit } from "../../core/reclaimableDeposit.ts";
import type { Route } from "./quoteRoute.ts";

/** A transaction step's item data; `gas`: the deposit's gas limit estimate (decimal string), on the deposit item only. */
export type TransactionData = { from: string; to: string; data: Hex; value: string; chainId: number; gas?: string };

/** A signature step's item data (./permitSteps.ts): the EIP-712 message to sign and where to post the signature. */
export type SignatureData = {
  sign: { signatureKind: "eip712"; domain: Record<string, unknown>; types: Record<string, { name: string; type: string }[]>; primaryType: string; value: Record<string, unknown>; message: Record<string, unknown> };
  post: { endpoint: string; method: "POST"; body: { kind: string; requestId: Hex; api: "bridge" } };
};

export type StepItem = {
  status: "incomplete";
  data: TransactionData | SignatureData;
  check?: { endpoint: string; method: "GET" };
};

export type Step = {
  id: "approve" | "deposit" | "authorize";
  action: string;
  description: string;
  kind: "transaction" | "signature";
  requestId: Hex;
  depositAddress: string;
  items: StepItem[];
};

export const statusCheckEndpoint = (requestId: Hex) => `/intents/status/v3?requestId=${requestId}`;

/** `user` canonical (lowercase), as the route's addresses. */
export type StepInputs = {
  route: Route;
  requestId: Hex;
  orderId: Hex;
  user: Address;
  originAmount: bigint;
  /** The user's current allowance to the Depository (ERC-20 routes only). */
  allowance: bigint | undefined;
  /** The deposit's gas estimate (the `gas` fee's units): the deposit item's `data.gas`. */
  depositGas: bigint;
  /** e.g. "0.5 ETH on Ferry Destination" for the descriptions. */
  receiveText: string;
  payText: string;
  /** A reclaimable quote: the deposit's reclaim time (unix seconds). */
  reclaimAt?: number;
};

export function quoteSteps(inputs: StepInputs): Step[] {
  const { origin } = inputs.route;
  const { depository } = origin;
  const from = inputs.user;
  const chainId = origin.chain.id;
  const common = { kind: "transaction" as const, requestId: inputs.requestId, depositAddress: "" };
  const steps: Step[] = [];
  const isNative = origin.currency.isNative;

  if (!isNative && (inputs.allowance ?? 0n) < inputs.originAmount) {
    steps.push({
      id: "approve",
      action: "Confirm transaction in your wallet",
      description: `Approve the Ferry Depository to take ${inputs.payText}`,
      ...common,
      items: [
        {
          status: "incomplete",
          data: {
            from,
            to: origin.currency.address,
            data: encodeFunctionData({ abi: erc20Abi, functionName: "approve", args: [depository, inputs.originAmount] }),
            value: "0",
            chainId,
          },
        },
      ],
    });
  }

  const terms = { currency: isNative ? zeroAddress : origin.currency.address, amount: inputs.originAmount, id: inputs.orderId };
  const { data } = inputs.reclaimAt === undefined ? encodeDeposit(terms) : encodeReclaimableDeposit({ ...terms, reclaimAt: BigInt(inputs.reclaimAt) });
  steps.push({
    id: "deposit",
    action: "Confirm transaction in your wallet",
    description: `Deposit ${inputs.payText} to receive ${inputs.receiveText}`,
    ...common,
    items: [
      {
        status: "incomplete",
        data: { from, to: depository, data, value: isNative ? inputs.originAmount.toString() : "0", chainId, gas: inputs.depositGas.toString() },
        check: { endpoint: statusCheckEndpoint(inputs.requestId), method: "GET" },
      },
    ],
  });
  return steps;
}
