/**
 * The admin API's authentication: every /admin/… request must carry `authorization: Bearer <token>`
 * with the token of FERRY_ADMIN_TOKEN (config `admin.token`); anything else is 401 ADMIN_UNAUTHORIZED
 * before the request is validated or routed further, so an unauthenticated caller learns nothing
 * about the admin routes' inputs. The comparison is over SHA-256 digests with timingSafeEqual: constant
 * time, whatever the lengths. The token never appears in a URL, a response or a log (the
 * `authorization` header is redacted from request logs by app.ts).
 */
import { createHash, timingSafeEqual } from "node:crypto";
import type { FastifyReply, FastifyRequest } from "fastify";
import type { Secret } from "../../config/secret.ts";
import { ServiceError } from "../../errors/serviceError.ts";

const digest = (value: string) => createHash("sha256").update(value, "utf8").digest();

/** Whether `given` is the admin token, in constant time. */
export function adminTokenMatches(token: Secret, given: string): boolean {
  return timingSafeEqual(digest(token.reveal()), digest(given));
}

/** The onRequest hook of the admin scope. */
export function adminAuthHook(token: Secret): (request: FastifyRequest, reply: FastifyReply) => Promise<void> {
  return async (request, reply) => {
    const header = request.headers.authorization;
    const match = typeof header === "string" ? /^Bearer[ \t]+(\S+)[ \t]*$/i.exec(header) : null;
    if (match && adminTokenMatches(token, match[1]!)) return;
    reply.header("www-authenticate", 'Bearer realm="ferry-admin"');
    throw new ServiceError(
      "ADMIN_UNAUTHORIZED",
      match ? "the admin token is wrong" : "the admin API needs authorization: Bearer <FERRY_ADMIN_TOKEN>",
    );
  };
}
