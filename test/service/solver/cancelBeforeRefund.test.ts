// Cancel before refund (issue 11, item 6): the service hands out its signed v2 attestation (GET
// /requests/{id}/signature) and a fill may sit in a mempool, so before it refunds a request whose fill
// deadline has not passed on the destination, the attester cancels the requestId on the receiver and
// the refund waits for that cancel to be mined — then `filled(requestId)` is definitive before money
// leaves. A signed attestation submitted after the refund reverts RequestCancelled; a fill that lands
// before the cancel means no refund. Two EDR chains, both engines.
import { expect } from "chai";
import { parseEther, type Address, type Hex } from "viem";
import { privateKeyToAccount } from "viem/accounts";
import { attestedReceiverAbi } from "../../../ts/abi/AttestedReceiver.ts";
import { fillDigest } from "../../../ts/core/attestationDigest.ts";
import { signAttestationDigest } from "../../../ts/core/signAttestation.ts";
import { fillAttestationOf } from "../../../ts/service/model/attestations.ts";
import type { QuotedIntent } from "../../../ts/service/model/quotedIntent.ts";
import type { StoredRequest } from "../../../ts/service/model/storedRequest.ts";
import { createSolver } from "../../../ts/service/solver/startSolver.ts";
import { describeEachEngine } from "../store/engines.ts";
import { ATTACKER } from "./hostileContracts.ts";
import { filledLogs, tickUntil } from "./solverHelpers.ts";
import { chainNow, deposit, makeIntent, NATIVE, saveQuote, startTwoChains, tokenBalance, type TwoChains } from "./twoChains.ts";

describe("solver: cancel before refund", function () {
  this.timeout(600_000);
  let env: TwoChains;
  let receiver: Address;
  let attester: Address;

  before(async () => {
    env = await startTwoChains();
    receiver = env.config.chains.find((c) => c.id === env.destination.chainId)!.contracts.attestedReceiver.toLowerCase() as Address;
    attester = privateKeyToAccount(env.keyEnv.FERRY_ATTESTER_KEY as Hex).address;
  });
  after(async () => {
    await env?.close();
  });

  /** The fill anyone can send with the attestation the service signed (what the signature route hands out). */
  async function fillWithTheSignedAttestation(intent: QuotedIntent, options: { priorityFee?: bigint } = {}) {
    const attestation = fillAttestationOf(intent, receiver);
    const signature = await signAttestationDigest(privateKeyToAccount(env.keyEnv.FERRY_ATTESTER_KEY as Hex), fillDigest(attestation));
    const wallet = env.destination.walletClient(ATTACKER.privateKey);
    return wallet.writeContract({
      chain: wallet.chain,
      account: wallet.account,
      address: receiver,
      abi: attestedReceiverAbi,
      functionName: "fill",
      args: [attestation, signature],
      value: intent.destinationAmount,
      gas: 300_000n,
      ...(options.priorityFee !== undefined && { maxPriorityFeePerGas: options.priorityFee, maxFeePerGas: options.priorityFee * 2n }),
    });
  }

  describeEachEngine("the attester cancels the requestId before the deposit is refunded", (engine) => {
    const newSolver = () => createSolver({ config: env.config, store: engine.store });

    /** A request that fails before any fill (its quote had expired when the deposit was mined) while its fill deadline is an hour away. */
    async function expiredQuote(): Promise<QuotedIntent> {
      const now = await chainNow(env.origin);
      const intent = makeIntent(env, { expiresAt: now, fillDeadline: Math.max(now, await chainNow(env.destination)) + 3600 });
      await saveQuote(engine.store, intent);
      await deposit(env, { orderId: intent.orderId, amount: intent.originAmount });
      return intent;
    }

    it("refund_beforeTheFillDeadline_cancelsFirst_soTheSignedAttestationSubmittedAfterwardsRevertsRequestCancelled", async () => {
      const intent = await expiredQuote();
      const attesterNonce = await env.destination.publicClient.getTransactionCount({ address: attester });
      const done = await tickUntil(newSolver(), engine.store, intent.requestId, (r) => r.status === "refund" || r.parked !== null);
      expect({ status: done.status, failReason: done.failReason, parked: done.parked }).to.deep.equal({ status: "refund", failReason: "ORDER_EXPIRED", parked: null });
      expect(await tokenBalance(env.origin, NATIVE, intent.refundTo)).to.equal(intent.originAmount);
      // The cancel was mined before the refund was sent, from the attester.
      const cancel = done.solver!.cancel!;
      expect(cancel.status).to.equal("confirmed");
      const cancelReceipt = await env.destination.publicClient.getTransactionReceipt({ hash: cancel.hash });
      expect({ status: cancelReceipt.status, from: cancelReceipt.from.toLowerCase() }).to.deep.equal({ status: "success", from: attester.toLowerCase() });
      expect(await env.destination.publicClient.getTransactionCount({ address: attester })).to.equal(attesterNonce + 1);
      expect(await env.destination.publicClient.readContract({ address: receiver, abi: attestedReceiverAbi, functionName: "filledDigest", args: [intent.requestId] })).to.equal(`0x${"0".repeat(63)}1`);

      const error = await fillWithTheSignedAttestation(intent).catch((e: unknown) => e);
      expect(String((error as Error).message)).to.include("RequestCancelled");
      expect(await filledLogs(env, intent.requestId)).to.have.length(0);
      expect(await tokenBalance(env.destination, NATIVE, intent.recipient)).to.equal(0n);
    });

    it("refund_aFillThatLandsBeforeTheCancel_meansNoRefund", async () => {
      const intent = await expiredQuote();
      let cancelled: StoredRequest;
      await env.destination.testClient.setAutomine(false);
      try {
        cancelled = await tickUntil(newSolver(), engine.store, intent.requestId, (r) => r.solver?.cancel?.status === "sent" || r.status === "refund");
        expect(cancelled.status).to.equal("failure");
        // The signed attestation was in someone's hands: their fill outbids the cancel into the same block.
        await fillWithTheSignedAttestation(intent, { priorityFee: parseEther("0.0001") });
        await env.destination.testClient.mine({ blocks: 1 });
      } finally {
        await env.destination.testClient.setAutomine(true);
      }
      expect((await env.destination.publicClient.getTransactionReceipt({ hash: cancelled!.solver!.cancel!.hash })).status).to.equal("reverted");
      const solver = newSolver();
      const after = await tickUntil(solver, engine.store, intent.requestId, (r) => r.parked !== null || r.status === "refund");
      for (let i = 0; i < 2; i++) await solver.tick();
      // The recipient was paid (by someone else): the deposit is not refunded, the operator settles it.
      expect({ status: after.status, parked: after.parked?.code }).to.deep.equal({ status: "failure", parked: "FOREIGN_FILL" });
      expect(after.details).to.include({ filler: ATTACKER.address.toLowerCase(), mismatch: "filler" });
      expect(after.solver?.refund).to.equal(undefined);
      expect(await tokenBalance(env.origin, NATIVE, intent.refundTo)).to.equal(0n);
      expect(await tokenBalance(env.destination, NATIVE, intent.recipient)).to.equal(intent.destinationAmount);
    });

    it("refund_afterTheFillDeadline_needsNoCancel", async () => {
      await env.destination.testClient.mine({ blocks: 1 });
      const now = await chainNow(env.destination);
      // Deadline passed on the destination: no fill can land any more.
      const intent = makeIntent(env, { fillDeadline: now - 1 });
      await saveQuote(engine.store, intent);
      await deposit(env, { orderId: intent.orderId, amount: intent.originAmount });
      const attesterNonce = await env.destination.publicClient.getTransactionCount({ address: attester });
      const done = await tickUntil(newSolver(), engine.store, intent.requestId, (r) => r.status === "refund" || r.parked !== null);
      expect({ status: done.status, failReason: done.failReason }).to.deep.equal({ status: "refund", failReason: "ORDER_EXPIRED" });
      expect(done.solver!.cancel).to.equal(undefined);
      expect(await env.destination.publicClient.getTransactionCount({ address: attester })).to.equal(attesterNonce);
      expect(await tokenBalance(env.origin, NATIVE, intent.refundTo)).to.equal(intent.originAmount);
    });
  });
});
