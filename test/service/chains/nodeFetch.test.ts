// The RPC transport's HTTP client (ts/service/chains/nodeFetch.ts) under viem's JSON-RPC client, against
// a real HTTP server on loopback: answers and their errors as viem classifies them with the global
// fetch, sockets kept alive between calls, a timeout that closes its socket, a body over the limit, a
// refused connection, and credentials in the URL.
import { expect } from "chai";
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo, Socket } from "node:net";
import { HttpRequestError, RpcRequestError, TimeoutError } from "viem";
import { getHttpRpcClient, type HttpRpcClientOptions } from "viem/utils";
import { MAX_RESPONSE_BYTES, nodeFetch } from "../../../ts/service/chains/nodeFetch.ts";
import { isEndpointFault, isLogRangeError } from "../../../ts/service/chains/rpcErrors.ts";

const fetchFn = nodeFetch() as unknown as NonNullable<HttpRpcClientOptions["fetchFn"]>;

describe("chains: the RPC transport's HTTP client (node:http)", function () {
  this.timeout(30_000);
  let server: Server;
  let url: string;
  let handle: (body: { method: string; id: number }, req: IncomingMessage, res: ServerResponse) => void;
  const sockets = new Set<Socket>();
  let connections = 0;

  before(async () => {
    server = createServer((req, res) => {
      let text = "";
      req.on("data", (chunk) => (text += chunk));
      req.on("end", () => handle(JSON.parse(text), req, res));
    });
    server.on("connection", (socket) => {
      connections += 1;
      sockets.add(socket);
      socket.on("close", () => sockets.delete(socket));
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  after(async () => {
    for (const socket of sockets) socket.destroy();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  });

  const json = (res: ServerResponse, status: number, value: unknown) => {
    res.writeHead(status, { "content-type": "application/json" });
    res.end(JSON.stringify(value));
  };

  it("answersACall_withItsResult_andKeepsTheSocketAliveForTheNext", async () => {
    const seen: Array<{ method: string; type: string | undefined; length: string | undefined }> = [];
    handle = (body, req, res) => {
      seen.push({ method: body.method, type: req.headers["content-type"], length: req.headers["content-length"] });
      json(res, 200, { jsonrpc: "2.0", id: body.id, result: "0x2a" });
    };
    const client = getHttpRpcClient(url, { fetchFn });
    const before = connections;
    for (let i = 0; i < 3; i++) expect((await client.request({ body: { method: "eth_blockNumber" } })).result).to.equal("0x2a");
    expect(connections - before, "one socket for three calls").to.equal(1);
    expect(seen[0]!.method).to.equal("eth_blockNumber");
    expect(seen[0]!.type).to.equal("application/json");
    // The whole body at once, with its length: no chunked encoding for a node to refuse.
    expect(Number(seen[0]!.length)).to.be.greaterThan(0);
  });

  it("aNon2xxAnswer_isAnRpcErrorWhenItsBodyIsOne_elseAnHttpErrorWithItsStatus", async () => {
    const client = getHttpRpcClient(url, { fetchFn });
    handle = (body, _req, res) => json(res, 429, { jsonrpc: "2.0", id: body.id, error: { code: -32005, message: "rate limited" } });
    const rpc = await client.request({ body: { method: "eth_chainId" } }).catch((e: unknown) => e);
    expect(rpc).to.be.instanceOf(RpcRequestError);
    expect((rpc as RpcRequestError).status).to.equal(429);
    handle = (_body, _req, res) => {
      res.writeHead(502, { "content-type": "text/plain" });
      res.end("bad gateway");
    };
    const http = await client.request({ body: { method: "eth_chainId" } }).catch((e: unknown) => e);
    expect(http).to.be.instanceOf(HttpRequestError);
    expect((http as HttpRequestError).status).to.equal(502);
    expect(isEndpointFault(http)).to.equal(true);
  });

  it("aCallThatTimesOut_closesItsSocket_andIsATimeoutError", async () => {
    handle = () => {}; // never answers
    const client = getHttpRpcClient(url, { fetchFn });
    const started = Date.now();
    const error = await client.request({ body: { method: "eth_blockNumber" }, timeout: 300 }).catch((e: unknown) => e);
    expect(error).to.be.instanceOf(TimeoutError);
    expect(Date.now() - started).to.be.below(2_000);
    // The hanging request's socket is destroyed, not left open on the server.
    const until = Date.now() + 2_000;
    while (sockets.size > 0 && Date.now() < until) await new Promise((resolve) => setTimeout(resolve, 20));
    expect(sockets.size, "sockets still open on the server").to.equal(0);
  });

  it("aBodyOverTheLimit_isRefusedWhileRead_asTooLargeAnAnswer_aLogRangeToSplit", async () => {
    const chunk = "x".repeat(1 << 20);
    handle = (_body, _req, res) => {
      res.writeHead(200, { "content-type": "application/json" });
      const write = (left: number): void => {
        if (left <= 0 || res.destroyed) return void res.end();
        res.write(chunk, () => write(left - chunk.length));
      };
      write(MAX_RESPONSE_BYTES + 2 * chunk.length);
    };
    const client = getHttpRpcClient(url, { fetchFn });
    const error = await client.request({ body: { method: "eth_getLogs" } }).catch((e: unknown) => e);
    expect(error).to.be.instanceOf(HttpRequestError);
    // As viem's own limit is read (ts/service/chains/rpcErrors.ts): the indexer asks for a smaller range.
    expect(isLogRangeError(error)).to.equal(true);
    expect(isEndpointFault(error)).to.equal(false);
  });

  it("aRefusedConnection_isAnHttpError_aFaultOfTheUrl", async () => {
    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, "127.0.0.1", resolve));
    const port = (closed.address() as AddressInfo).port;
    await new Promise<void>((resolve) => closed.close(() => resolve()));
    const error = await getHttpRpcClient(`http://127.0.0.1:${port}`, { fetchFn })
      .request({ body: { method: "eth_blockNumber" } })
      .catch((e: unknown) => e);
    expect(error).to.be.instanceOf(HttpRequestError);
    expect(isEndpointFault(error)).to.equal(true);
  });

  it("credentialsInTheUrl_goAsBasicAuthorization", async () => {
    let authorization: string | undefined;
    handle = (body, req, res) => {
      authorization = req.headers.authorization;
      json(res, 200, { jsonrpc: "2.0", id: body.id, result: "0x1" });
    };
    const withCredentials = url.replace("http://", "http://ferry:s3cret@");
    expect((await getHttpRpcClient(withCredentials, { fetchFn }).request({ body: { method: "eth_chainId" } })).result).to.equal("0x1");
    expect(authorization).to.equal(`Basic ${Buffer.from("ferry:s3cret").toString("base64")}`);
  });
});
