/**
 * Signature-authorised deposits into the Depository — the typed data the depositor and the allocator
 * sign, TypeScript twins of what `Depository.depositErc20Permit` and `Depository.depositPermit2` check:
 *
 * - **EIP-2612** (`eip2612PermitTypedData`): the token's own `Permit(owner, spender, value, nonce,
 *   deadline)` in the token's EIP-712 domain (read from its EIP-5267 `eip712Domain()`), spender = the
 *   Depository. A permit names no order, so the deposit also needs the allocator's
 *   `PermitDeposit(depositor, token, amount, id, deadline)` (`permitDepositTypedData`, domain
 *   "FerryDepository"/"1"): it binds the orderId.
 * - **Permit2** (`permit2DepositTypedData`): the canonical Permit2's `PermitWitnessTransferFrom` with
 *   spender = the Depository and the witness `FerryDeposit(bytes32 orderId)`: the depositor's one
 *   signature binds the order itself. The nonce is the orderId read as a uint256 (`permit2Nonce`):
 *   Permit2's replay guard is then keyed on the order.
 */
import { hashTypedData, type Address, type Hex, type LocalAccount, type TypedDataDomain } from "viem";
import { PAYOUT_DOMAIN_NAME, PAYOUT_DOMAIN_VERSION } from "./payoutRequest.ts";

/** The canonical Permit2 (Uniswap), at the same address on every chain it is deployed to. */
export const PERMIT2_ADDRESS: Address = "0x000000000022D473030F116dDEE9F6B43aC78BA3";

/** The witness type string the Depository hands Permit2 (after `..., ` in PermitWitnessTransferFrom). */
export const FERRY_DEPOSIT_WITNESS_TYPE_STRING = "FerryDeposit witness)FerryDeposit(bytes32 orderId)TokenPermissions(address token,uint256 amount)";

export const EIP2612_PERMIT_TYPES = {
  Permit: [
    { name: "owner", type: "address" },
    { name: "spender", type: "address" },
    { name: "value", type: "uint256" },
    { name: "nonce", type: "uint256" },
    { name: "deadline", type: "uint256" },
  ],
} as const;

export const PERMIT_DEPOSIT_TYPES = {
  PermitDeposit: [
    { name: "depositor", type: "address" },
    { name: "token", type: "address" },
    { name: "amount", type: "uint256" },
    { name: "id", type: "bytes32" },
    { name: "deadline", type: "uint256" },
  ],
} as const;

export const PERMIT2_DEPOSIT_TYPES = {
  PermitWitnessTransferFrom: [
    { name: "permitted", type: "TokenPermissions" },
    { name: "spender", type: "address" },
    { name: "nonce", type: "uint256" },
    { name: "deadline", type: "uint256" },
    { name: "witness", type: "FerryDeposit" },
  ],
  FerryDeposit: [{ name: "orderId", type: "bytes32" }],
  TokenPermissions: [
    { name: "token", type: "address" },
    { name: "amount", type: "uint256" },
  ],
} as const;

/** A token's EIP-712 domain as its `eip712Domain()` (EIP-5267) reports it. */
export type TokenDomain = { name: string; version: string; chainId: bigint; verifyingContract: Address };

export type Eip2612Permit = { owner: Address; spender: Address; value: bigint; nonce: bigint; deadline: bigint };

/** The depositor's EIP-2612 permit for the Depository, in the token's domain. */
export function eip2612PermitTypedData(domain: TokenDomain, permit: Eip2612Permit) {
  return {
    domain: { name: domain.name, version: domain.version, chainId: domain.chainId, verifyingContract: domain.verifyingContract } satisfies TypedDataDomain,
    types: EIP2612_PERMIT_TYPES,
    primaryType: "Permit" as const,
    message: { owner: permit.owner, spender: permit.spender, value: permit.value, nonce: permit.nonce, deadline: permit.deadline },
  };
}

/** `IDepository.PermitDeposit`: what the allocator authorises (and the deposit call's first argument). */
export type PermitDeposit = { depositor: Address; token: Address; amount: bigint; id: Hex; deadline: bigint };

export function permitDepositTypedData(params: { chainId: number | bigint; depository: Address; deposit: PermitDeposit }) {
  const { deposit } = params;
  return {
    domain: { name: PAYOUT_DOMAIN_NAME, version: PAYOUT_DOMAIN_VERSION, chainId: BigInt(params.chainId), verifyingContract: params.depository },
    types: PERMIT_DEPOSIT_TYPES,
    primaryType: "PermitDeposit" as const,
    message: { depositor: deposit.depositor, token: deposit.token, amount: deposit.amount, id: deposit.id, deadline: deposit.deadline },
  };
}

export function permitDepositDigest(params: { chainId: number | bigint; depository: Address; deposit: PermitDeposit }): Hex {
  return hashTypedData(permitDepositTypedData(params));
}

/** The allocator's authorisation of a permit deposit (the `authorization` argument). */
export async function signPermitDeposit(params: { account: LocalAccount; chainId: number | bigint; depository: Address; deposit: PermitDeposit }): Promise<Hex> {
  const { account, ...rest } = params;
  return account.signTypedData(permitDepositTypedData(rest));
}

/** Permit2's unordered nonce of an order's deposit: the orderId as a uint256. */
export function permit2Nonce(orderId: Hex): bigint {
  return BigInt(orderId);
}

export type Permit2Deposit = { token: Address; amount: bigint; depository: Address; orderId: Hex; nonce: bigint; deadline: bigint };

/** The depositor's Permit2 witness transfer to the Depository for one order (domain "Permit2", no version). */
export function permit2DepositTypedData(params: { chainId: number | bigint; permit2?: Address; deposit: Permit2Deposit }) {
  const { deposit } = params;
  return {
    domain: { name: "Permit2", chainId: BigInt(params.chainId), verifyingContract: params.permit2 ?? PERMIT2_ADDRESS },
    types: PERMIT2_DEPOSIT_TYPES,
    primaryType: "PermitWitnessTransferFrom" as const,
    message: {
      permitted: { token: deposit.token, amount: deposit.amount },
      spender: deposit.depository,
      nonce: deposit.nonce,
      deadline: deposit.deadline,
      witness: { orderId: deposit.orderId },
    },
  };
}
