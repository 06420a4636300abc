/**
 * End to end, on the devnet (both store engines): mis-routed payments into strict deposit addresses,
 * checked from outside by a client that only sends plain transfers (a viem value transfer, an ERC-20
 * `transfer`) and reads the public API. Three quotes for `useDepositAddress: true, strict: true`, each
 * with its own fresh `refundTo`:
 * - too little: 40% of the quoted native amount, then nothing until the quote expired;
 * - wrong token: native sent to the address of an fUSD quote;
 * - late: the full native amount, sent after the quote expired (the origin chain's clock is moved past
 *   every quote's `expiresAt`; quotes expire at most a day after they are made).
 * Each ends `refund` with the spec's failReason in GET /intents/status/v3 and GET /requests/v2, the
 * payer's transfer in `inTxHashes`, the refund in `txHashes`, and `refundTo` holding exactly what was
 * sent (the whole amount: the factory's refund cannot keep the service's gas).
 */
import { expect } from "chai";
import { erc20Abi, getAddress, parseEther, type Address, type Hex } from "viem";
import { NATIVE, freshRecipient, type E2eDevnet } from "./e2eDevnet.ts";
import { E2E_ENGINES } from "./e2eEngines.ts";
import { depositAddressApi, devnetOn, type DepositAddressQuote } from "./depositAddressApi.ts";

type RequestRecord = { id: string; status: string; depositAddress: unknown; data: { failReason: string; inTxs?: unknown[] } };

for (const engine of E2E_ENGINES) {
  describe(`e2e: strict deposit addresses, mis-routed plain transfers refunded [${engine}]`, function () {
    this.timeout(300_000);
    let devnet: E2eDevnet;
    const suiteDevnet = devnetOn(engine);
    beforeEach(() => {
      devnet = suiteDevnet();
    });
    const { quote, statusUntilFinal } = depositAddressApi(() => devnet);



    it("refunds too little, the wrong token and a late payment to refundTo, each with its reason", async () => {
      const { origin } = devnet;
      const fusd = origin.file.contracts.stablecoin! as Address;
      const destinationFusd = devnet.destination.file.contracts.stablecoin! as Address;
      const [tooLittlePayer, wrongTokenPayer, latePayer] = [devnet.users[0]!, devnet.users[1]!, devnet.users[2]!];
      const refundTos = [freshRecipient(), freshRecipient(), freshRecipient()] as const;
      const native = { originCurrency: NATIVE, destinationCurrency: NATIVE, amount: parseEther("0.05").toString() };
      const tooLittle = await quote({ user: tooLittlePayer.address, recipient: freshRecipient(), refundTo: refundTos[0], ...native });
      const wrongToken = await quote({ user: wrongTokenPayer.address, recipient: freshRecipient(), refundTo: refundTos[1], originCurrency: fusd, destinationCurrency: destinationFusd, amount: "20000000" });
      const late = await quote({ user: latePayer.address, recipient: freshRecipient(), refundTo: refundTos[2], ...native });
      const addressOf = (q: DepositAddressQuote) => getAddress(q.steps[0]!.depositAddress);

      // Plain transfers only: 40% of the amount; native to an fUSD address.
      const partial = (BigInt(tooLittle.details.currencyIn.amount) * 40n) / 100n;
      const sent: Hex[] = [];
      sent.push(await origin.wallet(tooLittlePayer).sendTransaction({ to: addressOf(tooLittle), value: partial }));
      sent.push(await origin.wallet(wrongTokenPayer).sendTransaction({ to: addressOf(wrongToken), value: parseEther("0.01") }));
      for (const hash of sent) expect((await origin.publicClient.waitForTransactionReceipt({ hash })).status).to.equal("success");

      // Every quote expires (at most a day: the service's quote TTL cap), then the late payment lands.
      await origin.testClient.increaseTime({ seconds: 2 * 86_400 });
      await origin.testClient.mine({ blocks: 1 });
      const lateAmount = BigInt(late.details.currencyIn.amount);
      sent.push(await origin.wallet(latePayer).sendTransaction({ to: addressOf(late), value: lateAmount }));
      expect((await origin.publicClient.waitForTransactionReceipt({ hash: sent[2]! })).status).to.equal("success");
      await origin.testClient.mine({ blocks: 2 });

      const cases = [
        { q: tooLittle, reason: "DEPOSITED_AMOUNT_TOO_LOW_TO_FILL", refunded: partial, payer: tooLittlePayer, refundTo: refundTos[0], hash: sent[0]! },
        { q: wrongToken, reason: "INCORRECT_DEPOSIT_CURRENCY", refunded: parseEther("0.01"), payer: wrongTokenPayer, refundTo: refundTos[1], hash: sent[1]! },
        { q: late, reason: "ORDER_EXPIRED", refunded: lateAmount, payer: latePayer, refundTo: refundTos[2], hash: sent[2]! },
      ];
      for (const c of cases) {
        const requestId = c.q.steps[0]!.requestId;
        const status = await statusUntilFinal(requestId);
        expect(status, c.reason).to.deep.include({ status: "refund", failReason: c.reason, refundFailReason: "N/A" });
        expect(status.inTxHashes).to.deep.equal([c.hash.toLowerCase()]);
        expect(status.txHashes).to.have.length(1);
        expect(status.depositAddress).to.deep.include({ address: addressOf(c.q).toLowerCase(), depositor: c.payer.address.toLowerCase(), depositTxHash: c.hash.toLowerCase() });
        const refund = await origin.publicClient.getTransactionReceipt({ hash: status.txHashes[0] as Hex });
        expect(refund.status).to.equal("success");
        // The whole amount, to refundTo; nothing left at the address.
        expect(await origin.publicClient.getBalance({ address: c.refundTo })).to.equal(c.refunded);
        expect(await origin.publicClient.getBalance({ address: addressOf(c.q) })).to.equal(0n);

        const listed = (await (await fetch(`${devnet.file.apiUrl}/requests/v2?depositAddress=${addressOf(c.q)}`)).json()) as { requests: RequestRecord[] };
        expect(listed.requests.map((r) => [r.id, r.status, r.data.failReason])).to.deep.equal([[requestId.toLowerCase(), "refund", c.reason]]);
        expect(listed.requests[0]!.depositAddress).to.deep.equal(status.depositAddress);
      }
      // The fUSD address received no fUSD and refunded none.
      expect(await origin.publicClient.readContract({ address: fusd, abi: erc20Abi, functionName: "balanceOf", args: [refundTos[1]] })).to.equal(0n);
    });
  });
}
