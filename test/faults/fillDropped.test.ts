// Fault: the fill transaction does not land — dropped from the mempool, stuck under a base fee that
// rose above its max fee, or its nonce taken by someone else's transaction. The service runs as a real
// process (both store engines); the destination chain mines only when the test says so.
// After each: exactly one Filled for the request, the request in success with one public fill hash
// (the one that landed), repaid once.
import { expect } from "chai";
import { parseGwei, type Hex } from "viem";
import { createStore, type Store } from "../../ts/service/store/createStore.ts";
import { startTwoChains, type TwoChains } from "../service/solver/twoChains.ts";
import { accountingOf } from "./accounting.ts";
import { depositBridge, fundLoadUsers, publicStatus, quoteBridge, type DepositedBridge } from "./loadBridges.ts";
import { createScratchDatabase } from "./loadPostgres.ts";
import { serviceLogLines, startLoadService, type LoadService } from "./loadService.ts";
import { skipUnlessFaults } from "./faultSuite.ts";
import { canonicalHex } from "../../ts/service/model/values.ts";

type StatusRecord = { status: string; txHashes: string[] };

for (const engine of ["pglite", "postgres"] as const) {
  describe(`fault: the fill transaction does not land [${engine}]`, function () {
    this.timeout(300_000);
    let env: TwoChains | undefined;
    let service: LoadService | undefined;
    let database: { url: string; drop(): Promise<void> } | undefined;
    let dataDir: string;

    before(async function () {
      skipUnlessFaults(this);
      env = await startTwoChains();
      dataDir = `${env.dir}/service-data`;
      if (engine === "postgres") database = await createScratchDatabase();
      service = await startLoadService(env, {
        ...(database ? { databaseUrl: database.url } : { dataDir }),
        // A stuck transaction is replaced after 1.5 s (the default is 30 s).
        config: { solver: { pollIntervalMs: 100, replaceAfterMs: 1500 } },
        name: `fill-dropped-${engine}`,
      });
    });
    after(async () => {
      await service?.kill();
      await env?.destination.testClient.setAutomine(true).catch(() => {});
      await database?.drop().catch(() => {});
      await env?.close();
    });

    const statusOf = async (requestId: string) => {
      const response = await fetch(`${service!.url}/intents/status/v3?requestId=${requestId}`);
      return response.status === 200 ? ((await response.json()) as StatusRecord) : undefined;
    };

    /** Deposits with the destination not mining; resolves once the fill is sent (`submitted`) with its hash. */
    async function bridgeUntilSubmitted(): Promise<{ bridge: DepositedBridge; fillHash: Hex }> {
      const [user] = await fundLoadUsers(env!, 1);
      const quote = await quoteBridge(service!.url, env!, user!);
      await env!.destination.testClient.setAutomine(false);
      const bridge = await depositBridge(env!, quote);
      const submitted = await waitUntil(async () => {
        const status = await statusOf(bridge.requestId);
        return status?.status === "submitted" && status.txHashes.length > 0 ? status : undefined;
      }, 30_000, "the fill to be sent");
      return { bridge, fillHash: submitted.txHashes.at(-1) as Hex };
    }

    /** Mines a block every 200 ms (running `beforeEach` first) until the request is a success. */
    async function mineUntilSuccess(requestId: string, beforeEach: () => Promise<void> = async () => {}): Promise<StatusRecord> {
      return waitUntil(async () => {
        await beforeEach();
        await env!.destination.testClient.mine({ blocks: 1 });
        const status = await statusOf(requestId);
        return status?.status === "success" ? status : undefined;
      }, 60_000, "success").catch((error) => {
        throw new Error(`${(error as Error).message}\n${service!.output().slice(-3000)}`);
      });
    }

    async function finish(bridge: DepositedBridge): Promise<void> {
      await env!.destination.testClient.setAutomine(true);
      // The repayment happens on the origin chain (mining); wait until the request leaves the work list.
      let store: Store | undefined;
      try {
        if (engine === "postgres") {
          store = await createStore({ databaseUrl: database!.url });
          await waitUntil(async () => (await store!.getRequest(canonicalHex(bridge.requestId)))?.solver?.repayment?.status === "confirmed" || undefined, 30_000, "the repayment");
          await accountingOf(env!, store, [bridge]);
        } else {
          await waitUntil(async () => (await publicStatus(service!.url, bridge.requestId))?.status === "success" || undefined, 30_000, "success");
          // PGlite is one process's database: the accounting reads it after the service stops.
          await service!.stop();
          store = await createStore({ dataDir });
          await accountingOf(env!, store, [bridge]);
          await store.close();
          store = undefined;
          service = await startLoadService(env!, { dataDir, config: { solver: { pollIntervalMs: 100, replaceAfterMs: 1500 } }, name: `fill-dropped-${engine}` });
        }
      } finally {
        await store?.close();
      }
    }

    it("fillStuckUnderABaseFeeAboveItsMaxFee_isReplacedAtTheSameNonceWithHigherFees_andFillsOnce", async function () {
      // Before: the solver saw its fill in the mempool and waited for it forever.
      const { bridge, fillHash } = await bridgeUntilSubmitted();
      const before = await env!.destination.publicClient.getTransaction({ hash: fillHash });
      const high = (before.maxFeePerGas ?? 0n) * 3n + parseGwei("1");
      const done = await mineUntilSuccess(bridge.requestId, () => env!.destination.testClient.request({ method: "hardhat_setNextBlockBaseFeePerGas" as never, params: [`0x${high.toString(16)}`] as never }));
      expect(done.txHashes).to.have.length(1);
      const landed = await env!.destination.publicClient.getTransaction({ hash: done.txHashes[0] as Hex });
      expect(landed.hash).to.not.equal(fillHash);
      expect(landed.nonce, "the replacement keeps the nonce").to.equal(before.nonce);
      expect(landed.maxFeePerGas! > before.maxFeePerGas!).to.equal(true);
      expect(serviceLogLines(env!, bridge.requestId, `fill-dropped-${engine}`).some((line) => line.includes("replaced with higher fees"))).to.equal(true);
      await finish(bridge);
    });

    it("fillDroppedFromTheMempool_isBroadcastAgainUnchanged_andFillsOnce", async function () {
      const { bridge, fillHash } = await bridgeUntilSubmitted();
      await env!.destination.testClient.dropTransaction({ hash: fillHash });
      // The node forgot it; the solver notices and broadcasts the stored bytes again (same hash, same nonce).
      const done = await mineUntilSuccess(bridge.requestId);
      expect(done.txHashes).to.deep.equal([fillHash]);
      const lines = serviceLogLines(env!, bridge.requestId, `fill-dropped-${engine}`);
      expect(lines.some((line) => line.includes("re-broadcast")), lines.join("\n")).to.equal(true);
      await finish(bridge);
    });

    it("fillDroppedAndItsNonceTakenByAnotherTransaction_isSentAgainOnANewNonce_andFillsOnce", async function () {
      const { bridge, fillHash } = await bridgeUntilSubmitted();
      const dropped = await env!.destination.publicClient.getTransaction({ hash: fillHash });
      await env!.destination.testClient.dropTransaction({ hash: fillHash });
      // Someone else uses the solver's key (an operator's manual transfer) at the fill's nonce, paying more
      // than the fill did (so it also replaces the fill if the solver has broadcast it again meanwhile).
      const solverKey = env!.keyEnv.FERRY_SOLVER_KEY as Hex;
      const wallet = env!.destination.walletClient(solverKey);
      await wallet.sendTransaction({
        chain: wallet.chain,
        to: wallet.account.address,
        value: 0n,
        nonce: dropped.nonce,
        maxFeePerGas: dropped.maxFeePerGas! * 3n,
        maxPriorityFeePerGas: dropped.maxPriorityFeePerGas! * 3n + 1n,
      });
      const done = await mineUntilSuccess(bridge.requestId);
      expect(done.txHashes).to.have.length(1);
      const landed = await env!.destination.publicClient.getTransaction({ hash: done.txHashes[0] as Hex });
      expect(landed.nonce).to.be.greaterThan(dropped.nonce);
      await finish(bridge);
    });
  });
}

async function waitUntil<T>(read: () => Promise<T | undefined>, timeoutMs: number, what: string): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await read().catch(() => undefined);
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}
