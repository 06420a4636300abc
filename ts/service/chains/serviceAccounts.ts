/**
 * The service's signing accounts, resolved once per process from the configured keys (revealed only
 * here, into viem LocalAccounts whose signatures libsecp256k1 makes: ./wasmSigningAccount.ts; never
 * logged) and injected into the HTTP app and the solver.
 */
import type { LocalAccount } from "viem";
import { wasmSigningAccount } from "./wasmSigningAccount.ts";
import type { FerryConfig, KeyRole } from "../config/configSchema.ts";
import { ServiceError } from "../errors/serviceError.ts";
import { canonicalAddress, type Address } from "../model/values.ts";

/** A signing account whose `address` is canonical (lowercase), made once here for the whole service. */
export type ServiceAccount = LocalAccount & { address: Address };

export type ServiceAccounts = {
  /** Fills, is repaid, signs orderSignature. */
  solver?: ServiceAccount;
  /** Signs fill (v2) and request (v1) attestations. */
  attester?: ServiceAccount;
  /** Signs Depository payouts. */
  allocator?: ServiceAccount;
  /** Sends POST /execute's relayed transactions (and pays their gas, charged to the app). */
  relayer?: ServiceAccount;
};

export function resolveAccounts(config: FerryConfig): ServiceAccounts {
  const account = (role: KeyRole): ServiceAccount | undefined => {
    const key = config.keys[role]?.reveal();
    if (!key) return undefined;
    return serviceAccountOf(wasmSigningAccount(key as `0x${string}`));
  };
  const solver = account("solver");
  const attester = account("attester");
  const allocator = account("allocator");
  const relayer = account("relayer");
  return { ...(solver && { solver }), ...(attester && { attester }), ...(allocator && { allocator }), ...(relayer && { relayer }) };
}

/** `local` with its address in canonical form: the one place a signing account's address is lowercased. */
export function serviceAccountOf(local: LocalAccount): ServiceAccount {
  return { ...local, address: canonicalAddress(local.address) };
}

export class KeyNotConfiguredError extends ServiceError {
  constructor(role: string) {
    super("KEY_NOT_CONFIGURED", `the ${role} key is not configured`);
  }
}

/** The account of `role`, or KEY_NOT_CONFIGURED. */
export function requireAccount(accounts: ServiceAccounts, role: keyof ServiceAccounts): ServiceAccount {
  const account = accounts[role];
  if (!account) throw new KeyNotConfiguredError(role);
  return account;
}
