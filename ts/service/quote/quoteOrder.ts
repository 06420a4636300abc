/**
 * `protocol.v2` of a quote, typed: the order (ts/core `Order`, docs/architecture.md "Protocol order id") and the
 * paymentDetails. Pure. The quote hashes the order once (ts/core `hashOrder`: the Depository deposit's
 * `id`) and writes its wire form once (ts/core `orderToJson`).
 *
 * - version "v1"; chain ids are the chains' protocol names; `solver` the solver key's address;
 *   `solverChainId` the origin chain (where the solver is repaid from the Depository); `salt` random.
 * - one input: the deposit (`weight` 1) with one refund to `refundTo` on the origin chain of the whole
 *   deposit, due by the fill deadline;
 * - output: one payment to the recipient (`expectedAmount` = the quoted output, `minimumAmount` =
 *   the quote's minimum: equal for a currency to itself, less the slippage tolerance for a swap), the
 *   destination calls encoded as abi.encode((address to), (bytes data), (uint256 value)) (ts/core
 *   `encodeOrderCall`; with calls the recipient is the refund recipient the Multicaller sweeps to),
 *   `deadline` = fill deadline, `extraData` = abi.encode(destination AttestedReceiver);
 * - fees: one entry per app fee (origin currency, on the origin chain).
 */
import { encodeAbiParameters, type Address } from "viem";
import { encodeOrderCall } from "../../core/destinationCalls.ts";
import type { Order } from "../../core/orderJson.ts";
import type { IntentCall } from "../model/quotedIntent.ts";
import type { Route } from "./quoteRoute.ts";

export const ORDER_VERSION = "v1";

export type PaymentDetails = { chainId: string; depository: string; currency: string; amount: string };

/** Every address canonical (lowercase): the order's JSON is then the canonical wire form. */
export type OrderInputs = {
  route: Route;
  solver: Address;
  salt: bigint;
  recipient: Address;
  refundTo: Address;
  originAmount: bigint;
  destinationAmount: bigint;
  minimumAmount: bigint;
  calls: readonly IntentCall[];
  fillDeadline: number;
  appFees: readonly { recipient: Address; amount: bigint }[];
};

export function buildOrder(inputs: OrderInputs): Order {
  const { origin, destination } = inputs.route;
  const originName = origin.chain.name;
  const currency = origin.currency.address;
  return {
    version: ORDER_VERSION,
    solverChainId: originName,
    solver: inputs.solver,
    salt: inputs.salt,
    inputs: [
      {
        payment: { chainId: originName, currency, amount: inputs.originAmount, weight: 1n },
        refunds: [
          { chainId: originName, recipient: inputs.refundTo, currency, minimumAmount: inputs.originAmount, deadline: inputs.fillDeadline, extraData: "0x" },
        ],
      },
    ],
    output: {
      chainId: destination.chain.name,
      payments: [
        {
          recipient: inputs.recipient,
          currency: destination.currency.address,
          minimumAmount: inputs.minimumAmount,
          expectedAmount: inputs.destinationAmount,
        },
      ],
      deadline: inputs.fillDeadline,
      calls: inputs.calls.map((call) => encodeOrderCall(call)),
      extraData: encodeAbiParameters([{ type: "address" }], [destination.attestedReceiver]),
    },
    fees: inputs.appFees.map((fee) => ({ recipientChainId: originName, recipient: fee.recipient, currencyChainId: originName, currency, amount: fee.amount })),
  };
}

/** Where and what the user deposits: the order's input, with the Depository to pay it into. */
export function paymentDetails(route: Route, originAmount: bigint): PaymentDetails {
  const { origin } = route;
  return { chainId: origin.chain.name, depository: origin.depository, currency: origin.currency.address, amount: originAmount.toString() };
}
