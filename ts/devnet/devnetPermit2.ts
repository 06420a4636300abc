/**
 * The canonical Permit2 on a local chain: Uniswap's own Permit2 runtime bytecode — the one Uniswap
 * ships for exactly this purpose in `@uniswap/v4-periphery` (`lib/permit2/test/utils/DeployPermit2.sol`,
 * compiled from Permit2's sources with solc 0.8.17, via-IR, 1,000,000 runs) — placed at the canonical
 * address `0x000000000022D473030F116dDEE9F6B43aC78BA3` with `hardhat_setCode`, as that helper does with
 * `vm.etch`. Real chains already have Permit2 there (deployed through the deterministic deployer); a
 * local chain gets the same code at the same address, so the Depository's `PERMIT2` constant and every
 * Permit2 signature (domain: name "Permit2", the chain id, that address) work unchanged.
 *
 * One fix-up: Permit2 caches its EIP-712 domain separator in an immutable at construction, and the
 * bytecode in the package was captured from a deployment at another address on chain 31337, so it carries
 * that address's separator (`CAPTURED_DOMAIN_SEPARATOR`) with a cached chain id of 31337. Left as is, a
 * chain 31337 would check Permit2 signatures against the wrong verifyingContract. The captured separator
 * is replaced by the one the constructor of a deployment at the canonical address on chain 31337 writes
 * (name "Permit2", chain 31337, the canonical address); on any other chain id Permit2 recomputes the
 * separator from `block.chainid` and `address(this)` and the cached value is never read.
 *
 * The code hash is pinned: a different package version with other bytecode fails loudly instead of
 * silently putting something else at the canonical address.
 */
import { readFile } from "node:fs/promises";
import { createRequire } from "node:module";
import { encodeAbiParameters, keccak256, stringToHex, type Hex, type PublicClient, type TestClient } from "viem";
import { PERMIT2_ADDRESS } from "../core/permitDeposit.ts";

const SOURCE = "@uniswap/v4-periphery/lib/permit2/test/utils/DeployPermit2.sol";

/** keccak256 of the runtime bytecode in @uniswap/v4-periphery 1.0.3's DeployPermit2.sol. */
export const PERMIT2_RUNTIME_CODE_HASH: Hex = "0xa1ad0529565c25202190d4ae7f75d4ca08dc432cc760544ee7d0313b68e82ecd";

/** The domain separator cached in the captured bytecode (chain 31337, another address than the canonical one). */
export const CAPTURED_DOMAIN_SEPARATOR: Hex = "0xd5a17abc3865df5c1400c0299bd4ce2eefc8114aec5f9d3dded1745783e57b98";

/** Permit2's EIP-712 domain separator at the canonical address on `chainId` (no version field). */
export function permit2DomainSeparator(chainId: number): Hex {
  const typeHash = keccak256(stringToHex("EIP712Domain(string name,uint256 chainId,address verifyingContract)"));
  return keccak256(
    encodeAbiParameters(
      [{ type: "bytes32" }, { type: "bytes32" }, { type: "uint256" }, { type: "address" }],
      [typeHash, keccak256(stringToHex("Permit2")), BigInt(chainId), PERMIT2_ADDRESS],
    ),
  );
}

/** Permit2's runtime bytecode, read from the package (the single `hex"…"` literal of DeployPermit2.sol), with the cached separator fixed up. */
export async function permit2RuntimeCode(): Promise<Hex> {
  const path = createRequire(import.meta.url).resolve(SOURCE);
  const literals = [...(await readFile(path, "utf8")).matchAll(/hex"([0-9a-fA-F]+)"/g)];
  if (literals.length !== 1) throw new Error(`${SOURCE}: expected one bytecode literal, found ${literals.length}`);
  const code = `0x${literals[0]![1]!.toLowerCase()}` as Hex;
  if (keccak256(code) !== PERMIT2_RUNTIME_CODE_HASH) throw new Error(`${SOURCE}: the Permit2 bytecode is not the pinned one (code hash ${keccak256(code)})`);
  const captured = CAPTURED_DOMAIN_SEPARATOR.slice(2);
  const occurrences = code.split(captured).length - 1;
  if (occurrences === 0) throw new Error(`${SOURCE}: the cached domain separator is not where the pinned bytecode has it`);
  return code.replaceAll(captured, permit2DomainSeparator(31337).slice(2)) as Hex;
}

/** Puts Permit2 at its canonical address unless code is already there. Returns the address. */
export async function ensurePermit2(args: { publicClient: PublicClient; testClient: TestClient }): Promise<Hex> {
  const existing = await args.publicClient.getCode({ address: PERMIT2_ADDRESS });
  if (existing === undefined || existing === "0x") await args.testClient.setCode({ address: PERMIT2_ADDRESS, bytecode: await permit2RuntimeCode() });
  return PERMIT2_ADDRESS;
}
