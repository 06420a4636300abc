// The fault of ../../../ts/service/relay/README.md's "known gap", on both engines: POST /execute took
// its app-balance hold and the process died (kill -9) before the relayer's nonce store transaction,
// so no transaction names the hold. The relay follower must give it back after the lease, exactly
// once with the follower's own settle: a hold whose transaction was recorded is the follower's to
// settle from the receipt, never the sweep's; and a send that resumes after its hold was swept
// records nothing (so nothing is broadcast for a hold that is gone).
import { expect } from "chai";
import { privateKeyToAccount } from "viem/accounts";
import { isFerryError } from "../../../ts/core/errors.ts";
import { serviceAccountOf } from "../../../ts/service/chains/serviceAccounts.ts";
import { createChainClients } from "../../../ts/service/chains/chainClients.ts";
import { SILENT_LOG } from "../../../ts/service/logging/logger.ts";
import { canonicalHex } from "../../../ts/service/model/values.ts";
import { executeHoldReference, executeHoldSubject } from "../../../ts/service/balances/executeHoldSubject.ts";
import { startRelayFollower } from "../../../ts/service/relay/relayer.ts";
import { requireHeldExecuteHold, EXECUTE_HOLD_LEASE_MS } from "../../../ts/service/relay/stuckExecuteHolds.ts";
import type { Store } from "../../../ts/service/store/createStore.ts";
import { describeEachEngine } from "../store/engines.ts";

const APP = "key_0000000000000e01";
const TX = "0x" + "ab".repeat(32);
const USDC = "0x" + "cd".repeat(20);
const RELAYER = serviceAccountOf(privateKeyToAccount(`0x${"11".repeat(32)}`));
const REQUEST = canonicalHex(`0x${"5e".repeat(32)}`);

describeEachEngine("relay: stuck execute holds", (engine) => {
  const fund = () => engine.store.appBalances.credit({ apiKeyId: APP, amountUsd: 10_000_000n, source: { chainId: 31337, txHash: TX, logIndex: 0 }, currency: USDC, amount: 1n });
  /** One pass of the relay follower, as server.ts starts it. */
  const followerPass = async () => {
    const loop = startRelayFollower({
      store: engine.store,
      clients: createChainClients([]),
      transactions: { follow: async () => { throw new Error("no relayed transaction should be followed here"); } },
      relayer: RELAYER,
      intervalMs: 60_000,
      log: SILENT_LOG,
    });
    await loop.stop();
  };
  /** The relayer's transaction for the hold, as the nonce manager records it in the nonce's store transaction. */
  const recordTransaction = (holdId: string, nonce: number, repos: Pick<Store, "insertSolverTransactions"> = engine.store, reference: string = REQUEST) =>
    repos.insertSolverTransactions([{
      chainId: 31337,
      address: RELAYER.address,
      nonce,
      purpose: "execute",
      subject: executeHoldSubject({ reference, holdId }),
      call: { to: RELAYER.address, data: "0x", value: 0n, gas: 21_000n },
      attempt: { hash: canonicalHex(`0x${String(nonce).padStart(64, "0")}`), raw: "0x01", maxFeePerGas: 1n, maxPriorityFeePerGas: 1n, sentAt: new Date(engine.clock.ms).toISOString() },
    }]);

  it("stuckExecuteHolds_killedBeforeTheNonce_holdReleasedAfterTheLease", async () => {
    await fund();
    // /execute's step 5 committed, then the process died: the hold is all that is left.
    const { holdId } = await engine.store.appBalances.hold({ apiKeyId: APP, amountUsd: 2_000_000n, purpose: "execute", reference: REQUEST });
    expect((await engine.store.appBalances.balance(APP)).availableUsd).to.equal(8_000_000n);

    // Within the lease the send may still be running: left alone.
    engine.clock.ms += EXECUTE_HOLD_LEASE_MS - 1_000;
    await followerPass();
    expect((await engine.store.appBalances.getHold(holdId))?.state).to.equal("held");

    engine.clock.ms += 2_000;
    await followerPass();
    expect((await engine.store.appBalances.getHold(holdId))?.state).to.equal("released");
    expect(await engine.store.appBalances.balance(APP)).to.deep.equal({ creditedUsd: 10_000_000n, debitedUsd: 0n, heldUsd: 0n, availableUsd: 10_000_000n });
    // Once: another pass writes no second release line.
    await followerPass();
    const releases = (await engine.store.appBalances.entries(APP)).filter((e) => e.kind === "release");
    expect(releases).to.have.length(1);
  });

  it("stuckExecuteHolds_transactionRecorded_holdLeftToTheFollowersSettle", async () => {
    await fund();
    const { holdId } = await engine.store.appBalances.hold({ apiKeyId: APP, amountUsd: 2_000_000n, purpose: "execute", reference: REQUEST });
    await recordTransaction(holdId, 7);
    engine.clock.ms += EXECUTE_HOLD_LEASE_MS * 10;
    // The follower's own pass would follow it (its follow throws here, so the pass logs and goes on).
    await followerPass();
    expect((await engine.store.appBalances.getHold(holdId))?.state).to.equal("held");
    // The receipt's settle still debits it, once.
    await engine.store.appBalances.settle({ holdId, spentUsd: 500_000n });
    expect((await engine.store.appBalances.balance(APP)).debitedUsd).to.equal(500_000n);
  });

  it("stuckExecuteHolds_sendResumesAfterTheSweep_recordsNothing", async () => {
    await fund();
    const { holdId } = await engine.store.appBalances.hold({ apiKeyId: APP, amountUsd: 2_000_000n, purpose: "execute", reference: REQUEST });
    engine.clock.ms += EXECUTE_HOLD_LEASE_MS + 1_000;
    await followerPass();
    // The stalled send wakes up: its nonce store transaction checks the hold first and rolls back.
    let code = "";
    try {
      await engine.store.transaction(async (tx) => {
        await requireHeldExecuteHold(tx, holdId);
        await recordTransaction(holdId, 8, tx);
      });
    } catch (error) {
      code = isFerryError(error) ? error.code : String(error);
    }
    expect(code).to.equal("EXECUTION_HOLD_EXPIRED");
    expect(await engine.store.findPendingSolverTransaction(31337, "execute", executeHoldSubject({ reference: REQUEST, holdId }))).to.equal(null);
    expect((await engine.store.appBalances.balance(APP)).availableUsd).to.equal(10_000_000n);
  });

  it("stuckExecuteHolds_aRetriedAttemptsHold_isMatchedToItsTransactionByTheSameSubject", async () => {
    await fund();
    // Attempt 0 was released with nothing sent; attempt 1's hold is named by its transaction.
    const first = await engine.store.appBalances.hold({ apiKeyId: APP, amountUsd: 1_000_000n, purpose: "execute", reference: REQUEST });
    await engine.store.appBalances.release(first.holdId);
    const reference = executeHoldReference(REQUEST, 1);
    const { holdId } = await engine.store.appBalances.hold({ apiKeyId: APP, amountUsd: 2_000_000n, purpose: "execute", reference });
    await recordTransaction(holdId, 9, engine.store, reference);
    expect((await engine.store.findExecuteTransaction(REQUEST))?.nonce, "the execution's transaction").to.equal(9);
    expect((await engine.store.transaction((tx) => tx.lockExecuteHold(holdId))).transactions.map((t) => t.nonce)).to.deep.equal([9]);
    // Past the lease the sweep leaves it to the follower: a transaction names it.
    engine.clock.ms += EXECUTE_HOLD_LEASE_MS * 10;
    await followerPass();
    expect((await engine.store.appBalances.getHold(holdId))?.state).to.equal("held");
    // Once the nonce ended, the follower's list of ended-but-unsettled transactions finds it.
    await engine.store.settleSolverTransaction({ chainId: 31337, address: RELAYER.address, nonce: 9 }, "superseded", null);
    expect((await engine.store.listEndedExecuteHoldTransactions(10)).map((t) => t.nonce)).to.deep.equal([9]);
  });
});
