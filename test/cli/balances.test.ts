// `ferry balances show` and `ferry keys funding-address` as subprocesses over a running service's
// admin API, on both engines (the service holds the database), and `balances show` on the database.
import { randomBytes } from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { expect } from "chai";
import { apiKeyStore } from "../../ts/service/store/apiKeys.ts";
import { createStore, type Store } from "../../ts/service/store/createStore.ts";
import { copyMigratedDataDir } from "../service/store/migratedDataDir.ts";
import { fixtureConfig, listen, type Listening } from "../service/http/testApp.ts";
import { runCliAsync, type CliRun } from "./runCli.ts";
import { postgresDatabase, requirePostgres } from "./serviceDatabase.ts";

const TOKEN = randomBytes(32).toString("hex");
const NEUTRAL = { FERRY_CONFIG: "", DATABASE_URL: "", FERRY_DATA_DIR: "", FERRY_API_URL: "", FERRY_ADMIN_TOKEN: "", FERRY_DEVNET_DIR: "", FERRY_WEBHOOK_SECRET_KEY: "" };
const PAYEE = "0x9965507D1a55bcC2695C58ba16FB37d819B0A4dc";

for (const kind of ["pglite", "postgres"] as const) {
  describe(`ferry balances / keys funding-address over the admin API [${kind}]`, function () {
    this.timeout(300_000);
    let store: Store;
    let server: Listening;
    let cleanup: () => Promise<void>;
    const cli = (args: string[]): Promise<CliRun> => runCliAsync(args, { env: { ...NEUTRAL, FERRY_API_URL: server.url, FERRY_ADMIN_TOKEN: TOKEN } });

    before(async function () {
      if (kind === "pglite") {
        const root = mkdtempSync(join(tmpdir(), "ferry-balances-cli-"));
        // A copy of a migrated database, ~5 s cheaper to open than a new one.
        store = await createStore({ dataDir: await copyMigratedDataDir(join(root, "data")) });
        cleanup = async () => rmSync(root, { recursive: true, force: true });
      } else {
        const database = await postgresDatabase();
        requirePostgres(this, database);
        store = await database.open();
        cleanup = () => database.drop();
      }
      server = await listen({ deps: { store }, config: fixtureConfig({}, { FERRY_ADMIN_TOKEN: TOKEN }) });
    });
    after(async () => {
      await server?.close();
      await store?.close();
      await cleanup?.();
    });

    it("balances_show_andFundingAddress_setClearAndRefuse", async () => {
      const app = await apiKeyStore(store).createApiKey("app");
      await store.appBalances.credit({ apiKeyId: app.id, amountUsd: 25_000_000n, source: { chainId: 31337, txHash: "0x" + "ab".repeat(32), logIndex: 3 }, currency: "0x" + "44".repeat(20), amount: 25_000_000n });
      await store.appBalances.hold({ apiKeyId: app.id, amountUsd: 1_500_000n, purpose: "execute", reference: "req-1" });

      const text = await cli(["balances", "show", app.id]);
      expect(text.status, text.stderr).to.equal(0);
      expect(text.stdout.split("\n")[0]).to.equal(`${app.id}: available 23.500000 USD, held 1.500000, credited 25.000000, debited 0.000000`);
      expect(text.stdout).to.match(/hold\s+1\.500000\s+execute\s+req-1/).and.match(/credit\s+25\.000000\s+-\s+31337:0x(ab){32}:3/);
      const json = JSON.parse((await cli(["balances", "show", app.id, "--json", "--limit", "1"])).stdout) as { availableUsd: string; entries: unknown[] };
      expect(json).to.deep.include({ availableUsd: "23500000" });
      expect(json.entries).to.have.length(1);
      const unknown = await cli(["balances", "show", "key_ffffffffffffffff"]);
      expect([unknown.status, unknown.stderr]).to.satisfy(([status, stderr]: [number, string]) => status === 2 && stderr.includes("UNKNOWN_API_KEY"));

      const set = await cli(["keys", "funding-address", app.id, PAYEE, "--json"]);
      expect(set.status, set.stderr).to.equal(0);
      expect(JSON.parse(set.stdout)).to.deep.equal({ id: app.id, fundingAddress: PAYEE.toLowerCase() });
      expect(await store.getApiKeyFundingAddress(app.id)).to.equal(PAYEE.toLowerCase());
      expect((await cli(["keys", "funding-address", app.id, "0x1234"])).status).to.equal(2);
      const cleared = await cli(["keys", "funding-address", "--clear", app.id]);
      expect(cleared.stdout).to.include("no funding address");
      expect(await store.getApiKeyFundingAddress(app.id)).to.equal(null);
    });
  });
}
