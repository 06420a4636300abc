/**
 * Receiving Ferry webhooks with Hono, here on Node through @hono/node-server (the app itself runs
 * unchanged on any fetch runtime). `c.req.arrayBuffer()` gives the body's exact bytes: verify them
 * before parsing. (`c.req.text()` works too for Ferry's UTF-8 JSON, but decoding drops a leading BOM,
 * so bytes are the safer habit.)
 *
 *   FERRY_WEBHOOK_SECRET=<your API key> PORT=3000 node examples/webhook-receivers/hono.ts
 */
import { serve } from "@hono/node-server";
import { Hono } from "hono";
import { bodyLimit } from "hono/body-limit";
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

export function buildWebhookApp({ secret, onEvent, now = () => Math.floor(Date.now() / 1000) }: ReceiverOptions): Hono {
  const app = new Hono();
  app.post("/webhooks/ferry", bodyLimit({ maxSize: 1024 * 1024 }), async (c) => {
    const rawBody = new Uint8Array(await c.req.arrayBuffer());
    const result = verifyWebhook({ headers: c.req.raw.headers, rawBody, secret, now: now() });
    if (!result.valid) return c.json({ error: result.error.code }, 401);
    await onEvent(JSON.parse(new TextDecoder().decode(rawBody)) as FerryWebhookEvent); // throws → 500: Ferry retries
    return c.body(null, 204);
  });
  return app;
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const secret = process.env.FERRY_WEBHOOK_SECRET;
  if (!secret) throw new Error("set FERRY_WEBHOOK_SECRET to your API key");
  const app = buildWebhookApp({ secret, onEvent: (event) => console.log(event.data.requestId, event.data.status) });
  serve({ fetch: app.fetch, hostname: "127.0.0.1", port: Number(process.env.PORT ?? 3000) }, (info) => {
    console.log(`listening on http://127.0.0.1:${info.port}/webhooks/ferry`);
  });
}
