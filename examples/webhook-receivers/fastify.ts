/**
 * Receiving Ferry webhooks with Fastify. Fastify parses JSON bodies by default, which loses the exact
 * bytes the signature covers: inside the webhook's own plugin scope, the application/json parser is
 * replaced by one that keeps the raw Buffer (the app's other routes still get parsed JSON).
 *
 *   FERRY_WEBHOOK_SECRET=<your API key> PORT=3000 node examples/webhook-receivers/fastify.ts
 */
import Fastify, { type FastifyInstance } from "fastify";
import { pathToFileURL } from "node:url";
import { verifyWebhook } from "ferry/core";

export type FerryWebhookEvent = { event: string; timestamp: number; data: { requestId: string; status: string } & Record<string, unknown> };

export type ReceiverOptions = {
  /** Your API key: Ferry signs deliveries with it. */
  secret: string;
  onEvent: (event: FerryWebhookEvent) => void | Promise<void>;
  /** Unix seconds (default: the system clock). */
  now?: () => number;
};

export function buildWebhookApp({ secret, onEvent, now = () => Math.floor(Date.now() / 1000) }: ReceiverOptions): FastifyInstance {
  const app = Fastify();
  app.register(async (scope) => {
    // Encapsulated: only the routes of this scope receive the body as a Buffer.
    scope.addContentTypeParser("application/json", { parseAs: "buffer", bodyLimit: 1024 * 1024 }, (_request, body, done) => done(null, body));

    scope.post("/webhooks/ferry", async (request, reply) => {
      const rawBody = request.body as Buffer;
      const result = verifyWebhook({ headers: request.headers, rawBody, secret, now: now() });
      if (!result.valid) return reply.code(401).send({ error: result.error.code });
      await onEvent(JSON.parse(rawBody.toString("utf8")) as FerryWebhookEvent); // throws → 500: Ferry retries
      return reply.code(204).send();
    });
  });
  return app;
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const secret = process.env.FERRY_WEBHOOK_SECRET;
  if (!secret) throw new Error("set FERRY_WEBHOOK_SECRET to your API key");
  const app = buildWebhookApp({ secret, onEvent: (event) => console.log(event.data.requestId, event.data.status) });
  const url = await app.listen({ host: "127.0.0.1", port: Number(process.env.PORT ?? 3000) });
  console.log(`listening on ${url}/webhooks/ferry`);
}
