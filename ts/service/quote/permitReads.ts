/**
 * What a usePermit quote reads from the origin chain (the quote service's only I/O for permits):
 * - EIP-2612: the token's EIP-712 domain from its EIP-5267 `eip712Domain()` (name, version; the chain id
 *   and verifying contract must be this chain and the token) and the user's `nonces(user)`. A token
 *   without them has no usable EIP-2612 permit: "auto" then falls back to Permit2, "eip2612" is 400
 *   UNSUPPORTED_ROUTE.
 * - Permit2: that the canonical Permit2 has code on the chain (400 UNSUPPORTED_ROUTE otherwise) and the
 *   user's allowance to it (an approve step when short).
 * An RPC failure is 503 CHAIN_UNAVAILABLE.
 */
import { erc20Abi, isAddressEqual, type Address, type PublicClient } from "viem";
import { PERMIT2_ADDRESS } from "../../core/permitDeposit.ts";
import { ServiceError } from "../errors/serviceError.ts";
import { errorFields, type Logger } from "../logging/logger.ts";
import type { PermitKind } from "../model/permitTypedData.ts";
import type { PermitReads } from "./permitSteps.ts";
import type { Route } from "./quoteRoute.ts";

/** The chain reads a permit needs (the quote service's client has them). */
export type PermitReadClient = Pick<PublicClient, "readContract" | "getCode">;

const EIP2612_READ_ABI = [
  {
    type: "function",
    name: "eip712Domain",
    stateMutability: "view",
    inputs: [],
    outputs: [
      { name: "fields", type: "bytes1" },
      { name: "name", type: "string" },
      { name: "version", type: "string" },
      { name: "chainId", type: "uint256" },
      { name: "verifyingContract", type: "address" },
      { name: "salt", type: "bytes32" },
      { name: "extensions", type: "uint256[]" },
    ],
  },
  { type: "function", name: "nonces", stateMutability: "view", inputs: [{ name: "owner", type: "address" }], outputs: [{ type: "uint256" }] },
] as const;

export async function readPermit(client: PermitReadClient, route: Route, user: Address, asked: "auto" | PermitKind, log: Logger): Promise<PermitReads> {
  const token = route.origin.currency.address;
  if (asked !== "permit2") {
    const eip2612 = await readEip2612(client, route, user, log);
    if (eip2612) return eip2612;
    if (asked === "eip2612") throw new ServiceError("UNSUPPORTED_ROUTE", `${route.origin.currency.symbol} on chain ${route.origin.chain.id} has no EIP-2612 permit (eip712Domain, nonces)`);
  }
  try {
    const code = await client.getCode({ address: PERMIT2_ADDRESS });
    if (code === undefined || code === "0x") throw new ServiceError("UNSUPPORTED_ROUTE", `Permit2 is not deployed on chain ${route.origin.chain.id}`);
    const permit2Allowance = await client.readContract({ address: token, abi: erc20Abi, functionName: "allowance", args: [user, PERMIT2_ADDRESS] });
    return { kind: "permit2", permit2Allowance };
  } catch (cause) {
    if (cause instanceof ServiceError) throw cause;
    log.warn({ err: errorFields(cause) }, "quote: Permit2 read failed");
    throw new ServiceError("CHAIN_UNAVAILABLE", "the origin chain did not answer; retry", { cause });
  }
}

/** The token's EIP-712 domain and the user's nonce, or undefined when the token does not offer them for this chain and address. */
async function readEip2612(client: PermitReadClient, route: Route, user: Address, log: Logger): Promise<PermitReads | undefined> {
  const token = route.origin.currency.address;
  let domain;
  try {
    domain = await client.readContract({ address: token, abi: EIP2612_READ_ABI, functionName: "eip712Domain" });
  } catch (cause) {
    log.debug({ err: errorFields(cause) }, "quote: no eip712Domain on the token");
    return undefined;
  }
  const [, name, version, chainId, verifyingContract] = domain;
  if (chainId !== BigInt(route.origin.chain.id) || !isAddressEqual(verifyingContract, token)) return undefined;
  try {
    const nonce = await client.readContract({ address: token, abi: EIP2612_READ_ABI, functionName: "nonces", args: [user] });
    return { kind: "eip2612", tokenName: name, tokenVersion: version, nonce };
  } catch (cause) {
    log.debug({ err: errorFields(cause) }, "quote: no nonces on the token");
    return undefined;
  }
}
