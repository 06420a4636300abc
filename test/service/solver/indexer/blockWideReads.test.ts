// The indexer reads a block's deposits block-wide (ts/service/solver/indexer/observeDeposits.ts): at 200
// users a block carries dozens of deposits, and each cost its receipt and its transaction (2 calls per
// deposit). Now a block with several deposit transactions is read with its transactions and its receipts
// (2 calls), on real chains counted through a proxy by method: on Anvil, which serves eth_getBlockReceipts,
// and on EDR, which does not (-32004) and is read one receipt per transaction, asked once per chain.
// The fee, input and sender recorded are the per-transaction path's, exactly.
import { expect } from "chai";
import { createPublicClient, http, type Hex, type Log } from "viem";
import { createChainClients, type ChainClient } from "../../../../ts/service/chains/chainClients.ts";
import { readReceipt } from "../../../../ts/service/chains/readReceipt.ts";
import { SILENT_LOG } from "../../../../ts/service/logging/logger.ts";
import { decodeDepositLogs, DEPOSIT_EVENTS } from "../../../../ts/service/solver/indexer/depositEvent.ts";
import type { ObservedDeposit } from "../../../../ts/service/solver/indexer/depositRequest.ts";
import { DEFAULT_INDEX_OPTIONS, indexDeposits } from "../../../../ts/service/solver/indexer/indexDeposits.ts";
import { BlockReadMismatchError, depositsInReceipt, enrichDeposits } from "../../../../ts/service/solver/indexer/observeDeposits.ts";
import { createStore, type Store } from "../../../../ts/service/store/createStore.ts";
import { hardhatTestAccount } from "../../../../ts/devnet/devnetAccounts.ts";
import type { Bytes32 } from "../../../../ts/service/model/values.ts";
import { startChainProxy, type ChainProxy } from "../../../faults/chainProxy.ts";
import { deposit, makeIntent, saveQuote, startTwoChains, type TwoChains } from "../twoChains.ts";

/** The reads of a deposit's facts (its block's are counted apart: the indexer reads heads by number too). */
const FACT_METHODS = ["eth_getTransactionReceipt", "eth_getTransactionByHash", "eth_getBlockReceipts"] as const;

for (const node of ["anvil", "edr"] as const) {
  describe(`indexer: a block's deposits read block-wide (${node})`, function () {
    this.timeout(300_000);
    let env: TwoChains;
    let store: Store;
    let proxy: ChainProxy;

    before(async function () {
      this.timeout(240_000);
      env = await startTwoChains({ node: { kind: node } });
      store = await createStore();
      proxy = await startChainProxy(env.origin.rpcUrl);
    });
    after(async () => {
      await proxy?.close();
      await store?.close();
      await env?.close();
    });

    /** A chain client of the origin reading through the counting proxy (a new one: nothing remembered). */
    const countedClient = (): ChainClient => {
      const config = env.config.chains.find((c) => c.id === env.origin.chainId)!;
      const { wsRpcUrl: _ws, ...rest } = config;
      return createChainClients([{ ...rest, rpcUrl: proxy.url, rpcUrls: [proxy.url] }], { headMaxAgeMs: 0 }).get(env.origin.chainId);
    };
    const step = (client: ChainClient) => indexDeposits({ store, client, chains: env.config.chains, log: SILENT_LOG }, DEFAULT_INDEX_OPTIONS);
    const counted = () => Object.fromEntries(FACT_METHODS.map((m) => [m, proxy.counts.get(m) ?? 0]));

    /** `n` users deposit (each a quote of their own) in one block, then one more block (the devnet's confirmations: 1). */
    async function depositsInOneBlock(n: number, firstUser: number): Promise<{ hashes: Hex[]; requestIds: string[] }> {
      const hashes: Hex[] = [];
      const requestIds: string[] = [];
      await env.origin.testClient.setAutomine(false);
      try {
        for (let i = 0; i < n; i++) {
          const user = hardhatTestAccount(firstUser + i);
          const asUser = { ...env, user: { address: user.address, privateKey: user.privateKey } };
          const intent = makeIntent(asUser);
          await saveQuote(store, intent);
          requestIds.push(intent.requestId);
          hashes.push(await deposit(asUser, { orderId: intent.orderId, amount: BigInt(intent.originAmount), wait: false }));
        }
        await env.origin.testClient.mine({ blocks: 1 });
      } finally {
        await env.origin.testClient.setAutomine(true);
      }
      const receipts = await Promise.all(hashes.map((hash) => env.origin.publicClient.getTransactionReceipt({ hash })));
      expect(new Set(receipts.map((r) => r.blockNumber)).size, "the deposits share one block").to.equal(1);
      await env.origin.testClient.mine({ blocks: 1 });
      return { hashes, requestIds };
    }

    /** What the per-transaction path reports for these transactions (one deposit transaction at a time). */
    async function perTransaction(client: ChainClient, hashes: Hex[]): Promise<ObservedDeposit[]> {
      const each = await Promise.all(hashes.map(async (hash) => depositsInReceipt(client, await readReceipt(client.publicClient, hash))));
      return each.flat().sort((a, b) => a.logIndex - b.logIndex);
    }

    /** The deposits of `hashes`' block as the indexer decodes and enriches them. */
    async function blockDeposits(client: ChainClient, hashes: Hex[]): Promise<ObservedDeposit[]> {
      const { blockNumber } = await env.origin.publicClient.getTransactionReceipt({ hash: hashes[0]! });
      const logs = await env.origin.publicClient.getLogs({ address: client.config.contracts.depository, events: DEPOSIT_EVENTS, fromBlock: blockNumber, toBlock: blockNumber });
      return enrichDeposits(client, decodeDepositLogs(client.config.id, client.config.contracts.depository, logs as Log[]));
    }

    it("indexesFiveDepositsInOneBlock_withTheBlockWideReads_andRecordsWhatThePerTransactionPathReads", async () => {
      const client = countedClient();
      await step(client); // catches up with the chain
      const { hashes, requestIds } = await depositsInOneBlock(5, 10);
      proxy.counts.clear();
      const outcomes = await step(client);
      expect(outcomes.map((o) => o.outcome)).to.deep.equal(["credited", "credited", "credited", "credited", "credited"]);
      for (const id of requestIds) expect((await store.getRequest(id as Bytes32))?.status).to.equal("pending");
      const reads = counted();
      if (node === "anvil") {
        // Before: 5 receipts + 5 transactions; now the block's receipts in one call (and its transactions with the block).
        expect(reads, "5 deposits in one block").to.deep.equal({ eth_getTransactionReceipt: 0, eth_getTransactionByHash: 0, eth_getBlockReceipts: 1 });
      } else {
        // EDR has no eth_getBlockReceipts: asked once, then one receipt per transaction; the transactions come with the block.
        expect(reads, "5 deposits in one block").to.deep.equal({ eth_getTransactionReceipt: 5, eth_getTransactionByHash: 0, eth_getBlockReceipts: 1 });
      }

      // What the block-wide path reports is what the per-transaction path reports, field by field.
      const blockWide = await blockDeposits(client, hashes);
      const expected = await perTransaction(client, hashes);
      expect(blockWide).to.have.length(5);
      expect(blockWide).to.deep.equal(expected);
      // And the fee is the receipt's gasUsed × effectiveGasPrice as the node answers it (not through the service's readers).
      const raw = createPublicClient({ transport: http(env.origin.rpcUrl) });
      for (const d of blockWide) {
        const receipt = await raw.getTransactionReceipt({ hash: d.txHash });
        const tx = await raw.getTransaction({ hash: d.txHash });
        expect(d.txFee, d.txHash).to.equal(receipt.gasUsed * receipt.effectiveGasPrice);
        expect(d.txFee > 0n, "a fee").to.equal(true);
        expect(d.txFrom).to.equal(tx.from.toLowerCase());
        expect(d.txInput).to.equal(tx.input.toLowerCase());
        expect(d.txHash).to.equal(d.txHash.toLowerCase());
        expect(d.blockHash).to.equal(receipt.blockHash.toLowerCase());
      }
    });

    it("readsABlockWithOneDepositTransaction_perTransaction", async () => {
      const client = countedClient();
      await step(client);
      const { hashes } = await depositsInOneBlock(1, 15);
      proxy.counts.clear();
      expect((await step(client)).map((o) => o.outcome)).to.deep.equal(["credited"]);
      expect(counted()).to.deep.equal({ eth_getTransactionReceipt: 1, eth_getTransactionByHash: 1, eth_getBlockReceipts: 0 });
      expect(await blockDeposits(client, hashes)).to.deep.equal(await perTransaction(client, hashes));
    });

    if (node === "edr") {
      it("asksANodeWithoutGetBlockReceipts_once_notEveryBlock", async () => {
        const client = countedClient();
        await step(client);
        await depositsInOneBlock(3, 16);
        proxy.counts.clear();
        expect(await step(client)).to.have.length(3);
        expect(counted()).to.deep.equal({ eth_getTransactionReceipt: 3, eth_getTransactionByHash: 0, eth_getBlockReceipts: 1 });
        await depositsInOneBlock(2, 10);
        proxy.counts.clear();
        expect(await step(client)).to.have.length(2);
        expect(counted(), "the next block").to.deep.equal({ eth_getTransactionReceipt: 2, eth_getTransactionByHash: 0, eth_getBlockReceipts: 0 });
      });
    }

    if (node === "anvil") {
      it("failsABlockWideReadThatDoesNotFitTheBlock_neverAZeroFee", async () => {
        const { hashes } = await depositsInOneBlock(2, 10);
        const { blockNumber } = await env.origin.publicClient.getTransactionReceipt({ hash: hashes[0]! });
        const answer = (await (
          await fetch(env.origin.rpcUrl, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "eth_getBlockReceipts", params: [`0x${blockNumber.toString(16)}`] }) })
        ).json()) as { result: { transactionHash: string; blockHash: string }[] };
        expect(answer.result.map((r) => r.transactionHash.toLowerCase())).to.include.members(hashes.map((h) => h.toLowerCase()));
        try {
          // A receipt missing from the node's answer.
          await proxy.setMode({ kind: "malformed", result: answer.result.filter((r) => r.transactionHash.toLowerCase() !== hashes[1]!.toLowerCase()), methods: ["eth_getBlockReceipts"] });
          const missing = await blockDeposits(countedClient(), hashes).catch((e: unknown) => e);
          expect(missing).to.be.instanceOf(BlockReadMismatchError);
          expect((missing as Error).message).to.include(`no receipt for ${hashes[1]!.toLowerCase()}`);
          // Receipts of another block (a node answering from another fork).
          const other = `0x${"ab".repeat(32)}`;
          await proxy.setMode({ kind: "malformed", result: answer.result.map((r) => ({ ...r, blockHash: other })), methods: ["eth_getBlockReceipts"] });
          const foreign = await blockDeposits(countedClient(), hashes).catch((e: unknown) => e);
          expect(foreign).to.be.instanceOf(BlockReadMismatchError);
          expect((foreign as Error).message).to.include(`is of block ${other}`);
        } finally {
          await proxy.setMode({ kind: "pass" });
        }
        expect(await blockDeposits(countedClient(), hashes)).to.deep.equal(await perTransaction(countedClient(), hashes));
      });
    }
  });
}
