/**
 * The open deposit-address step (ts/service/solver/depositAddress/forwardOpenDepositAddresses.ts and
 * openPaymentRefunds.ts) on two real EDR chains (Ferry and its DepositAddressFactory deployed as the
 * devnet does) and a real store, attacks first:
 * - two payments of the same amount, seen by two racing passes (two replicas) and then a restart, are
 *   two payments, each re-quoted and forwarded exactly once: two `deposit-address-forward`
 *   transactions, two Depository deposits, each under its own payment's new order;
 * - a forged payment — a `Transfer` to the address from a token contract the chain does not list — is
 *   never a payment;
 * - a payment that cannot be re-quoted (its route's destination currency is not served any more) is
 *   never forwarded: refunded whole to `refundTo`, once, even with two passes racing to send it.
 */
import { expect } from "chai";
import { erc20Abi, parseEther, zeroAddress, type Address, type Hex } from "viem";
import mockStablecoinArtifact from "../../../../artifacts/contracts/mocks/MockStablecoin.sol/MockStablecoin.json" with { type: "json" };
import { depositoryAbi } from "../../../../ts/abi/Depository.ts";
import { mockStablecoinAbi } from "../../../../ts/abi/MockStablecoin.ts";
import { canonicalAddress, canonicalHex, type Address as CanonicalAddress } from "../../../../ts/service/model/values.ts";
import { openDepositAddressOf } from "../../../../ts/service/quote/depositAddressQuote.ts";
import { forwardOpenDepositAddresses } from "../../../../ts/service/solver/depositAddress/forwardOpenDepositAddresses.ts";
import { refundOpenPayments } from "../../../../ts/service/solver/depositAddress/openPaymentRefunds.ts";
import { createSolver } from "../../../../ts/service/solver/startSolver.ts";
import { createStore, type Store } from "../../../../ts/service/store/createStore.ts";
import { freshAddress, freshId, startTwoChains, type TwoChains } from "../twoChains.ts";

describe("forwardOpenDepositAddresses (open)", function () {
  this.timeout(300_000);
  let env: TwoChains;
  let store: Store;

  before(async () => {
    env = await startTwoChains();
  });
  after(async () => env?.close());
  beforeEach(async () => {
    store = await createStore();
  });
  afterEach(async () => store.close());

  const originConfig = () => env.config.chains.find((c) => c.id === env.origin.chainId)!;
  const clientOf = (ctx: ReturnType<typeof createSolver>["ctx"]) => ctx.clients.get(env.origin.chainId);
  const solver = () => createSolver({ config: env.config, store });

  /** An open address as a first quote stores it (native to the destination's `destinationCurrency`). */
  async function openAddress(destinationCurrency: CanonicalAddress = canonicalAddress(zeroAddress)): Promise<{ address: CanonicalAddress; refundTo: CanonicalAddress }> {
    const chain = originConfig();
    const factory = canonicalAddress(chain.contracts.depositAddressFactory!);
    const refundTo = freshAddress();
    const recipient = freshAddress();
    const route = { user: refundTo, recipient, originCurrency: canonicalAddress(zeroAddress), destinationChainId: env.destination.chainId, destinationCurrency, appFees: [], referrer: null };
    const address = openDepositAddressOf({ factory, depository: canonicalAddress(chain.contracts.depository), refundTo, destinationChainId: route.destinationChainId, destinationCurrency, recipient });
    const quotedAtBlock = Number(await env.origin.publicClient.getBlockNumber());
    await store.saveOpenDepositAddress({ chainId: chain.id, address, factory, refundTo, route, apiKeyId: null, requestId: freshId(), orderId: freshId(), expiresAt: new Date(Date.now() + 3600_000), quotedAtBlock });
    return { address, refundTo };
  }

  const wallet = () => env.origin.walletClient(env.user.privateKey);
  async function mined(hash: Hex) {
    const receipt = await env.origin.publicClient.waitForTransactionReceipt({ hash });
    expect(receipt.status).to.equal("success");
    return receipt;
  }
  /** Enough blocks for the latest payment to be final (the devnet's confirmations). */
  const mine = () => env.origin.testClient.mine({ blocks: Math.max(1, originConfig().confirmations) });

  it("forwards two payments of the same amount as two, each exactly once (two racing passes, then a restart)", async () => {
    const { address, refundTo } = await openAddress();
    const from = await env.origin.publicClient.getBlockNumber();
    const amount = parseEther("0.1");
    const paid = [await wallet().sendTransaction({ chain: null, to: address, value: amount }), await wallet().sendTransaction({ chain: null, to: address, value: amount })];
    for (const hash of paid) await mined(hash);
    await mine();

    const [a, b] = [solver(), solver()];
    await Promise.allSettled([forwardOpenDepositAddresses(a.ctx, clientOf(a.ctx)), forwardOpenDepositAddresses(b.ctx, clientOf(b.ctx))]);
    // A restart: a fresh solver on the same store finishes whatever a lost race left, and forwards nothing twice.
    const restarted = solver();
    await forwardOpenDepositAddresses(restarted.ctx, clientOf(restarted.ctx));
    expect((await forwardOpenDepositAddresses(restarted.ctx, clientOf(restarted.ctx))).filter((o) => o.outcome === "forwarded")).to.deep.equal([]);

    const payments = await store.listOpenPayments(env.origin.chainId, address);
    expect(payments.map((p) => [p.state, p.payment.amount, p.payment.txHash])).to.deep.equal(paid.map((hash) => ["forwarding", amount, canonicalHex(hash)]));
    expect(new Set(payments.map((p) => p.orderId)).size).to.equal(2);
    expect(await store.listPendingSolverTransactions("deposit-address-forward", 10)).to.have.length(2);
    await mine();
    const deposits = await env.origin.publicClient.getContractEvents({ address: originConfig().contracts.depository as Address, abi: depositoryAbi, eventName: "Deposited", fromBlock: from });
    expect(deposits.map((d) => [d.args.id, d.args.amount, canonicalAddress(d.args.depositor as Address)]).sort()).to.deep.equal(payments.map((p) => [p.orderId, amount, refundTo]).sort());
    // Each order is its own stored quote of exactly what was paid, to the route's recipient.
    for (const p of payments) expect((await store.getQuoteByOrderId(p.orderId!))!.intent).to.deep.include({ originAmount: amount, requestId: p.requestId });
    expect(await env.origin.publicClient.getBalance({ address })).to.equal(0n);
  });

  it("never takes a Transfer from a token the chain does not list for a payment", async () => {
    const { address } = await openAddress();
    const deployHash = await wallet().deployContract({ chain: null, account: wallet().account, abi: mockStablecoinAbi, bytecode: mockStablecoinArtifact.bytecode as Hex, args: ["Ferry Test USD", "fUSD"] });
    const forged = (await mined(deployHash)).contractAddress!;
    await mined(await wallet().writeContract({ chain: null, address: forged, abi: mockStablecoinAbi, functionName: "mint", args: [env.user.address, 5_000_000n] }));
    await mined(await wallet().writeContract({ chain: null, address: forged, abi: erc20Abi, functionName: "transfer", args: [address, 5_000_000n] }));
    await mine();
    const s = solver();
    const outcomes = await forwardOpenDepositAddresses(s.ctx, clientOf(s.ctx));
    expect(outcomes).to.deep.equal([{ address, outcome: "scanned" }]);
    expect(await store.listOpenPayments(env.origin.chainId, address)).to.deep.equal([]);
    expect(await store.listPendingSolverTransactions("deposit-address-forward", 10)).to.deep.equal([]);
  });

  it("refunds a payment that cannot be re-quoted to refundTo, once, and never forwards it", async () => {
    // The route's destination currency is not served (any more): every re-quote is refused.
    const { address, refundTo } = await openAddress(freshAddress());
    const amount = parseEther("0.05");
    const paid = await wallet().sendTransaction({ chain: null, to: address, value: amount });
    await mined(paid);
    await mine();

    const s = solver();
    const outcomes = await forwardOpenDepositAddresses(s.ctx, clientOf(s.ctx));
    expect(outcomes.map((o) => o.outcome)).to.deep.equal(["scanned", "refunding"]);
    expect(await store.listPendingSolverTransactions("deposit-address-forward", 10)).to.deep.equal([]);
    const [refunding] = await store.listOpenPayments(env.origin.chainId, address);
    expect(refunding).to.deep.include({ state: "refunding", reason: "UNSUPPORTED_CURRENCY" });
    expect(refunding!.refunds![0]).to.deep.include({ reason: "NO_QUOTES", state: "planned", amount });
    // A second pass finds it decided: not re-quoted, not forwarded.
    expect((await forwardOpenDepositAddresses(s.ctx, clientOf(s.ctx))).filter((o) => o.outcome !== "scanned")).to.deep.equal([]);

    // Two replicas race to send its refund: one transaction.
    const [a, b] = [solver(), solver()];
    const sent = await Promise.allSettled([refundOpenPayments(a.ctx, clientOf(a.ctx)), refundOpenPayments(b.ctx, clientOf(b.ctx))]);
    expect(sent.flatMap((r) => (r.status === "fulfilled" ? r.value : [])).filter((o) => o.outcome === "sent")).to.have.length(1);
    expect(await store.listPendingSolverTransactions("deposit-address-refund", 10)).to.have.length(1);
    await mine();
    expect((await refundOpenPayments(s.ctx, clientOf(s.ctx))).map((o) => o.outcome)).to.deep.equal(["refunded"]);
    expect(await env.origin.publicClient.getBalance({ address: refundTo })).to.equal(amount);
    expect(await env.origin.publicClient.getBalance({ address })).to.equal(0n);
    const [refunded] = await store.listOpenPayments(env.origin.chainId, address);
    expect(refunded!.state).to.equal("refunded");
    expect(refunded!.refunds![0]!.state).to.equal("confirmed");
    expect(await refundOpenPayments(s.ctx, clientOf(s.ctx))).to.deep.equal([]);
  });
});
