/**
 * The SLO metrics (ts/service/http/metrics/sloMetrics.ts): the latency in blocks' search over a
 * chain's block times, and over HTTP on both engines the quote latency, the fills and refunds with
 * the fill latency in seconds (observed when the status change commits), and the overdue gauge.
 */
import { expect } from "chai";
import { LRUCache } from "lru-cache";
import { blocksSince, MAX_BLOCK_PROBES } from "../../../../ts/service/http/metrics/sloMetrics.ts";
import type { CreditedDeposit } from "../../../../ts/service/model/solverState.ts";
import type { OnchainTx } from "../../../../ts/service/model/requestData.ts";
import { describeEachEngine } from "../../store/engines.ts";
import { addr, hex, testNewRequest } from "../../fixtures/testRequest.ts";
import { fixtureConfig, listen, type Listening } from "../testApp.ts";

/** A chain whose block n was made at `times[n]`, counting the header reads. */
function chain(times: number[]) {
  const calls = { reads: 0 };
  return {
    calls,
    client: {
      getBlock: async ({ blockNumber }: { blockNumber: bigint }) => {
        calls.reads += 1;
        const timestamp = times[Number(blockNumber)];
        if (timestamp === undefined) throw new Error(`no block ${blockNumber}`);
        return { timestamp: BigInt(timestamp) };
      },
    } as never,
  };
}

describe("blocksSince", () => {
  it("counts the blocks after the first one at or after the time, up to the fill block", async () => {
    // Blocks every 2 s from t=1000: block n at 1000 + 2n.
    const times = Array.from({ length: 200 }, (_, n) => 1000 + 2 * n);
    expect(await blocksSince(chain(times).client, 1000 + 2 * 150, 150n), "filled in the deposit-time block").to.equal(0);
    expect(await blocksSince(chain(times).client, 1000 + 2 * 147, 150n)).to.equal(3);
    expect(await blocksSince(chain(times).client, 1000 + 2 * 147 - 1, 150n), "a time between blocks: the next block starts").to.equal(3);
    const { client, calls } = chain(times);
    expect(await blocksSince(client, 1000 + 2 * 40, 150n)).to.equal(110);
    expect(calls.reads).to.be.at.most(2 * Math.ceil(Math.log2(110)) + 2);
    expect(await blocksSince(chain(times).client, 0, 150n), "before the chain's first block").to.equal(150);
  });

  it("reads no header the chain's shared head has seen, and the same answer comes out", async () => {
    const times = Array.from({ length: 200 }, (_, n) => 1000 + 2 * n);
    // The head saw blocks 50–199 (a newHeads subscription sees every one).
    const head = { recent: (n: bigint) => (n >= 50n && n < 200n ? { number: n, timestamp: BigInt(times[Number(n)]!) } : undefined) } as never;
    const { client, calls } = chain(times);
    expect(await blocksSince(client, 1000 + 2 * 147, 150n, head)).to.equal(3);
    expect(await blocksSince(client, 1000 + 2 * 120, 199n, head)).to.equal(79);
    expect(calls.reads, "every probe answered by the head").to.equal(0);
    // Further back than the head remembers: read, as before.
    expect(await blocksSince(client, 1000 + 2 * 10, 150n, head)).to.equal(140);
    expect(calls.reads).to.be.greaterThan(0);
  });

  it("a burst of fills searching the same blocks, with the times read kept, reads each header once", async () => {
    // At 200 users the fills of one burst search the same destination blocks; the head had not seen the
    // oldest (before the service started), and each fill read them again: ~3 reads per intent.
    const times = Array.from({ length: 200 }, (_, n) => 1000 + 2 * n);
    const { client, calls } = chain(times);
    const kept = new LRUCache<bigint, number>({ max: 100 });
    const first = await blocksSince(client, 1000 + 2 * 100, 150n, undefined, kept);
    const readsOnce = calls.reads;
    expect(first).to.equal(50);
    for (let i = 0; i < 10; i++) expect(await blocksSince(client, 1000 + 2 * 100, 150n, undefined, kept)).to.equal(50);
    expect(calls.reads, "no header read twice").to.equal(readsOnce);
  });

  it("gives up (undefined) rather than read more than MAX_BLOCK_PROBES headers", async () => {
    const times = Array.from({ length: 2 ** 20 }, (_, n) => n);
    const { client, calls } = chain(times);
    expect(await blocksSince(client, 1, BigInt(2 ** 20 - 1))).to.equal(undefined);
    expect(calls.reads).to.equal(MAX_BLOCK_PROBES);
  });
});

describeEachEngine("GET /metrics: SLOs", (engine) => {
  let server: Listening;
  before(async () => {
    server = await listen({ config: fixtureConfig(), deps: { store: engine.store } });
  });
  after(async () => server?.close());

  const now = () => Math.floor(Date.now() / 1000);
  const deposit = (n: number, blockTimestamp: number): CreditedDeposit => ({
    chainId: 31337,
    depository: addr(0xd0),
    txHash: hex(5000 + n),
    logIndex: 0,
    block: 100 + n,
    blockTimestamp,
    depositor: addr(0xaa),
    token: addr(0),
    amount: 1n,
  });
  const fillTx = (n: number, timestamp: number): OnchainTx => ({
    fee: "1",
    data: {},
    stateChanges: [],
    hash: hex(6000 + n),
    block: 70 + n,
    type: "onchain",
    chainId: 31338,
    timestamp,
    status: "success",
  });

  /** A request credited with a deposit made at `depositTime`, taken as far as `to`. */
  async function credited(n: number, depositTime: number, to: "pending" | "submitted" | "success" | "refund", fillTime?: number) {
    const created = await engine.store.createRequest(testNewRequest(n));
    const solver = { ...created.solver!, deposit: deposit(n, depositTime) };
    await engine.store.transitionRequest(created.id, "pending", { solver });
    if (to === "pending") return;
    if (to === "refund") {
      await engine.store.transitionRequest(created.id, "failure", { failReason: "ORDER_EXPIRED" });
      await engine.store.transitionRequest(created.id, "refund", {});
      return;
    }
    await engine.store.transitionRequest(created.id, "submitted", { txHashes: [hex(6000 + n)] });
    if (to === "success") await engine.store.transitionRequest(created.id, "success", { data: { outTxs: [fillTx(n, fillTime!)] } });
  }

  it("sloMetrics_fillsRefundsLatencyOverdue_fromCommittedTransitions", async () => {
    const t = now();
    await credited(1, t - 3600, "pending"); // overdue
    await credited(2, t - 3600, "submitted"); // overdue: a fill in flight for an hour
    await credited(3, t, "pending"); // just credited: not overdue
    await credited(4, t - 3600, "success", t - 3600 + 12); // filled 12 s after its deposit block
    await credited(5, t - 3600, "refund");
    // A quote refused (400): its latency is observed under `refused`.
    await fetch(`${server.url}/quote/v2`, { method: "POST", headers: { "content-type": "application/json" }, body: "{}" });
    const text = await (await fetch(`${server.url}/metrics`)).text();
    const value = (series: string) => {
      const line = text.split("\n").find((l) => l.startsWith(`${series} `));
      expect(line, `${series} in:\n${text.split("\n").filter((l) => /ferry_(requests|fill|quote)/.test(l)).join("\n")}`).to.not.equal(undefined);
      return Number(line!.split(" ")[1]);
    };
    const route = 'origin_chain_id="31337",destination_chain_id="31338"';
    expect(value("ferry_requests_overdue")).to.equal(2);
    expect(value(`ferry_requests_filled_total{${route}}`)).to.equal(1);
    expect(value(`ferry_requests_refunded_total{${route}}`)).to.equal(1);
    expect(value(`ferry_fill_latency_seconds_count{${route}}`)).to.equal(1);
    expect(value(`ferry_fill_latency_seconds_sum{${route}}`)).to.equal(12);
    expect(value(`ferry_fill_latency_seconds_bucket{le="10",${route}}`)).to.equal(0);
    expect(value(`ferry_fill_latency_seconds_bucket{le="15",${route}}`)).to.equal(1);
    expect(value('ferry_quote_latency_seconds_count{outcome="refused"}')).to.equal(1);
  });

  it("store.onTransition: told after commit, once per transitioned request, never for a rolled-back transaction", async () => {
    const seen: string[] = [];
    const stop = engine.store.onTransition((request) => seen.push(`${request.id.slice(-2)}:${request.status}`));
    try {
      const a = await engine.store.createRequest(testNewRequest(0x21));
      const b = await engine.store.createRequest(testNewRequest(0x22));
      await engine.store.transaction(async (tx) => {
        await tx.transitionRequest(a.id, "pending", {});
        expect(seen, "not before the commit").to.deep.equal([]);
        await tx.transitionRequest(b.id, "pending", {});
      });
      expect(seen).to.deep.equal(["21:pending", "22:pending"]);
      await engine.store
        .transaction(async (tx) => {
          await tx.transitionRequest(a.id, "submitted", {});
          throw new Error("rolled back");
        })
        .catch(() => {});
      expect(seen).to.have.length(2);
      await engine.store.transitionRequest(a.id, "submitted", {});
      expect(seen).to.deep.equal(["21:pending", "22:pending", "21:submitted"]);
    } finally {
      stop();
    }
  });
});
