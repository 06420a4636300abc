/**
 * Deposit-address quotes (`useDepositAddress: true`), pure: the strict deposit address of a quote
 * (`strict: true`) or the open address of its user and route (`strict` absent or false), the step a
 * wallet follows with a plain transfer, and the gas figures the quote charges.
 *
 * - **The address** is the CREATE2 address of a DepositForwarder clone of the origin chain's
 *   DepositAddressFactory (ts/core depositAddress.ts), bound to this quote's orderId, origin currency
 *   and origin amount, refunding `refundTo`. Nothing is deployed at quote time: the solver deploys it
 *   and forwards the payment into the Depository in one `deployAndForward` once the payment is final.
 * - **The step** is the quote's one `deposit` step with `depositAddress` set: native, a plain value
 *   transfer to the address (`data: "0x"`); an ERC-20, the token's `transfer(address, amount)`. No
 *   approve step: nothing is pulled from the payer. Any sender may pay (an exchange, a custodial
 *   wallet); `from` is the quote's `user`, as for every step.
 * - **Open** (`openDepositAddressOf`): one reusable address per refund recipient and route (destination
 *   chain, currency and recipient; ts/core `openDepositAddress`), the same for every quote of that user
 *   and route. The quote is a real quote of the amount asked, but only an estimate: each payment into
 *   the address is re-quoted when it is final, for the amount actually paid
 *   (../solver/depositAddress/forwardOpenDepositAddresses.ts).
 * - **Fees**: the payer's own gas (`fees.gas`) is a plain transfer's; the service's `deployAndForward`
 *   (the gas budget `npm run bench:gas` holds it to) at the quote's origin gas price is added to
 *   `relayerGas`, so the forwarded amount already pays for its forwarding.
 */
import { encodeFunctionData, erc20Abi, padHex, type Hex } from "viem";
import { openDepositAddress, predictDepositAddress, strictDepositAddress, type DepositAddressParams } from "../../core/depositAddress.ts";
import { QuoteError } from "../errors/quoteErrors.ts";
import { canonicalAddress, type Address } from "../model/values.ts";
import type { Route } from "./quoteRoute.ts";
import { statusCheckEndpoint, type Step } from "./quoteSteps.ts";

/**
 * Gas of `deployAndForward` on an undeployed strict address: the budgets of `npm run bench:gas`
 * (measured 130,273 native, 143,516 ERC-20; docs/performance.md), so the charge covers the real cost.
 */
export const DEPOSIT_ADDRESS_FORWARD_GAS = { native: 131_000n, erc20: 144_500n } as const;

/** A plain value transfer's calldata. */
const EMPTY_CALLDATA: Hex = "0x";

/** The payer's plain transfer: a value transfer to an account without code, or an ERC-20 `transfer` to a fresh holder. */
export const DEPOSIT_ADDRESS_TRANSFER_GAS = { native: 21_000n, erc20: 65_000n } as const;

/** What a deposit-address quote asks for (routes/quote.ts decodes `useDepositAddress` and `strict`). */
export type DepositAddressRequest = { mode: "strict" | "open" };

/**
 * The origin chain's DepositAddressFactory; UNSUPPORTED_ROUTE when the chain has none. A same-chain
 * route is served like any other: the payment is forwarded into the chain's Depository and the fill
 * pays out on the same chain.
 */
export function depositAddressFactoryOf(route: Route): Address {
  const factory = route.origin.chain.contracts.depositAddressFactory;
  if (!factory) throw new QuoteError("UNSUPPORTED_ROUTE", `chain ${route.origin.chain.id} has no DepositAddressFactory: deposit addresses are not supported there`);
  return factory;
}

/** The strict deposit address of one order (lowercase, like every address in the service). */
export function strictDepositAddressOf(args: { factory: Address; depository: Address; refundTo: Address; orderId: Hex; currency: Address; amount: bigint }): Address {
  const params = strictDepositAddress({ refundTo: args.refundTo, orderId: args.orderId, currency: args.currency, amount: args.amount });
  return predictedAddress(args, params);
}

/**
 * The open deposit address of `refundTo` for one route (lowercase): the same for every quote of that
 * refund recipient, destination chain, destination currency and recipient (addresses as bytes32,
 * left-padded, as the factory's `predictOpen` takes them).
 */
export function openDepositAddressOf(args: { factory: Address; depository: Address; refundTo: Address; destinationChainId: number; destinationCurrency: Address; recipient: Address }): Address {
  const params = openDepositAddress({
    refundTo: args.refundTo,
    destinationChainId: args.destinationChainId,
    destinationCurrency: padHex(args.destinationCurrency, { size: 32 }),
    recipient: padHex(args.recipient, { size: 32 }),
  });
  return predictedAddress(args, params);
}

/** The factory's CREATE2 address for `params`, canonical (ts/core predicts it checksummed). */
function predictedAddress(args: { factory: Address; depository: Address }, params: DepositAddressParams): Address {
  return canonicalAddress(predictDepositAddress({ factory: args.factory, depository: args.depository, params }));
}

/** The quote's one step: a plain transfer of the origin amount to the deposit address. */
export function depositAddressStep(args: {
  route: Route;
  requestId: Hex;
  address: Address;
  user: Address;
  originAmount: bigint;
  transferGas: bigint;
  payText: string;
  receiveText: string;
  mode: "strict" | "open";
}): Step {
  const { currency, chain } = args.route.origin;
  const data = currency.isNative
    ? { from: args.user, to: args.address, data: EMPTY_CALLDATA, value: args.originAmount.toString(), chainId: chain.id, gas: args.transferGas.toString() }
    : {
        from: args.user,
        to: currency.address,
        data: encodeFunctionData({ abi: erc20Abi, functionName: "transfer", args: [args.address, args.originAmount] }),
        value: "0",
        chainId: chain.id,
        gas: args.transferGas.toString(),
      };
  return {
    id: "deposit",
    action: "Send the payment to the deposit address",
    description:
      args.mode === "strict"
        ? `Send exactly ${args.payText} to ${args.address} on chain ${chain.id} (a plain transfer, from any wallet) to receive ${args.receiveText}`
        : `Send ${args.payText} (or any amount, any number of times) to ${args.address} on chain ${chain.id} (a plain transfer, from any wallet) to receive about ${args.receiveText}: each payment is re-quoted when it arrives`,
    kind: "transaction",
    requestId: args.requestId,
    depositAddress: args.address,
    items: [{ status: "incomplete", data, check: { endpoint: statusCheckEndpoint(args.requestId), method: "GET" } }],
  };
}
