// A step of the solver's loop that leaves its request waiting for a block (a fill or a payout sent, not
// final: ts/service/solver/blockWait.ts) keeps the request's lease instead of giving it back: the loop
// steps the request again once the block comes, renewing the lease it still holds, and no other loop
// (no other replica) takes the request meanwhile — it would only find the same transaction not final.
// The lease is given back by the step that leaves the request with work anyone may do, and by `stop()`;
// the step that leaves it with none (its repayment confirmed) keeps it too: nothing lists the request
// again, and the work list's statement deletes the lease once it has lapsed. Before, every step inserted
// and deleted its lease: at 200 users 3.4 `INSERT` and 3.4 `DELETE solver_claims` per intent
// (bench:intent-cost), the deletes of the waiting steps for nothing; then one per intent, the last
// step's, for nothing either. A loop that dies leaves its kept leases to lapse (`leaseMs`).
import { expect } from "chai";
import { startSolver, type RunningSolver } from "../../../ts/service/solver/startSolver.ts";
import { createStore, type Store } from "../../../ts/service/store/createStore.ts";
import { canonicalHex } from "../../../ts/service/model/values.ts";
import type { StoredRequest } from "../../../ts/service/model/storedRequest.ts";
import { countingStore, filledLogs, waitFor } from "./solverHelpers.ts";
import { deposit, makeIntent, saveQuote, startTwoChains, type TwoChains } from "./twoChains.ts";

describe("solver: a request's lease across its wait for a block", function () {
  this.timeout(300_000);
  let env: TwoChains;
  let store: Store;
  let solver: RunningSolver | undefined;

  before(async () => {
    env = await startTwoChains();
    store = await createStore();
  });
  after(async () => {
    await solver?.stop();
    await env?.destination.testClient.setAutomine(true);
    await store?.close();
    await env?.close();
  });

  it("aStepLeavingItsRequestWaiting_keepsTheLease_exclusiveToItsLoop_andTheLastStepDeletesNone", async () => {
    const { store: counted, calls } = countingStore(store);
    const intent = makeIntent(env);
    const id = canonicalHex(intent.requestId);
    const until = (done: (r: StoredRequest) => boolean, what: string) =>
      waitFor(async () => {
        const request = await store.getRequest(id);
        return request && done(request) ? request : undefined;
      }, 30_000, what);
    await saveQuote(store, intent);
    await deposit(env, { orderId: intent.orderId, amount: BigInt(intent.originAmount) });
    // The destination mines only when told: the fill step leaves the request waiting for its block.
    await env.destination.testClient.setAutomine(false);
    solver = startSolver({ config: env.config, store: counted, owner: "loop-a", pollIntervalMs: 50 });
    await until((r) => r.status === "submitted", "the fill sent");
    await new Promise((resolve) => setTimeout(resolve, 300));
    // Waiting for its block: held by loop-a, listed for loop-a only, not claimable by another loop.
    expect((await store.listSolverWork(50, [], "loop-a")).map((w) => w.id)).to.include(id);
    expect((await store.listSolverWork(50, [], "loop-b")).map((w) => w.id)).to.not.include(id);
    expect(await store.claimRequest(id, "loop-b", 15_000), "another loop's claim").to.equal(false);

    await env.destination.testClient.setAutomine(true);
    await env.destination.testClient.mine({ blocks: 1 });
    await until((r) => r.status === "success" && r.solver?.repayment?.status === "confirmed", "the repayment confirmed");
    const count = (name: string) => calls.filter((c) => c === name).length;
    // Each step reads its request once (stepReads.test.ts): the steps, against the leases given back.
    const steps = count("getStepRequest") + count("listedRead");
    const releases = count("releaseRequest");
    expect(steps).to.be.at.least(2);
    expect(releases, `${steps} steps, ${releases} releases: the waiting steps and the last keep theirs`).to.equal(0);
    // Done: listed for nobody, its lease left to lapse.
    expect((await store.listSolverWork(50, [], "loop-a")).map((w) => w.id)).to.not.include(id);
    expect((await store.listSolverWork(50, [], "loop-b")).map((w) => w.id)).to.not.include(id);
    expect(await filledLogs(env, intent.requestId)).to.have.length(1);
  });
});
