// A reverted fill's status details carry the failing call's frames — topLevel, innermost, path — and
// the decoded revert, in the shape of POST /execute's simulation error, next to the flat fields
// clients already read (error, revertData). Real EDR chains (their node answers debug_traceCall and
// debug_traceTransaction with the callTracer), the solver ticked by hand, the record read over real
// HTTP from GET /intents/status/v3, on both store engines.
import { expect } from "chai";
import { generatePrivateKey } from "viem/accounts";
import { describeEachEngine } from "../../store/engines.ts";
import type { Store } from "../../../../ts/service/store/createStore.ts";
import { createSolver } from "../../../../ts/service/solver/startSolver.ts";
import { deposit, makeIntent, saveQuote, startTwoChains, type TwoChains } from "../twoChains.ts";
import { tickUntil } from "../solverHelpers.ts";
import { listen, type Listening } from "../../http/testApp.ts";
import { revertedFillDetails } from "../../../../ts/service/solver/fill/revertedFillDetails.ts";

type Frame = { type: string; address?: string; contract?: string; function?: string; selector?: string; error?: string; gasUsed?: string };
type StatusDetails = { error: string; revertData: string; topLevel: Frame; innermost: Frame; path: Frame[]; revert: { type: string; name?: string; label: string } };

describeEachEngine("solver/fill/revertedFillDetails: the frames of a reverted fill in its status", (engine) => {
  let env: TwoChains;
  let store: Store;
  let api: Listening;

  before(async function () {
    this.timeout(120_000);
    env = await startTwoChains();
    // Wall-clock time: the quotes and the fill deadlines are the chains' (the suite's fixed clock is not).
    store = await (await engine.freshDatabase()).open(() => new Date());
    api = await listen({ config: env.config, deps: { store } });
  });
  after(async () => {
    await api?.close();
    await store?.close();
    await env?.close();
  });

  const statusDetails = async (requestId: string): Promise<{ status: string; details: StatusDetails }> => {
    const response = await fetch(`${api.url}/intents/status/v3?requestId=${requestId}`);
    expect(response.status).to.equal(200);
    return (await response.json()) as { status: string; details: StatusDetails };
  };

  const receiver = () => env.config.chains[1]!.contracts.attestedReceiver.toLowerCase();

  it("a fill whose pre-send simulation reverts: the simulation's frames from debug_traceCall", async function () {
    this.timeout(120_000);
    // An attester the receiver does not allow: the fill's simulation reverts SignerNotAllowed.
    const config = { ...env.config, keys: { ...env.config.keys, attester: { reveal: () => generatePrivateKey() } as (typeof env.config.keys)["attester"] } };
    const intent = makeIntent(env);
    await saveQuote(store, intent);
    await deposit(env, { orderId: intent.orderId, amount: BigInt(intent.originAmount) });
    await tickUntil(createSolver({ config, store }), store, intent.requestId, (r) => r.status === "refund" || r.status === "failure");

    const { details } = await statusDetails(intent.requestId);
    // The flat fields, as before.
    expect(details.error).to.equal("SignerNotAllowed");
    expect(details.revertData).to.match(/^0x[0-9a-f]{8}/);
    // The frames: the fill call into the receiver, which is also where it failed.
    expect(details.topLevel).to.deep.include({ type: "CALL", address: receiver(), contract: "attestedReceiver", error: "execution reverted" });
    expect(details.topLevel.selector).to.match(/^0x[0-9a-f]{8}$/);
    expect(details.topLevel.gasUsed).to.match(/^\d+$/);
    expect(details.path).to.be.an("array").that.is.not.empty;
    expect(details.path[0]).to.deep.equal(details.topLevel);
    expect(details.innermost).to.deep.equal(details.path.at(-1));
    expect(details.revert).to.deep.include({ type: "customError", name: "SignerNotAllowed" });
  });

  it("a fill that reverts onchain: the mined transaction's frames from debug_traceTransaction", async function () {
    this.timeout(120_000);
    const latest = await env.destination.publicClient.getBlock();
    const intent = makeIntent(env, { fillDeadline: Number(latest.timestamp) + 120 });
    await saveQuote(store, intent);
    await deposit(env, { orderId: intent.orderId, amount: BigInt(intent.originAmount) });
    // Sent while the destination does not mine, then mined after its deadline: it reverts onchain.
    await env.destination.testClient.setAutomine(false);
    try {
      await tickUntil(createSolver({ config: env.config, store }), store, intent.requestId, (r) => r.status === "submitted");
      await env.destination.testClient.increaseTime({ seconds: 600 });
      await env.destination.testClient.mine({ blocks: 1 });
    } finally {
      await env.destination.testClient.setAutomine(true);
    }
    const done = await tickUntil(createSolver({ config: env.config, store }), store, intent.requestId, (r) => r.status === "refund");
    expect(done.failReason).to.equal("ORDER_EXPIRED");

    const { status, details } = await statusDetails(intent.requestId);
    expect(status).to.equal("refund");
    expect(details.error).to.equal("AttestationExpired");
    expect(details.topLevel).to.deep.include({ type: "CALL", address: receiver(), contract: "attestedReceiver", error: "execution reverted" });
    expect(details.path[0]).to.deep.equal(details.topLevel);
    expect(details.innermost).to.deep.equal(details.path.at(-1));
    expect(details.revert).to.deep.include({ type: "customError", name: "AttestationExpired" });
  });
});

describe("solver/fill/revertedFillDetails (pure)", () => {
  const frames = {
    topLevel: { type: "CALL", address: "0x2222222222222222222222222222222222222222", contract: "attestedReceiver" },
    innermost: { type: "CALL", address: "0x1111111111111111111111111111111111111111" },
    path: [{ type: "CALL" }, { type: "CALL" }],
    revert: { type: "errorString" as const, label: "inner", message: "inner" },
  };

  it("a destination call's revert keeps its callIndex and its own revert; the frames join them", () => {
    const callRevert = { type: "customError" as const, label: "Nope", message: "Nope()", name: "Nope" };
    const details = revertedFillDetails({ failReason: "EXECUTION_REVERTED", errorName: "CallReverted", data: "0x1234abcd", details: { callIndex: 2, revert: callRevert } }, frames);
    expect(details).to.deep.equal({ error: "CallReverted", revertData: "0x1234abcd", callIndex: 2, revert: callRevert, topLevel: frames.topLevel, innermost: frames.innermost, path: frames.path });
  });

  it("no flat revert: the innermost frame's; no frames (not traced): the flat fields only, as before", () => {
    const decoded = { failReason: "INVALID_SIGNER", errorName: "SignerNotAllowed", data: "0xdeadbeef" as const };
    expect(revertedFillDetails(decoded, frames).revert).to.deep.equal(frames.revert);
    expect(revertedFillDetails(decoded, { topLevel: frames.topLevel, revert: frames.revert })).to.not.have.any.keys("innermost", "path");
    expect(revertedFillDetails(decoded, undefined)).to.deep.equal({ error: "SignerNotAllowed", revertData: "0xdeadbeef" });
  });
});
