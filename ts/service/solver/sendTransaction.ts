/**
 * Sends a transaction from the solver's wallet so that its hash is recorded before it can land:
 * prepare (nonce, gas, fees — a revert shows up here, in the estimate, before anything is sent),
 * sign locally, hand the hash to `record` (a store write), then broadcast. A process killed after
 * `record` leaves a hash the chain may not know: the caller's resume logic checks the contract's
 * own state (filled / executed) before sending again.
 */
import { keccak256, type Address, type Hex, type PublicClient } from "viem";
import type { SolverWallet } from "../chains/chainClients.ts";
import { gasLimitWithin } from "./gasCap.ts";

/** `maxGas`: the gas cap (./gasCap.ts) — the limit is then chosen within it, or nothing is sent. */
export type OutgoingTx = { to: Address; data: Hex; value?: bigint; maxGas?: bigint };

export async function prepareAndSign(wallet: SolverWallet, tx: OutgoingTx, gas?: bigint): Promise<{ hash: Hex; serialized: Hex; gas: bigint; maxFee: bigint }> {
  const prepared = await wallet.prepareTransactionRequest({ account: wallet.account, chain: wallet.chain, to: tx.to, data: tx.data, value: tx.value ?? 0n, ...(gas !== undefined && { gas }) });
  const serialized = await wallet.signTransaction(prepared as Parameters<SolverWallet["signTransaction"]>[0]);
  const maxFee = (prepared as { maxFeePerGas?: bigint; gasPrice?: bigint }).maxFeePerGas ?? (prepared as { gasPrice?: bigint }).gasPrice ?? 0n;
  return { hash: keccak256(serialized), serialized, gas: prepared.gas ?? 0n, maxFee };
}

export async function sendRecorded(
  wallet: SolverWallet,
  publicClient: PublicClient,
  tx: OutgoingTx,
  record: (hash: Hex) => Promise<void>,
): Promise<Hex> {
  const gas = tx.maxGas === undefined ? undefined : await gasLimitWithin(publicClient, wallet.chain.id, wallet.account.address, tx, tx.maxGas);
  const signed = await prepareAndSign(wallet, tx, gas);
  await record(signed.hash);
  await publicClient.sendRawTransaction({ serializedTransaction: signed.serialized });
  return signed.hash;
}
