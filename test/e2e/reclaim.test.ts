/**
 * End to end, over real HTTP and both devnet chains: reclaimable deposits (`reclaimable: true`).
 *
 * - **Solver on**: the quote carries `reclaimAt` (the fill deadline + quotes.reclaimWindowSeconds) and its
 *   deposit step is the Depository's reclaimable form with that time; the service fills it and repays the
 *   solver with an allocator-signed `release`, which deletes the reclaim commitment. After `reclaimAt`
 *   the depositor can no longer take the deposit back: the client refuses (RECLAIM_NOT_LIVE) and the
 *   Depository reverts (`NoReclaimCommitment`).
 * - **Solver off** (FERRY_SOLVER=off: nothing indexes, fills or releases): the depositor's reclaim is
 *   refused before `reclaimAt` (RECLAIM_NOT_YET), and once the origin chain's clock passes it the
 *   depositor takes the whole deposit back in one transaction on the origin chain alone.
 */
import { expect } from "chai";
import { decodeErrorResult, decodeFunctionData, parseEther, type Hex } from "viem";
import { depositoryAbi } from "../../ts/abi/Depository.ts";
import { decodeDeposit } from "../../ts/core/depositCalldata.ts";
import { verifyReceipt } from "../../ts/core/verifyReceipt.ts";
import { DEPOSITORY_RECLAIM_ABI, encodeReclaim } from "../../ts/core/reclaimableDeposit.ts";
import type { Quote } from "../../ts/client/apiTypes.ts";
import { canonicalHex } from "../../ts/service/model/values.ts";
import { ReclaimError, findReclaimableDeposit, reclaimDeposit } from "../../ts/client/reclaimDeposit.ts";
import { DESTINATION, NATIVE, ORIGIN, freshRecipient, gasCost, startE2eDevnet, type E2eChain, type E2eDevnet } from "./e2eDevnet.ts";

/** The deposit step's transaction of a quote. */
function depositItem(quote: Quote) {
  const step = quote.steps.find((s) => s.id === "deposit")!;
  return step.items[0]!.data as { to: Hex; data: Hex; value: string; gas?: string };
}

async function reclaimableQuote(devnet: E2eDevnet, user: Hex, amount: bigint): Promise<Quote> {
  return devnet.client.getQuote({
    user,
    originChainId: ORIGIN,
    destinationChainId: DESTINATION,
    originCurrency: NATIVE,
    destinationCurrency: NATIVE,
    recipient: freshRecipient(),
    amount: amount.toString(),
    tradeType: "EXACT_INPUT",
    reclaimable: true,
  });
}

/** Moves `chain`'s clock to `at` (unix seconds) or later and mines a block there. */
async function passTime(chain: E2eChain, at: number): Promise<void> {
  const latest = await chain.publicClient.getBlock();
  if (Number(latest.timestamp) < at) await chain.testClient.increaseTime({ seconds: at - Number(latest.timestamp) + 1 });
  await chain.testClient.mine({ blocks: 1 });
}

/** The Depository's custom error name when `from` sends `data` (a reclaim) now. */
async function reclaimRevert(chain: E2eChain, from: Hex, data: Hex): Promise<string> {
  const depository = chain.file.contracts.depository!;
  try {
    await chain.publicClient.call({ account: from, to: depository, data });
  } catch (error) {
    const revert = (error as { walk: (fn: (e: unknown) => boolean) => unknown }).walk((e) => typeof (e as { data?: unknown }).data === "string");
    const raw = (revert as { data?: Hex } | undefined)?.data;
    if (!raw) throw error;
    return decodeErrorResult({ abi: depositoryAbi, data: raw }).errorName;
  }
  return "not reverted";
}

async function expectReclaimError(promise: Promise<unknown>, code: string): Promise<void> {
  let caught: unknown;
  try {
    await promise;
  } catch (error) {
    caught = error;
  }
  expect(caught, `rejected with ${code}`).to.be.instanceOf(ReclaimError);
  expect((caught as ReclaimError).code).to.equal(code);
}

describe("e2e: reclaimable deposits, solver on", function () {
  this.timeout(240_000);
  let devnet: E2eDevnet;

  before(async function () {
    this.timeout(120_000);
    devnet = await startE2eDevnet();
  });
  after(async () => devnet?.close());

  it("a filled reclaimable deposit is released with the repayment and can no longer be reclaimed", async () => {
    const user = devnet.users[0]!;
    const quote = await reclaimableQuote(devnet, user.address, parseEther("1"));
    const orderId = canonicalHex(quote.protocol.v2.orderId);
    const requestId = canonicalHex(quote.steps.at(-1)!.requestId);
    const depository = devnet.origin.file.contracts.depository!;

    // The quote: reclaimAt an hour (quotes.reclaimWindowSeconds) after the fill deadline, committed by the deposit step.
    expect(quote.reclaimAt).to.equal(quote.fillDeadline! + 3600);
    const item = depositItem(quote);
    expect(item.to.toLowerCase()).to.equal(depository.toLowerCase());
    const call = decodeDeposit(item.data);
    expect(call).to.include({ kind: "native", id: orderId });
    expect(call.reclaimAt).to.equal(BigInt(quote.reclaimAt!));

    const result = await devnet.client.executeQuote({ quote, walletClient: devnet.origin.wallet(user), pollIntervalMs: 250, timeoutMs: 120_000 });
    expect(result.status.status).to.equal("success");

    // The solver's repayment is a release: the commitment goes, ReclaimReleased(orderId) is logged.
    const deadline = Date.now() + 90_000;
    while ((await devnet.origin.publicClient.readContract({ address: depository, abi: DEPOSITORY_RECLAIM_ABI, functionName: "reclaimCommitment", args: [orderId] })) !== `0x${"00".repeat(32)}`) {
      if (Date.now() > deadline) throw new Error("the reclaimable deposit was never released");
      await new Promise((r) => setTimeout(r, 250));
    }
    const released = await devnet.origin.publicClient.getContractEvents({ address: depository, abi: depositoryAbi, eventName: "ReclaimReleased", args: { id: orderId }, fromBlock: 0n });
    expect(released).to.have.length(1);
    const releaseTx = await devnet.origin.publicClient.getTransaction({ hash: released[0]!.transactionHash });
    const decoded = decodeFunctionData({ abi: depositoryAbi, data: releaseTx.input });
    expect(decoded.functionName).to.equal("release");
    const stored = await devnet.server.store.getRequest(requestId);
    expect(stored?.solver?.repayment?.release).to.equal(orderId);

    // The request record shows the reclaim time.
    const { requests } = await devnet.client.getRequests({ id: requestId });
    expect(requests[0]!.reclaimAt).to.equal(quote.reclaimAt);

    // Its receipt verifies offline: the reclaimable deposit's log and a release of its order. Without the
    // release it does not (a repayment by `execute` would leave the deposit reclaimable).
    let receipt: Record<string, any> | undefined;
    const until = Date.now() + 60_000;
    while (!receipt) {
      const response = await fetch(`${devnet.file.apiUrl}/requests/${requestId}/receipt`);
      if (response.status === 200) receipt = (await response.json()) as Record<string, any>;
      else if (Date.now() > until) throw new Error(`no receipt: ${response.status} ${await response.text()}`);
      else await new Promise((r) => setTimeout(r, 250));
    }
    expect(receipt.deposit.fields.reclaimAt).to.equal(String(quote.reclaimAt));
    expect(receipt.repayment.request.release).to.equal(orderId);
    const verified = await verifyReceipt(receipt, { trusted: { depositories: [depository] } });
    expect(verified.valid, JSON.stringify(verified)).to.equal(true);
    const { release: _release, ...notReleased } = receipt.repayment.request;
    const tampered = await verifyReceipt({ ...receipt, repayment: { ...receipt.repayment, request: notReleased } });
    expect(tampered).to.include({ valid: false, check: "repayment.release" });

    // Past reclaimAt the depositor cannot take it back: the client says why, the Depository reverts.
    await passTime(devnet.origin, quote.reclaimAt!);
    await expectReclaimError(reclaimDeposit({ walletClient: devnet.origin.wallet(user), depository, id: orderId }), "RECLAIM_NOT_LIVE");
    const deposit = await findReclaimableDeposit({ publicClient: devnet.origin.publicClient, depository, id: orderId });
    expect(deposit.live).to.equal(false);
    expect(await reclaimRevert(devnet.origin, user.address, encodeReclaim({ id: orderId, currency: NATIVE, amount: deposit.amount, reclaimAt: deposit.reclaimAt }))).to.equal("NoReclaimCommitment");
  });
});

describe("e2e: reclaimable deposits, solver off", function () {
  this.timeout(240_000);
  let devnet: E2eDevnet;

  before(async function () {
    this.timeout(120_000);
    devnet = await startE2eDevnet({ env: { FERRY_SOLVER: "off" } });
  });
  after(async () => devnet?.close());

  it("a deposit the service never releases is reclaimed by its depositor after reclaimAt, in one transaction", async () => {
    const user = devnet.users[1]!;
    const amount = parseEther("2");
    const quote = await reclaimableQuote(devnet, user.address, amount);
    const orderId = canonicalHex(quote.protocol.v2.orderId);
    const depository = devnet.origin.file.contracts.depository!;
    const item = depositItem(quote);
    const wallet = devnet.origin.wallet(user);

    const before = await devnet.origin.publicClient.getBalance({ address: user.address });
    const depositHash = await wallet.sendTransaction({ to: item.to, data: item.data, value: BigInt(item.value) });
    expect((await devnet.origin.publicClient.waitForTransactionReceipt({ hash: depositHash })).status).to.equal("success");

    // Before its time: refused by the client, reverted by the Depository.
    await expectReclaimError(reclaimDeposit({ walletClient: wallet, depository, id: orderId }), "RECLAIM_NOT_YET");

    // The service does nothing (no solver); the origin chain's clock passes reclaimAt.
    await passTime(devnet.origin, quote.reclaimAt!);
    const { txHash, deposit } = await reclaimDeposit({ walletClient: wallet, depository, id: orderId });
    expect(deposit.amount).to.equal(amount);
    expect(deposit.depositor.toLowerCase()).to.equal(user.address.toLowerCase());
    const receipt = await devnet.origin.publicClient.getTransactionReceipt({ hash: txHash });
    expect(receipt.status).to.equal("success");
    const reclaimed = await devnet.origin.publicClient.getContractEvents({ address: depository, abi: depositoryAbi, eventName: "Reclaimed", args: { id: orderId }, fromBlock: 0n });
    expect(reclaimed).to.have.length(1);
    expect(reclaimed[0]!.args).to.include({ amount, claimable: false });

    // The whole deposit came back: the user is down only the two transactions' gas.
    const after = await devnet.origin.publicClient.getBalance({ address: user.address });
    expect(after).to.equal(before - (await gasCost(devnet.origin.publicClient, depositHash)) - (await gasCost(devnet.origin.publicClient, txHash)));

    // Once only: a second reclaim is refused and would revert.
    await expectReclaimError(reclaimDeposit({ walletClient: wallet, depository, id: orderId }), "RECLAIM_NOT_LIVE");
    expect(await reclaimRevert(devnet.origin, user.address, encodeReclaim({ id: orderId, currency: NATIVE, amount, reclaimAt: BigInt(quote.reclaimAt!) }))).to.equal("NoReclaimCommitment");
  });
});
