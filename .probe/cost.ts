import { createStore } from "../ts/service/store/createStore.ts";
import { listen, fixtureConfig } from "../test/service/http/testApp.ts";
const store = await createStore();
const server = await listen({ deps: { store }, config: fixtureConfig({ rateLimits: { anonymousPerMinute: 100000 } }) });
const obj: Record<string, number> = {};
for (let i = 0; i < 90_000; i++) obj["k" + i] = 1;
const keys = JSON.stringify(obj);
const str = JSON.stringify({ user: "x".repeat(keys.length - 12) });
const post = (body: string) => fetch(`${server.url}/quote/v2`, { method: "POST", headers: { "content-type": "application/json" }, body }).then((r) => r.text().then(() => r.status));
const cpu = async (body: string, n: number) => { const c = process.cpuUsage(); for (let i = 0; i < n; i++) await post(body); const d = process.cpuUsage(c); return (d.user + d.system) / 1000 / n; };
console.log(keys.length, await post(keys), await post(str)); await cpu(keys, 2); await cpu(str, 2);
for (let r = 0; r < 3; r++) { const k = await cpu(keys, 6); const s = await cpu(str, 6); console.log("keys ms", k.toFixed(1), "str ms", s.toFixed(1), "ratio", (k / s).toFixed(1)); }
const t = performance.now();
const attacks = [1, 2, 3, 4].map(() => post(keys));
await new Promise((r) => setTimeout(r, 5));
const h0 = performance.now(); await fetch(`${server.url}/health`).then((r) => r.text()); const health = performance.now() - h0;
await Promise.all(attacks);
console.log("health during 4 attacks ms", health.toFixed(0), "total", (performance.now() - t).toFixed(0));
await server.close(); await store.close();
