/**
 * The service's signing accounts, resolved once per process from the configured keys (revealed only
 * here, into viem LocalAccounts; never logged) and injected into the HTTP app and the solver.
 */
import type { LocalAccount } from "viem";
import { privateKeyToAccount } from "viem/accounts";
import type { FerryConfig, KeyRole } from "../config/configSchema.ts";
import { ServiceError } from "../errors/serviceError.ts";

export type ServiceAccounts = {
  /** Fills, is repaid, signs orderSignature. */
  solver?: LocalAccount;
  /** Signs fill (v2) and request (v1) attestations. */
  attester?: LocalAccount;
  /** Signs Depository payouts. */
  allocator?: LocalAccount;
};

export function resolveAccounts(config: FerryConfig): ServiceAccounts {
  const account = (role: KeyRole) => {
    const key = config.keys[role]?.reveal();
    return key ? privateKeyToAccount(key as `0x${string}`) : undefined;
  };
  const solver = account("solver");
  const attester = account("attester");
  const allocator = account("allocator");
  return { ...(solver && { solver }), ...(attester && { attester }), ...(allocator && { allocator }) };
}

export class KeyNotConfiguredError extends ServiceError {
  constructor(role: string) {
    super("KEY_NOT_CONFIGURED", `the ${role} key is not configured`);
  }
}

/** The account of `role`, or KEY_NOT_CONFIGURED. */
export function requireAccount(accounts: ServiceAccounts, role: keyof ServiceAccounts): LocalAccount {
  const account = accounts[role];
  if (!account) throw new KeyNotConfiguredError(role);
  return account;
}
