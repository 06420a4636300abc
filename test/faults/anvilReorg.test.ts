// Fault: real reorganisations on Anvil (`anvil_reorg`), depth 1 to 5, on chains mining a block a second.
// For each depth d a user's deposit is mined, seen by the service (POST /transactions/index: the
// request is `waiting` with its hash) and buried under d - 1 more blocks; then the last d blocks are
// replaced by blocks holding replacement transactions:
// - dropped: the user's own transfer with the deposit's nonce, so the deposit can never come back; it is
//   never credited and never filled;
// - moved: the very same signed deposit, now in the new branch's last block; it is credited there, filled
//   once and repaid once.
// The origin needs 6 confirmations: at depth <= 5 no reorged deposit was ever final.
import { expect } from "chai";
import { parseEther, type Hex } from "viem";
import { assertSettledExactlyOnce, type Expected } from "./chainAccounting.ts";
import { describeChainFault, sleep } from "./chainFaultSuite.ts";
import { startFaultChains, type FaultChains } from "./chainNodes.ts";
import { startChainProxy, type ChainProxy } from "./chainProxy.ts";
import { signDeposit } from "./chainReorg.ts";
import { startFaultService, type FaultService } from "./chainService.ts";
import { canonicalHex } from "../../ts/service/model/values.ts";

const DEPTHS = [1, 2, 3, 4, 5] as const;
const BLOCK_MS = 1_000;

describeChainFault("reorgs on Anvil (anvil_reorg, depth 1-5)", (engine) => {
  let chains: FaultChains;
  let origin: ChainProxy;
  let destination: ChainProxy;
  let service: FaultService;

  before(async () => {
    chains = await startFaultChains({ node: "anvil", blockMs: BLOCK_MS });
    origin = await startChainProxy(chains.origin.url);
    destination = await startChainProxy(chains.destination.url);
    service = await startFaultService({ chains, engine, rpcUrls: { origin: [origin.url], destination: [destination.url] }, confirmations: { origin: 6, destination: 2 } });
  });
  after(async () => {
    await service?.close();
    await origin?.close();
    await destination?.close();
    await chains?.close();
  });

  /** Mines the user's deposit, lets the service see it, buries it `depth - 1` blocks deep, then replaces the last `depth` blocks. */
  async function reorgDeposit(userIndex: number, depth: number, replacement: "dropped" | "moved"): Promise<Expected & { hash: Hex; block: bigint }> {
    const node = chains.origin;
    const user = chains.user(userIndex);
    const { quote, requestId, orderId } = await service.quote(user.address, parseEther("0.2"));
    const raw = await signDeposit(node, user, quote);
    const wallet = node.walletClient(user.privateKey);
    const nonce = await node.publicClient.getTransactionCount({ address: user.address, blockTag: "pending" });
    const ownTransfer = await wallet.signTransaction((await wallet.prepareTransactionRequest({ account: wallet.account, chain: wallet.chain, to: user.address, value: 0n, nonce })) as never);

    await node.intervalMining(0);
    await node.testClient.setAutomine(false);
    const hash = await node.publicClient.sendRawTransaction({ serializedTransaction: raw });
    await node.testClient.mine({ blocks: 1 });
    const { blockNumber: block } = await node.publicClient.getTransactionReceipt({ hash });
    expect((await service.indexTransaction(hash)).requestIds).to.deep.equal([requestId]);
    if (depth > 1) await node.testClient.mine({ blocks: depth - 1 });
    await sleep(500);
    expect((await service.store.getRequest(canonicalHex(requestId)))?.status, `depth ${depth}: seen, not final`).to.equal("waiting");

    const head = await node.publicClient.getBlockNumber({ cacheTime: 0 });
    expect(head - block + 1n).to.equal(BigInt(depth));
    const txs = replacement === "dropped" ? [[ownTransfer, 0]] : [[raw, depth - 1]];
    await node.publicClient.request({ method: "anvil_reorg", params: [depth, txs] } as never);
    expect(await node.publicClient.getBlockNumber({ cacheTime: 0 })).to.equal(head);
    const after = await node.publicClient.getTransactionReceipt({ hash }).catch(() => null);
    if (replacement === "dropped") expect(after, `depth ${depth}: the deposit is gone`).to.equal(null);
    else expect(after?.blockNumber, `depth ${depth}: the deposit is in the new branch's last block`).to.equal(head);
    await node.intervalMining(BLOCK_MS);
    return { requestId, orderId, outcome: replacement === "dropped" ? "never" : "success", hash, block };
  }

  it("aDepositReorgedOut_atDepth1to5_isNeverCredited_andOneMovedToTheNewBranch_settlesOnce", async () => {
    const expected: Expected[] = [];
    let user = 0;
    for (const depth of DEPTHS) {
      expected.push(await reorgDeposit(user++, depth, "dropped"));
      expected.push(await reorgDeposit(user++, depth, "moved"));
    }
    const totals = await assertSettledExactlyOnce(chains, service, expected);
    console.log(`      [${engine}] ${JSON.stringify(totals)}`);
    expect(totals.fills).to.equal(DEPTHS.length);
    for (const e of expected.filter((x) => x.outcome === "success")) {
      const request = (await service.store.getRequest(canonicalHex(e.requestId)))!;
      expect(request.inTxHashes).to.have.length(1);
    }
    const metrics = await service.metrics();
    expect(metrics).to.match(new RegExp(`ferry_chain_reorgs_total\\{chain_id="${chains.origin.chainId}",kind="shallow"\\} [1-9]`));
    expect(metrics).not.to.match(/ferry_chain_reorgs_total\{[^}]*kind="deep"\} [1-9]/);
  });
});
