/**
 * The operator's app-balance operations, the same through the admin API (../http/routes/
 * adminKeysBalance.ts, adminKeysFundingAddress.ts) and the `ferry balances` / `ferry keys
 * funding-address` commands on the store: an app's balance with its recent ledger lines, and the
 * funding address its withdrawals are paid to (only the operator sets it). Amounts are decimal
 * strings of USD micro-units: bigints never travel as JSON numbers.
 */
import type { Address } from "../model/values.ts";
import { apiKeyStore } from "../store/apiKeys.ts";
import type { AppBalance, AppBalanceStore, LedgerEntry } from "../store/appBalances.ts";
import type { Queryable } from "../store/engine.ts";
import { unknownApiKey } from "./apiKeyAdmin.ts";

export type AppBalanceView = {
  apiKeyId: string;
  availableUsd: string;
  heldUsd: string;
  creditedUsd: string;
  debitedUsd: string;
  entries: Array<{
    kind: LedgerEntry["kind"];
    amountUsd: string;
    purpose: LedgerEntry["purpose"];
    reference: string | null;
    source: LedgerEntry["source"];
    currency: string | null;
    amount: string | null;
    createdAt: string;
  }>;
};

export type AppBalanceAdmin = {
  /** The key's balance and its latest `limit` ledger lines (default 20); UNKNOWN_API_KEY for a key never created. */
  appBalance(keyId: string, limit?: number): Promise<AppBalanceView>;
  /** Sets (null clears) where the key's withdrawals are paid; UNKNOWN_API_KEY for an unknown or revoked key, the address read canonical by the caller (the route's schema, the CLI). */
  setApiKeyFundingAddress(keyId: string, address: Address | null): Promise<{ id: string; fundingAddress: Address | null }>;
};

export function appBalanceView(apiKeyId: string, balance: AppBalance, entries: readonly LedgerEntry[]): AppBalanceView {
  return {
    apiKeyId,
    availableUsd: balance.availableUsd.toString(),
    heldUsd: balance.heldUsd.toString(),
    creditedUsd: balance.creditedUsd.toString(),
    debitedUsd: balance.debitedUsd.toString(),
    entries: entries.map((e) => ({
      kind: e.kind,
      amountUsd: e.amountUsd.toString(),
      purpose: e.purpose,
      reference: e.reference,
      source: e.source,
      currency: e.currency,
      amount: e.amount === null ? null : e.amount.toString(),
      createdAt: e.createdAt,
    })),
  };
}


export function appBalanceAdmin(store: { engine: Queryable; appBalances: AppBalanceStore }): AppBalanceAdmin {
  const keys = apiKeyStore(store);
  return {
    async appBalance(keyId, limit = 20) {
      if (!(await keys.listApiKeys()).some((k) => k.id === keyId)) throw unknownApiKey(keyId);
      const [balance, entries] = await Promise.all([store.appBalances.balance(keyId), store.appBalances.entries(keyId, { limit })]);
      return appBalanceView(keyId, balance, entries);
    },
    async setApiKeyFundingAddress(keyId, address) {
      if (!(await keys.setFundingAddress(keyId, address))) throw unknownApiKey(keyId);
      return { id: keyId, fundingAddress: address };
    },
  };
}
