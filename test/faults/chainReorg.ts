/**
 * Reorgs of a fault test's origin node (evm_snapshot / evm_revert while its interval mining is paused,
 * then other blocks): the blocks after the snapshot are replaced by blocks holding something else.
 */
import { encodeFunctionData, type Address, type Hex } from "viem";
import type { ChainNode } from "./chainNodes.ts";
import type { Quote } from "./chainService.ts";

/** The quote's deposit step, signed once by `user` (so the very same transaction can be sent again after a reorg). */
export async function signDeposit(node: ChainNode, user: { privateKey: Hex }, quote: Quote): Promise<Hex> {
  const step = quote.steps.find((s) => s.id === "deposit")!.items[0]!.data;
  const wallet = node.walletClient(user.privateKey);
  const request = await wallet.prepareTransactionRequest({ account: wallet.account, chain: wallet.chain, to: step.to as Address, data: step.data, value: BigInt(step.value) });
  return wallet.signTransaction(request as Parameters<typeof wallet.signTransaction>[0]);
}

/** Sends a signed transaction to the node; its hash and block once mined. */
export async function sendSigned(node: ChainNode, raw: Hex): Promise<{ hash: Hex; block: bigint }> {
  const hash = await node.publicClient.sendRawTransaction({ serializedTransaction: raw });
  const receipt = await node.publicClient.waitForTransactionReceipt({ hash });
  return { hash, block: receipt.blockNumber };
}

/**
 * Runs `before` on the node from a snapshot (interval mining paused), lets `seen` look at the result,
 * then replaces every block since the snapshot: reverts, moves time on (so the new blocks differ even
 * when empty), runs `after` (what the new chain holds) and resumes interval mining at `blockMs`.
 */
export async function reorg(
  node: ChainNode,
  steps: { before: () => Promise<void>; seen: () => Promise<void>; after?: () => Promise<void>; blockMs: number },
): Promise<{ forkBlock: bigint; replacedUpTo: bigint }> {
  await node.intervalMining(0);
  const snapshot = (await node.testClient.snapshot()) as Hex;
  const forkBlock = await node.publicClient.getBlockNumber();
  await steps.before();
  await steps.seen();
  const replacedUpTo = await node.publicClient.getBlockNumber();
  await node.testClient.revert({ id: snapshot });
  await node.testClient.increaseTime({ seconds: 13 });
  await steps.after?.();
  await node.intervalMining(steps.blockMs);
  return { forkBlock, replacedUpTo };
}
