// Fault: a reorg removes a payment into a strict deposit address before it is final. The payer's plain
// transfer is mined and two more blocks go on top (3 deep, the origin's confirmations are 4); the
// service watches the chain with it for a moment, then the chain reorganises without it. The service
// never forwards it: no deployAndForward, no Deposited, no fill, the address still `watching` and the
// request `waiting`, also long after the new chain passed the depth. The same payment re-mined in the
// new branch is forwarded once (one Forwarded, one Deposited, one fill of the quoted amount) and the
// request succeeds once. Both store engines; runs under `npm run test:faults`.
import { expect } from "chai";
import { getAddress, parseEther, zeroAddress, type Address, type Hex } from "viem";
import { attestedReceiverAbi } from "../../ts/abi/AttestedReceiver.ts";
import { depositAddressFactoryAbi } from "../../ts/abi/DepositAddressFactory.ts";
import { depositoryAbi } from "../../ts/abi/Depository.ts";
import { canonicalAddress, canonicalHex } from "../../ts/service/model/values.ts";
import { freshAddress } from "../service/solver/twoChains.ts";
import { describeChainFault, sleep, until } from "./chainFaultSuite.ts";
import { reorg, sendSigned, signDeposit } from "./chainReorg.ts";
import type { Quote } from "./chainService.ts";
import { useFaultStack } from "./faultStack.ts";

type DepositAddressQuote = Quote & { steps: { requestId: Hex; depositAddress: string }[]; details: { currencyOut: { amount: string } } };

describeChainFault("reorg removes a deposit-address payment before it is final", (engine) => {
  const stack = useFaultStack(engine, { confirmations: { origin: 4, destination: 2 } });

  /** A strict deposit-address quote, native → native, for `user`. */
  async function quote(user: Address) {
    const recipient = freshAddress();
    const response = await fetch(`${stack.service.url}/quote/v2`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({
        user,
        recipient,
        originChainId: stack.chains.origin.chainId,
        destinationChainId: stack.chains.destination.chainId,
        originCurrency: zeroAddress,
        destinationCurrency: zeroAddress,
        amount: parseEther("0.05").toString(),
        tradeType: "EXACT_INPUT",
        useDepositAddress: true,
        strict: true,
      }),
    });
    const body = (await response.json()) as DepositAddressQuote;
    expect(response.status, JSON.stringify(body)).to.equal(200);
    const address = getAddress(body.steps[0]!.depositAddress);
    const row = (await stack.service.store.getDepositAddress(stack.chains.origin.chainId, canonicalAddress(address)))!;
    return { quote: body, requestId: canonicalHex(body.steps[0]!.requestId), orderId: row.orderId as Hex, address, recipient, amountOut: BigInt(body.details.currencyOut.amount) };
  }

  /** What the chains and the store hold for the address: forwardings, deposits, fills, its row, the request. */
  async function observed(q: Awaited<ReturnType<typeof quote>>) {
    const { chains, service } = stack;
    const contracts = (chainId: number) => service.config.chains.find((c) => c.id === chainId)!.contracts;
    const factory = contracts(chains.origin.chainId).depositAddressFactory!;
    const [forwarded, deposits, fills, transactions, row, request] = await Promise.all([
      chains.origin.publicClient.getContractEvents({ address: factory, abi: depositAddressFactoryAbi, eventName: "Forwarded", args: { forwarder: q.address }, fromBlock: 0n }),
      chains.origin.publicClient.getContractEvents({ address: contracts(chains.origin.chainId).depository, abi: depositoryAbi, eventName: "Deposited", args: { id: q.orderId }, fromBlock: 0n }),
      chains.destination.publicClient.getContractEvents({ address: contracts(chains.destination.chainId).attestedReceiver, abi: attestedReceiverAbi, eventName: "Filled", args: { requestId: q.requestId }, fromBlock: 0n }),
      service.store.engine.query<{ state: string }>("SELECT state FROM solver_transactions WHERE purpose = 'deposit-address-forward' AND subject = $1", [`${chains.origin.chainId}:${canonicalAddress(q.address)}`]),
      service.store.getDepositAddress(chains.origin.chainId, canonicalAddress(q.address)),
      service.store.getRequest(q.requestId),
    ]);
    return { forwarded: forwarded.length, deposits: deposits.length, fills: fills.length, transactions: transactions.rows.length, state: row?.state, status: request?.status ?? "waiting" };
  }
  const nothingForwarded = { forwarded: 0, deposits: 0, fills: 0, transactions: 0, state: "watching", status: "waiting" };

  it("aPaymentRemovedBeforeItIsFinal_isNeverForwarded_theRequestKeepsWaiting", async () => {
    const { chains } = stack;
    const payer = chains.user(0);
    const removed = await quote(payer.address);
    const raw = await signDeposit(chains.origin, payer, removed.quote);
    const { forkBlock, replacedUpTo } = await reorg(chains.origin, {
      blockMs: 250,
      before: async () => {
        await sendSigned(chains.origin, raw);
        await chains.origin.testClient.mine({ blocks: 2 });
      },
      // The service follows the chain holding the payment (3 deep, not final at 4) for a while.
      seen: async () => {
        expect(await chains.origin.publicClient.getBalance({ address: removed.address })).to.not.equal(0n);
        await sleep(1_500);
        expect(await observed(removed), "nothing forwarded while the payment is not final").to.deep.equal(nothingForwarded);
      },
    });
    // Well past the depth on the new chain (250 ms blocks): still nothing.
    const head = await chains.origin.publicClient.getBlockNumber();
    await until("the new chain 8 blocks past the replaced ones", 30_000, async () => (await chains.origin.publicClient.getBlockNumber()) >= replacedUpTo + 8n);
    await sleep(1_000);
    console.log(`      [${engine}] replaced blocks ${forkBlock + 1n}..${replacedUpTo}; watched to block ${await chains.origin.publicClient.getBlockNumber()} (from ${head})`);
    expect(await chains.origin.publicClient.getBalance({ address: removed.address }), "the payment is gone").to.equal(0n);
    expect(await chains.origin.publicClient.getCode({ address: removed.address }), "no forwarder deployed").to.equal(undefined);
    expect(await observed(removed), "never forwarded, never filled").to.deep.equal(nothingForwarded);
  });

  it("aRemovedPaymentReMinedInTheNewBranch_isForwardedOnce_andSucceedsOnce", async () => {
    const { chains, service } = stack;
    const payer = chains.user(1);
    const moved = await quote(payer.address);
    const raw = await signDeposit(chains.origin, payer, moved.quote);
    let first = { hash: "0x" as Hex, block: 0n };
    let again = { hash: "0x" as Hex, block: 0n };
    await reorg(chains.origin, {
      blockMs: 250,
      before: async () => {
        first = await sendSigned(chains.origin, raw);
        await chains.origin.testClient.mine({ blocks: 2 });
      },
      seen: async () => {
        await sleep(1_500);
        expect(await observed(moved)).to.deep.equal(nothingForwarded);
      },
      after: async () => {
        await chains.origin.testClient.mine({ blocks: 2 });
        again = await sendSigned(chains.origin, raw);
      },
    });
    expect(again.hash).to.equal(first.hash);
    expect(again.block > first.block, "re-mined in a later block").to.equal(true);
    await until("the request to succeed", 120_000, async () => (await service.store.getRequest(moved.requestId))?.status === "success").catch((error: Error) => {
      throw new Error(`${error.message}\n${service.logs().filter((l) => /"level":(40|50)/.test(l)).slice(-15).join("")}`);
    });
    await sleep(1_500);
    expect(await observed(moved), "forwarded once, deposited once, filled once").to.deep.equal({ forwarded: 1, deposits: 1, fills: 1, transactions: 1, state: "forwarding", status: "success" });
    expect(await chains.destination.publicClient.getBalance({ address: moved.recipient }), "the recipient paid the quoted amount once").to.equal(moved.amountOut);
    expect(await chains.origin.publicClient.getBalance({ address: moved.address }), "the address is empty").to.equal(0n);
    const row = (await service.store.getDepositAddress(chains.origin.chainId, canonicalAddress(moved.address)))!;
    expect(row.payment, "the payment dated by its block in the new branch").to.deep.include({ blockNumber: Number(again.block), txHash: again.hash.toLowerCase() });
    const statuses = (await service.store.requestEvents(moved.requestId)).map((e) => e.status);
    expect(statuses.filter((s) => s === "success"), statuses.join(",")).to.have.length(1);
  });
});
