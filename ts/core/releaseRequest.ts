/**
 * The allocator's release of a reclaimable deposit: `Depository.release(ReleaseRequest, signature)`
 * deletes the reclaim commitment under `id` and, in the same transaction, pays `calls` and credits
 * `credits` exactly as `settle` does — the repayment (or refund) of a reclaimable deposit's order, so
 * that release and the depositor's `reclaim` can never both pay. EIP-712 in the same domain as the
 * payout request (name "FerryDepository", version "1", the chain id, the Depository); it spends a nonce
 * of the same space as `execute` and `settle`. TypeScript twin of `Depository._hashReleaseRequest`; the
 * onchain test has the contract accept signatures made here.
 */
import { hashStruct, hashTypedData, type Address, type Hex, type LocalAccount } from "viem";
import { PAYOUT_DOMAIN_NAME, PAYOUT_DOMAIN_VERSION, PAYOUT_REQUEST_TYPES, type PayoutCall } from "./payoutRequest.ts";
import { lowercaseHash, type LowercaseHex } from "./lowercaseHex.ts";

/** The commitment's orderId, payouts (`calls`), credits, and the nonce it spends. */
export type ReleaseRequest = { id: Hex; calls: readonly PayoutCall[]; credits: readonly PayoutCall[]; nonce: bigint; expiration: bigint };

export const RELEASE_REQUEST_TYPES = {
  ReleaseRequest: [
    { name: "id", type: "bytes32" },
    { name: "calls", type: "Call[]" },
    { name: "credits", type: "Call[]" },
    { name: "nonce", type: "uint256" },
    { name: "expiration", type: "uint256" },
  ],
  Call: PAYOUT_REQUEST_TYPES.Call,
} as const;

const message = (request: ReleaseRequest) => ({
  id: request.id,
  calls: [...request.calls],
  credits: [...request.credits],
  nonce: request.nonce,
  expiration: request.expiration,
});

/** The full EIP-712 typed data, for viem's `signTypedData` or `eth_signTypedData_v4`. */
export function releaseTypedData(params: { chainId: number | bigint; depository: Address; request: ReleaseRequest }) {
  return {
    domain: { name: PAYOUT_DOMAIN_NAME, version: PAYOUT_DOMAIN_VERSION, chainId: BigInt(params.chainId), verifyingContract: params.depository },
    types: RELEASE_REQUEST_TYPES,
    primaryType: "ReleaseRequest" as const,
    message: message(params.request),
  };
}

/** EIP-712 hashStruct: what `RequestExecuted(requestHash, nonce)` carries for a release. */
export function releaseRequestHash(request: ReleaseRequest): LowercaseHex {
  return lowercaseHash(hashStruct({ types: RELEASE_REQUEST_TYPES, primaryType: "ReleaseRequest", data: message(request) }));
}

/** The digest the allocator signs. */
export function releaseDigest(params: { chainId: number | bigint; depository: Address; request: ReleaseRequest }): Hex {
  return hashTypedData(releaseTypedData(params));
}

/** Signs a release with the allocator's viem LocalAccount. */
export async function signRelease(params: { account: LocalAccount; chainId: number | bigint; depository: Address; request: ReleaseRequest }): Promise<Hex> {
  const { account, ...rest } = params;
  return account.signTypedData(releaseTypedData(rest));
}
