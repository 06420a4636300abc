/**
 * The compact fill end to end, fuzzed: random v2 attestations (random ids, origin fields and amounts,
 * a random EVM recipient, a live deadline) are signed in TypeScript (ts/core fillDigest + EIP-191),
 * encoded with ts/core's `encodeFill` and sent to a real AttestedReceiver on an EDR chain: each is
 * accepted (recipient paid, `Filled`, the stored commitment is the TS digest). Then, for every one of
 * the twelve fields, a single-field change is rejected in both directions: the calldata carries a
 * changed field the signature does not cover, or the signature covers a changed field (the chain id and
 * receiver included, which the calldata does not carry) — the receiver's recovered signer is then not
 * the attester, and nothing is paid.
 */
import { expect } from "chai";
import { network } from "hardhat";
import { BaseError, ContractFunctionRevertedError, concat, decodeErrorResult, hexToBigInt, keccak256, numberToHex, parseEther, toHex, type Address, type Hex } from "viem";
import { privateKeyToAccount } from "viem/accounts";
import { fillDigest, type FillAttestation } from "../../ts/core/attestationDigest.ts";
import { fromCompactSignature, toCompactSignature } from "../../ts/core/compactSignature.ts";
import { FILL_SELECTOR, encodeFill, packFill } from "../../ts/core/fillCalldata.ts";
import { recoverPersonalSignerStrict } from "../../ts/core/recoverStrict.ts";
import { signAttestationDigest } from "../../ts/core/signAttestation.ts";
import { attestedReceiverAbi } from "../../ts/abi/AttestedReceiver.ts";

const RUNS = 12;
const FIELDS = [
  "requestId", "orderId", "originChainId", "originUser", "originCurrency", "originAmount",
  "destinationChainId", "destinationUser", "destinationCurrency", "destinationAmount", "deadline", "receiver",
] as const satisfies readonly (keyof FillAttestation)[];

/** Deterministic randomness (a keccak stream), so a failing case replays from its index. */
function randomStream(seed: string) {
  let counter = 0n;
  const next = (): Hex => keccak256(concat([toHex(seed), numberToHex(counter++, { size: 32 })]));
  return { next, uint: (bound: bigint) => hexToBigInt(next()) % bound };
}

/**
 * `att` with one field xor-ed with a non-zero mask, within the width the packed fill gives the field
 * (so the changed attestation still has a packed form): 64 bits for the origin chain id, 128 for the
 * amounts, 40 for the deadline, 160 for the destination user and currency and the receiver.
 */
function withFieldChanged(att: FillAttestation, field: (typeof FIELDS)[number], mask: bigint): FillAttestation {
  const flip = (value: bigint, bits: bigint) => value ^ ((mask % ((1n << bits) - 1n)) + 1n);
  const changed = { ...att };
  switch (field) {
    case "originChainId":
      changed[field] = flip(att[field], 64n);
      break;
    case "originAmount":
    case "destinationAmount":
      changed[field] = flip(att[field], 128n);
      break;
    case "deadline":
      changed[field] = flip(att[field], 40n);
      break;
    case "destinationChainId":
      changed[field] = flip(att[field], 256n);
      break;
    case "destinationUser":
    case "destinationCurrency":
      changed[field] = numberToHex(flip(hexToBigInt(att[field]), 160n), { size: 32 });
      break;
    case "receiver":
      changed.receiver = numberToHex(flip(hexToBigInt(att.receiver), 160n), { size: 20 }) as Address;
      break;
    default:
      changed[field] = numberToHex(flip(hexToBigInt(att[field]), 256n), { size: 32 });
  }
  return changed;
}

describe("compact fill, fuzzed: signed in TS, accepted onchain; any single-field change rejected", () => {
  it(`accepts ${RUNS} random fills and rejects each of their twelve single-field changes, both ways`, async () => {
    const { viem } = await network.create();
    const publicClient = await viem.getPublicClient();
    const [owner, solver] = await viem.getWalletClients();
    const multicaller = await viem.deployContract("Multicaller");
    const receiver = await viem.deployContract("AttestedReceiver", [owner!.account.address, multicaller.address]);
    const attester = privateKeyToAccount(keccak256(toHex("compact fill fuzz attester")));
    await receiver.write.setSigner([attester.address, true]);
    const chainId = BigInt(await publicClient.getChainId());
    const target = { chainId, receiver: receiver.address };
    const r = randomStream("ferry/compact-fill-fuzz");

    const errorName = async (data: Hex, value: bigint): Promise<string> => {
      try {
        await publicClient.call({ account: solver!.account, to: receiver.address, data, value });
      } catch (error) {
        const reverted = error instanceof BaseError ? error.walk((e) => e instanceof ContractFunctionRevertedError || typeof (e as { data?: unknown }).data === "string") : undefined;
        const raw = (reverted as { raw?: Hex; data?: unknown } | undefined)?.raw ?? ((reverted as { data?: unknown } | undefined)?.data as Hex | undefined);
        return typeof raw === "string" ? decodeErrorResult({ abi: attestedReceiverAbi, data: raw }).errorName : "reverted";
      }
      return "accepted";
    };

    for (let i = 0; i < RUNS; i++) {
      const now = (await publicClient.getBlock()).timestamp;
      const recipient = privateKeyToAccount(r.next()).address;
      const att: FillAttestation = {
        requestId: r.next(),
        orderId: r.next(),
        originChainId: r.uint(1n << 64n),
        originUser: r.next(),
        originCurrency: i % 2 === 0 ? `0x${"00".repeat(32)}` : r.next(),
        originAmount: r.uint(1n << 128n),
        destinationChainId: chainId,
        destinationUser: `0x${"00".repeat(12)}${recipient.slice(2).toLowerCase()}`,
        destinationCurrency: `0x${"00".repeat(32)}`,
        destinationAmount: r.uint(parseEther("1")),
        deadline: now + 60n + r.uint(1n << 32n),
        receiver: receiver.address,
      };
      const signature = await signAttestationDigest(attester, fillDigest(att));
      const data = encodeFill({ attestation: att, signature, target });

      // Every single-field change is refused before the genuine fill (and leaves nothing behind).
      for (const field of FIELDS) {
        const changed = withFieldChanged(att, field, hexToBigInt(r.next()));
        // The signature covers the changed field; the receiver rebuilds the original.
        const signedChanged = toCompactSignature(await signAttestationDigest(attester, fillDigest(changed)));
        const recovered = await recoverPersonalSignerStrict(fillDigest(att), fromCompactSignature(signedChanged));
        expect(recovered, `${i} ${field}: recovered`).to.not.equal(attester.address);
        const forged = concat([FILL_SELECTOR, packFill(att, signedChanged)]);
        expect(await errorName(forged, att.destinationAmount), `${i} ${field}: signed changed, sent original`).to.equal("SignerNotAllowed");
        // The calldata carries the changed field under the original signature (fields it carries only).
        if (field !== "destinationChainId" && field !== "receiver") {
          const tampered = concat([FILL_SELECTOR, packFill(changed, signature)]);
          const outcome = await errorName(tampered, changed.destinationAmount);
          expect(outcome, `${i} ${field}: sent changed`).to.not.equal("accepted");
        }
      }

      const before = await publicClient.getBalance({ address: recipient });
      const hash = await solver!.sendTransaction({ to: receiver.address, data, value: att.destinationAmount });
      const receipt = await publicClient.waitForTransactionReceipt({ hash });
      expect(receipt.status, `${i}: accepted`).to.equal("success");
      expect((await publicClient.getBalance({ address: recipient })) - before, `${i}: paid`).to.equal(att.destinationAmount);
      expect(await receiver.read.filledDigest([att.requestId]), `${i}: commitment`).to.equal(fillDigest(att));
      expect(await errorName(data, att.destinationAmount), `${i}: replay`).to.equal("AlreadyFilled");
    }
  });
});
