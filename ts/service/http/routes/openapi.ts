/**
 * GET /openapi.json — the OpenAPI 3 document @fastify/swagger generates from the route schemas — and
 * the document's metadata (`openApiOptions`, registered by app.ts): title, license, the server as
 * configured, the optional `x-api-key` applied to every operation, and one `operationId` per
 * operation. Linted with Redocly's recommended rules by `npm run lint:openapi`.
 */
import type { SwaggerOptions } from "@fastify/swagger";
import type { FerryConfig } from "../../config/configSchema.ts";
import type { FerryApp } from "../ferryApp.ts";

/** Stable operation ids of the documented routes (`METHOD path` as the router knows it). */
export const OPERATION_IDS: Readonly<Record<string, string>> = {
  "GET /health": "getHealth",
  "GET /ready": "getReady",
  "GET /metrics": "getMetrics",
  "GET /llms.txt": "getLlmsTxt",
  "GET /chains": "getChains",
  "GET /intents/status/v3": "getIntentStatusV3",
  "GET /intents/status": "getIntentStatus",
  "GET /requests/v2": "getRequestsV2",
  "GET /requests/:requestId/signature": "getRequestSignature",
  "GET /requests/:requestId/receipt": "getRequestReceipt",
  "GET /requests/:requestId/webhook-deliveries": "getRequestWebhookDeliveries",
  "GET /explorer": "getExplorer",
  "GET /explorer/requests/:requestId": "getExplorerRequest",
  "GET /explorer/assets/explorer.js": "getExplorerScript",
  "GET /explorer/assets/explorer.css": "getExplorerStylesheet",
  "POST /transactions/index": "indexTransaction",
  "POST /quote/v2": "quoteV2",
  "GET /admin/keys": "adminListKeys",
  "POST /admin/keys": "adminCreateKey",
  "DELETE /admin/keys/:keyId": "adminRevokeKey",
  "GET /admin/webhooks": "adminListWebhooks",
  "PUT /admin/webhooks": "adminSetWebhook",
  "DELETE /admin/webhooks/:keyId": "adminClearWebhook",
  "GET /admin/webhooks/deliveries": "adminWebhookDeliveries",
  "POST /admin/webhooks/redeliver": "adminRedeliverWebhooks",
  "GET /admin/requests/parked": "adminListParkedRequests",
  "DELETE /admin/requests/parked/:requestId": "adminUnparkRequest",
  "GET /admin/deposit-addresses/:address": "adminShowDepositAddress",
};

/** A route missing from OPERATION_IDS still gets a unique id: method + path in camel case. */
export function operationIdOf(method: string, url: string): string {
  const known = OPERATION_IDS[`${method.toUpperCase()} ${url}`];
  if (known) return known;
  const words = url.split(/[^A-Za-z0-9]+/).filter((word) => word.length > 0);
  return [method.toLowerCase(), ...words.map((word) => word[0]!.toUpperCase() + word.slice(1))].join("");
}

export function openApiOptions(config: FerryConfig, version: string): SwaggerOptions {
  return {
    openapi: {
      info: {
        title: "Ferry",
        version,
        description:
          "Self-hostable cross-chain intent execution service. Errors are `{message, errorCode}`. " +
          "An `x-api-key` header is optional everywhere: with a valid key the per-key rate limit applies " +
          "instead of the per-IP one, and quotes are attributed to the key (webhooks); an unknown key is a 401.",
        license: { name: "MIT", url: "https://opensource.org/license/mit" },
      },
      servers: [
        {
          url: "http://{host}:{port}",
          description: "This service, as configured (server.host, server.port)",
          variables: { host: { default: config.server.host }, port: { default: String(config.server.port) } },
        },
      ],
      components: {
        securitySchemes: {
          apiKey: { type: "apiKey", in: "header", name: "x-api-key" },
          // The operator's /admin/… routes (present only when FERRY_ADMIN_TOKEN is set).
          ...(config.admin.token ? { adminToken: { type: "http", scheme: "bearer", description: "FERRY_ADMIN_TOKEN" } } : {}),
        },
      },
      // Optional: either the key or nothing.
      security: [{ apiKey: [] }, {}],
    },
    transform: ({ schema, url, route }) => {
      const method = Array.isArray(route.method) ? route.method[0]! : route.method;
      return { schema: { ...schema, operationId: operationIdOf(method, route.url ?? url) } as typeof schema, url };
    },
  };
}

export function registerOpenApiRoute(app: FerryApp): void {
  app.get("/openapi.json", { schema: { hide: true } }, async () => app.swagger());
}
