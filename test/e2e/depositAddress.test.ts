/**
 * End to end, on the devnet (both store engines): strict deposit addresses checked from outside by a
 * client that only sends plain transfers. The client asks POST /quote/v2 for `useDepositAddress: true,
 * strict: true`, then sends a plain EOA value transfer (native) or a plain ERC-20 `transfer` (fUSD) to
 * `steps[0].depositAddress` — never a Depository call — and polls GET /intents/status/v3. The service
 * finds the final payment, forwards it (deployAndForward, signed by the allocator, through the
 * solver's nonce manager), indexes the Depository's deposit and fills: `success`, the recipient paid
 * exactly `currencyOut.amount`, the records' `depositAddress` naming the payer and its transaction,
 * and GET /requests/v2?depositAddress= listing the address's request. Same-chain too: fUSD paid to the
 * address on 31337, ETH paid out on 31337.
 */
import { expect } from "chai";
import { erc20Abi, getAddress, type Address } from "viem";
import { NATIVE, ORIGIN, freshRecipient, type E2eDevnet } from "./e2eDevnet.ts";
import { E2E_ENGINES } from "./e2eEngines.ts";
import { depositAddressApi, devnetOn, type DepositAddressQuote } from "./depositAddressApi.ts";


for (const engine of E2E_ENGINES) {
  describe(`e2e: strict deposit addresses, plain transfers only [${engine}]`, function () {
    this.timeout(240_000);
    let devnet: E2eDevnet;
    const suiteDevnet = devnetOn(engine);
    beforeEach(() => {
      devnet = suiteDevnet();
    });
    const { quote, statusUntilFinal } = depositAddressApi(() => devnet);
    /** A plain fUSD `transfer` of the quoted amount to the quote's address, then its status once final (expected `success`). */
    async function payFusd(user: E2eDevnet["users"][number], fusd: Address, q: DepositAddressQuote) {
      const [step] = q.steps;
      const address = getAddress(step!.depositAddress);
      const hash = await devnet.origin.wallet(user).writeContract({ address: fusd, abi: erc20Abi, functionName: "transfer", args: [address, BigInt(q.details.currencyIn.amount)] });
      expect((await devnet.origin.publicClient.waitForTransactionReceipt({ hash })).status).to.equal("success");
      const status = await statusUntilFinal(step!.requestId);
      expect(status.status).to.equal("success");
      return { address, hash, status };
    }



    it("a plain EOA native transfer to the address completes the bridge", async () => {
      const user = devnet.users[0]!;
      const recipient = freshRecipient();
      const q = await quote({ user: user.address, recipient, originCurrency: NATIVE, destinationCurrency: NATIVE, amount: "50000000000000000" });
      const [step] = q.steps;
      const address = getAddress(step!.depositAddress);
      expect(await devnet.origin.publicClient.getCode({ address })).to.equal(undefined);
      // A plain value transfer: no calldata, to the address the quote named.
      const hash = await devnet.origin.wallet(user).sendTransaction({ to: address, value: BigInt(q.details.currencyIn.amount) });
      expect((await devnet.origin.publicClient.waitForTransactionReceipt({ hash })).status).to.equal("success");

      const status = await statusUntilFinal(step!.requestId);
      expect(status.status).to.equal("success");
      expect(await devnet.destination.publicClient.getBalance({ address: recipient })).to.equal(BigInt(q.details.currencyOut.amount));
      expect(status.depositAddress).to.deep.equal({ address: address.toLowerCase(), depositAddressType: "strict", depositor: user.address.toLowerCase(), depositTxHash: hash.toLowerCase() });
      // GET /requests/v2?depositAddress= lists the address's request, with the same depositAddress object.
      const listed = (await (await fetch(`${devnet.file.apiUrl}/requests/v2?depositAddress=${address}`)).json()) as { requests: Array<{ id: string; depositAddress: unknown }> };
      expect(listed.requests.map((r) => r.id)).to.deep.equal([step!.requestId.toLowerCase()]);
      expect(listed.requests[0]!.depositAddress).to.deep.equal(status.depositAddress);
      // The forwarder was deployed by the forwarding and holds nothing any more.
      expect(await devnet.origin.publicClient.getCode({ address })).to.not.equal(undefined);
      expect(await devnet.origin.publicClient.getBalance({ address })).to.equal(0n);
    });

    it("a plain ERC-20 transfer to the address completes the bridge", async () => {
      const user = devnet.users[1]!;
      const recipient = freshRecipient();
      const fusd = devnet.origin.file.contracts.stablecoin! as Address;
      const destinationFusd = devnet.destination.file.contracts.stablecoin! as Address;
      const q = await quote({ user: user.address, recipient, originCurrency: fusd, destinationCurrency: destinationFusd, amount: "20000000" });
      const { address, hash, status } = await payFusd(user, fusd, q);
      const received = await devnet.destination.publicClient.readContract({ address: destinationFusd, abi: erc20Abi, functionName: "balanceOf", args: [recipient] });
      expect(received).to.equal(BigInt(q.details.currencyOut.amount));
      expect(status.depositAddress).to.deep.equal({ address: address.toLowerCase(), depositAddressType: "strict", depositor: user.address.toLowerCase(), depositTxHash: hash.toLowerCase() });
      const left = await devnet.origin.publicClient.readContract({ address: fusd, abi: erc20Abi, functionName: "balanceOf", args: [address] });
      expect(left).to.equal(0n);
    });

    it("same-chain: a plain fUSD transfer to the address pays out ETH on the same chain", async () => {
      const user = devnet.users[2]!;
      const recipient = freshRecipient();
      const fusd = devnet.origin.file.contracts.stablecoin! as Address;
      const q = await quote({ user: user.address, recipient, destinationChainId: ORIGIN, originCurrency: fusd, destinationCurrency: NATIVE, amount: (300n * 10n ** 6n).toString() });
      const { address, hash, status } = await payFusd(user, fusd, q);
      expect(await devnet.origin.publicClient.getBalance({ address: recipient })).to.equal(BigInt(q.details.currencyOut.amount));
      expect(status.depositAddress).to.deep.equal({ address: address.toLowerCase(), depositAddressType: "strict", depositor: user.address.toLowerCase(), depositTxHash: hash.toLowerCase() });
      expect(await devnet.origin.publicClient.readContract({ address: fusd, abi: erc20Abi, functionName: "balanceOf", args: [address] })).to.equal(0n);
    });
  });
}
