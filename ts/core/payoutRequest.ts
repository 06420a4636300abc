/**
 * The allocator's payout request: the EIP-712 typed data `Depository.execute(CallRequest, signature)`
 * accepts (domain name "FerryDepository", version "1", the chain id and the Depository's address).
 * TypeScript twin of `Depository.hashCallRequest` (the replay key) and `Depository.callRequestDigest`
 * (what the allocator signs); a mocha test checks both against the contract onchain.
 */
import { hashStruct, hashTypedData, type Address, type Hex, type LocalAccount } from "viem";
import { parseAddress, parseArray, parseObject, parseUint } from "./inputParsers.ts";
import { lowercaseHash, type LowercaseHex } from "./lowercaseHex.ts";

/** One payout: `amount` of `token` (the zero address is native currency) to `to`. */
export type PayoutCall = { to: Address; token: Address; amount: bigint };

/** An allocator-signed batch of payouts; `nonce` only makes otherwise equal requests distinct. */
export type PayoutRequest = { calls: readonly PayoutCall[]; nonce: bigint; expiration: bigint };

/** Where a request is valid: the chain and the Depository that executes it. */
export type PayoutDomainParams = { chainId: bigint | number; depository: Address };

export const PAYOUT_DOMAIN_NAME = "FerryDepository";
export const PAYOUT_DOMAIN_VERSION = "1";

/** The request as EIP-712 types, exactly as in the Depository (`CallRequest` references `Call`). */
export const PAYOUT_REQUEST_TYPES = {
  CallRequest: [
    { name: "calls", type: "Call[]" },
    { name: "nonce", type: "uint256" },
    { name: "expiration", type: "uint256" },
  ],
  Call: [
    { name: "to", type: "address" },
    { name: "token", type: "address" },
    { name: "amount", type: "uint256" },
  ],
} as const;

/** Parses loose input (JSON numbers or decimal strings, checksummed or lower-case addresses), or throws INVALID_INPUT / INVALID_ADDRESS naming the field. */
export function normalizePayoutRequest(input: unknown): PayoutRequest {
  const o = parseObject(input, "request");
  return {
    calls: parseArray(o.calls, "calls").map((value, i) => {
      const call = parseObject(value, `calls[${i}]`);
      return {
        to: parseAddress(call.to, `calls[${i}].to`),
        token: parseAddress(call.token, `calls[${i}].token`),
        amount: parseUint(call.amount, `calls[${i}].amount`),
      };
    }),
    nonce: parseUint(o.nonce, "nonce"),
    expiration: parseUint(o.expiration, "expiration"),
  };
}

/**
 * The full EIP-712 typed data of a request, ready for viem's `signTypedData` / `hashTypedData` or a
 * wallet's `eth_signTypedData_v4`. Takes loose input.
 */
export function payoutTypedData(params: PayoutDomainParams & { request: unknown }) {
  const request = normalizePayoutRequest(params.request);
  return {
    domain: {
      name: PAYOUT_DOMAIN_NAME,
      version: PAYOUT_DOMAIN_VERSION,
      chainId: parseUint(params.chainId, "chainId"),
      verifyingContract: parseAddress(params.depository, "depository"),
    },
    types: PAYOUT_REQUEST_TYPES,
    primaryType: "CallRequest" as const,
    message: { calls: [...request.calls], nonce: request.nonce, expiration: request.expiration },
  };
}

/** EIP-712 hashStruct of the request: the Depository's replay key (`hashCallRequest`, `executed`, `RequestExecuted`). */
export function payoutRequestHash(request: unknown): LowercaseHex {
  const { calls, nonce, expiration } = normalizePayoutRequest(request);
  return lowercaseHash(hashStruct({ types: PAYOUT_REQUEST_TYPES, primaryType: "CallRequest", data: { calls: [...calls], nonce, expiration } }));
}

/** The EIP-712 digest the allocator signs (`Depository.callRequestDigest`). */
export function payoutDigest(params: PayoutDomainParams & { request: unknown }): Hex {
  return hashTypedData(payoutTypedData(params));
}

/** Signs a payout request with the allocator's viem LocalAccount (a 65-byte, low-s signature). */
export async function signPayoutRequest(params: PayoutDomainParams & { account: LocalAccount; request: unknown }): Promise<Hex> {
  const { account, ...rest } = params;
  return account.signTypedData(payoutTypedData(rest));
}
