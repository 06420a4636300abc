/**
 * The gas bench prices OP Stack L1 data with solady's JS FastLZ (scripts/bench/txCompression.ts). It
 * must compress exactly as solady's Solidity LibZip.flzCompress does (the algorithm of OP Stack's
 * GasPriceOracle since Fjord): the same bytes for empty input, runs of zeros, incompressible data,
 * ABI calldata and signed transactions, and the JS decompressor gives the input back.
 */
import { expect } from "chai";
import { network } from "hardhat";
import { concat, keccak256, numberToHex, serializeTransaction, toHex, type Hex } from "viem";
import { privateKeyToAccount } from "viem/accounts";
import solady from "solady";
import { encodeDeposit } from "../../ts/core/depositCalldata.ts";
import { flzSize } from "../../scripts/bench/txCompression.ts";

describe("FastLZ: solady's JS port = solady's Solidity LibZip (OP Stack's L1 data compressor)", () => {
  it("compresses every case to the same bytes onchain and in JS", async () => {
    const { viem } = await network.create();
    const harness = await viem.deployContract("LibZipHarness");
    const account = privateKeyToAccount(keccak256(toHex("flz")));
    const random = (n: number) => concat(Array.from({ length: Math.ceil(n / 32) }, (_, i) => keccak256(toHex(`r${n}:${i}`)))).slice(0, 2 + 2 * n) as Hex;
    const deposit = encodeDeposit({ currency: "0x0000000000000000000000000000000000000000", amount: 10n ** 18n, id: keccak256(toHex("id")) }).data;
    const signedTx = await account.signTransaction({
      chainId: 31338, type: "eip1559", nonce: 7, gas: 90_000n, maxFeePerGas: 2_000_000_000n, maxPriorityFeePerGas: 1_000_000n,
      to: "0x5FbDB2315678afecb367f032d93F642f64180aa3", value: 10n ** 17n, data: concat([deposit, random(300)]),
    });
    const cases: [string, Hex][] = [
      ["empty", "0x"],
      ["one byte", "0x01"],
      ["32 zero bytes", `0x${"00".repeat(32)}`],
      ["4 KiB of zeros", `0x${"00".repeat(4096)}`],
      ["incompressible 1 KiB", random(1024)],
      ["repeating pattern", `0x${"deadbeef".repeat(300)}`],
      ["ABI words with zero padding", concat(Array.from({ length: 20 }, (_, i) => numberToHex(BigInt(i) * 1_000_003n, { size: 32 })))],
      ["a deposit's calldata", deposit],
      ["a signed EIP-1559 transaction", signedTx],
      ["an unsigned serialization", serializeTransaction({ chainId: 1, type: "eip1559", to: account.address, data: random(500) })],
    ];
    for (const [name, data] of cases) {
      const js = solady.LibZip.flzCompress(data) as Hex;
      expect(await harness.read.flzCompress([data]), name).to.equal(js.toLowerCase());
      expect(flzSize(data), name).to.equal((js.length - 2) / 2);
      expect((solady.LibZip.flzDecompress(js) as string).toLowerCase(), `${name}: round trip`).to.equal(data.toLowerCase());
    }
  });
});
