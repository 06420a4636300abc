/**
 * Everything the operator can read and change on a running service, as one interface: API keys,
 * webhook endpoints and their delivery log, parked requests, deposit addresses' payments. Two implementations: this one, on a
 * store (the admin API's routes use it; so does the `ferry` CLI when pointed at a database), and the
 * CLI's HTTP client of the admin API (ts/cli/adminClient.ts), so both paths behave and print alike.
 */
import type { FerryConfig } from "../config/configSchema.ts";
import { parseWebhookSecretKey } from "../store/webhooks/webhookSecrets.ts";
import type { Queryable } from "../store/engine.ts";
import { apiKeyAdmin, type ApiKeyAdmin } from "./apiKeyAdmin.ts";
import { appBalanceAdmin, type AppBalanceAdmin } from "./appBalanceAdmin.ts";
import { depositAddressAdmin, type DepositAddressAdmin } from "./depositAddressAdmin.ts";
import type { AppBalanceStore } from "../store/appBalances.ts";
import { parkedAdmin, type ParkedAdmin } from "./parkedAdmin.ts";
import { webhookAdmin, type WebhookAdmin } from "./webhookAdmin.ts";

export type AdminOperations = ApiKeyAdmin & WebhookAdmin & ParkedAdmin & AppBalanceAdmin & DepositAddressAdmin;

/** The operations on `store`, with the webhook secret key and http policy of `config`. */
export function adminOperations(store: { engine: Queryable; appBalances: AppBalanceStore }, config: Pick<FerryConfig, "webhooks">, now?: () => Date): AdminOperations {
  const secretKey = config.webhooks.secretKey ? parseWebhookSecretKey(config.webhooks.secretKey.reveal()) : undefined;
  return {
    ...apiKeyAdmin(store, now),
    ...webhookAdmin(store, { ...(secretKey ? { secretKey } : {}), allowHttp: config.webhooks.allowHttp, denyNetworks: config.webhooks.denyNetworks, ...(now ? { now } : {}) }),
    ...parkedAdmin(store),
    ...appBalanceAdmin(store),
    ...depositAddressAdmin(store),
  };
}
