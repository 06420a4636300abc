/**
 * End to end, on the devnet (both store engines): open deposit addresses checked from outside by a
 * client that only sends plain transfers. The client asks POST /quote/v2 for `useDepositAddress: true`
 * without `strict`: the open address of its user and route (destination chain, currency, recipient),
 * the same for a second quote of that route — whatever the origin currency or amount — and the address
 * the factory's `predictOpen` gives. A plain EOA then sends two native payments of the same amount and
 * one plain fUSD `transfer` to it; the service finds each final payment, re-quotes it for what was paid,
 * forwards it under the new order and fills: three requests, each `success`, listed by
 * GET /requests/v2?depositAddress=, each naming its payer and its own transaction; the recipient got
 * exactly what the three re-quotes promised, and the address holds nothing any more. The first quote's
 * requestId, a placeholder, says which request superseded it. A payment that cannot be re-quoted (the
 * route's 99% app fee leaves less than the gas) is refunded whole to `refundTo` and has its own request,
 * `refund` with NO_QUOTES and the refund transaction, listed and followed like any other.
 */
import { expect } from "chai";
import { erc20Abi, getAddress, padHex, type Address, type Hex } from "viem";
import { depositAddressFactoryAbi } from "../../ts/abi/DepositAddressFactory.ts";
import { canonicalHex } from "../../ts/service/model/values.ts";
import { DESTINATION, NATIVE, freshRecipient, type E2eDevnet } from "./e2eDevnet.ts";
import { E2E_ENGINES } from "./e2eEngines.ts";
import { depositAddressApi, devnetOn } from "./depositAddressApi.ts";

type ListedRequest = {
  id: string;
  status: string;
  inTxHashes: string[];
  depositAddress: { address: string; depositAddressType: string; depositor: string | null; depositTxHash: string | null } | null;
};

for (const engine of E2E_ENGINES) {
  describe(`e2e: open deposit addresses, plain transfers only [${engine}]`, function () {
    this.timeout(300_000);
    let devnet: E2eDevnet;
    const suiteDevnet = devnetOn(engine);
    beforeEach(() => {
      devnet = suiteDevnet();
    });
    const { quote, statusUntilFinal } = depositAddressApi(() => devnet);

    /** GET /requests/v2?depositAddress= every 500 ms until `count` requests are all final (200 s at most). */
    async function requestsUntilFinal(address: Address, count: number): Promise<ListedRequest[]> {
      const deadline = Date.now() + 200_000;
      for (;;) {
        const { requests } = (await (await fetch(`${devnet.file.apiUrl}/requests/v2?depositAddress=${address}&sortDirection=asc`)).json()) as { requests: ListedRequest[] };
        if (requests.length >= count && requests.every((r) => ["success", "failure", "refund"].includes(r.status))) return requests;
        if (Date.now() > deadline) throw new Error(`the address's requests are ${JSON.stringify(requests.map((r) => r.status))}`);
        await new Promise((resolve) => setTimeout(resolve, 500));
      }
    }

    it("two native payments of the same amount and one ERC-20 transfer become three requests, each success", async () => {
      const user = devnet.users[2]!;
      const recipient = freshRecipient();
      const fusd = devnet.origin.file.contracts.stablecoin! as Address;
      const destinationFusd = devnet.destination.file.contracts.stablecoin! as Address;
      const route = { user: user.address, recipient, destinationCurrency: destinationFusd, strict: undefined };
      const first = await quote({ ...route, originCurrency: NATIVE, amount: "30000000000000000" });
      const address = getAddress(first.steps[0]!.depositAddress);
      // The same address for every quote of this user and route: another amount, another origin currency, strict: false.
      const again = await quote({ ...route, originCurrency: NATIVE, amount: "70000000000000000", strict: false });
      const inFusd = await quote({ ...route, originCurrency: fusd, amount: "20000000" });
      expect(getAddress(again.steps[0]!.depositAddress)).to.equal(address);
      expect(getAddress(inFusd.steps[0]!.depositAddress)).to.equal(address);
      const predicted = await devnet.origin.publicClient.readContract({
        address: devnet.origin.file.contracts.depositAddressFactory as Address,
        abi: depositAddressFactoryAbi,
        functionName: "predictOpen",
        args: [user.address as Address, BigInt(DESTINATION), padHex(destinationFusd, { size: 32 }), padHex(recipient, { size: 32 })],
      });
      expect(address).to.equal(predicted);
      // A plain value transfer, twice the same amount, then a plain ERC-20 transfer: three payments.
      const wallet = devnet.origin.wallet(user);
      const sent: Hex[] = [];
      for (const _ of [0, 1]) {
        const hash = await wallet.sendTransaction({ to: address, value: 30_000_000_000_000_000n });
        expect((await devnet.origin.publicClient.waitForTransactionReceipt({ hash })).status).to.equal("success");
        sent.push(hash);
      }
      const tokenHash = await wallet.writeContract({ address: fusd, abi: erc20Abi, functionName: "transfer", args: [address, 20_000_000n] });
      expect((await devnet.origin.publicClient.waitForTransactionReceipt({ hash: tokenHash })).status).to.equal("success");
      sent.push(tokenHash);

      const requests = await requestsUntilFinal(address, 3);
      expect(requests).to.have.length(3);
      expect(requests.map((r) => r.status)).to.deep.equal(["success", "success", "success"]);
      expect(new Set(requests.map((r) => r.id)).size).to.equal(3);
      // None is a quote the client was given: each payment was re-quoted into its own request.
      for (const q of [first, again, inFusd]) expect(requests.map((r) => r.id)).to.not.include(q.steps[0]!.requestId.toLowerCase());
      expect(requests.map((r) => r.depositAddress?.depositTxHash).sort()).to.deep.equal(sent.map((h) => h.toLowerCase()).sort());
      for (const r of requests) {
        expect(r.depositAddress).to.deep.include({ address: address.toLowerCase(), depositAddressType: "open", depositor: user.address.toLowerCase() });
        // The status record says the same.
        const status = await statusUntilFinal(r.id as Hex);
        expect(status.depositAddress).to.deep.equal(r.depositAddress);
      }
      // The recipient got what the three re-quotes promised (each request's own quote, stored with it).
      const promised = await Promise.all(requests.map(async (r) => (await devnet.server.store.getQuote(canonicalHex(r.id)))!.intent.destinationAmount));
      const received = await devnet.destination.publicClient.readContract({ address: destinationFusd, abi: erc20Abi, functionName: "balanceOf", args: [recipient] });
      expect(received).to.equal(promised.reduce((sum, amount) => sum + amount, 0n));
      // The address was emptied into the Depository, payment by payment.
      expect(await devnet.origin.publicClient.getBalance({ address })).to.equal(0n);
      expect(await devnet.origin.publicClient.readContract({ address: fusd, abi: erc20Abi, functionName: "balanceOf", args: [address] })).to.equal(0n);
      // The quotes' placeholders were superseded by the first payment's request.
      const placeholder = (await (await fetch(`${devnet.file.apiUrl}/intents/status/v3?requestId=${first.steps[0]!.requestId}`)).json()) as {
        status: string;
        details: { supersededByRequestId?: string } | null;
      };
      expect(placeholder.status).to.equal("waiting");
      expect(requests.map((r) => r.id)).to.include(placeholder.details?.supersededByRequestId);
    });

    it("a payment that cannot be re-quoted is refunded and has a request the payer can follow", async () => {
      const user = devnet.users[3]!;
      const refundTo = freshRecipient();
      // The route's app fee takes 99%: a 10 ETH quote is fine, a 0.0004 ETH payment ($1.20, above the $1 refund threshold) leaves less than the gas (AMOUNT_TOO_LOW, not transient).
      const route = { user: user.address, recipient: freshRecipient(), refundTo, originCurrency: NATIVE, destinationCurrency: NATIVE, strict: undefined, appFees: [{ recipient: freshRecipient(), fee: "9900" }] };
      const first = await quote({ ...route, amount: "10000000000000000000" });
      const address = getAddress(first.steps[0]!.depositAddress);
      const amount = 400_000_000_000_000n;
      const hash = await devnet.origin.wallet(user).sendTransaction({ to: address, value: amount });
      expect((await devnet.origin.publicClient.waitForTransactionReceipt({ hash })).status).to.equal("success");

      const [request] = await requestsUntilFinal(address, 1);
      expect(request!.status).to.equal("refund");
      expect(request!.depositAddress).to.deep.equal({ address: address.toLowerCase(), depositAddressType: "open", depositor: user.address.toLowerCase(), depositTxHash: hash.toLowerCase() });
      expect(request!.id).to.not.equal(first.steps[0]!.requestId.toLowerCase());
      // The status route follows it by its id: refunded, why, and the refund transaction.
      const status = await statusUntilFinal(request!.id as Hex);
      expect(status).to.deep.include({ status: "refund", failReason: "NO_QUOTES", refundFailReason: "N/A" });
      expect(status.inTxHashes).to.deep.equal([hash.toLowerCase()]);
      expect(status.depositAddress).to.deep.equal(request!.depositAddress);
      expect(status.txHashes).to.have.length(1);
      expect((await devnet.origin.publicClient.getTransactionReceipt({ hash: status.txHashes[0] as Hex })).status).to.equal("success");
      // The whole payment went back to refundTo; the address holds nothing.
      expect(await devnet.origin.publicClient.getBalance({ address: refundTo })).to.equal(amount);
      expect(await devnet.origin.publicClient.getBalance({ address })).to.equal(0n);
    });
  });
}
