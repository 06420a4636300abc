/** The chain health function: each observation → {lagging, disabled, depositEnabled, reason}, causes in their fixed order. */
import { expect } from "chai";
import { chainHealth, isLagging, LAGGING_BLOCK_TIMES, observeHead, observeRpcFailure, RPC_FAILURES_TO_DISABLE, unobserved, type ChainObservation } from "../../../ts/service/chains/chainHealth.ts";

const T0 = 1_700_000_000_000;
const healthy = (overrides: Partial<ChainObservation> = {}): ChainObservation => ({
  ...observeHead(unobserved({ disabled: false, depositEnabled: true, expectedBlockTimeSeconds: 2 }), 100n, T0),
  ...overrides,
});

describe("chainHealth", function () {
  it("a chain observed producing blocks is healthy", function () {
    expect(chainHealth(healthy(), T0 + 1_000)).to.deep.equal({ blockProductionLagging: false, disabled: false, depositEnabled: true, reason: null });
  });

  it("before any observation only the operator's switches count", function () {
    expect(chainHealth(unobserved({ disabled: false, depositEnabled: true }), T0).reason).to.equal(null);
    expect(chainHealth(unobserved({ disabled: true, depositEnabled: true }), T0)).to.deep.equal({ blockProductionLagging: false, disabled: true, depositEnabled: false, reason: "OPERATOR_DISABLED" });
    expect(chainHealth(unobserved({ disabled: false, depositEnabled: false }), T0)).to.deep.equal({ blockProductionLagging: false, disabled: false, depositEnabled: false, reason: null });
  });

  it("lags once the head has not advanced for LAGGING_BLOCK_TIMES block times, and recovers when it advances", function () {
    const limit = LAGGING_BLOCK_TIMES * 2 * 1000;
    const observed = observeHead(healthy(), 100n, T0 + limit); // same head again: not an advance
    expect(isLagging(observed, T0 + limit)).to.equal(false);
    expect(chainHealth(observed, T0 + limit + 1)).to.deep.equal({ blockProductionLagging: true, disabled: false, depositEnabled: false, reason: "BLOCK_PRODUCTION_LAGGING" });
    const advanced = observeHead(observed, 101n, T0 + limit + 2);
    expect(chainHealth(advanced, T0 + limit + 3)).to.deep.equal({ blockProductionLagging: false, disabled: false, depositEnabled: true, reason: null });
  });

  it("a lower head (a node behind) is not an advance", function () {
    const lower = observeHead(healthy(), 99n, T0 + 5_000);
    expect(lower.head).to.deep.equal({ number: 100n, advancedAt: T0 });
  });

  it("never judges block production without an expected block time, or while the RPC is down", function () {
    const noBlockTime = healthy({ expectedBlockTimeSeconds: undefined });
    expect(isLagging(noBlockTime, T0 + 3_600_000)).to.equal(false);
    const down = failed(healthy());
    expect(isLagging(down, T0 + 3_600_000)).to.equal(false);
  });

  /** `failures` head reads failed in a row. */
  const failed = (o: ChainObservation, failures = RPC_FAILURES_TO_DISABLE) => Array.from({ length: failures }).reduce<ChainObservation>((x) => observeRpcFailure(x), o);

  it("one failed head read (a node busy for a moment) does not disable the chain; RPC_FAILURES_TO_DISABLE in a row do", function () {
    expect(RPC_FAILURES_TO_DISABLE).to.be.greaterThan(1);
    const once = observeRpcFailure(healthy());
    expect(chainHealth(once, T0)).to.deep.equal({ blockProductionLagging: false, disabled: false, depositEnabled: true, reason: null });
    expect(chainHealth(failed(healthy(), RPC_FAILURES_TO_DISABLE - 1), T0).disabled).to.equal(false);
    expect(chainHealth(failed(healthy()), T0).reason).to.equal("RPC_UNREACHABLE");
    // A read that answers in between starts the count again.
    const interrupted = failed(observeHead(failed(healthy(), RPC_FAILURES_TO_DISABLE - 1), 101n, T0 + 10), RPC_FAILURES_TO_DISABLE - 1);
    expect(chainHealth(interrupted, T0 + 10).disabled).to.equal(false);
  });

  it("an RPC down on every URL disables the chain until a head is read again", function () {
    const down = failed(healthy());
    expect(chainHealth(down, T0)).to.deep.equal({ blockProductionLagging: false, disabled: true, depositEnabled: false, reason: "RPC_UNREACHABLE" });
    expect(chainHealth(observeHead(down, 101n, T0 + 10), T0 + 10).reason).to.equal(null);
  });

  it("a halted chain and an empty inventory disable it; the causes come in a fixed order", function () {
    expect(chainHealth(healthy({ halted: true }), T0).reason).to.equal("CHAIN_HALTED");
    expect(chainHealth(healthy({ inventoryEmpty: true }), T0).reason).to.equal("SOLVER_INVENTORY_EMPTY");
    const everything = failed(healthy({ operatorDisabled: true, halted: true, inventoryEmpty: true }));
    expect(chainHealth(everything, T0).reason).to.equal("OPERATOR_DISABLED");
    expect(chainHealth({ ...everything, operatorDisabled: false }, T0).reason).to.equal("CHAIN_HALTED");
    expect(chainHealth({ ...everything, operatorDisabled: false, halted: false }, T0).reason).to.equal("RPC_UNREACHABLE");
    // Disabled wins over lagging as the reason; both flags show.
    const laggingAndEmpty = healthy({ inventoryEmpty: true });
    expect(chainHealth(laggingAndEmpty, T0 + 3_600_000)).to.deep.equal({ blockProductionLagging: true, disabled: true, depositEnabled: false, reason: "SOLVER_INVENTORY_EMPTY" });
  });
});
