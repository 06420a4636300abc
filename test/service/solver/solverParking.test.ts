/**
 * The solver's retry-or-park decision comes from the error registry: a request whose step fails with
 * a non-retryable error (here a corrupted solver state) is parked — out of the work list, logged at
 * error level, counted in /metrics — while a retryable failure (the destination RPC down) is logged
 * and retried on the next tick, and a corrupted request never blocks the others.
 */
import { expect } from "chai";
import { Registry } from "prom-client";
import { installStoreMetrics } from "../../../ts/service/http/metrics/storeMetrics.ts";
import type { Logger } from "../../../ts/service/logging/logger.ts";
import { createStore, type Store } from "../../../ts/service/store/createStore.ts";
import { createSolver } from "../../../ts/service/solver/startSolver.ts";
import { deposit, makeIntent, saveQuote, startTwoChains, type TwoChains } from "./twoChains.ts";
import { tickUntil } from "./solverHelpers.ts";

type Line = { level: string; obj: Record<string, unknown>; msg: string };
function recordingLog(lines: Line[]): Logger {
  const at = (level: string) => (obj: Record<string, unknown>, msg: string) => void lines.push({ level, obj, msg });
  return { debug: at("debug"), info: at("info"), warn: at("warn"), error: at("error") };
}

describe("solver: retry or park, by the error registry", function () {
  this.timeout(300_000);
  let env: TwoChains;
  let store: Store;

  before(async () => {
    env = await startTwoChains();
  });
  after(async () => {
    await env?.close();
  });
  beforeEach(async () => {
    store = await createStore();
  });
  afterEach(async () => {
    await store.close();
  });

  it("aCorruptedRequest_isParkedWithItsCode_loggedAtErrorLevel_andCounted_whileAnotherRequestStillFills", async () => {
    const corrupted = makeIntent(env);
    const healthy = makeIntent(env);
    await saveQuote(store, corrupted);
    await saveQuote(store, healthy);
    await deposit(env, { orderId: corrupted.orderId, amount: corrupted.originAmount });
    const lines: Line[] = [];
    const solver = createSolver({ config: env.config, store, log: recordingLog(lines) });
    // The indexer records the deposit; then the request's solver state is damaged in the database.
    await solver.tick();
    await store.engine.query(`UPDATE requests SET solver_state = jsonb_set(solver_state, '{deposit,amount}', '"lots"') WHERE id = $1`, [corrupted.requestId]);
    await store.engine.query(`UPDATE requests SET status = 'pending' WHERE id = $1`, [corrupted.requestId]);
    await deposit(env, { orderId: healthy.orderId, amount: healthy.originAmount });
    const done = await tickUntil(solver, store, healthy.requestId, (r) => r.status === "success");
    expect(done.status).to.equal("success");

    const { rows } = await store.engine.query<{ parked: { code: string; message: string } | null }>("SELECT parked FROM requests WHERE id = $1", [corrupted.requestId]);
    expect(rows[0]!.parked!.code).to.equal("STORED_VALUE_INVALID");
    expect(rows[0]!.parked!.message).to.contain("solver_state.deposit.amount");
    expect(lines.some((l) => l.level === "error" && l.obj.requestId === corrupted.requestId)).to.equal(true);
    expect((await store.listSolverWork()).map((w) => w.id)).to.not.include(corrupted.requestId);

    const registry = new Registry();
    installStoreMetrics(registry, store);
    expect(await registry.getSingleMetricAsString("ferry_solver_parked_requests")).to.contain("ferry_solver_parked_requests 1");
  });

  it("aRetryableFailure_isLoggedAsAWarning_andTheRequestStaysInTheWorkList", async () => {
    const intent = makeIntent(env);
    await saveQuote(store, intent);
    await deposit(env, { orderId: intent.orderId, amount: intent.originAmount });
    // The destination's RPC is down: every read of it fails like a dropped connection.
    const down = { ...env.config, chains: env.config.chains.map((c) => (c.id === env.destination.chainId ? { ...c, rpcUrl: "http://127.0.0.1:9", rpcUrls: ["http://127.0.0.1:9"] } : c)) };
    const lines: Line[] = [];
    const solver = createSolver({ config: down, store, log: recordingLog(lines) });
    for (let i = 0; i < 3; i++) await solver.tick();
    const request = (await store.getRequest(intent.requestId))!;
    expect(request.status).to.equal("pending");
    expect(request.parked).to.equal(null);
    expect(lines.some((l) => l.level === "warn" && l.obj.requestId === intent.requestId)).to.equal(true);
    expect(lines.some((l) => l.level === "error")).to.equal(false);
    expect((await store.listSolverWork()).map((w) => w.id)).to.include(intent.requestId);
  });
});
