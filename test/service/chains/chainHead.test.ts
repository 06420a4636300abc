// createChainHead (ts/service/chains/chainHead.ts): one head read per chain shared by every reader.
// On EDR (no websocket): polled, concurrent and repeated readers within maxAgeMs share one
// eth_getBlockByNumber, `atLeast` never returns a head below the block asked for, `known()` is the last
// head any reader saw without a read, `onNewHead` tells each higher head once. On Anvil (websocket):
// heads pushed by eth_subscribe("newHeads"), no read per call, `atLeast` a block not pushed yet waits
// for its push (read only when it does not come in time); a dropped subscription falls back to
// polling and the head still moves.
import { expect } from "chai";
import { network } from "hardhat";
import { spawn } from "node:child_process";
import { fileURLToPath } from "node:url";
import { createPublicClient, http, type PublicClient } from "viem";
import { startAnvilNode, type AnvilNode } from "../../../ts/devnet/anvilNode.ts";
import { createChainHead, RECENT_HEADS } from "../../../ts/service/chains/chainHead.ts";
import { startTcpRelay } from "./tcpRelay.ts";

/** A public client over `url` whose getBlock calls are counted. */
function countingClient(url: string): { client: Pick<PublicClient, "getBlock">; reads: () => number } {
  const inner = createPublicClient({ transport: http(url), cacheTime: 0 }) as PublicClient;
  let reads = 0;
  return {
    client: {
      getBlock: ((args: Parameters<PublicClient["getBlock"]>[0]) => {
        reads += 1;
        return inner.getBlock(args);
      }) as PublicClient["getBlock"],
    },
    reads: () => reads,
  };
}

async function rpc(url: string, method: string, params: unknown[] = []): Promise<unknown> {
  const answer = await fetch(url, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ jsonrpc: "2.0", id: 1, method, params }) });
  return ((await answer.json()) as { result: unknown }).result;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function until(what: string, check: () => boolean | Promise<boolean>, timeoutMs = 10_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await sleep(20);
  }
}

describe("createChainHead", function () {
  this.timeout(60_000);

  describe("polling (EDR, no websocket)", () => {
    let server: { close(): Promise<void> };
    let url: string;
    before(async () => {
      const created = await network.createServer("origin", "127.0.0.1", 0);
      const { address, port } = await created.listen();
      server = created;
      url = `http://${address}:${port}`;
      await rpc(url, "hardhat_mine", ["0x5"]);
    });
    after(async () => server?.close());

    it("concurrentAndRepeatedReaders_withinMaxAge_shareOneRead", async () => {
      const { client, reads } = countingClient(url);
      const head = createChainHead(client, { maxAgeMs: 60_000 });
      const heads = await Promise.all(Array.from({ length: 20 }, () => head.latest()));
      await head.latest();
      expect(reads()).to.equal(1);
      expect(new Set(heads.map((h) => h.number)).size).to.equal(1);
      expect(head.mode()).to.equal("polling");
      expect(heads[0]!.hash).to.match(/^0x[0-9a-f]{64}$/);
    });

    it("known_isTheLastHeadAnyReaderSaw_withoutARead", async () => {
      // What keys the quote's per-block reads (ChainWatch.head): it moves when any reader read, and reads nothing.
      const { client, reads } = countingClient(url);
      const head = createChainHead(client, { maxAgeMs: 0 });
      expect(head.known()).to.equal(undefined);
      const first = await head.latest();
      expect(head.known()).to.deep.equal(first);
      await rpc(url, "hardhat_mine", ["0x1"]);
      expect(head.known()!.number, "no read of its own").to.equal(first.number);
      const second = await head.latest();
      expect(second.number).to.equal(first.number + 1n);
      expect(head.known()).to.deep.equal(second);
      expect(reads()).to.equal(2);
    });

    it("recent_remembersTheHeadsItRead_byNumber_boundedToTheNewest", async () => {
      const { client } = countingClient(url);
      const head = createChainHead(client, { maxAgeMs: 0 });
      const first = await head.latest();
      await rpc(url, "hardhat_mine", ["0x1"]);
      const second = await head.latest();
      expect(head.recent(first.number)).to.deep.equal(first);
      expect(head.recent(second.number)).to.deep.equal(second);
      expect(head.recent(second.number + 1n), "not seen yet").to.equal(undefined);
      for (let i = 0; i < RECENT_HEADS; i++) {
        await rpc(url, "hardhat_mine", ["0x1"]);
        await head.latest();
      }
      expect(head.recent(first.number), "the oldest are forgotten").to.equal(undefined);
      expect(head.recent((await head.latest()).number)).to.not.equal(undefined);
    });

    it("onNewHead_toldOfEachHigherHeadOnce_asAReaderSeesIt", async () => {
      // What wakes the solver's work list for the requests waiting for a block (ts/service/solver/blockWait.ts).
      const { client, reads } = countingClient(url);
      const head = createChainHead(client, { maxAgeMs: 0 });
      const told: bigint[] = [];
      const off = head.onNewHead((h) => told.push(h.number));
      head.onNewHead(() => {
        throw new Error("a listener that fails");
      });
      const first = await head.latest();
      await head.latest();
      expect(told, "the first head, and not the same one again").to.deep.equal([first.number]);
      await rpc(url, "hardhat_mine", ["0x2"]);
      expect(told, "nothing without a read").to.have.length(1);
      const second = await head.latest();
      expect(told).to.deep.equal([first.number, second.number]);
      off();
      await rpc(url, "hardhat_mine", ["0x1"]);
      await head.latest();
      expect(told, "unsubscribed").to.have.length(2);
      expect(reads()).to.equal(4);
    });

    it("aHeadOlderThanMaxAge_isReadAgain_andMoves", async () => {
      const { client, reads } = countingClient(url);
      const head = createChainHead(client, { maxAgeMs: 50 });
      const first = await head.latest();
      await rpc(url, "hardhat_mine", ["0x2"]);
      await sleep(80);
      const second = await head.latest();
      expect(reads()).to.equal(2);
      expect(second.number).to.equal(first.number + 2n);
    });

    it("atLeast_aBlockBeyondTheCachedHead_isReadFresh_neverAnOlderHead", async () => {
      const { client, reads } = countingClient(url);
      const head = createChainHead(client, { maxAgeMs: 60_000 });
      const first = await head.latest();
      await rpc(url, "hardhat_mine", ["0x1"]);
      expect((await head.latest()).number).to.equal(first.number);
      const fresh = await head.latest({ atLeast: first.number + 1n });
      expect(fresh.number).to.equal(first.number + 1n);
      expect(reads()).to.equal(2);
    });
  });

  describe("subscription (Anvil, websocket)", () => {
    let anvil: AnvilNode;
    before(async () => {
      anvil = await startAnvilNode({ chainId: 31337, host: "127.0.0.1", port: 0 });
    });
    after(async () => anvil?.close());

    it("newHeads_pushed_noReadPerCall", async () => {
      const { client, reads } = countingClient(anvil.rpcUrl);
      const modes: string[] = [];
      const head = createChainHead(client, { maxAgeMs: 10, wsUrl: anvil.rpcUrl.replace(/^http/, "ws"), onModeChange: (mode) => modes.push(mode) });
      try {
        const start = await head.latest();
        expect(head.mode()).to.equal("subscription");
        const readsBefore = reads();
        for (let i = 1; i <= 3; i++) {
          await rpc(anvil.rpcUrl, "evm_mine");
          await until(`head ${start.number + BigInt(i)} pushed`, async () => (await head.latest()).number === start.number + BigInt(i));
        }
        // Many calls, several blocks, well past maxAgeMs: not one read more.
        expect(reads()).to.equal(readsBefore);
        expect(modes).to.deep.equal(["subscription"]);
        // Every pushed block is remembered by number (what the fill latency in blocks probes), with its time.
        for (let i = 1; i <= 3; i++) {
          const block = await client.getBlock({ blockNumber: start.number + BigInt(i) });
          expect(head.recent(start.number + BigInt(i))).to.deep.include({ number: block.number, timestamp: block.timestamp });
        }
        expect(head.recent(start.number + 4n)).to.equal(undefined);
      } finally {
        head.close();
      }
    });

    it("atLeast_aBlockNotPushedYet_waitsForItsPush_insteadOfReading", async () => {
      // A receipt names block n a moment before n's newHeads notification arrives: finality asks for a
      // head of at least n, and the head waits for the push rather than read (issue 26: ~3 reads per intent).
      const { client, reads } = countingClient(anvil.rpcUrl);
      const head = createChainHead(client, { wsUrl: anvil.rpcUrl.replace(/^http/, "ws"), pushWaitMs: 5_000 });
      try {
        const start = await head.latest();
        expect(head.mode()).to.equal("subscription");
        const readsBefore = reads();
        const asked = head.latest({ atLeast: start.number + 1n });
        await sleep(100);
        await rpc(anvil.rpcUrl, "evm_mine");
        const got = await asked;
        expect(got.number, "the pushed block").to.equal(start.number + 1n);
        expect(reads(), "no read").to.equal(readsBefore);
      } finally {
        head.close();
      }
    });

    it("atLeast_aBlockNeverPushedWithinTheWait_isRead", async () => {
      const { client, reads } = countingClient(anvil.rpcUrl);
      const head = createChainHead(client, { wsUrl: anvil.rpcUrl.replace(/^http/, "ws"), pushWaitMs: 50 });
      try {
        const start = await head.latest();
        const readsBefore = reads();
        const got = await head.latest({ atLeast: start.number + 100n });
        expect(reads(), "read after the wait").to.equal(readsBefore + 1);
        expect(got.number >= start.number, "the chain's latest block as read").to.equal(true);
      } finally {
        head.close();
      }
    });

    it("aDroppedSubscription_fallsBackToPolling_andTheHeadStillMoves", async () => {
      // The websocket goes through a TCP relay that the test cuts.
      const relay = await startTcpRelay(Number(new URL(anvil.rpcUrl).port));
      const wsUrl = relay.wsUrl;
      const { client, reads } = countingClient(anvil.rpcUrl);
      const modes: Array<{ mode: string; reason: string }> = [];
      const head = createChainHead(client, { maxAgeMs: 10, wsUrl, staleAfterMs: 500, resubscribeAfterMs: 60_000, onModeChange: (mode, reason) => modes.push({ mode, reason }) });
      try {
        await head.latest();
        expect(head.mode()).to.equal("subscription");
        await rpc(anvil.rpcUrl, "evm_mine");
        await sleep(200);
        relay.close();
        const before = (await head.latest()).number;
        await rpc(anvil.rpcUrl, "evm_mine");
        await rpc(anvil.rpcUrl, "evm_mine");
        // The socket's close (or, at the latest, staleAfterMs without a head) ends the subscription.
        await until("the fallback to polling", async () => (await head.latest()).number >= before + 2n, 5_000);
        expect(head.mode()).to.equal("polling");
        expect(modes.at(-1)!.mode).to.equal("polling");
        const readsBefore = reads();
        await rpc(anvil.rpcUrl, "evm_mine");
        await sleep(20);
        expect((await head.latest()).number).to.equal(before + 3n);
        expect(reads()).to.be.greaterThan(readsBefore);
      } finally {
        head.close();
        relay.close();
      }
    });

    it("aDroppedSubscription_isResubscribedOnAFreshSocket", async () => {
      // viem keeps a socket client per URL, and one whose server went away stayed in its cache:
      // resubscribing got the dead socket back, and the head never left polling.
      const relay = await startTcpRelay(Number(new URL(anvil.rpcUrl).port));
      const wsUrl = relay.wsUrl;
      const { client } = countingClient(anvil.rpcUrl);
      const head = createChainHead(client, { maxAgeMs: 10, wsUrl, staleAfterMs: 500, resubscribeAfterMs: 300 });
      try {
        await head.latest();
        await until("the first subscription", () => head.mode() === "subscription" && relay.connections() === 1);
        relay.cut();
        await until("the fallback to polling", async () => {
          await head.latest();
          return head.mode() === "polling";
        });
        // After resubscribeAfterMs, a reader's call subscribes again, on a new connection, and heads are pushed again.
        await until("a second connection", async () => {
          await head.latest();
          return relay.connections() === 2 && head.mode() === "subscription";
        });
        const before = (await head.latest()).number;
        await rpc(anvil.rpcUrl, "evm_mine");
        await until("a head pushed on the new socket", () => (head.known()?.number ?? 0n) > before);
        expect(head.mode()).to.equal("subscription");
      } finally {
        head.close();
        relay.close();
      }
    });

    it("aProcessWhoseHeadLostItsSocketAndWasClosed_exitsByItself", async function () {
      // The dropped socket's keep-alive interval outlived the head and kept its process alive for good
      // (the test runner itself never exited after a run that had subscribed heads).
      this.timeout(60_000);
      const child = spawn(process.execPath, [fileURLToPath(new URL("./headExitFixture.ts", import.meta.url)), anvil.rpcUrl], { stdio: ["ignore", "pipe", "inherit"] });
      let out = "";
      child.stdout.on("data", (chunk: Buffer) => (out += chunk.toString()));
      const code = await new Promise<number | null>((resolve) => {
        const timer = setTimeout(() => {
          child.kill("SIGKILL");
          resolve(null);
        }, 20_000);
        child.on("exit", (exitCode) => {
          clearTimeout(timer);
          resolve(exitCode);
        });
      });
      expect(out.trim()).to.equal("closed polling");
      expect(code, "the process exited by itself within 20 s").to.equal(0);
    });
  });
});
