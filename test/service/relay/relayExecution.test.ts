// POST /execute's replay rule on a real chain and both store engines, without the HTTP layer and
// without the relay follower running, so the windows a duplicate post can fall into are reached on
// purpose rather than by luck:
// - the follower's first step done (the nonce manager's `follow` marked the transaction mined in the
//   store) and its second not yet (the hold still `held`): a duplicate post must not send again;
// - two posts of one execution past every pre-send check at once (both held at the nonce manager's
//   door until the other arrives): only one may record and send, the other sees it under the hold's lock.
// The call is a plain value transfer, which nothing onchain protects from running twice: the target's
// balance counts the sends.
import { expect } from "chai";
import type { Hex } from "viem";
import { privateKeyToAccount } from "viem/accounts";
import { createChainClients } from "../../../ts/service/chains/chainClients.ts";
import { serviceAccountOf } from "../../../ts/service/chains/serviceAccounts.ts";
import { apiKeyStore } from "../../../ts/service/store/apiKeys.ts";
import { SILENT_LOG } from "../../../ts/service/logging/logger.ts";
import { createRelayExecutor, type ExecuteSubmission, type RelayExecutor } from "../../../ts/service/relay/relayExecution.ts";
import { createFeeOracle } from "../../../ts/service/transactions/chainFees.ts";
import { createNonceManager, type NonceManager } from "../../../ts/service/transactions/nonceManager.ts";
import { describeEachEngine } from "../store/engines.ts";
import { freshAddress, startTwoChains, type TwoChains } from "../solver/twoChains.ts";

const FUNDING_TX = "0x" + "ef".repeat(32);
const VALUE = 10n ** 12n;

describeEachEngine("relay: POST /execute's replay rule", (engine) => {
  let env: TwoChains | undefined;

  before(async function () {
    this.timeout(120_000);
    env = await startTwoChains();
  });
  after(async () => env?.close());

  const relayer = () => serviceAccountOf(privateKeyToAccount(env!.keyEnv.FERRY_SOLVER_KEY as Hex));
  const chainId = () => env!.origin.chainId;
  const relayerNonce = () => env!.origin.publicClient.getTransactionCount({ address: relayer().address, blockTag: "pending" });

  /** The relayer's nonce manager and an executor over it (`send` wrapped when a test holds it). */
  function relay(wrap?: (send: NonceManager["send"]) => NonceManager["send"]): { manager: NonceManager; executor: RelayExecutor } {
    const clients = createChainClients(env!.config.chains, { pollingIntervalMs: 50 });
    const fees = createFeeOracle(clients);
    const manager = createNonceManager({ store: engine.store, clients, fees, settings: { replaceAfterMs: 60_000, maxTransactionFee: () => 10n ** 17n }, account: relayer() });
    const executor = createRelayExecutor({
      store: engine.store,
      clients,
      chains: env!.config.chains,
      relayer: relayer(),
      transactions: { send: wrap ? wrap(manager.send) : manager.send },
      fees,
      maxTransactionFee: () => 10n ** 17n,
      maxGas: 1_000_000n,
    });
    return { manager, executor };
  }

  let APP = "";
  /** The app: an API key (its relayed requests name it) with 100 USD on its balance. */
  const fund = async () => {
    APP = (await apiKeyStore(engine.store).createApiKey("relaying app", 10_000_000)).id;
    await engine.store.appBalances.credit({ apiKeyId: APP, amountUsd: 100_000_000n, source: { chainId: chainId(), txHash: FUNDING_TX, logIndex: 0 }, currency: "0x" + "00".repeat(20), amount: 1n });
  };
  const transfer = (): ExecuteSubmission => ({ apiKeyId: APP, chainId: chainId(), to: freshAddress(), data: "0x", value: VALUE, subsidizeFees: false });
  const balanceOf = (submission: ExecuteSubmission) => env!.origin.publicClient.getBalance({ address: submission.to });

  it("execute_duplicateAfterTheFollowerMarkedTheTransactionMined_beforeTheHoldIsSettled_sendsNothing", async function () {
    this.timeout(60_000);
    await fund();
    const { manager, executor } = relay();
    const submission = transfer();
    const nonceBefore = await relayerNonce();
    const first = await executor.execute(submission, SILENT_LOG);
    expect(first.message).to.equal("execution submitted");

    // The follower's first step, as relayer.ts runs it: the nonce manager follows the nonce and marks it mined in the store.
    const recorded = (await engine.store.listPendingSolverTransactions("execute", 10)).find((t) => t.attempts[0]!.hash === first.txHash)!;
    expect((await manager.follow({ chainId: chainId(), txNonce: recorded.nonce })).state).to.equal("mined");
    const hold = (await engine.store.appBalances.entries(APP)).find((e) => e.kind === "hold")!;
    expect((await engine.store.appBalances.getHold(hold.holdId!))?.state, "the follower has not settled yet").to.equal("held");

    // The duplicate lands in that window.
    const again = await executor.execute(submission, SILENT_LOG);
    expect(again).to.deep.equal({ message: "already submitted", requestId: first.requestId, txHash: first.txHash });
    expect(await relayerNonce(), "one transaction sent").to.equal(nonceBefore + 1);
    expect(await balanceOf(submission), "the transfer ran once").to.equal(VALUE);
  });

  it("execute_twoPostsPastThePreSendChecksAtOnce_oneRecordsAndSends_theOtherIsAnsweredAlreadySubmitted", async function () {
    this.timeout(60_000);
    await fund();
    // Both posts are held at the nonce manager's door until the other one is there too: both passed every check before it.
    let arrived = 0;
    let open: () => void = () => {};
    const door = new Promise<void>((resolve) => (open = resolve));
    const { executor } = relay((send) => async (request) => {
      arrived += 1;
      if (arrived === 2) open();
      await Promise.race([door, new Promise((resolve) => setTimeout(resolve, 10_000))]);
      return send(request);
    });
    const submission = transfer();
    const nonceBefore = await relayerNonce();
    const answers = await Promise.all([executor.execute(submission, SILENT_LOG), executor.execute(submission, SILENT_LOG)]);
    expect(arrived, "both reached the send").to.equal(2);

    const sent = answers.filter((a) => a.message === "execution submitted");
    expect(sent, JSON.stringify(answers)).to.have.length(1);
    expect(answers.find((a) => a !== sent[0])).to.deep.equal({ message: "already submitted", requestId: sent[0]!.requestId, txHash: sent[0]!.txHash });
    expect(await relayerNonce(), "one transaction sent").to.equal(nonceBefore + 1);
    await env!.origin.publicClient.waitForTransactionReceipt({ hash: sent[0]!.txHash! });
    expect(await balanceOf(submission), "the transfer ran once").to.equal(VALUE);
  });
});
