// The receiver examples of ts/core/README.md ("Receiving webhooks"), examples/webhook-receivers/*.ts:
// each on real HTTP on loopback, fed bodies signed here with node:crypto directly (not with ts/core).
import { spawn, type ChildProcess } from "node:child_process";
import { createHmac } from "node:crypto";
import { once } from "node:events";
import type { AddressInfo } from "node:net";
import { fileURLToPath } from "node:url";
import { serve } from "@hono/node-server";
import { expect } from "chai";
import { buildWebhookApp as buildFastifyApp } from "../../examples/webhook-receivers/fastify.ts";
import { buildWebhookApp as buildHonoApp } from "../../examples/webhook-receivers/hono.ts";
import { createWebhookServer, type FerryWebhookEvent, type ReceiverOptions } from "../../examples/webhook-receivers/node-http.ts";

const REPO_ROOT = fileURLToPath(new URL("../../", import.meta.url));
const SECRET = "ferry_test-api-key-for-receivers";
// Spacing, key order and escapes a JSON re-serialization would change: only the exact bytes verify.
const BODY = Buffer.from(
  '{ "event":"request.status.updated", "timestamp":1767225600000,\n  "data":{"status":"success","requestId":"0xab","note":"caf\\u00e9 ✓"} }\n',
  "utf8",
);

function sign(body: Buffer, timestamp: number, secret = SECRET): string {
  return createHmac("sha256", secret).update(`${timestamp}.`).update(body).digest("hex");
}

const nowSeconds = () => Math.floor(Date.now() / 1000);

async function post(url: string, body: Buffer, headers: Record<string, string>): Promise<number> {
  const response = await fetch(url, { method: "POST", body, headers: { "content-type": "application/json", ...headers } });
  await response.arrayBuffer();
  return response.status;
}

type Started = { url: string; close: () => Promise<void> };
type Receiver = { name: string; file: string; start: (options: ReceiverOptions) => Promise<Started> };

const RECEIVERS: Receiver[] = [
  {
    name: "node:http",
    file: "examples/webhook-receivers/node-http.ts",
    async start(options) {
      const server = createWebhookServer(options);
      server.listen(0, "127.0.0.1");
      await once(server, "listening");
      return {
        url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/webhooks/ferry`,
        close: () => new Promise((resolve) => server.close(() => resolve())),
      };
    },
  },
  {
    name: "fastify",
    file: "examples/webhook-receivers/fastify.ts",
    async start(options) {
      const app = buildFastifyApp(options);
      const url = await app.listen({ host: "127.0.0.1", port: 0 });
      return { url: `${url}/webhooks/ferry`, close: () => app.close() };
    },
  },
  {
    name: "hono",
    file: "examples/webhook-receivers/hono.ts",
    async start(options) {
      const app = buildHonoApp(options);
      let port = 0;
      const server = serve({ fetch: app.fetch, hostname: "127.0.0.1", port: 0 }, (info) => (port = info.port));
      await once(server, "listening");
      return {
        url: `http://127.0.0.1:${port || (server.address() as AddressInfo).port}/webhooks/ferry`,
        close: () => new Promise((resolve) => server.close(() => resolve())),
      };
    },
  },
];

describe("webhook receiver examples", function () {
  this.timeout(60_000);

  for (const receiver of RECEIVERS) {
    describe(receiver.name, () => {
      let started: Started;
      const events: FerryWebhookEvent[] = [];

      before(async () => {
        started = await receiver.start({ secret: SECRET, onEvent: (event) => void events.push(event) });
      });
      beforeEach(() => {
        events.length = 0;
      });
      after(async () => {
        await started?.close();
      });

      it("accepts a correctly signed body with 2xx and hands over the event", async () => {
        const timestamp = nowSeconds();
        const status = await post(started.url, BODY, { "X-Signature-Timestamp": String(timestamp), "X-Signature-SHA256": sign(BODY, timestamp) });
        expect(status).to.be.within(200, 299);
        expect(events).to.have.length(1);
        expect(events[0]!.data).to.include({ status: "success", requestId: "0xab", note: "café ✓" });
      });

      it("rejects a tampered body, a wrong secret, a stale timestamp and missing headers with non-2xx", async () => {
        const timestamp = nowSeconds();
        const tampered = Buffer.from(BODY.toString("utf8").replace('"success"', '"refund"'), "utf8");
        const cases: [string, Buffer, Record<string, string>][] = [
          ["tampered body", tampered, { "X-Signature-Timestamp": String(timestamp), "X-Signature-SHA256": sign(BODY, timestamp) }],
          ["re-serialized body", Buffer.from(JSON.stringify(JSON.parse(BODY.toString("utf8")))), { "X-Signature-Timestamp": String(timestamp), "X-Signature-SHA256": sign(BODY, timestamp) }],
          ["wrong secret", BODY, { "X-Signature-Timestamp": String(timestamp), "X-Signature-SHA256": sign(BODY, timestamp, "another-key") }],
          ["stale timestamp", BODY, { "X-Signature-Timestamp": String(timestamp - 301), "X-Signature-SHA256": sign(BODY, timestamp - 301) }],
          ["no signature", BODY, { "X-Signature-Timestamp": String(timestamp) }],
        ];
        for (const [label, body, headers] of cases) {
          const status = await post(started.url, body, headers);
          expect(status, label).to.not.be.within(200, 299);
        }
        expect(events).to.deep.equal([]);
      });
    });
  }

  describe("as runnable files", () => {
    const children: ChildProcess[] = [];
    after(() => {
      for (const child of children) if (child.exitCode === null && child.signalCode === null) child.kill("SIGKILL");
    });

    for (const receiver of RECEIVERS) {
      it(`node ${receiver.file} listens on PORT and verifies with FERRY_WEBHOOK_SECRET`, async () => {
        const child = spawn(process.execPath, [receiver.file], {
          cwd: REPO_ROOT,
          env: { ...process.env, FERRY_WEBHOOK_SECRET: SECRET, PORT: "0" },
          stdio: ["ignore", "pipe", "pipe"],
        });
        children.push(child);
        let output = "";
        child.stdout!.on("data", (chunk: Buffer) => (output += chunk.toString()));
        child.stderr!.on("data", (chunk: Buffer) => (output += chunk.toString()));
        const deadline = Date.now() + 30_000;
        let url: string | undefined;
        while (!(url = /listening on (http:\/\/127\.0\.0\.1:\d+\/webhooks\/ferry)/.exec(output)?.[1])) {
          if (Date.now() > deadline || child.exitCode !== null) throw new Error(`${receiver.file} did not start: ${output}`);
          await new Promise((resolve) => setTimeout(resolve, 50));
        }
        const timestamp = nowSeconds();
        const headers = { "X-Signature-Timestamp": String(timestamp), "X-Signature-SHA256": sign(BODY, timestamp) };
        expect(await post(url, BODY, headers)).to.be.within(200, 299);
        expect(await post(url, Buffer.concat([BODY, Buffer.from(" ")]), headers)).to.not.be.within(200, 299);
        child.kill("SIGTERM");
        await once(child, "exit");
        expect(output).to.include("0xab success");
      });
    }
  });
});
