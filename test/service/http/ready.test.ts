import { createPublicClient, http } from "viem";
/** GET /ready: injected checks decide; 503 names the failed one and hides its error. */
import { expect } from "chai";
import { createServer, type Server } from "node:http";
import { rpcReadinessCheck } from "../../../ts/service/http/rpcReadinessCheck.ts";
import { errorBody, listen } from "./testApp.ts";

describe("GET /ready", function () {
  it("answers 200 with every check when all pass", async function () {
    const server = await listen({
      deps: { checks: [{ name: "database", check: async () => {} }, { name: "rpc:origin", check: async () => {} }] },
    });
    try {
      const response = await fetch(`${server.url}/ready`);
      expect(response.status).to.equal(200);
      expect(await response.json()).to.deep.equal({
        status: "ready",
        checks: [
          { name: "database", ok: true },
          { name: "rpc:origin", ok: true },
        ],
      });
    } finally {
      await server.close();
    }
  });

  it("answers 503 NOT_READY naming the failed and timed-out checks, without their error text", async function () {
    const server = await listen({
      deps: {
        readinessTimeoutMs: 200,
        checks: [
          { name: "database", check: async () => Promise.reject(new Error("connect to postgres://u:hunter2@db failed")) },
          { name: "rpc:origin", check: async () => {} },
          { name: "rpc:slow", check: (signal) => new Promise((_, reject) => signal.addEventListener("abort", () => reject(new Error("aborted")))) },
        ],
      },
    });
    try {
      const response = await fetch(`${server.url}/ready`);
      expect(response.status).to.equal(503);
      const text = await response.clone().text();
      expect(text).not.to.contain("hunter2");
      const body = (await response.json()) as { errorCode: string; message: string; checks: unknown };
      expect(body.errorCode).to.equal("NOT_READY");
      expect(body.message).to.contain("database").and.to.contain("rpc:slow");
      expect(body.checks).to.deep.equal([
        { name: "database", ok: false },
        { name: "rpc:origin", ok: true },
        { name: "rpc:slow", ok: false },
      ]);
      await errorBody(await fetch(`${server.url}/ready`));
    } finally {
      await server.close();
    }
  });

  it("checks a real RPC endpoint's chain id (rpcReadinessCheck)", async function () {
    const rpc: Server = createServer((request, response) => {
      let data = "";
      request.on("data", (chunk) => (data += chunk));
      request.on("end", () => {
        const { id } = JSON.parse(data);
        response.setHeader("content-type", "application/json");
        response.end(JSON.stringify({ jsonrpc: "2.0", id, result: "0x7a69" })); // 31337
      });
    });
    await new Promise<void>((resolve) => rpc.listen(0, "127.0.0.1", resolve));
    const port = (rpc.address() as { port: number }).port;
    const server = await listen({
      deps: {
        checks: [
          rpcReadinessCheck({ config: { id: 31337, name: "origin" }, publicClient: createPublicClient({ transport: http(`http://127.0.0.1:${port}`, { retryCount: 0 }) }) }),
          rpcReadinessCheck({ config: { id: 31338, name: "wrong-chain" }, publicClient: createPublicClient({ transport: http(`http://127.0.0.1:${port}`, { retryCount: 0 }) }) }),
        ],
      },
    });
    try {
      const response = await fetch(`${server.url}/ready`);
      expect(response.status).to.equal(503);
      expect(((await response.json()) as { checks: unknown }).checks).to.deep.equal([
        { name: "rpc:origin", ok: true },
        { name: "rpc:wrong-chain", ok: false },
      ]);
    } finally {
      await server.close();
      rpc.close();
    }
  });
});
