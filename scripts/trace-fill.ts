// Development tool: `npx hardhat run scripts/trace-fill.ts` fills twice on an in-process chain and
// prints gasUsed, the calldata cost, execution gas and per-opcode gas (depth 1) of the second fill.
import { network } from "hardhat";
import { keccak256, padHex, parseEther, toHex, type Hex } from "viem";
import { privateKeyToAccount } from "viem/accounts";
import { fillDigest, type FillAttestation } from "../ts/core/attestationDigest.ts";
import { toCompactSignature } from "../ts/core/compactSignature.ts";
import { toCompactFillAttestation } from "../ts/core/fillCalldata.ts";
const SIGNER = privateKeyToAccount("0x59c6995e998f97a5a0044966f0945389dc9e86dae88c7a8412f4603b6b78690d");
const { viem, provider } = await network.create("destination");
const [owner, solver, recipient] = await viem.getWalletClients();
const pc = await viem.getPublicClient();
const multicaller = await viem.deployContract("Multicaller");
const receiver = await viem.deployContract("AttestedReceiver", [owner.account.address, multicaller.address]);
await receiver.write.setSigner([SIGNER.address, true]);
await receiver.write.setRecipient([recipient.account.address, true]);
await receiver.write.setRecipientAllowListEnabled([true]);
let n = 0;
const mk = (): FillAttestation => ({ requestId: keccak256(toHex(`r${++n}`)), orderId: keccak256(toHex(`o${n}`)), originChainId: 31337n,
  originUser: padHex(recipient.account.address, { size: 32 }), originCurrency: padHex("0x00", { size: 32 }), originAmount: parseEther("0.101"),
  destinationChainId: 31338n, destinationUser: padHex(recipient.account.address, { size: 32 }), destinationCurrency: padHex("0x00", { size: 32 }),
  destinationAmount: parseEther("0.1"), deadline: BigInt(Math.floor(Date.now() / 1000) + 3600), receiver: receiver.address });
for (let i = 0; i < 2; i++) {
  const att = mk();
  const signature = toCompactSignature(await SIGNER.signMessage({ message: { raw: fillDigest(att) } }));
  const hash = await receiver.write.fill([toCompactFillAttestation(att), signature], { account: solver.account, value: att.destinationAmount });
  const r = await pc.waitForTransactionReceipt({ hash });
  const tx = await pc.getTransaction({ hash });
  const bytes = Buffer.from(tx.input.slice(2), "hex");
  let cd = 0; for (const b of bytes) cd += b === 0 ? 4 : 16;
  console.log("gasUsed", r.gasUsed, "calldata", cd, "bytes", bytes.length, "exec", Number(r.gasUsed) - 21000 - cd);
  if (i === 1) {
    const trace: any = await provider.request({ method: "debug_traceTransaction", params: [hash, {}] });
    const byOp: Record<string, number> = {};
    const logs = trace.structLogs;
    for (let j = 0; j < logs.length; j++) { const l = logs[j]; if (l.depth !== 1) continue; byOp[l.op] = (byOp[l.op] ?? 0) + l.gasCost; }
    console.log("steps", logs.length, Object.entries(byOp).sort((a, b) => b[1] - a[1]).slice(0, 30));
  }
}
