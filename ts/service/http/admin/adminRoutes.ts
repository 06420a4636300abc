/**
 * The operator's admin API under /admin/…: API keys, webhook endpoints and their delivery log, parked
 * requests, deposit addresses' payments — what the `ferry keys|webhooks|requests|deposit-addresses` commands call on a running service (the
 * embedded database cannot be opened by a second process). Registered only when the service has a
 * store and FERRY_ADMIN_TOKEN is set; without the token every /admin/… path is the ordinary 404. Every
 * route sits behind adminAuthHook (401 ADMIN_UNAUTHORIZED before validation) and the app's rate limit.
 */
import type { Secret } from "../../config/secret.ts";
import type { AdminOperations } from "../../admin/adminOperations.ts";
import { adminAuthHook } from "./adminAuth.ts";
import type { FerryApp } from "../ferryApp.ts";
import { registerAdminKeysCreateRoute } from "../routes/adminKeysCreate.ts";
import { registerAdminKeysListRoute } from "../routes/adminKeysList.ts";
import { registerAdminKeysRevokeRoute } from "../routes/adminKeysRevoke.ts";
import { registerAdminKeysReferrerRoute } from "../routes/adminKeysReferrer.ts";
import { registerAdminKeysBalanceRoute } from "../routes/adminKeysBalance.ts";
import { registerAdminKeysFundingAddressRoute } from "../routes/adminKeysFundingAddress.ts";
import { registerAdminParkedClearRoute } from "../routes/adminParkedClear.ts";
import { registerAdminParkedListRoute } from "../routes/adminParkedList.ts";
import { registerAdminDepositAddressShowRoute } from "../routes/adminDepositAddressShow.ts";
import { registerAdminWebhookDeliveriesRoute } from "../routes/adminWebhookDeliveries.ts";
import { registerAdminWebhooksClearRoute } from "../routes/adminWebhooksClear.ts";
import { registerAdminWebhooksListRoute } from "../routes/adminWebhooksList.ts";
import { registerAdminWebhooksRedeliverRoute } from "../routes/adminWebhooksRedeliver.ts";
import { registerAdminWebhooksSetRoute } from "../routes/adminWebhooksSet.ts";

export async function registerAdminRoutes(app: FerryApp, options: { admin: AdminOperations; token: Secret }): Promise<void> {
  const { admin } = options;
  await app.register(async (scope: FerryApp) => {
    scope.addHook("onRequest", adminAuthHook(options.token));
    registerAdminKeysListRoute(scope, { admin });
    registerAdminKeysCreateRoute(scope, { admin });
    registerAdminKeysRevokeRoute(scope, { admin });
    registerAdminKeysReferrerRoute(scope, { admin });
    registerAdminKeysBalanceRoute(scope, { admin });
    registerAdminKeysFundingAddressRoute(scope, { admin });
    registerAdminWebhooksListRoute(scope, { admin });
    registerAdminWebhooksSetRoute(scope, { admin });
    registerAdminWebhooksClearRoute(scope, { admin });
    registerAdminWebhookDeliveriesRoute(scope, { admin });
    registerAdminWebhooksRedeliverRoute(scope, { admin });
    registerAdminParkedListRoute(scope, { admin });
    registerAdminParkedClearRoute(scope, { admin });
    registerAdminDepositAddressShowRoute(scope, { admin });
  });
}
