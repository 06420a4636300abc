/**
 * An app backend's proxy for gasless execution: the browser (or the SDK there) talks to this server;
 * it forwards to Ferry and adds the app's `x-api-key`, which never leaves the backend.
 * @relayprotocol/relay-sdk sends `x-api-key` only to the reference service's own hosts, so an app
 * using `executeGaslessBatch` against Ferry points the SDK's `baseApiUrl` at this proxy.
 *
 * Forwards `POST /execute` (with the key) and every other request unchanged (quotes, status, chains:
 * with the key too, for the higher rate limit). Node's `http` only; run it with
 *   FERRY_URL=http://127.0.0.1:8080 FERRY_API_KEY=<the app's key> PORT=3100 npx node examples/gasless-proxy/node-http.ts
 * A real backend also authenticates its own users before spending the app balance on them.
 */
import { createServer, type Server } from "node:http";

export function startGaslessProxy(options: { ferryUrl: string; apiKey: string; port?: number; host?: string }): Promise<{ server: Server; url: string }> {
  const server = createServer(async (request, response) => {
    try {
      const chunks: Buffer[] = [];
      for await (const chunk of request) chunks.push(chunk as Buffer);
      const headers: Record<string, string> = { "x-api-key": options.apiKey };
      const type = request.headers["content-type"];
      if (type) headers["content-type"] = type;
      const upstream = await fetch(new URL(request.url ?? "/", options.ferryUrl), {
        method: request.method ?? "GET",
        headers,
        ...(chunks.length > 0 && { body: Buffer.concat(chunks) }),
      });
      response.writeHead(upstream.status, { "content-type": upstream.headers.get("content-type") ?? "application/json" });
      response.end(Buffer.from(await upstream.arrayBuffer()));
    } catch {
      response.writeHead(502, { "content-type": "application/json" });
      response.end(JSON.stringify({ message: "Ferry did not answer", errorCode: "BAD_GATEWAY" }));
    }
  });
  return new Promise((resolve) => {
    server.listen(options.port ?? 0, options.host ?? "127.0.0.1", () => {
      const address = server.address();
      resolve({ server, url: `http://127.0.0.1:${typeof address === "object" && address ? address.port : 0}` });
    });
  });
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const ferryUrl = process.env.FERRY_URL ?? "http://127.0.0.1:8080";
  const apiKey = process.env.FERRY_API_KEY;
  if (!apiKey) throw new Error("FERRY_API_KEY is required");
  const { url } = await startGaslessProxy({ ferryUrl, apiKey, port: Number(process.env.PORT ?? 3100) });
  console.log(`gasless proxy on ${url} → ${ferryUrl}`);
}
