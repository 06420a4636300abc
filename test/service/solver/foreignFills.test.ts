// The solver repays itself only for its own fill (issue 11, item 4). Any allowed signer's attestation
// can fill a requestId first: a second signer, a leaked attester key, or the service's own signed
// attestation (handed out by GET /requests/{id}/signature) submitted by someone else. The receiver
// keeps the digest of the attestation that filled (`filledDigest`) and `Filled` names the filler,
// currency and amount; a fill that is not the one the service signed and sent is a foreign fill: the
// request fails with ORDER_ALREADY_FILLED, is parked for the operator, and is never repaid nor
// refunded. One test per path on which the solver concludes "filled". Two EDR chains, both engines.
import { expect } from "chai";
import { Registry } from "prom-client";
import { parseEther, type Address, type Hex, type LocalAccount } from "viem";
import { generatePrivateKey, privateKeyToAccount } from "viem/accounts";
import { attestedReceiverAbi } from "../../../ts/abi/AttestedReceiver.ts";
import { depositoryAbi } from "../../../ts/abi/Depository.ts";
import { fillDigest } from "../../../ts/core/attestationDigest.ts";
import { signAttestationDigest } from "../../../ts/core/signAttestation.ts";
import { accountWithRole, devnetAccounts } from "../../../ts/devnet/devnetAccounts.ts";
import { fillAttestationOf } from "../../../ts/service/model/attestations.ts";
import type { QuotedIntent } from "../../../ts/service/model/quotedIntent.ts";
import { payoutNonce } from "../../../ts/service/solver/payout/payoutPlan.ts";
import { createSolver } from "../../../ts/service/solver/startSolver.ts";
import { createChainClients } from "../../../ts/service/chains/chainClients.ts";
import { indexTransaction } from "../../../ts/service/solver/indexer/indexTransaction.ts";
import { SILENT_LOG } from "../../../ts/service/logging/logger.ts";
import type { StoredRequest } from "../../../ts/service/model/storedRequest.ts";
import { describeEachEngine } from "../store/engines.ts";
import { ATTACKER } from "./hostileContracts.ts";
import { depository, filledLogs, tickUntil } from "./solverHelpers.ts";
import { chainNow, deposit, makeIntent, NATIVE, saveQuote, startTwoChains, tokenBalance, type TwoChains } from "./twoChains.ts";
import { canonicalHex } from "../../../ts/service/model/values.ts";

describe("solver: foreign fills", function () {
  this.timeout(600_000);
  let env: TwoChains;
  let receiver: Address;
  /** A second allowed signer on the destination receiver (a colleague's key, or a leaked one). */
  let secondSigner: LocalAccount;
  let attester: LocalAccount;

  before(async () => {
    env = await startTwoChains();
    receiver = env.config.chains.find((c) => c.id === env.destination.chainId)!.contracts.attestedReceiver.toLowerCase() as Address;
    secondSigner = privateKeyToAccount(generatePrivateKey());
    attester = privateKeyToAccount(env.keyEnv.FERRY_ATTESTER_KEY as Hex);
    const owner = env.destination.walletClient(accountWithRole(devnetAccounts(), "deployer").privateKey);
    const hash = await owner.writeContract({ chain: owner.chain, account: owner.account, address: receiver, abi: attestedReceiverAbi, functionName: "setSigner", args: [secondSigner.address, true] });
    await env.destination.publicClient.waitForTransactionReceipt({ hash });
  });
  after(async () => {
    await env?.close();
  });

  /** The attacker fills `intent`'s requestId with `terms` signed by `signer`, paying from its own wallet; returns the tx hash. */
  async function attackerFill(intent: QuotedIntent, terms: Partial<QuotedIntent>, signer: LocalAccount, options: { wait?: boolean; maxPriorityFeePerGas?: bigint } = {}): Promise<Hex> {
    const attestation = fillAttestationOf({ ...intent, ...terms }, receiver);
    const signature = await signAttestationDigest(signer, fillDigest(attestation));
    const wallet = env.destination.walletClient(ATTACKER.privateKey);
    const native = (terms.destinationCurrency ?? intent.destinationCurrency) === NATIVE;
    const hash = await wallet.writeContract({
      chain: wallet.chain,
      account: wallet.account,
      address: receiver,
      abi: attestedReceiverAbi,
      functionName: "fill",
      args: [attestation, signature],
      value: native ? (terms.destinationAmount ?? intent.destinationAmount) : 0n,
      // An explicit gas limit: no estimate against a pending block that already holds the solver's fill.
      gas: 300_000n,
      ...(options.maxPriorityFeePerGas !== undefined && { maxPriorityFeePerGas: options.maxPriorityFeePerGas, maxFeePerGas: options.maxPriorityFeePerGas * 2n }),
    });
    if (options.wait !== false) {
      const receipt = await env.destination.publicClient.waitForTransactionReceipt({ hash });
      if (receipt.status !== "success") throw new Error(`attacker fill ${hash} reverted`);
    }
    return hash.toLowerCase() as Hex;
  }

  async function repaymentExecuted(intent: QuotedIntent): Promise<boolean> {
    return env.origin.publicClient.readContract({ address: depository(env, env.origin), abi: depositoryAbi, functionName: "executed", args: [payoutNonce("repayment", intent.requestId)] });
  }

  describeEachEngine("a fill the service did not sign and send is never repaid", (engine) => {
    const newSolver = () => createSolver({ config: env.config, store: engine.store });
    const settled = (r: StoredRequest) => r.parked !== null || r.solver?.repayment?.status === "confirmed" || r.status === "refund";

    /** Checks the documented failure state of a foreign fill, and that no money left the Depository for it. */
    async function expectForeignFill(request: StoredRequest, intent: QuotedIntent, foreignTx: Hex, filler: Address, amount: bigint, solverOriginBefore: bigint) {
      expect({ status: request.status, failReason: request.failReason, parked: request.parked?.code }).to.deep.equal({ status: "failure", failReason: "ORDER_ALREADY_FILLED", parked: "FOREIGN_FILL" });
      expect(request.details).to.include({ foreignFillTx: foreignTx, filler: filler.toLowerCase(), amount: amount.toString(), currency: intent.destinationCurrency });
      expect(request.details!.digest).to.equal((await filledLogs(env, intent.requestId)).length === 1 ? await filledDigestOf(intent.requestId) : null);
      expect(request.details!.expectedDigest).to.equal(fillDigest(fillAttestationOf(intent, receiver)));
      expect(request.solver?.repayment).to.equal(undefined);
      expect(request.solver?.refund).to.equal(undefined);
      expect(await repaymentExecuted(intent)).to.equal(false);
      expect(await tokenBalance(env.origin, NATIVE, env.solver) <= solverOriginBefore).to.equal(true);
      expect(await tokenBalance(env.origin, NATIVE, intent.refundTo)).to.equal(0n);
      // More ticks change nothing: parked.
      for (let i = 0; i < 2; i++) await newSolver().tick();
      expect((await engine.store.getRequest(intent.requestId))!.updatedAt).to.equal(request.updatedAt);
    }

    async function filledDigestOf(requestId: Hex): Promise<Hex> {
      return env.destination.publicClient.readContract({ address: receiver, abi: attestedReceiverAbi, functionName: "filledDigest", args: [requestId] });
    }

    /** `intent` quoted and deposited, then filled by the attacker under `signer`'s attestation (`terms` changed): the foreign fill's hash and the solver's origin balance then. */
    async function depositedThenFilledBySomeoneElse(intent: QuotedIntent, terms: Partial<QuotedIntent>, signer: LocalAccount): Promise<{ foreign: Hex; solverBefore: bigint }> {
      await saveQuote(engine.store, intent);
      await deposit(env, { orderId: intent.orderId, amount: intent.originAmount });
      const foreign = await attackerFill(intent, terms, signer);
      return { foreign, solverBefore: await tokenBalance(env.origin, NATIVE, env.solver) };
    }

    it("pending_aSecondSignerFilledTheRequestWithOneWeiFirst_isAForeignFill_neverRepaid", async () => {
      const intent = makeIntent(env);
      const { foreign, solverBefore } = await depositedThenFilledBySomeoneElse(intent, { destinationAmount: 1n }, secondSigner);

      const registry = new Registry();
      const done = await tickUntil(createSolver({ config: env.config, store: engine.store, metricsRegistry: registry }), engine.store, intent.requestId, settled);
      await expectForeignFill(done, intent, foreign, ATTACKER.address, 1n, solverBefore);
      expect(done.details!.mismatch).to.equal("digest,filler,amount");
      // The service submitted nothing: the public history never shows `submitted`.
      expect((await engine.store.requestEvents(intent.requestId)).map((e) => e.status)).to.deep.equal(["waiting", "pending", "failure"]);
      expect(done.txHashes).to.deep.equal([]);
      const counter = await registry.getSingleMetric("ferry_solver_foreign_fills_total")!.get();
      expect(counter.values).to.deep.equal([{ value: 1, labels: { chain_id: String(env.destination.chainId) } }]);
    });

    it("pending_theServicesOwnAttestationSubmittedBySomeoneElse_isAForeignFill_neverRepaid", async () => {
      // The signature route hands the signed v2 attestation to anyone: a third party pays the user in
      // full with it. The user is paid, but not by the solver: it must not take the deposit.
      const intent = makeIntent(env);
      const { foreign, solverBefore } = await depositedThenFilledBySomeoneElse(intent, {}, attester);

      const done = await tickUntil(newSolver(), engine.store, intent.requestId, settled);
      await expectForeignFill(done, intent, foreign, ATTACKER.address, intent.destinationAmount, solverBefore);
      expect(done.details!.mismatch).to.equal("filler");
    });

    it("pending_filledBySomeoneElse_whileTheFillChecksWouldEndTheRequest_isTheForeignFill_neverRefunded", async () => {
      // The fill is no longer looked for before every fill, only where the step would otherwise end the
      // request: here its deadline is inside the solver's margin (a failure, then a refund, when unfilled).
      // A refund of a request someone filled would pay twice.
      const intent = makeIntent(env, { fillDeadline: (await chainNow(env.destination)) + 20 });
      const { foreign, solverBefore } = await depositedThenFilledBySomeoneElse(intent, {}, attester);

      const done = await tickUntil(newSolver(), engine.store, intent.requestId, settled);
      await expectForeignFill(done, intent, foreign, ATTACKER.address, intent.destinationAmount, solverBefore);
      expect((await engine.store.requestEvents(intent.requestId)).map((e) => e.status)).to.deep.equal(["waiting", "pending", "failure"]);
    });

    it("submitted_ourFillRevertedBecauseAOneWeiFillLandedFirst_isAForeignFill_neverRepaid", async () => {
      const intent = makeIntent(env);
      await saveQuote(engine.store, intent);
      await deposit(env, { orderId: intent.orderId, amount: intent.originAmount });
      const solverBefore = await tokenBalance(env.origin, NATIVE, env.solver);
      let foreign: Hex;
      let ours: Hex;
      await env.destination.testClient.setAutomine(false);
      try {
        const submitted = await tickUntil(newSolver(), engine.store, intent.requestId, (r) => r.status === "submitted");
        ours = submitted.solver!.fill!.hash;
        // The attacker outbids the solver's fill in the same block.
        foreign = await attackerFill(intent, { destinationAmount: 1n }, secondSigner, { wait: false, maxPriorityFeePerGas: parseEther("0.0001") });
        await env.destination.testClient.mine({ blocks: 1 });
      } finally {
        await env.destination.testClient.setAutomine(true);
      }
      const oursReceipt = await env.destination.publicClient.getTransactionReceipt({ hash: ours! });
      expect(oursReceipt.status).to.equal("reverted");
      const done = await tickUntil(newSolver(), engine.store, intent.requestId, settled);
      await expectForeignFill(done, intent, foreign!, ATTACKER.address, 1n, solverBefore);
      // Our fill failed onchain: the request record names it (issue 24).
      expect(done.data).to.include({ failedTxHash: ours!, failedTxBlockNumber: Number(oursReceipt.blockNumber) });
    });

    it("restart_ourRecordedFillNeverBroadcastAndAOneWeiFillLanded_isAForeignFill_neverRepaid", async () => {
      const intent = makeIntent(env);
      await saveQuote(engine.store, intent);
      await deposit(env, { orderId: intent.orderId, amount: intent.originAmount });
      const solverBefore = await tokenBalance(env.origin, NATIVE, env.solver);
      await env.destination.testClient.setAutomine(false);
      try {
        const submitted = await tickUntil(newSolver(), engine.store, intent.requestId, (r) => r.status === "submitted");
        // As if killed between recording the hash and broadcasting it.
        await env.destination.testClient.dropTransaction({ hash: submitted.solver!.fill!.hash });
      } finally {
        await env.destination.testClient.setAutomine(true);
      }
      const foreign = await attackerFill(intent, { destinationAmount: 1n }, secondSigner);
      const done = await tickUntil(newSolver(), engine.store, intent.requestId, settled);
      await expectForeignFill(done, intent, foreign, ATTACKER.address, 1n, solverBefore);
    });

    it("repay_aSuccessRecordedWithoutVerification_whoseOnchainFillIsForeign_isParkedAndNeverRepaid", async () => {
      // A row written by a version that did not verify fills (or by hand): success under a foreign fill.
      const intent = makeIntent(env);
      await saveQuote(engine.store, intent);
      const txHash = await deposit(env, { orderId: intent.orderId, amount: intent.originAmount });
      const client = createChainClients(env.config.chains).get(env.origin.chainId);
      await indexTransaction({ store: engine.store, client, chains: env.config.chains, log: SILENT_LOG }, canonicalHex(txHash));
      const pending = (await engine.store.getRequest(intent.requestId))!;
      expect(pending.status).to.equal("pending");
      const foreign = await attackerFill(intent, { destinationAmount: 1n }, secondSigner);
      await engine.store.transitionRequest(pending.id, "submitted", { txHashes: [canonicalHex(foreign)], solver: { fill: { hash: canonicalHex(foreign), status: "sent" } } });
      await engine.store.transitionRequest(pending.id, "success", { txHashes: [canonicalHex(foreign)], solver: { fill: { hash: canonicalHex(foreign), status: "confirmed" } } });
      const solverBefore = await tokenBalance(env.origin, NATIVE, env.solver);

      const solver = newSolver();
      for (let i = 0; i < 3; i++) await solver.tick();
      const after = (await engine.store.getRequest(intent.requestId))!;
      expect({ status: after.status, parked: after.parked?.code }).to.deep.equal({ status: "success", parked: "FOREIGN_FILL" });
      expect(after.details).to.include({ foreignFillTx: foreign, filler: ATTACKER.address.toLowerCase(), amount: "1" });
      expect(after.solver?.repayment).to.equal(undefined);
      expect(await repaymentExecuted(intent)).to.equal(false);
      expect(await tokenBalance(env.origin, NATIVE, env.solver) <= solverBefore).to.equal(true);
    });

    it("ownFill_matchesTheSignedDigest_isRecordedWithItAndRepaid", async () => {
      const intent = makeIntent(env);
      await saveQuote(engine.store, intent);
      await deposit(env, { orderId: intent.orderId, amount: intent.originAmount });
      const done = await tickUntil(newSolver(), engine.store, intent.requestId, settled);
      expect({ status: done.status, parked: done.parked }).to.deep.equal({ status: "success", parked: null });
      const digest = fillDigest(fillAttestationOf(intent, receiver));
      expect(done.solver!.fill!.digest).to.equal(digest);
      expect(await filledDigestOf(intent.requestId)).to.equal(digest);
      expect(await repaymentExecuted(intent)).to.equal(true);
    });
  });
});
