/**
 * End to end, on the devnet (both store engines): strict deposit addresses paid on the wrong chain,
 * checked from outside by a client that only sends plain transfers. Two quotes from the origin chain,
 * each with its own fresh `refundTo`; the payer sends the quoted amount to the address on the
 * *destination* chain instead — a plain value transfer to the native quote's address, a plain fUSD
 * `transfer` (fUSD sits at the same address on both chains) to the fUSD quote's. The factory sits at the
 * same address there, so the address is the same forwarder: the service finds both payments there and
 * refunds each, whole, to `refundTo` on that chain, from the address itself. Once the quotes expired
 * unpaid on the origin, each request ends `refund` with DEPOSIT_CHAIN_MISMATCH (the payer's transfer in
 * `inTxHashes`, the refund in `txHashes`), and the operator's view of the address shows the payment on
 * the destination chain with its refund.
 */
import { expect } from "chai";
import { erc20Abi, getAddress, parseEther, type Address, type Hex } from "viem";
import { DESTINATION, NATIVE, freshRecipient } from "./e2eDevnet.ts";
import { E2E_ENGINES } from "./e2eEngines.ts";
import { depositAddressApi, devnetOn } from "./depositAddressApi.ts";

type AdminView = { depositAddresses: Array<{ chainId: number; state: string; payments: Array<{ txHash: string | null; currency: string; amount: string; outcome: string; reason: string | null; refundTxHash: string | null }> }> };

for (const engine of E2E_ENGINES) {
  describe(`e2e: strict deposit addresses paid on another chain, refunded there [${engine}]`, function () {
    this.timeout(300_000);
    const devnetOfSuite = devnetOn(engine);
    const { quote, statusUntilFinal } = depositAddressApi(devnetOfSuite);

    /** Waits (250 ms polls, 120 s at most) until `read` is true. */
    async function until(what: string, read: () => Promise<boolean>): Promise<void> {
      const deadline = Date.now() + 120_000;
      while (!(await read())) {
        if (Date.now() > deadline) throw new Error(`still not: ${what}`);
        await new Promise((resolve) => setTimeout(resolve, 250));
      }
    }

    it("a native and an ERC-20 plain transfer on the destination chain go back to refundTo there", async () => {
      const devnet = devnetOfSuite();
      const { destination } = devnet;
      const fusd = devnet.origin.file.contracts.stablecoin! as Address;
      const destinationFusd = destination.file.contracts.stablecoin! as Address;
      expect(getAddress(destinationFusd)).to.equal(getAddress(fusd));
      const [nativePayer, tokenPayer] = [devnet.users[0]!, devnet.users[1]!];
      const refundTos = [freshRecipient(), freshRecipient()] as const;
      const native = await quote({ user: nativePayer.address, recipient: freshRecipient(), refundTo: refundTos[0], originCurrency: NATIVE, destinationCurrency: NATIVE, amount: parseEther("0.05").toString() });
      const token = await quote({ user: tokenPayer.address, recipient: freshRecipient(), refundTo: refundTos[1], originCurrency: fusd, destinationCurrency: destinationFusd, amount: "20000000" });
      const nativeAddress = getAddress(native.steps[0]!.depositAddress);
      const tokenAddress = getAddress(token.steps[0]!.depositAddress);
      const nativeAmount = BigInt(native.details.currencyIn.amount);
      const tokenAmount = BigInt(token.details.currencyIn.amount);

      // The quoted payments, but on the destination chain: plain transfers only.
      const nativeHash = await destination.wallet(nativePayer).sendTransaction({ to: nativeAddress, value: nativeAmount });
      const tokenHash = await destination.wallet(tokenPayer).writeContract({ address: destinationFusd, abi: erc20Abi, functionName: "transfer", args: [tokenAddress, tokenAmount] });
      for (const hash of [nativeHash, tokenHash]) expect((await destination.publicClient.waitForTransactionReceipt({ hash })).status).to.equal("success");
      await destination.testClient.mine({ blocks: 2 });

      // Refunded there, whole, to refundTo; nothing left at the addresses on that chain.
      const fusdOf = (owner: Address) => destination.publicClient.readContract({ address: destinationFusd, abi: erc20Abi, functionName: "balanceOf", args: [owner] });
      await until("the native refund on the destination chain", async () => (await destination.publicClient.getBalance({ address: refundTos[0] })) === nativeAmount);
      await until("the fUSD refund on the destination chain", async () => (await fusdOf(refundTos[1])) === tokenAmount);
      expect(await destination.publicClient.getBalance({ address: nativeAddress })).to.equal(0n);
      expect(await fusdOf(tokenAddress)).to.equal(0n);

      // The quotes expire unpaid on the origin (quotes live at most a day): each ends in that refund.
      for (const chain of [devnet.origin, destination]) {
        await chain.testClient.increaseTime({ seconds: 2 * 86_400 });
        await chain.testClient.mine({ blocks: 2 });
      }
      const cases = [
        { q: native, address: nativeAddress, payer: nativePayer, hash: nativeHash, currency: NATIVE, amount: nativeAmount },
        { q: token, address: tokenAddress, payer: tokenPayer, hash: tokenHash, currency: destinationFusd, amount: tokenAmount },
      ];
      for (const c of cases) {
        const status = await statusUntilFinal(c.q.steps[0]!.requestId);
        expect(status, c.address).to.deep.include({ status: "refund", failReason: "DEPOSIT_CHAIN_MISMATCH", refundFailReason: "N/A" });
        expect(status.inTxHashes).to.deep.equal([c.hash.toLowerCase()]);
        expect(status.txHashes).to.have.length(1);
        expect(status.depositAddress).to.deep.equal({ address: c.address.toLowerCase(), depositAddressType: "strict", depositor: c.payer.address.toLowerCase(), depositTxHash: c.hash.toLowerCase() });
        // The refund is a transaction of the destination chain.
        expect((await destination.publicClient.getTransactionReceipt({ hash: status.txHashes[0] as Hex })).status).to.equal("success");

        const listed = (await (await fetch(`${devnet.file.apiUrl}/requests/v2?depositAddress=${c.address}`)).json()) as { requests: Array<{ id: string; status: string; data: { failReason: string } }> };
        expect(listed.requests.map((r) => [r.id, r.status, r.data.failReason])).to.deep.equal([[c.q.steps[0]!.requestId.toLowerCase(), "refund", "DEPOSIT_CHAIN_MISMATCH"]]);

        // The operator's view: the origin's row refunded, the destination's with the payment and its refund.
        const response = await fetch(`${devnet.file.apiUrl}/admin/deposit-addresses/${c.address}`, { headers: { authorization: `Bearer ${devnet.file.adminToken}` } });
        expect(response.status).to.equal(200);
        const view = ((await response.json()) as AdminView).depositAddresses;
        const there = view.find((v) => v.chainId === DESTINATION)!;
        expect(there.state).to.equal("elsewhere");
        expect(there.payments).to.deep.equal([
          { ...there.payments[0]!, txHash: c.hash.toLowerCase(), currency: c.currency.toLowerCase(), amount: c.amount.toString(), outcome: "refund confirmed", reason: "DEPOSIT_CHAIN_MISMATCH", refundTxHash: status.txHashes[0] },
        ]);
        expect(view.find((v) => v.chainId !== DESTINATION)!.state).to.equal("refunded");
      }
    });
  });
}
