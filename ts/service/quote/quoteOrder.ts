/**
 * `protocol.v2` of a quote: the orderData (DESIGN.md "Protocol order id"), its orderId (ts/core
 * `getOrderId`, the Depository deposit's `id`) and the paymentDetails. Pure.
 *
 * - version "v1"; chain ids are the chains' protocol names; `solver` the solver key's address;
 *   `solverChainId` the origin chain (where the solver is repaid from the Depository); `salt` random.
 * - one input: the deposit (`weight` 1) with one refund to `refundTo` on the origin chain of the whole
 *   deposit, due by the fill deadline;
 * - output: one payment of the destination amount (minimum = expected: fixed rate) to the recipient,
 *   no calls, `deadline` = fill deadline, `extraData` = abi.encode(destination AttestedReceiver);
 * - fees: one entry per app fee (origin currency, on the origin chain).
 */
import { encodeAbiParameters, type Address, type Hex } from "viem";
import { getOrderId } from "../../core/orderId.ts";
import type { Route } from "./quoteRoute.ts";

export const ORDER_VERSION = "v1";

export type OrderData = {
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

export type PaymentDetails = { chainId: string; depository: string; currency: string; amount: string };

export type OrderInputs = {
  route: Route;
  solver: Address;
  salt: Hex;
  recipient: Address;
  refundTo: Address;
  originAmount: bigint;
  destinationAmount: bigint;
  fillDeadline: number;
  appFees: readonly { recipient: Address; amount: bigint }[];
};

export function buildOrder(inputs: OrderInputs): { orderData: OrderData; orderId: Hex; paymentDetails: PaymentDetails } {
  const { origin, destination } = inputs.route;
  const originName = origin.chain.name;
  const lower = (a: string) => a.toLowerCase();
  const orderData: OrderData = {
    version: ORDER_VERSION,
    solverChainId: originName,
    solver: lower(inputs.solver),
    salt: inputs.salt,
    inputs: [
      {
        payment: { chainId: originName, currency: origin.currency.address, amount: inputs.originAmount.toString(), weight: "1" },
        refunds: [
          {
            chainId: originName,
            recipient: lower(inputs.refundTo),
            currency: origin.currency.address,
            minimumAmount: inputs.originAmount.toString(),
            deadline: inputs.fillDeadline,
            extraData: "0x",
          },
        ],
      },
    ],
    output: {
      chainId: destination.chain.name,
      payments: [
        {
          recipient: lower(inputs.recipient),
          currency: destination.currency.address,
          minimumAmount: inputs.destinationAmount.toString(),
          expectedAmount: inputs.destinationAmount.toString(),
        },
      ],
      calls: [],
      deadline: inputs.fillDeadline,
      extraData: encodeAbiParameters([{ type: "address" }], [destination.chain.contracts.attestedReceiver]),
    },
    fees: inputs.appFees.map((fee) => ({
      recipientChainId: originName,
      recipient: lower(fee.recipient),
      currencyChainId: originName,
      currency: origin.currency.address,
      amount: fee.amount.toString(),
    })),
  };
  return {
    orderData,
    orderId: getOrderId(orderData),
    paymentDetails: {
      chainId: originName,
      depository: lower(origin.chain.contracts.depository),
      currency: origin.currency.address,
      amount: inputs.originAmount.toString(),
    },
  };
}
