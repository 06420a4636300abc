// Development tool: `npx hardhat run scripts/trace-fill.ts` sends packed fills (`fill_7hVe`) on an
// in-process chain under bench:gas's conditions (signer and recipient allow-lists on, the recipient
// funded and already holding the token, the solver's max approval, the token listed) and prints where
// the gas of a native and of an ERC-20 fill goes: the transaction's base cost and calldata, then every
// opcode of the receiver's own frame grouped (exact costs: each step's cost is the gas left before it
// minus the gas left at the next step of the same frame, so a CALL includes what the callee used), the
// fixed costs first (storage reads and write, ecrecover, the payout or token call, the log, the hashes)
// and what remains: dispatch, checks, memory and stack work; for the ERC-20 fill also the token's own
// frame. Each kind is sent twice and the second is traced (the first warms nothing that persists, but
// makes the figures those of a later fill). FERRY_TRACE_DUMP=<dir> also writes every step of the
// receiver's frame (pc, opcode, cost) to <dir>/<kind>.txt, to find what a stretch of code costs.
import { network } from "hardhat";
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { keccak256, padHex, parseEther, toHex, type Address, type Hex } from "viem";
import { privateKeyToAccount } from "viem/accounts";
import { fillDigest, type FillAttestation } from "../ts/core/attestationDigest.ts";
import { encodeFill } from "../ts/core/fillCalldata.ts";
import { calldataBytes } from "./bench/txCompression.ts";

const SIGNER = privateKeyToAccount("0x59c6995e998f97a5a0044966f0945389dc9e86dae88c7a8412f4603b6b78690d");
const ZERO: Address = "0x0000000000000000000000000000000000000000";
const { viem, provider } = await network.create("destination");
const [owner, solver, recipient] = await viem.getWalletClients();
const pc = await viem.getPublicClient();
const multicaller = await viem.deployContract("Multicaller");
const receiver = await viem.deployContract("AttestedReceiver", [owner!.account.address, multicaller.address]);
await receiver.write.setSigner([SIGNER.address, true]);
await receiver.write.setRecipient([recipient!.account.address, true]);
await receiver.write.setRecipientAllowListEnabled([true]);
const usdc = await viem.deployContract("MockStablecoin", ["USD Coin", "USDC"]);
await receiver.write.setCurrency([usdc.address, true]);
await usdc.write.mint([solver!.account.address, 1_000_000n * 10n ** 6n]);
await usdc.write.mint([recipient!.account.address, 1n * 10n ** 6n]);
await usdc.write.approve([receiver.address, 2n ** 256n - 1n], { account: solver!.account }); // as ensureAllowance does
const chainId = BigInt(await pc.getChainId());
const dumpDir = process.env.FERRY_TRACE_DUMP;

let n = 0;
const attestation = (currency: Address, amount: bigint): FillAttestation => ({
  requestId: keccak256(toHex(`r${++n}`)),
  orderId: keccak256(toHex(`o${n}`)),
  originChainId: 31337n,
  originUser: padHex(recipient!.account.address, { size: 32 }),
  originCurrency: padHex(currency === ZERO ? "0x00" : "0x1111111111111111111111111111111111111111", { size: 32 }),
  originAmount: amount + amount / 100n,
  destinationChainId: chainId,
  destinationUser: padHex(recipient!.account.address, { size: 32 }),
  destinationCurrency: padHex(currency, { size: 32 }),
  destinationAmount: amount,
  deadline: 4_102_444_800n,
  receiver: receiver.address,
});

type Step = { pc: number; op: string; gas: number; depth: number };
type Tally = Map<string, { gas: number; count: number }>;

/** Each step's exact cost within frame `depth` (the gas left before it minus at the next step of that frame). */
function tally(steps: Step[], depth: number, from = 0, to = steps.length): { byOp: Tally; listing: string[] } {
  const byOp: Tally = new Map();
  const listing: string[] = [];
  for (let j = from; j < to; j++) {
    if (steps[j]!.depth !== depth) continue;
    let k = j + 1;
    while (k < to && steps[k]!.depth > depth) k++;
    const cost = k < to && steps[k]!.depth === depth ? steps[j]!.gas - steps[k]!.gas : 0;
    const entry = byOp.get(steps[j]!.op) ?? { gas: 0, count: 0 };
    byOp.set(steps[j]!.op, { gas: entry.gas + cost, count: entry.count + 1 });
    listing.push(`${String(steps[j]!.pc).padStart(5)} ${steps[j]!.op.padEnd(14)} ${cost}`);
  }
  return { byOp, listing };
}

function print(byOp: Tally, fixedOps: string[], indent: string): number {
  const total = [...byOp.values()].reduce((sum, e) => sum + e.gas, 0);
  for (const op of fixedOps) {
    const e = byOp.get(op);
    if (e) console.log(`${indent}${op.padEnd(12)} ×${String(e.count).padStart(2)}  ${String(e.gas).padStart(6)}`);
  }
  const other = [...byOp.entries()].filter(([op]) => !fixedOps.includes(op));
  const otherGas = other.reduce((sum, [, e]) => sum + e.gas, 0);
  console.log(`${indent}other        ×${String(other.reduce((s, [, e]) => s + e.count, 0)).padStart(2)}  ${String(otherGas).padStart(6)}  (dispatch, checks, memory, stack)`);
  console.log(`${indent}  ${other.sort((a, b) => b[1].gas - a[1].gas).map(([op, e]) => `${op} ${e.gas}`).join(", ")}`);
  return total;
}

const FIXED = ["SSTORE", "SLOAD", "STATICCALL", "CALL", "LOG2", "LOG3", "LOG4", "KECCAK256"];
for (const [kind, currency, amount] of [
  ["native", ZERO, parseEther("0.1")],
  ["erc20", usdc.address, 100n * 10n ** 6n],
] as const) {
  for (let i = 0; i < 2; i++) {
    const att = attestation(currency, amount);
    const signature = await SIGNER.signMessage({ message: { raw: fillDigest(att) } });
    const data = encodeFill({ attestation: att, signature, target: { chainId, receiver: receiver.address } });
    const value = currency === ZERO ? amount : 0n;
    const hash = await solver!.sendTransaction({ to: receiver.address, data, value, account: solver!.account, chain: solver!.chain });
    const receipt = await pc.waitForTransactionReceipt({ hash });
    if (receipt.status !== "success") throw new Error(`${kind} fill reverted`);
    if (i === 0) continue;

    const cd = calldataBytes(data as Hex);
    const trace = (await provider.request({ method: "debug_traceTransaction", params: [hash, {}] })) as { structLogs: Step[] };
    const steps = trace.structLogs;
    const receiverFrame = tally(steps, 1);
    const execution = [...receiverFrame.byOp.values()].reduce((sum, e) => sum + e.gas, 0);
    console.log(
      `${kind} fill gasUsed ${receipt.gasUsed}: base 21,000 + calldata ${cd.gas} (${cd.zero + cd.nonZero} bytes, ${cd.zero} zero / ${cd.nonZero} non-zero) + execution ${execution}`,
    );
    console.log("  receiver frame:");
    print(receiverFrame.byOp, FIXED, "    ");
    const calleeStart = steps.findIndex((s) => s.depth === 2);
    if (calleeStart >= 0 && currency !== ZERO) {
      let end = calleeStart;
      while (end < steps.length && steps[end]!.depth >= 2) end++;
      const token = tally(steps, 2, calleeStart, end);
      const callStep = calleeStart - 1;
      const callCost = steps[callStep]!.gas - steps[end]!.gas;
      const tokenOwn = [...token.byOp.values()].reduce((sum, e) => sum + e.gas, 0);
      console.log(`  token transferFrom: the CALL costs ${callCost} = token execution ${tokenOwn} (+ its last step) + call setup and account access:`);
      print(token.byOp, FIXED, "    ");
    }
    if (dumpDir) {
      mkdirSync(dumpDir, { recursive: true });
      writeFileSync(join(dumpDir, `${kind}.txt`), receiverFrame.listing.join("\n") + "\n");
    }
  }
}
