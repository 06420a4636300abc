/**
 * `ferry mcp` driven by a real MCP client — the SDK's Client over StdioClientTransport, spawning the
 * real `ferry` bin — against a real in-process devnet (two EDR chains, the service and its solver):
 * the tools are listed with their schemas, a quote made through the `quote` tool is deposited and
 * followed to success, `list_requests` finds it, and a request refunded for ORDER_EXPIRED is
 * explained by `explain_failure` from its record. Bad input and the API's refusals are tool errors
 * carrying a code; closing stdin, or SIGINT, ends the server with exit 0.
 */
import { spawn } from "node:child_process";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { expect } from "chai";
import { parseEther, type Hex } from "viem";
import { waitForRequest } from "../../ts/client/waitForRequest.ts";
import type { Quote } from "../../ts/client/apiTypes.ts";
import { DESTINATION, NATIVE, ORIGIN, freshRecipient, startE2eDevnet, type E2eDevnet } from "../e2e/e2eDevnet.ts";
import { BIN, REPO_ROOT } from "./runCli.ts";

type ToolResult = { isError?: boolean; content: { type: string; text: string }[]; structuredContent?: Record<string, any> };

describe("ferry mcp (a real MCP client over stdio, a real devnet)", function () {
  this.timeout(300_000);
  let devnet: E2eDevnet;
  let client: Client;
  let stderr = "";

  const call = async (name: string, args: Record<string, unknown>): Promise<ToolResult> => (await client.callTool({ name, arguments: args })) as ToolResult;

  before(async function () {
    this.timeout(180_000);
    devnet = await startE2eDevnet();
    const transport = new StdioClientTransport({
      command: process.execPath,
      args: [BIN, "mcp", "--api-url", devnet.file.apiUrl, "--api-key", devnet.file.apiKey],
      cwd: REPO_ROOT,
      env: { PATH: process.env.PATH ?? "", HOME: process.env.HOME ?? "/tmp" },
      stderr: "pipe",
    });
    transport.stderr?.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
    client = new Client({ name: "ferry-mcp-test", version: "1.0.0" });
    await client.connect(transport);
  });
  after(async () => {
    await client?.close();
    await devnet?.close();
  });

  it("lists the four tools, each with a JSON Schema of its input", async () => {
    const { tools } = await client.listTools();
    expect(tools.map((tool) => tool.name)).to.deep.equal(["quote", "follow_request", "list_requests", "explain_failure"]);
    const quote = tools.find((tool) => tool.name === "quote")!;
    expect(quote.inputSchema.type).to.equal("object");
    expect(quote.inputSchema.required).to.include.members(["user", "originChainId", "destinationChainId", "amount", "tradeType"]);
    expect(stderr).to.include(`serving the Ferry API at ${devnet.file.apiUrl} (from --api-url) with an API key`);
  });

  it("quote → deposit → follow_request to success → list_requests finds it", async () => {
    const user = devnet.users[0]!;
    const recipient = freshRecipient();
    const quoted = await call("quote", {
      user: user.address,
      recipient,
      originChainId: ORIGIN,
      destinationChainId: DESTINATION,
      originCurrency: NATIVE,
      destinationCurrency: NATIVE,
      amount: parseEther("0.1").toString(),
      tradeType: "EXACT_INPUT",
    });
    expect(quoted.isError, quoted.content[0]?.text).to.not.equal(true);
    const requestId = quoted.structuredContent!.requestId as Hex;
    expect(requestId).to.match(/^0x[0-9a-f]{64}$/);
    expect(quoted.content[0]!.text).to.include(`Quoted request ${requestId}: send deposit`);

    const before = await call("follow_request", { requestId });
    expect(before.structuredContent).to.include({ status: "waiting", final: false });

    await devnet.client.executeQuote({ quote: quoted.structuredContent!.quote as Quote, walletClient: devnet.origin.wallet(user), pollIntervalMs: 250, timeoutMs: 120_000 });
    const followed = await call("follow_request", { requestId, waitSeconds: 60 });
    expect(followed.structuredContent).to.include({ requestId, status: "success", final: true });
    expect(followed.structuredContent!.txHashes).to.have.length(1);
    expect(followed.content[0]!.text).to.include(`Request ${requestId} is success (final).`);

    const listed = await call("list_requests", { user: user.address, limit: 5 });
    expect(listed.structuredContent!.requests.map((row: { id: string }) => row.id)).to.include(requestId);
    const explained = await call("explain_failure", { requestId });
    expect(explained.structuredContent).to.include({ failed: false, status: "success" });
  });

  it("explain_failure: a deposit after the fill deadline was refunded (ORDER_EXPIRED) — what happened and what to do", async () => {
    const user = devnet.users[1]!;
    const quote = await devnet.client.getQuote({
      user: user.address,
      originChainId: ORIGIN,
      destinationChainId: DESTINATION,
      originCurrency: NATIVE,
      destinationCurrency: NATIVE,
      amount: parseEther("0.2").toString(),
      tradeType: "EXACT_INPUT",
    });
    const requestId = quote.steps.at(-1)!.requestId;
    const latest = await devnet.destination.publicClient.getBlock();
    await devnet.destination.testClient.increaseTime({ seconds: quote.protocol.v2.orderData.output.deadline - Number(latest.timestamp) + 86_400 });
    await devnet.destination.testClient.mine({ blocks: 1 });
    await devnet.client.executeQuote({ quote, walletClient: devnet.origin.wallet(user), pollIntervalMs: 250, timeoutMs: 120_000 }).catch(() => {});
    await waitForRequest({ client: devnet.client, requestId, pollIntervalMs: 250, timeoutMs: 120_000, until: (s) => s.status === "refund" });

    const explained = await call("explain_failure", { requestId });
    expect(explained.isError).to.not.equal(true);
    expect(explained.structuredContent).to.include({ requestId, status: "refund", failed: true, failReason: "ORDER_EXPIRED", refundFailReason: null });
    expect(explained.structuredContent!.explanation).to.match(/fill deadline/).and.match(/The deposit was refunded on the origin chain/);
    expect(explained.structuredContent!.whatToDo).to.match(/new quote/);
    expect(explained.structuredContent!.details).to.have.property("fillDeadline");
    const listed = await call("list_requests", { user: user.address });
    expect(listed.content[0]!.text).to.include(`${requestId} refund (ORDER_EXPIRED)`);
  });

  it("bad input and the API's refusals are tool errors with a code, and the server goes on", async () => {
    const bad = await call("quote", { user: "me", originChainId: ORIGIN, destinationChainId: DESTINATION, originCurrency: NATIVE, destinationCurrency: NATIVE, amount: "1", tradeType: "EXACT_INPUT" });
    expect(bad.isError).to.equal(true);
    expect(bad.structuredContent).to.include({ errorCode: "INVALID_INPUT" });
    expect(bad.content[0]!.text).to.match(/^INVALID_INPUT: quote: \/user /);
    const refused = await call("quote", { user: devnet.users[0]!.address, originChainId: ORIGIN, destinationChainId: 999, originCurrency: NATIVE, destinationCurrency: NATIVE, amount: "1000", tradeType: "EXACT_INPUT" });
    expect(refused.isError).to.equal(true);
    expect(refused.structuredContent!.errorCode).to.match(/^UNSUPPORTED_/);
    const unknown = await call("nope", {});
    expect(unknown.structuredContent).to.include({ errorCode: "UNKNOWN_TOOL" });
    const { tools } = await client.listTools();
    expect(tools).to.have.length(4);
  });

  it("ends with exit 0 when the client closes stdin, and on SIGINT", async () => {
    for (const end of ["stdin", "SIGINT"] as const) {
      const child = spawn(process.execPath, [BIN, "mcp", "--api-url", devnet.file.apiUrl], { cwd: REPO_ROOT, stdio: ["pipe", "pipe", "pipe"] });
      let err = "";
      child.stderr.on("data", (chunk: Buffer) => (err += chunk.toString()));
      while (!err.includes("on stdio")) await new Promise((resolve) => setTimeout(resolve, 50));
      if (end === "stdin") child.stdin.end();
      else child.kill("SIGINT");
      const code = await new Promise((resolve) => child.on("exit", (exitCode) => resolve(exitCode)));
      expect(code, `${end}: ${err}`).to.equal(0);
    }
  });

  it("without an API to talk to: one line naming --api-url, exit 2", async () => {
    const child = spawn(process.execPath, [BIN, "mcp"], { cwd: "/", env: { PATH: process.env.PATH ?? "", FERRY_DEVNET_DIR: "/nonexistent" }, stdio: ["pipe", "pipe", "pipe"] });
    let err = "";
    child.stderr.on("data", (chunk: Buffer) => (err += chunk.toString()));
    const code = await new Promise((resolve) => child.on("exit", (exitCode) => resolve(exitCode)));
    expect(code).to.equal(2);
    expect(err).to.match(/^ferry: USAGE: no Ferry API to talk to: pass --api-url/);
  });
});
