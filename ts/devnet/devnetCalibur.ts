/**
 * Uniswap's Calibur — the EIP-7702 batch executor the official SDK's `executeGaslessBatch` delegates a
 * user's EOA to — at the address the SDK (and every public chain) has it, `CALIBUR_ADDRESS`. The code
 * is Calibur v1.0.0 built from its sources (./caliburBuild.ts, committed as vendor/calibur.json).
 *
 * Calibur has immutables, and one of them depends on where it is deployed: its constructor caches
 * `address(this)` as the implementation address that goes into the salt of every EIP-712 domain it
 * checks signatures against (`salt = prefix ‖ implementation`, the SDK signs with the canonical address
 * there). Runtime code captured from a deployment elsewhere would carry that other address and reject
 * every signature the SDK makes. So the constructor runs *at* the canonical address: the creation code
 * is put there and called (the call's return data is exactly what a CREATE at that address would have
 * stored, immutables filled by the constructor in the context of that address), then that runtime
 * code replaces it. The result is checked against the compiled runtime code: byte for byte equal
 * outside the immutables' ranges.
 */
import { getAddress, type Address, type Hex, type PublicClient, type TestClient } from "viem";
import { readCaliburArtifact, type CaliburArtifact } from "./caliburBuild.ts";

/** Calibur's address on every chain it is deployed on, and the SDK's `CALIBUR_ADDRESS`. */
export const CALIBUR_ADDRESS: Address = "0x000000009B1D0aF20D8C6d0A44e162d11F9b8f00";

/** Throws unless `runtime` is `artifact.deployedBytecode` with only the immutables' bytes changed. */
export function checkCaliburRuntime(artifact: Pick<CaliburArtifact, "deployedBytecode" | "immutableReferences">, runtime: Hex): void {
  const expected = Buffer.from(artifact.deployedBytecode.slice(2), "hex");
  const actual = Buffer.from(runtime.slice(2), "hex");
  if (actual.length !== expected.length) throw new Error(`calibur: the constructor returned ${actual.length} bytes of runtime code, the build has ${expected.length}`);
  const immutable = new Uint8Array(expected.length);
  for (const ranges of Object.values(artifact.immutableReferences)) for (const { start, length } of ranges) immutable.fill(1, start, start + length);
  for (let i = 0; i < expected.length; i++) {
    if (immutable[i] === 0 && actual[i] !== expected[i]) throw new Error(`calibur: runtime code differs from the build at byte ${i}, outside any immutable`);
  }
}

/** Puts Calibur at `CALIBUR_ADDRESS` unless code is already there. Returns the address. */
export async function ensureCalibur(args: { publicClient: PublicClient; testClient: TestClient; artifact?: CaliburArtifact }): Promise<Address> {
  const existing = await args.publicClient.getCode({ address: CALIBUR_ADDRESS });
  if (existing !== undefined && existing !== "0x") return CALIBUR_ADDRESS;
  const artifact = args.artifact ?? readCaliburArtifact();
  await args.testClient.setCode({ address: CALIBUR_ADDRESS, bytecode: artifact.bytecode });
  const { data: runtime } = await args.publicClient.call({ to: CALIBUR_ADDRESS, data: "0x" });
  if (runtime === undefined) throw new Error("calibur: the constructor returned no runtime code");
  checkCaliburRuntime(artifact, runtime);
  await args.testClient.setCode({ address: CALIBUR_ADDRESS, bytecode: runtime });
  return getAddress(CALIBUR_ADDRESS);
}
