/**
 * End to end, over real HTTP and both devnet chains: a native bridge 31337 → 31338, quoted
 * (EXACT_INPUT and EXACT_OUTPUT), executed with ts/client's executeQuote from a devnet user's viem
 * wallet, filled by the service's solver. Checks the recipient got exactly `currencyOut.amount`, one
 * `Filled` for the requestId, and that the status and request records carry the real hashes.
 */
import { expect } from "chai";
import { parseEther, type Hex } from "viem";
import { attestedReceiverAbi } from "../../ts/abi/AttestedReceiver.ts";
import { fillDigest } from "../../ts/core/attestationDigest.ts";
import { decodeFill } from "../../ts/core/fillCalldata.ts";
import type { Quote, QuoteRequest } from "../../ts/client/apiTypes.ts";
import type { ExecuteProgress } from "../../ts/client/executeQuote.ts";
import { DESTINATION, NATIVE, ORIGIN, freshRecipient, startE2eDevnet, type E2eDevnet } from "./e2eDevnet.ts";

describe("e2e: native bridge 31337 → 31338", function () {
  this.timeout(180_000);
  let devnet: E2eDevnet;

  before(async function () {
    this.timeout(120_000);
    devnet = await startE2eDevnet();
  });
  after(async () => devnet?.close());

  async function bridge(userIndex: number, tradeType: "EXACT_INPUT" | "EXACT_OUTPUT", amount: bigint) {
    const user = devnet.users[userIndex]!;
    const recipient = freshRecipient();
    const body: QuoteRequest = {
      user: user.address,
      originChainId: ORIGIN,
      destinationChainId: DESTINATION,
      originCurrency: NATIVE,
      destinationCurrency: NATIVE,
      recipient,
      amount: amount.toString(),
      tradeType,
    };
    const quote: Quote = await devnet.client.getQuote(body);
    const requestId = quote.steps.at(-1)!.requestId;
    const progress: ExecuteProgress[] = [];
    const result = await devnet.client.executeQuote({
      quote,
      walletClient: devnet.origin.wallet(user),
      publicClients: { [ORIGIN]: devnet.origin.publicClient, [DESTINATION]: devnet.destination.publicClient },
      onProgress: (p) => progress.push(p),
      pollIntervalMs: 250,
      timeoutMs: 120_000,
    });
    return { user, recipient, quote, requestId, result, progress };
  }

  async function expectFilledExactlyOnce(run: Awaited<ReturnType<typeof bridge>>) {
    const { quote, recipient, requestId, result } = run;
    expect(result.requestId).to.equal(requestId);
    expect(result.status.status).to.equal("success");

    // The recipient received exactly what the quote promised.
    const out = BigInt(quote.details.currencyOut.amount);
    expect(await devnet.destination.publicClient.getBalance({ address: recipient })).to.equal(out);

    // One Filled for the requestId on the destination receiver, in a transaction the status names.
    const receiver = devnet.destination.file.contracts.attestedReceiver!;
    const filled = await devnet.destination.publicClient.getContractEvents({
      address: receiver,
      abi: attestedReceiverAbi,
      eventName: "Filled",
      args: { requestId: requestId as Hex },
      fromBlock: 0n,
    });
    expect(filled).to.have.length(1);
    expect(filled[0]!.args.recipient!.toLowerCase()).to.equal(recipient.toLowerCase());
    expect(filled[0]!.args.amount).to.equal(BigInt(quote.details.currencyOut.amount));
    // The event carries no orderId (filledDigest commits to it); the fill's calldata has it.
    const fillTx = await devnet.destination.publicClient.getTransaction({ hash: filled[0]!.transactionHash });
    const decoded = decodeFill(fillTx.input, { chainId: BigInt(DESTINATION), receiver });
    expect(decoded.attestation.orderId).to.equal(quote.protocol.v2.orderId);
    expect(await devnet.destination.publicClient.readContract({ address: receiver, abi: attestedReceiverAbi, functionName: "filledDigest", args: [requestId as Hex] })).to.equal(
      fillDigest(decoded.attestation),
    );

    const status = await devnet.client.getStatus(requestId);
    expect(status.status).to.equal("success");
    const depositHash = result.txHashes.find((t) => t.stepId === "deposit")!.txHash;
    expect(status.inTxHashes.map((h) => h.toLowerCase())).to.include(depositHash.toLowerCase());
    expect(status.txHashes.map((h) => h.toLowerCase())).to.include(filled[0]!.transactionHash.toLowerCase());
    for (const hash of status.txHashes) {
      const receipt = await devnet.destination.publicClient.getTransactionReceipt({ hash: hash as Hex });
      expect(receipt.status).to.equal("success");
    }
    for (const hash of status.inTxHashes) {
      const receipt = await devnet.origin.publicClient.getTransactionReceipt({ hash: hash as Hex });
      expect(receipt.status).to.equal("success");
    }
    expect(status.originChainId).to.equal(ORIGIN);
    expect(status.destinationChainId).to.equal(DESTINATION);
    expect(status.failReason).to.equal("N/A");
    return { status, filled, depositHash };
  }

  it("EXACT_INPUT: quote → executeQuote → success; recipient +currencyOut.amount; one Filled; real hashes", async () => {
    const amount = parseEther("1");
    const run = await bridge(0, "EXACT_INPUT", amount);
    expect(run.quote.details.currencyIn.amount).to.equal(amount.toString());
    expect(BigInt(run.quote.details.currencyOut.amount) <= amount).to.equal(true);
    const { status, depositHash } = await expectFilledExactlyOnce(run);

    // Progress was reported for every phase, ending in success.
    expect(run.progress.map((p) => p.phase)).to.include.members(["sending", "sent", "confirmed", "status"]);
    expect(run.progress.at(-1)!.status!.status).to.equal("success");

    // GET /requests/v2?user= lists it with its origin and destination transactions.
    const { requests } = await devnet.client.getRequests({ user: run.user.address });
    const record = requests.find((r) => r.id === run.requestId);
    expect(record, "request listed for its user").to.not.equal(undefined);
    expect(record!.status).to.equal("success");
    expect(record!.recipient.toLowerCase()).to.equal(run.recipient.toLowerCase());
    const inTxs = record!.data.inTxs ?? [];
    const outTxs = record!.data.outTxs ?? [];
    expect(inTxs.map((t) => t.hash.toLowerCase())).to.include(depositHash.toLowerCase());
    expect(inTxs.every((t) => t.chainId === ORIGIN)).to.equal(true);
    expect(outTxs.map((t) => t.hash.toLowerCase())).to.deep.equal(status.txHashes.map((h) => h.toLowerCase()));
    expect(outTxs.every((t) => t.chainId === DESTINATION)).to.equal(true);
    // …and by hash.
    const byHash = await devnet.client.getRequests({ hash: depositHash });
    expect(byHash.requests.map((r) => r.id)).to.deep.equal([run.requestId]);
    // The record's USD figures are the quote's own (issue 24): its price, stored with it.
    const data = record!.data as Record<string, any>;
    expect(data.feesUsd).to.deep.equal({ gas: run.quote.fees.relayerGas!.amountUsd, fixed: "0", price: run.quote.fees.relayerService!.amountUsd, gateway: "0" });
    expect(Number(data.feesUsd.gas) > 0, "priced, not $0").to.equal(true);
    expect(data.refundCurrencyData.amountUsd).to.equal(run.quote.details.currencyIn.amountUsd);
    expect(data.refundFailReason).to.equal("N/A");
    expect(data.currencyObject.metadata.isNative).to.equal(true);
    expect(data).to.not.have.any.keys("failedTxHash", "failedTxBlockNumber");
  });

  it("EXACT_OUTPUT: the recipient receives exactly the requested amount", async () => {
    const amount = parseEther("0.5");
    const run = await bridge(1, "EXACT_OUTPUT", amount);
    expect(run.quote.details.currencyOut.amount).to.equal(amount.toString());
    expect(BigInt(run.quote.details.currencyIn.amount) >= amount).to.equal(true);
    await expectFilledExactlyOnce(run);
  });
});
