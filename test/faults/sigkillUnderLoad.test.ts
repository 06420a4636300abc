// Fault: the service process SIGKILLed at random points while 200 bridges are in flight, restarted
// each time on the same database. 200 users quote through the API and deposit at once; the service is
// killed 3 times (0.3–2.5 s after each start, wherever its steps are: indexing, between a fill's
// record and its broadcast, mid-repayment, mid-webhook). After the last restart everything settles:
// every deposit ends in success or refund exactly once, no request is filled twice, each is repaid or
// refunded once (RequestExecuted per payout nonce), and every status event reached the webhook
// receiver (at least once, deduplicated by X-Ferry-Event-Id; none lost). Both store engines.
import { randomBytes } from "node:crypto";
import { expect } from "chai";
import type { Hex } from "viem";
import { depositoryAbi } from "../../ts/abi/Depository.ts";
import { payoutNonce } from "../../ts/service/solver/payout/payoutPlan.ts";
import { apiKeyStore } from "../../ts/service/store/apiKeys.ts";
import { createStore, type Store } from "../../ts/service/store/createStore.ts";
import { webhookStore } from "../../ts/service/store/webhooks/webhooks.ts";
import { parseWebhookSecretKey } from "../../ts/service/store/webhooks/webhookSecrets.ts";
import { startTwoChains, type TwoChains } from "../service/solver/twoChains.ts";
import { startReceiver, type Receiver } from "../service/webhooks/webhookReceiver.ts";
import { accountingOf } from "./accounting.ts";
import { depositBridge, fundLoadUsers, publicStatus, quoteBridge, type DepositedBridge, type QuotedBridge } from "./loadBridges.ts";
import { createScratchDatabase } from "./loadPostgres.ts";
import { startLoadService, type LoadService } from "./loadService.ts";
import { skipUnlessFaults } from "./faultSuite.ts";

const BRIDGES = Number(process.env.FERRY_FAULT_BRIDGES ?? 200);
const KILLS = 3;

for (const engine of ["pglite", "postgres"] as const) {
  describe(`fault: service SIGKILLed under load [${engine}]`, function () {
    this.timeout(900_000);
    let env: TwoChains | undefined;
    let receiver: Receiver | undefined;
    let service: LoadService | undefined;
    let database: { url: string; drop(): Promise<void> } | undefined;
    let dataDir: string;
    const secretHex = randomBytes(32).toString("hex");

    before(async function () {
      skipUnlessFaults(this);
      env = await startTwoChains();
      receiver = await startReceiver();
      dataDir = `${env.dir}/service-data`;
      if (engine === "postgres") database = await createScratchDatabase();
    });
    after(async () => {
      await service?.kill();
      await receiver?.close();
      await database?.drop().catch(() => {});
      await env?.close();
    });

    const openStore = () => (database ? createStore({ databaseUrl: database.url }) : createStore({ dataDir }));
    const start = () =>
      startLoadService(env!, {
        ...(database ? { databaseUrl: database.url } : { dataDir }),
        env: { FERRY_WEBHOOK_SECRET_KEY: secretHex },
        config: { solver: { pollIntervalMs: 100, replaceAfterMs: 5000 } },
        name: `sigkill-${engine}`,
      });

    it(`${BRIDGES}ConcurrentBridges_serviceKilled${KILLS}TimesAtRandom_everyDepositSettlesExactlyOnce_noWebhookLost`, async function () {
      let apiKey: string;
      {
        const store = await openStore();
        try {
          apiKey = (await apiKeyStore(store).createApiKey("load", 10_000_000)).key;
          await webhookStore(store, { secretKey: parseWebhookSecretKey(secretHex) }).setWebhook({ apiKey, url: receiver!.url });
        } finally {
          await store.close();
        }
      }
      service = await start();
      const users = await fundLoadUsers(env!, BRIDGES);
      const quotes: QuotedBridge[] = [];
      for (let i = 0; i < users.length; i += 25) quotes.push(...(await Promise.all(users.slice(i, i + 25).map((user) => quoteBridge(service!.url, env!, user, { apiKey })))));

      // All deposits at once; meanwhile the service dies and comes back KILLS times.
      const deposits = Promise.all(quotes.map((quote) => depositBridge(env!, quote)));
      deposits.catch(() => {});
      const kills: string[] = [];
      for (let k = 0; k < KILLS; k++) {
        const after = 300 + Math.floor(Math.random() * 2200);
        await new Promise((resolve) => setTimeout(resolve, after));
        await service.kill();
        kills.push(`${after} ms`);
        service = await start();
      }
      const bridges: DepositedBridge[] = await deposits;
      console.log(`      killed after ${kills.join(", ")} (each from its start)`);

      // Settled: every request success or refund, and every success repaid onchain.
      const depository = env!.config.chains.find((c) => c.id === env!.origin.chainId)!.contracts.depository;
      const settled = async (bridge: DepositedBridge) => {
        const status = (await publicStatus(service!.url, bridge.requestId))?.status;
        if (status === "refund") return true;
        if (status !== "success") return false;
        return env!.origin.publicClient.readContract({ address: depository, abi: depositoryAbi, functionName: "executed", args: [payoutNonce("repayment", bridge.requestId as Hex)] });
      };
      const open = new Set(bridges);
      await waitUntil(async () => {
        for (const bridge of [...open].slice(0, 50)) if (await settled(bridge)) open.delete(bridge);
        return open.size === 0;
      }, 300_000, "every bridge to settle").catch((error) => {
        throw new Error(`${(error as Error).message} (${open.size} open)\n${service!.output().slice(-3000)}`);
      });
      // Webhooks: each request's last event (success/refund) delivered implies the earlier ones were (in order per request).
      const lastDelivered = () => {
        const done = new Set<string>();
        for (const hook of receiver!.received) {
          if (hook.statusSent !== 200) continue;
          const body = JSON.parse(hook.rawBody) as { data: { requestId: string; status: string } };
          if (body.data.status === "success" || body.data.status === "refund") done.add(body.data.requestId.toLowerCase());
        }
        return done;
      };
      await waitUntil(async () => bridges.every((b) => lastDelivered().has(b.requestId)), 180_000, "every request's last webhook");

      // The books, from the chains and the store (PGlite: after the service stopped).
      let store: Store | undefined;
      try {
        if (engine === "pglite") await service.stop();
        store = await openStore();
        const totals = await accountingOf(env!, store, bridges, receiver!.received);
        expect(totals.success + totals.refund).to.equal(BRIDGES);
        console.log(`      ${JSON.stringify(totals)}`);
      } finally {
        await store?.close();
      }
    });
  });
}

async function waitUntil(check: () => Promise<boolean>, timeoutMs: number, what: string): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    if (await check().catch(() => false)) return;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
}
