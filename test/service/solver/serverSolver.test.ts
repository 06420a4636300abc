// startServer runs the solver when the solver, attester and allocator keys are configured, not with
// config.solver.enabled false (FERRY_SOLVER=off), `solver: false` or a missing key, and stops it before closing.
import { expect } from "chai";
import { startServer } from "../../../ts/service/server.ts";
import { createStore, type Store } from "../../../ts/service/store/createStore.ts";
import { deposit, makeIntent, saveQuote, startTwoChains, type TwoChains } from "./twoChains.ts";
import { filledLogs, waitFor } from "./solverHelpers.ts";

describe("startServer and the solver", function () {
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

  it("startServer_withAllKeys_runsTheSolverUntilClosed", async () => {
    const server = await startServer({ config: env.config, deps: { store }, solver: { pollIntervalMs: 50 } });
    try {
      expect(server.solver).to.not.equal(undefined);
      const intent = makeIntent(env);
      await saveQuote(store, intent);
      await deposit(env, { orderId: intent.orderId, amount: BigInt(intent.originAmount) });
      await waitFor(async () => (await store.getRequest(intent.requestId))?.status === "success", 10_000, "success");
      expect(await filledLogs(env, intent.requestId)).to.have.length(1);
      // The solver's alerts are served by GET /metrics with the HTTP metrics.
      const metrics = await (await fetch(`${server.url}/metrics`)).text();
      for (const name of ["ferry_solver_foreign_fills_total", "ferry_payouts_claimable_total", "ferry_solver_gas_cap_exceeded_total", "ferry_depository_allocator_mismatch", "ferry_http_requests_total"]) {
        expect(metrics).to.include(`# TYPE ${name} `);
      }
    } finally {
      await server.close();
    }
    // Closed: the solver no longer indexes (the store stays usable: it is the caller's).
    const intent = makeIntent(env);
    await saveQuote(store, intent);
    await deposit(env, { orderId: intent.orderId, amount: BigInt(intent.originAmount) });
    await new Promise((r) => setTimeout(r, 300));
    expect(await store.getRequest(intent.requestId)).to.equal(null);
  });

  it("startServer_solverOffOrAKeyMissing_runsNoSolver", async () => {
    const { attester: _attester, ...keysWithoutAttester } = env.config.keys;
    for (const options of [
      { config: { ...env.config, solver: { ...env.config.solver, enabled: false } } },
      { config: env.config, solver: false as const },
      { config: { ...env.config, keys: keysWithoutAttester } },
    ]) {
      const server = await startServer({ ...options, deps: { store } });
      try {
        expect(server.solver).to.equal(undefined);
      } finally {
        await server.close();
      }
    }
  });
});
