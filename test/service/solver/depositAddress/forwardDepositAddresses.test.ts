/**
 * The deposit-address forwarding step (ts/service/solver/depositAddress/forwardDepositAddresses.ts) on
 * two real EDR chains (Ferry and its DepositAddressFactory deployed as the devnet does) and a real
 * store, attacks first:
 * - a forged payment — a `Transfer` to the strict address from a token contract that is not the quoted
 *   currency — is never forwarded as a deposit (nothing sent, the row keeps watching);
 * - a payment seen twice — two solver passes racing on it (two replicas), then a third pass after
 *   both (a restart) — is forwarded exactly once: one `deposit-address-forward` transaction, one
 *   Depository deposit;
 * - a payment that is not final (the chain's confirmations) is not forwarded yet.
 */
import { expect } from "chai";
import { erc20Abi, parseEther, parseEventLogs, zeroAddress, type Address, type Hex } from "viem";
import mockStablecoinArtifact from "../../../../artifacts/contracts/mocks/MockStablecoin.sol/MockStablecoin.json" with { type: "json" };
import { depositoryAbi } from "../../../../ts/abi/Depository.ts";
import { mockStablecoinAbi } from "../../../../ts/abi/MockStablecoin.ts";
import { canonicalAddress, canonicalHex } from "../../../../ts/service/model/values.ts";
import { forwardDepositAddresses } from "../../../../ts/service/solver/depositAddress/forwardDepositAddresses.ts";
import { createStore, type Store } from "../../../../ts/service/store/createStore.ts";
import { depositAddressChains } from "./depositAddressChains.ts";

describe("forwardDepositAddresses (strict)", function () {
  this.timeout(300_000);
  const chains = depositAddressChains();
  const { env, originConfig, clientOf, wallet, mined, mine } = chains;
  let store: Store;

  beforeEach(async () => {
    store = await createStore();
  });
  afterEach(async () => store.close());

  /** A strict address as a quote stores it, expiring in an hour. */
  const strictAddress = (currency: Parameters<typeof chains.strictAddress>[1], amount: bigint) => chains.strictAddress(store, currency, amount, 3600);

  it("never forwards a forged payment: a Transfer from a token that is not the quoted currency", async () => {
    const amount = 5_000_000n;
    const { address } = await strictAddress(canonicalAddress(env().stablecoin), amount);
    // The attacker's own token, with the same symbol and decimals, "pays" the address.
    const deployHash = await wallet().deployContract({ chain: null, account: wallet().account, abi: mockStablecoinAbi, bytecode: mockStablecoinArtifact.bytecode as Hex, args: ["Ferry Test USD", "fUSD"] });
    const forged = (await mined(deployHash)).contractAddress!;
    await mined(await wallet().writeContract({ chain: null, address: forged, abi: mockStablecoinAbi, functionName: "mint", args: [env().user.address, amount] }));
    await mined(await wallet().writeContract({ chain: null, address: forged, abi: erc20Abi, functionName: "transfer", args: [address, amount] }));
    await mine();

    const solver = chains.solver(store);
    const outcomes = await forwardDepositAddresses(solver.ctx, clientOf(solver));
    expect(outcomes).to.deep.equal([{ address, outcome: "unpaid" }]);
    expect(await store.listPendingSolverTransactions("deposit-address-forward", 10)).to.deep.equal([]);
    expect((await store.getDepositAddress(env().origin.chainId, address))!.state).to.equal("watching");
  });

  it("forwards a payment seen twice exactly once (two racing passes, then a restart), and not before it is final", async () => {
    const amount = parseEther("0.2");
    const { address, orderId, refundTo } = await strictAddress(canonicalAddress(zeroAddress), amount);
    const payment = await wallet().sendTransaction({ chain: null, to: address, value: amount });
    await mined(payment);
    const confirmations = originConfig().confirmations;
    if (confirmations > 1) {
      const early = chains.solver(store);
      expect((await forwardDepositAddresses(early.ctx, clientOf(early)))[0]!.outcome).to.equal("unpaid");
    }
    await mine();

    // Two replicas see the same final payment at once.
    const [a, b] = [chains.solver(store), chains.solver(store)];
    const settled = await Promise.allSettled([forwardDepositAddresses(a.ctx, clientOf(a)), forwardDepositAddresses(b.ctx, clientOf(b))]);
    const forwarded = settled.flatMap((r) => (r.status === "fulfilled" ? r.value.filter((o) => o.outcome === "forwarded") : []));
    expect(forwarded, JSON.stringify(settled.map((r) => (r.status === "rejected" ? String(r.reason) : r.value)))).to.have.length(1);
    // A restart: a fresh solver on the same store finds nothing to forward.
    const restarted = chains.solver(store);
    expect(await forwardDepositAddresses(restarted.ctx, clientOf(restarted))).to.deep.equal([]);

    const receipt = await mined(forwarded[0]!.hash!);
    const deposits = parseEventLogs({ abi: depositoryAbi, eventName: "Deposited", logs: receipt.logs });
    expect(deposits).to.have.length(1);
    expect(deposits[0]!.args).to.deep.include({ id: orderId, amount });
    expect(canonicalAddress(deposits[0]!.args.depositor as Address)).to.equal(refundTo);
    const row = (await store.getDepositAddress(env().origin.chainId, address))!;
    expect(row.state).to.equal("forwarding");
    expect(row.payment).to.deep.include({ depositor: canonicalAddress(env().user.address), txHash: canonicalHex(payment), amount });
    expect(await env().origin.publicClient.getBalance({ address })).to.equal(0n);
  });
});
