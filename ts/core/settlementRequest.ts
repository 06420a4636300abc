/**
 * The allocator's settlement: `Depository.settle(SettlementRequest, signature)` pays `calls` exactly as
 * `execute` pays a `CallRequest`, then adds each of `credits` to its payee's claimable balance (app
 * fees, withdrawn with `claim`). EIP-712 in the same domain as the payout request (name
 * "FerryDepository", version "1", the chain id, the Depository); the same `Call` type for both arrays.
 * TypeScript twin of `Depository._hashSettlementRequest`; the onchain test has the contract accept
 * signatures made here.
 */
import { hashStruct, hashTypedData, type Address, type Hex, type LocalAccount } from "viem";
import { PAYOUT_DOMAIN_NAME, PAYOUT_DOMAIN_VERSION, type PayoutCall } from "./payoutRequest.ts";
import { lowercaseHash, type LowercaseHex } from "./lowercaseHex.ts";

/** Payouts (`calls`), credits, and the nonce it spends (shared with `execute`). */
export type SettlementRequest = { calls: readonly PayoutCall[]; credits: readonly PayoutCall[]; nonce: bigint; expiration: bigint };

export const SETTLEMENT_REQUEST_TYPES = {
  SettlementRequest: [
    { name: "calls", type: "Call[]" },
    { name: "credits", type: "Call[]" },
    { name: "nonce", type: "uint256" },
    { name: "expiration", type: "uint256" },
  ],
  Call: [
    { name: "to", type: "address" },
    { name: "token", type: "address" },
    { name: "amount", type: "uint256" },
  ],
} as const;

const message = (request: SettlementRequest) => ({
  calls: [...request.calls],
  credits: [...request.credits],
  nonce: request.nonce,
  expiration: request.expiration,
});

/** The full EIP-712 typed data, for viem's `signTypedData` or `eth_signTypedData_v4`. */
export function settlementTypedData(params: { chainId: number | bigint; depository: Address; request: SettlementRequest }) {
  return {
    domain: { name: PAYOUT_DOMAIN_NAME, version: PAYOUT_DOMAIN_VERSION, chainId: BigInt(params.chainId), verifyingContract: params.depository },
    types: SETTLEMENT_REQUEST_TYPES,
    primaryType: "SettlementRequest" as const,
    message: message(params.request),
  };
}

/** EIP-712 hashStruct: what `RequestExecuted(requestHash, nonce)` carries for a settlement. */
export function settlementRequestHash(request: SettlementRequest): LowercaseHex {
  return lowercaseHash(hashStruct({ types: SETTLEMENT_REQUEST_TYPES, primaryType: "SettlementRequest", data: message(request) }));
}

/** The digest the allocator signs. */
export function settlementDigest(params: { chainId: number | bigint; depository: Address; request: SettlementRequest }): Hex {
  return hashTypedData(settlementTypedData(params));
}

/** Signs a settlement with the allocator's viem LocalAccount. */
export async function signSettlement(params: { account: LocalAccount; chainId: number | bigint; depository: Address; request: SettlementRequest }): Promise<Hex> {
  const { account, ...rest } = params;
  return account.signTypedData(settlementTypedData(rest));
}
