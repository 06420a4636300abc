/**
 * A webhook receiver for tests: node:http on 127.0.0.1:0, recording every request (headers, raw body
 * bytes, arrival time) and answering with what `respond` says (a status, a promise of one to answer
 * later, or "hang" to never answer).
 */
import { createServer, type IncomingHttpHeaders, type Server } from "node:http";
import type { AddressInfo } from "node:net";

export type ReceivedWebhook = { headers: IncomingHttpHeaders; rawBody: string; receivedAt: number; eventId: number; statusSent: number | "hang" | "later" };

export type Receiver = {
  url: string;
  received: ReceivedWebhook[];
  /** Decides each answer; `nth` counts from 1 over all requests, `perEvent` over this event id's. */
  respond: (request: { eventId: number; nth: number; perEvent: number }) => number | Promise<number> | "hang";
  close(): Promise<void>;
};

export async function startReceiver(respond: Receiver["respond"] = () => 200, path = "/hooks"): Promise<Receiver> {
  const received: ReceivedWebhook[] = [];
  const hanging = new Set<import("node:http").ServerResponse>();
  const perEvent = new Map<number, number>();
  const receiver = { received, respond } as Receiver;
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (chunk: Buffer) => chunks.push(chunk));
    req.on("end", () => {
      const eventId = Number(req.headers["x-ferry-event-id"]);
      const count = (perEvent.get(eventId) ?? 0) + 1;
      perEvent.set(eventId, count);
      const answer = receiver.respond({ eventId, nth: received.length + 1, perEvent: count });
      const record: ReceivedWebhook = { headers: req.headers, rawBody: Buffer.concat(chunks).toString("utf8"), receivedAt: Date.now(), eventId, statusSent: typeof answer === "object" ? "later" : answer };
      received.push(record);
      if (answer === "hang") {
        hanging.add(res);
        return;
      }
      hanging.add(res);
      void Promise.resolve(answer).then((status) => {
        hanging.delete(res);
        record.statusSent = status;
        res.statusCode = status;
        res.end("ok");
      });
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  receiver.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}${path}`;
  receiver.close = async () => {
    for (const res of hanging) res.destroy();
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  };
  return receiver;
}

export async function waitUntil(check: () => boolean | Promise<boolean>, timeoutMs: number, what: string): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}
