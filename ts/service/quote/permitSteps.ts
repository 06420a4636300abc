/**
 * The steps of a signature-authorised ERC-20 deposit (the quote body's `usePermit`). Pure.
 *
 * - `eip2612`: one `signature` step — the token's EIP-2612 `Permit` (spender = the Depository, value =
 *   the deposit, the user's current token nonce, deadline = the quote's `expiresAt`).
 * - `permit2`: an `approve` step giving the canonical Permit2 an unlimited allowance when the user's is
 *   short (Permit2's usual one-time approval: Permit2 moves nothing without a signature), then one
 *   `signature` step — Permit2's `PermitWitnessTransferFrom` with spender = the Depository, witness
 *   `FerryDeposit(orderId)`, nonce = the orderId as a uint256, deadline = `expiresAt`.
 *
 * A signature step's item carries `data.sign` — `signatureKind: "eip712"` (the kind the official SDK
 * signs with `signTypedData`), `domain`, `types`, `primaryType`, and the message as `value` (what the
 * SDK signs) and as `message` (viem's and `eth_signTypedData_v4`'s name) — and `data.post`: POST
 * `/execute/permits` with `{kind, requestId, api: "bridge"}`; the SDK appends `?signature=0x…`. The
 * service checks the signature against the stored quote and submits the deposit itself (the relayer's
 * gas is quoted in `relayerGas`); the item's `check` polls the status as the deposit step's does.
 */
import { encodeFunctionData, erc20Abi, maxUint256, type Address, type Hex } from "viem";
import { PERMIT2_ADDRESS, permit2Nonce } from "../../core/permitDeposit.ts";
import { permitTypedData, type PermitKind, type QuotedPermit } from "../model/permitTypedData.ts";
import type { Route } from "./quoteRoute.ts";
import { statusCheckEndpoint, type Step } from "./quoteSteps.ts";

/**
 * Gas the relayer spends on the deposit transaction, by kind (receipts on an EDR chain, the worst case
 * rounded up: `depositErc20Permit` 123,558 into a Depository holding none of the token yet, 89,358 after;
 * `depositPermit2` 82,598, ~100k into an empty balance). Quoted in `relayerGas`, converted into the input
 * currency at the configured USD prices.
 */
export const PERMIT_DEPOSIT_GAS: Record<PermitKind, bigint> = { eip2612: 125_000n, permit2: 110_000n };

/**
 * What a permit request that ends in refund costs the service besides the deposit: the attester's
 * `cancel(requestId)` on the destination (41,415 in the Solidity test, ~47k as a transaction) and the
 * refund payout on the origin, an ERC-20 `execute` with two calls — the rest to the refund recipient,
 * the service's gas to the solver (~85k measured on the devnet). Rounded up.
 */
export const PERMIT_CANCEL_GAS = 60_000n;
export const PERMIT_REFUND_PAYOUT_GAS = 100_000n;
/** The quote bounds the refund's gas charge at this many times the quote-time gas prices (gas may rise before the refund). */
export const PERMIT_REFUND_GAS_PRICE_FACTOR = 2n;

/** What the quote read for a permit: the token's EIP-712 domain and the user's nonce, or the user's allowance to Permit2. */
export type PermitReads =
  | { kind: "eip2612"; tokenName: string; tokenVersion: string; nonce: bigint }
  | { kind: "permit2"; permit2Allowance: bigint };

export function quotedPermit(reads: PermitReads, orderId: Hex, deadline: number): QuotedPermit {
  return reads.kind === "eip2612"
    ? { kind: "eip2612", nonce: reads.nonce, deadline, tokenName: reads.tokenName, tokenVersion: reads.tokenVersion }
    : { kind: "permit2", nonce: permit2Nonce(orderId), deadline };
}

/** Bigints as decimal strings, everything else as is: typed data as JSON carries it. */
function jsonValue(value: unknown): unknown {
  if (typeof value === "bigint") return value.toString();
  if (Array.isArray(value)) return value.map(jsonValue);
  if (value !== null && typeof value === "object") return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, jsonValue(v)]));
  return value;
}

export type PermitStepInputs = {
  route: Route;
  requestId: Hex;
  orderId: Hex;
  user: Address;
  originAmount: bigint;
  permit: QuotedPermit;
  /** permit2 only: the user's allowance to Permit2 (an approve step when below the deposit). */
  permit2Allowance?: bigint;
  payText: string;
  receiveText: string;
};

export function permitSteps(inputs: PermitStepInputs): Step[] {
  const { origin } = inputs.route;
  const chainId = origin.chain.id;
  const token = origin.currency.address;
  const common = { requestId: inputs.requestId, depositAddress: "" };
  const steps: Step[] = [];
  if (inputs.permit.kind === "permit2" && (inputs.permit2Allowance ?? 0n) < inputs.originAmount) {
    steps.push({
      id: "approve",
      action: "Confirm transaction in your wallet",
      description: `Approve Permit2 to move ${origin.currency.symbol} (only with your signature)`,
      kind: "transaction",
      ...common,
      items: [
        {
          status: "incomplete",
          data: {
            from: inputs.user,
            to: token,
            data: encodeFunctionData({ abi: erc20Abi, functionName: "approve", args: [PERMIT2_ADDRESS, maxUint256] }),
            value: "0",
            chainId,
          },
        },
      ],
    });
  }
  const typed = jsonValue(
    permitTypedData({ permit: inputs.permit, chainId, token, depository: origin.depository, user: inputs.user, amount: inputs.originAmount, orderId: inputs.orderId }),
  ) as { domain: Record<string, unknown>; types: Record<string, { name: string; type: string }[]>; primaryType: string; message: Record<string, unknown> };
  steps.push({
    id: "authorize",
    action: "Sign authorization",
    description: `Authorize the deposit of ${inputs.payText} to receive ${inputs.receiveText}`,
    kind: "signature",
    ...common,
    items: [
      {
        status: "incomplete",
        data: {
          sign: { signatureKind: "eip712", domain: typed.domain, types: typed.types, primaryType: typed.primaryType, value: typed.message, message: typed.message },
          post: { endpoint: "/execute/permits", method: "POST", body: { kind: inputs.permit.kind, requestId: inputs.requestId, api: "bridge" } },
        },
        check: { endpoint: statusCheckEndpoint(inputs.requestId), method: "GET" },
      },
    ],
  });
  return steps;
}
