/**
 * Receiving Ferry webhooks with Node's own http module. The signature covers the body's exact bytes,
 * so the handler reads the raw stream and verifies it before parsing anything.
 *
 *   FERRY_WEBHOOK_SECRET=<your API key> PORT=3000 node examples/webhook-receivers/node-http.ts
 */
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
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

const MAX_BODY_BYTES = 1024 * 1024;

export function createWebhookServer({ secret, onEvent, now = () => Math.floor(Date.now() / 1000) }: ReceiverOptions): Server {
  return createServer(async (req, res) => {
    if (req.method !== "POST" || req.url !== "/webhooks/ferry") return void res.writeHead(404).end();
    const chunks: Buffer[] = [];
    let size = 0;
    for await (const chunk of req as AsyncIterable<Buffer>) {
      size += chunk.length;
      if (size > MAX_BODY_BYTES) return void res.writeHead(413, { connection: "close" }).end();
      chunks.push(chunk);
    }
    const rawBody = Buffer.concat(chunks);

    const result = verifyWebhook({ headers: req.headers, rawBody, secret, now: now() });
    if (!result.valid) {
      res.writeHead(401, { "content-type": "application/json" }).end(JSON.stringify({ error: result.error.code }));
      return;
    }
    try {
      await onEvent(JSON.parse(rawBody.toString("utf8")) as FerryWebhookEvent);
    } catch {
      return void res.writeHead(500).end(); // not 2xx: Ferry retries the delivery later
    }
    res.writeHead(204).end();
  });
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const secret = process.env.FERRY_WEBHOOK_SECRET;
  if (!secret) throw new Error("set FERRY_WEBHOOK_SECRET to your API key");
  const server = createWebhookServer({ secret, onEvent: (event) => console.log(event.data.requestId, event.data.status) });
  server.listen(Number(process.env.PORT ?? 3000), "127.0.0.1", () => {
    console.log(`listening on http://127.0.0.1:${(server.address() as AddressInfo).port}/webhooks/ferry`);
  });
}
