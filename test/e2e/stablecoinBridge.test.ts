/**
 * End to end: the 6-decimal fUSD stablecoin 31337 → 31338. A user without allowance gets an
 * `approve` step before the `deposit` step; executeQuote sends both and the solver fills. A quote
 * asked after the approval is mined has no approve step.
 */
import { expect } from "chai";
import { erc20Abi, type Address, type Hex } from "viem";
import type { Quote } from "../../ts/client/apiTypes.ts";
import { DESTINATION, ORIGIN, freshRecipient, startE2eDevnet, type E2eDevnet } from "./e2eDevnet.ts";

describe("e2e: stablecoin bridge 31337 → 31338", function () {
  this.timeout(180_000);
  let devnet: E2eDevnet;
  let fusd: Address;

  before(async function () {
    this.timeout(120_000);
    devnet = await startE2eDevnet();
    fusd = devnet.origin.file.contracts.stablecoin!;
  });
  after(async () => devnet?.close());

  const quoteFor = (user: Address, recipient: Address, amount: bigint): Promise<Quote> =>
    devnet.client.getQuote({
      user,
      originChainId: ORIGIN,
      destinationChainId: DESTINATION,
      originCurrency: fusd,
      destinationCurrency: devnet.destination.file.contracts.stablecoin!,
      recipient,
      amount: amount.toString(),
      tradeType: "EXACT_INPUT",
    });

  const balanceOf = (chain: "origin" | "destination", address: Address) =>
    devnet[chain].publicClient.readContract({ address: fusd, abi: erc20Abi, functionName: "balanceOf", args: [address] });

  it("approve step + deposit step → success; the recipient gets exactly currencyOut.amount", async () => {
    const user = devnet.users[0]!;
    const recipient = freshRecipient();
    const amount = 25_000_000n; // 25.00 fUSD
    const quote = await quoteFor(user.address, recipient, amount);
    expect(quote.steps.map((s) => s.id)).to.deep.equal(["approve", "deposit"]);
    expect(quote.details.currencyIn.currency.decimals).to.equal(6);

    const before = await balanceOf("origin", user.address);
    const result = await devnet.client.executeQuote({
      quote,
      walletClient: devnet.origin.wallet(user),
      publicClient: devnet.origin.publicClient,
      pollIntervalMs: 250,
      timeoutMs: 120_000,
    });
    expect(result.status.status).to.equal("success");
    expect(result.txHashes.map((t) => t.stepId)).to.deep.equal(["approve", "deposit"]);
    expect(await balanceOf("origin", user.address)).to.equal(before - BigInt(quote.details.currencyIn.amount));
    expect(await balanceOf("destination", recipient)).to.equal(BigInt(quote.details.currencyOut.amount));
    const status = await devnet.client.getStatus(result.requestId);
    expect(status.inTxHashes.map((h) => h.toLowerCase())).to.include(result.txHashes[1]!.txHash.toLowerCase());
  });

  it("a second quote after the approval is mined has no approve step, and executes to success", async () => {
    const user = devnet.users[1]!;
    const recipient = freshRecipient();
    const amount = 10_000_000n;
    const first = await quoteFor(user.address, recipient, amount);
    expect(first.steps.map((s) => s.id)).to.deep.equal(["approve", "deposit"]);

    // Only the approval, sent as the quote describes it.
    const approve = first.steps[0]!.items[0]!.data;
    const wallet = devnet.origin.wallet(user);
    const hash = await wallet.sendTransaction({ to: approve.to as Address, data: approve.data as Hex, value: BigInt(approve.value as string) });
    expect((await devnet.origin.publicClient.waitForTransactionReceipt({ hash })).status).to.equal("success");

    const second = await quoteFor(user.address, recipient, amount);
    expect(second.steps.map((s) => s.id)).to.deep.equal(["deposit"]);
    const result = await devnet.client.executeQuote({ quote: second, walletClient: wallet, pollIntervalMs: 250, timeoutMs: 120_000 });
    expect(result.status.status).to.equal("success");
    expect(await balanceOf("destination", recipient)).to.equal(BigInt(second.details.currencyOut.amount));
  });
});
