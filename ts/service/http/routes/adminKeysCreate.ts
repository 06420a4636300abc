/**
 * POST /admin/keys {name, rateLimit?} — creates an API key; 201 with the key itself, the only time it
 * is ever shown (only its SHA-256 is stored). 400 INVALID_INPUT for an empty name or one with control
 * characters.
 */
import { Type } from "typebox";
import { MAX_API_KEY_NAME_LENGTH, MAX_API_KEY_RATE_LIMIT, type ApiKeyAdmin } from "../../admin/apiKeyAdmin.ts";
import { NoQuery, type FerryApp } from "../ferryApp.ts";
import { bodyErrorResponses } from "../httpErrors.ts";
import { ADMIN_SECURITY, adminErrorResponses, CreatedApiKeySchema } from "../admin/adminRecords.ts";

export const AdminKeysCreateBody = Type.Object(
  {
    name: Type.String({ minLength: 1, maxLength: MAX_API_KEY_NAME_LENGTH, description: "Who the key is for" }),
    rateLimit: Type.Optional(Type.Integer({ minimum: 1, maximum: MAX_API_KEY_RATE_LIMIT, description: "Requests per minute (default rateLimits.apiKeyPerMinute)" })),
  },
  { additionalProperties: false },
);

export const adminKeysCreateSchema = {
  summary: "Create an API key",
  description: "The response holds the key itself, shown only this once. Admin token required.",
  tags: ["Admin"],
  security: ADMIN_SECURITY,
  querystring: NoQuery,
  body: AdminKeysCreateBody,
  response: { 201: CreatedApiKeySchema, ...bodyErrorResponses, ...adminErrorResponses },
};

export function registerAdminKeysCreateRoute(app: FerryApp, options: { admin: ApiKeyAdmin }): void {
  app.post("/admin/keys", { schema: adminKeysCreateSchema }, async (request, reply) => {
    const created = await options.admin.createApiKey({
      name: request.body.name,
      ...(request.body.rateLimit !== undefined ? { rateLimit: request.body.rateLimit } : {}),
    });
    // The plaintext key must not be cached anywhere on the way back.
    return reply.code(201).header("cache-control", "no-store").send(created);
  });
}
