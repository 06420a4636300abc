// Development tool: `npx hardhat run scripts/trace-fill.ts` fills twice (native) on an in-process chain,
// allow-lists on, recipient funded, and prints where the second fill's gas goes: the transaction's base
// cost and calldata, then every opcode of the receiver's own frame grouped (exact costs: each step's
// cost is the gas left before it minus the gas left at the next step of the same frame, so a CALL
// includes what the callee used), the fixed costs first (the storage reads and write, ecrecover, the
// payout, the log, the hashes) and what remains: dispatch, checks, memory and stack work.
import { network } from "hardhat";
import { keccak256, padHex, parseEther, toHex, type Hex } from "viem";
import { privateKeyToAccount } from "viem/accounts";
import { fillDigest, type FillAttestation } from "../ts/core/attestationDigest.ts";
import { encodeFill } from "../ts/core/fillCalldata.ts";
import { calldataBytes } from "./bench/txCompression.ts";

const SIGNER = privateKeyToAccount("0x59c6995e998f97a5a0044966f0945389dc9e86dae88c7a8412f4603b6b78690d");
const { viem, provider } = await network.create("destination");
const [owner, solver, recipient] = await viem.getWalletClients();
const pc = await viem.getPublicClient();
const multicaller = await viem.deployContract("Multicaller");
const receiver = await viem.deployContract("AttestedReceiver", [owner!.account.address, multicaller.address]);
await receiver.write.setSigner([SIGNER.address, true]);
await receiver.write.setRecipient([recipient!.account.address, true]);
await receiver.write.setRecipientAllowListEnabled([true]);
const chainId = BigInt(await pc.getChainId());

let n = 0;
const attestation = (): FillAttestation => ({
  requestId: keccak256(toHex(`r${++n}`)),
  orderId: keccak256(toHex(`o${n}`)),
  originChainId: 31337n,
  originUser: padHex(recipient!.account.address, { size: 32 }),
  originCurrency: padHex("0x00", { size: 32 }),
  originAmount: parseEther("0.101"),
  destinationChainId: chainId,
  destinationUser: padHex(recipient!.account.address, { size: 32 }),
  destinationCurrency: padHex("0x00", { size: 32 }),
  destinationAmount: parseEther("0.1"),
  deadline: 4_102_444_800n,
  receiver: receiver.address,
});

type Step = { op: string; gas: number; depth: number };
for (let i = 0; i < 2; i++) {
  const att = attestation();
  const signature = await SIGNER.signMessage({ message: { raw: fillDigest(att) } });
  const data = encodeFill({ attestation: att, signature, target: { chainId, receiver: receiver.address } });
  const hash = await solver!.sendTransaction({ to: receiver.address, data, value: att.destinationAmount, account: solver!.account, chain: solver!.chain });
  const receipt = await pc.waitForTransactionReceipt({ hash });
  if (i === 0) continue;

  const cd = calldataBytes(data as Hex);
  const trace = (await provider.request({ method: "debug_traceTransaction", params: [hash, {}] })) as { structLogs: Step[] };
  const steps = trace.structLogs;
  const byOp = new Map<string, { gas: number; count: number }>();
  for (let j = 0; j < steps.length; j++) {
    if (steps[j]!.depth !== 1) continue;
    let k = j + 1;
    while (k < steps.length && steps[k]!.depth !== 1) k++;
    const cost = k < steps.length ? steps[j]!.gas - steps[k]!.gas : 0;
    const entry = byOp.get(steps[j]!.op) ?? { gas: 0, count: 0 };
    byOp.set(steps[j]!.op, { gas: entry.gas + cost, count: entry.count + 1 });
  }
  const fixedOps = ["SSTORE", "SLOAD", "STATICCALL", "CALL", "LOG4", "KECCAK256"];
  const execution = [...byOp.values()].reduce((sum, e) => sum + e.gas, 0);
  const other = [...byOp.entries()].filter(([op]) => !fixedOps.includes(op));
  const otherGas = other.reduce((sum, [, e]) => sum + e.gas, 0);
  console.log(`native fill gasUsed ${receipt.gasUsed}: base 21,000 + calldata ${cd.gas} (${cd.zero + cd.nonZero} bytes, ${cd.zero} zero / ${cd.nonZero} non-zero) + execution ${execution}`);
  for (const op of fixedOps) {
    const e = byOp.get(op);
    if (e) console.log(`  ${op.padEnd(10)} ×${String(e.count).padStart(2)}  ${String(e.gas).padStart(6)}`);
  }
  console.log(`  other      ×${String(other.reduce((s, [, e]) => s + e.count, 0)).padStart(2)}  ${String(otherGas).padStart(6)}  (dispatch, checks, memory, stack)`);
  console.log(`  ${other.sort((a, b) => b[1].gas - a[1].gas).map(([op, e]) => `${op} ${e.gas}`).join(", ")}`);
}
