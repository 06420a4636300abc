// `npm run lint:openapi`: builds the app (every route: an in-memory store and a two-chain config),
// dumps GET /openapi.json and lints it with Redocly's recommended rules. Exits with Redocly's code.
//   node scripts/openapi-lint.ts [--out openapi.json]   also keeps the document at that path
import { spawnSync } from "node:child_process";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { parseConfig, resolveChainContracts } from "../ts/service/config/parseConfig.ts";
import { buildApp } from "../ts/service/http/app.ts";
import { createStore } from "../ts/service/store/createStore.ts";

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");

/** A configuration with everything the routes read; the values only shape the document's examples. */
function lintConfig() {
  const chain = (id: number, name: string) => ({
    id,
    name,
    displayName: name,
    rpcUrl: "http://127.0.0.1:1",
    nativeCurrency: { symbol: "ETH", name: "Ether", decimals: 18 },
    contracts: {
      depository: "0x1111111111111111111111111111111111111111",
      attestedReceiver: "0x2222222222222222222222222222222222222222",
      multicaller: "0x3333333333333333333333333333333333333333",
    },
  });
  // An admin token, so the /admin/… routes are in the document and linted too.
  const env = { FERRY_ADMIN_TOKEN: "lint-only-admin-token-0123456789abcdef" };
  return resolveChainContracts(parseConfig({ chains: [chain(31337, "origin"), chain(31338, "destination")] }, env, ROOT), new Map());
}

const outIndex = process.argv.indexOf("--out");
const out = outIndex > 0 ? path.resolve(process.argv[outIndex + 1]!) : undefined;

const store = await createStore({});
const app = await buildApp({ config: lintConfig(), deps: { store } });
const response = await app.inject({ method: "GET", url: "/openapi.json" });
await app.close();
await store.close();
if (response.statusCode !== 200) throw new Error(`GET /openapi.json answered ${response.statusCode}`);

const dir = await mkdtemp(path.join(tmpdir(), "ferry-openapi-"));
const file = out ?? path.join(dir, "openapi.json");
await writeFile(file, `${JSON.stringify(response.json(), null, 2)}\n`);
const lint = spawnSync(path.join(ROOT, "node_modules/.bin/redocly"), ["lint", "--extends", "recommended", "--format", "stylish", file], {
  stdio: "inherit",
  env: { ...process.env, REDOCLY_TELEMETRY: "off", REDOCLY_SUPPRESS_UPDATE_NOTICE: "true" },
});
await rm(dir, { recursive: true, force: true });
process.exit(lint.status ?? 1);
