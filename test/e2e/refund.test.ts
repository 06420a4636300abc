/**
 * End to end: failure → refund. Between the quote and the deposit the destination chain's clock
 * moves past the fill deadline (evm_increaseTime + mine on the destination RPC only), so the solver
 * cannot fill: the request ends in `refund` with failReason ORDER_EXPIRED, nothing reaches the
 * recipient, and the user's origin balance is back to where it was minus the deposit's gas.
 */
import { expect } from "chai";
import { parseEther, type Hex } from "viem";
import { RequestFailedError } from "../../ts/client/clientErrors.ts";
import { waitForRequest } from "../../ts/client/waitForRequest.ts";
import { DESTINATION, NATIVE, ORIGIN, freshRecipient, gasCost, startE2eDevnet, type E2eDevnet } from "./e2eDevnet.ts";

describe("e2e: fill deadline passed → refund", function () {
  this.timeout(180_000);
  let devnet: E2eDevnet;

  before(async function () {
    this.timeout(120_000);
    devnet = await startE2eDevnet();
  });
  after(async () => devnet?.close());

  it("expires on the destination, ends in refund (ORDER_EXPIRED), and gives the user the deposit back", async () => {
    const user = devnet.users[0]!;
    const recipient = freshRecipient();
    const quote = await devnet.client.getQuote({
      user: user.address,
      originChainId: ORIGIN,
      destinationChainId: DESTINATION,
      originCurrency: NATIVE,
      destinationCurrency: NATIVE,
      recipient,
      amount: parseEther("1").toString(),
      tradeType: "EXACT_INPUT",
    });
    const requestId = quote.steps.at(-1)!.requestId;
    const fillDeadline = quote.protocol.v2.orderData.output.deadline;

    // Only the destination chain's clock moves: a day past the fill deadline.
    const latest = await devnet.destination.publicClient.getBlock();
    await devnet.destination.testClient.increaseTime({ seconds: fillDeadline - Number(latest.timestamp) + 86_400 });
    await devnet.destination.testClient.mine({ blocks: 1 });

    const before = await devnet.origin.publicClient.getBalance({ address: user.address });
    let failed: unknown;
    let depositHash: Hex | undefined;
    try {
      await devnet.client.executeQuote({
        quote,
        walletClient: devnet.origin.wallet(user),
        pollIntervalMs: 250,
        timeoutMs: 120_000,
        onProgress: (p) => (depositHash = p.txHashes.find((t) => t.stepId === "deposit")?.txHash ?? depositHash),
      });
    } catch (error) {
      failed = error;
    }
    expect(failed, "executeQuote rejects").to.be.instanceOf(RequestFailedError);
    expect((failed as RequestFailedError).failReason).to.equal("ORDER_EXPIRED");

    // failure → refund: wait for the refund itself.
    const status = await waitForRequest({ client: devnet.client, requestId, pollIntervalMs: 250, timeoutMs: 120_000, until: (s) => s.status === "refund" });
    expect(status).to.include({ status: "refund", failReason: "ORDER_EXPIRED" });
    expect(await devnet.destination.publicClient.getBalance({ address: recipient })).to.equal(0n);

    // The refund reached the user on the origin chain: only the deposit's gas is gone.
    expect(depositHash).to.match(/^0x[0-9a-f]{64}$/i);
    expect(status.inTxHashes.map((h) => h.toLowerCase())).to.include(depositHash!.toLowerCase());
    const after = await devnet.origin.publicClient.getBalance({ address: user.address });
    expect(after).to.equal(before - (await gasCost(devnet.origin.publicClient, depositHash!)));
  });
});
