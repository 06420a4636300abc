/**
 * How often the solver reads an unpaid deposit address once its quote is long expired
 * (ts/service/solver/depositAddress/checkCadence.ts): every pass until `expiresAt` + the grace, then
 * at most once per interval — counted as the balance reads of the address on a real EDR chain over
 * many passes — and a late payment is still found and refunded at the next due check.
 */
import { expect } from "chai";
import { parseEther, zeroAddress } from "viem";
import { type Address as CanonicalAddress } from "../../../../ts/service/model/values.ts";
import { CHECK_GRACE_SECONDS, CHECK_INTERVAL_SECONDS, nextDepositAddressCheck } from "../../../../ts/service/solver/depositAddress/checkCadence.ts";
import { createStore, type Store } from "../../../../ts/service/store/createStore.ts";
import { depositAddressChains, type Solver } from "./depositAddressChains.ts";

describe("deposit address check cadence", function () {
  this.timeout(300_000);

  describe("nextDepositAddressCheck (pure)", () => {
    const expiresAt = "2026-01-01T00:00:00.000Z";
    const t = (seconds: number) => new Date(Date.parse(expiresAt) + seconds * 1000);
    it("checks every pass until the expiry plus the grace, then hourly, then daily after a week", () => {
      expect(nextDepositAddressCheck(expiresAt, t(-60))).to.equal(null);
      expect(nextDepositAddressCheck(expiresAt, t(CHECK_GRACE_SECONDS - 1))).to.equal(null);
      expect(nextDepositAddressCheck(expiresAt, t(CHECK_GRACE_SECONDS))).to.deep.equal(t(CHECK_GRACE_SECONDS + CHECK_INTERVAL_SECONDS.hourly));
      const week = 7 * 86_400;
      expect(nextDepositAddressCheck(expiresAt, t(week + 5))).to.deep.equal(t(week + 5 + CHECK_INTERVAL_SECONDS.daily));
    });
  });

  describe("on a real chain", () => {
    const chains = depositAddressChains();
    const { env, wallet, mined, mine, at } = chains;
    let store: Store;
    beforeEach(async () => {
      store = await createStore();
    });
    afterEach(async () => store.close());

    /** A solver whose clock is `clock.ms`, counting the balance reads of `address` (native and token). */
    function countingSolver(clock: { ms: number }, address: CanonicalAddress): { solver: Solver; reads: () => number } {
      const solver = chains.solver(store, () => new Date(clock.ms));
      const client = chains.clientOf(solver);
      let reads = 0;
      const getBalance = client.publicClient.getBalance.bind(client.publicClient);
      const readContract = client.publicClient.readContract.bind(client.publicClient);
      Object.assign(client.publicClient, {
        getBalance: (args: Parameters<typeof getBalance>[0]) => {
          if (args.address.toLowerCase() === address) reads++;
          return getBalance(args);
        },
        readContract: (args: Parameters<typeof readContract>[0]) => {
          if (args.functionName === "balanceOf" && String((args.args as unknown[])[0]).toLowerCase() === address) reads++;
          return readContract(args);
        },
      });
      return { solver, reads: () => reads };
    }

    it("reads an expired unpaid address once per interval, not on every pass, and still refunds a late payment", async () => {
      const amount = parseEther("0.2");
      const { address, refundTo, expiresAt } = await chains.strictAddress(store, zeroAddress, amount, 120);
      await at(expiresAt + 1);
      await mine();
      // The service's clock: long past the expiry and its grace.
      const clock = { ms: (expiresAt + CHECK_GRACE_SECONDS + 3600) * 1000 };
      const { solver, reads } = countingSolver(clock, address);
      await chains.pass(store, solver);
      const oneCheck = reads();
      expect(oneCheck).to.be.at.least(1);
      for (let i = 0; i < 9; i++) await chains.pass(store, solver);
      expect(reads(), "balance reads over 10 passes of an expired unpaid address").to.equal(oneCheck);

      // A late payment is found at the next due check and refunded.
      const late = await wallet().sendTransaction({ chain: null, to: address, value: amount });
      await mined(late);
      await mine();
      await chains.pass(store, solver);
      expect((await store.getDepositAddress(env().origin.chainId, address))!.state).to.equal("watching");
      clock.ms += (CHECK_INTERVAL_SECONDS.hourly + 1) * 1000;
      for (let i = 0; i < 6; i++) {
        await chains.pass(store, solver);
        await mine();
      }
      const row = (await store.getDepositAddress(env().origin.chainId, address))!;
      expect(row.state).to.equal("refunded");
      expect(row.refunds!.map((r) => [r.amount, r.reason, r.state])).to.deep.equal([[amount, "ORDER_EXPIRED", "confirmed"]]);
      expect(await env().origin.publicClient.getBalance({ address: refundTo })).to.equal(amount);
    });
  });
});
