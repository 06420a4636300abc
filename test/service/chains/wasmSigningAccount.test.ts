// The service's signing account (ts/service/chains/wasmSigningAccount.ts): libsecp256k1 in WebAssembly
// must sign exactly what viem's own private-key account signs — the same bytes for hashes, typed data,
// messages and every transaction type the service sends — and what it signs must recover to its address.
import { expect } from "chai";
import { randomBytes } from "node:crypto";
import {
  bytesToHex,
  keccak256,
  parseTransaction,
  recoverAddress,
  recoverMessageAddress,
  recoverTypedDataAddress,
  recoverTransactionAddress,
  toHex,
  type Hex,
  type TransactionSerializable,
} from "viem";
import { privateKeyToAccount } from "viem/accounts";
import { wasmSigningAccount } from "../../../ts/service/chains/wasmSigningAccount.ts";
import { resolveAccounts } from "../../../ts/service/chains/serviceAccounts.ts";

const N = 0xfffffffffffffffffffffffffffffffebaaedce6af48a03bbfd25e8cd0364141n;
/** A random valid private key (a scalar in [1, n)). */
function randomKey(): Hex {
  for (;;) {
    const key = bytesToHex(randomBytes(32));
    const k = BigInt(key);
    if (k > 0n && k < N) return key;
  }
}

describe("chains: the libsecp256k1 (WebAssembly) signing account", function () {
  this.timeout(60_000);

  it("sign_theSameSignatureAsViemsAccount_for600RandomKeysAndHashes_andTheEdgeScalars", async () => {
    const keys: Hex[] = [...Array.from({ length: 600 }, randomKey), toHex(1n, { size: 32 }), toHex(N - 1n, { size: 32 }), toHex(2n ** 128n, { size: 32 })];
    for (const [i, key] of keys.entries()) {
      const hash = i % 3 === 0 ? toHex(N + BigInt(i), { size: 32 }) : i % 3 === 1 ? ("0x" + "00".repeat(32)) as Hex : bytesToHex(randomBytes(32));
      const [ours, viems] = [wasmSigningAccount(key), privateKeyToAccount(key)];
      expect(ours.address).to.equal(viems.address);
      const signature = await ours.sign!({ hash });
      expect(signature, `key ${key} hash ${hash}`).to.equal(await viems.sign!({ hash }));
      expect(await recoverAddress({ hash, signature })).to.equal(viems.address);
    }
  });

  it("signTransaction_everyTypeTheServiceSends_sameBytesAsViem_andRecoversToTheAccount", async () => {
    const key = randomKey();
    const [ours, viems] = [wasmSigningAccount(key), privateKeyToAccount(key)];
    const base = { chainId: 31338, to: privateKeyToAccount(randomKey()).address, nonce: 7, gas: 210_000n, value: 10n ** 15n, data: "0xdeadbeef" as Hex };
    const transactions: TransactionSerializable[] = [
      { ...base, type: "eip1559", maxFeePerGas: 3n * 10n ** 9n, maxPriorityFeePerGas: 10n ** 9n },
      { ...base, type: "eip2930", gasPrice: 2n * 10n ** 9n, accessList: [{ address: base.to, storageKeys: [keccak256("0x01")] }] },
      { ...base, type: "legacy", gasPrice: 2n * 10n ** 9n },
      { ...base, type: "eip1559", nonce: 0, value: 0n, data: "0x", maxFeePerGas: 1n, maxPriorityFeePerGas: 0n },
    ];
    for (const transaction of transactions) {
      const signed = await ours.signTransaction(transaction);
      expect(signed, transaction.type).to.equal(await viems.signTransaction(transaction));
      expect(await recoverTransactionAddress({ serializedTransaction: signed as Parameters<typeof recoverTransactionAddress>[0]["serializedTransaction"] })).to.equal(viems.address);
      expect(parseTransaction(signed).nonce ?? 0).to.equal(transaction.nonce ?? 0);
    }
  });

  it("signTypedDataAndSignMessage_sameBytesAsViem_andRecoverToTheAccount", async () => {
    const key = randomKey();
    const [ours, viems] = [wasmSigningAccount(key), privateKeyToAccount(key)];
    const typedData = {
      domain: { name: "RelayDepository", version: "1", chainId: 31337, verifyingContract: privateKeyToAccount(randomKey()).address },
      types: { Call: [{ name: "to", type: "address" }, { name: "data", type: "bytes" }, { name: "value", type: "uint256" }], CallRequest: [{ name: "calls", type: "Call[]" }, { name: "nonce", type: "uint256" }, { name: "expiration", type: "uint256" }] },
      primaryType: "CallRequest" as const,
      message: { calls: [{ to: viems.address, data: "0x1234" as Hex, value: 5n }], nonce: 9n, expiration: 1_800_000_000n },
    };
    const typed = await ours.signTypedData(typedData);
    expect(typed).to.equal(await viems.signTypedData(typedData));
    expect(await recoverTypedDataAddress({ ...typedData, signature: typed })).to.equal(viems.address);
    for (const message of ["ferry", { raw: "0x00ff" as Hex }]) {
      const signed = await ours.signMessage({ message });
      expect(signed).to.equal(await viems.signMessage({ message }));
      expect(await recoverMessageAddress({ message, signature: signed })).to.equal(viems.address);
    }
  });

  it("resolveAccounts_theConfiguredKeysSignAsThemselves_addressesCanonical", async () => {
    const key = randomKey();
    const secret = { reveal: () => key };
    const accounts = resolveAccounts({ keys: { solver: secret, attester: secret, allocator: secret } } as unknown as Parameters<typeof resolveAccounts>[0]);
    const hash = bytesToHex(randomBytes(32));
    expect(accounts.solver!.address).to.equal(privateKeyToAccount(key).address.toLowerCase());
    expect(await accounts.attester!.sign!({ hash })).to.equal(await privateKeyToAccount(key).sign({ hash }));
  });
});
