/**
 * The compiler settings of every Ferry build, in a module of their own: hardhat.config.ts compiles
 * with them and deployment records state them, and code shipped in the package (the `ferry/testing`
 * fixture deploys through ferryDeployment.ts) must not import this repository's Hardhat config and
 * its dev plugins.
 */

/** Solc settings (the solc version is the npm `solc` package's, see hardhat.config.ts). */
export const COMPILER_SETTINGS = {
  optimizer: { enabled: true, runs: 1_000_000 },
  evmVersion: "prague",
  // No metadata hash in the bytecode: it covers the compile job's remappings, which differ between a
  // build with and without tests, and deterministic CREATE2 addresses need identical init code.
  metadata: { bytecodeHash: "none" },
} as const;

/**
 * Sources compiled through the IR pipeline (otherwise the same settings). The Depository's native
 * deposit sits ~250 gas above its floor (21,000 + calldata + LOG3); via-IR's leaner dispatch and
 * decoding is what brings it under the 24,000 budget (measured 24,120 legacy, 23,973 via-IR).
 */
export const VIA_IR_SOURCES = ["contracts/Depository.sol", "contracts/AttestedReceiver.sol"] as const;

/**
 * The solc version an artifact was built with, read from its Hardhat 3 build info id
 * (`solc-0_8_30-<hash>`): the record states the compiler of the bytecode being deployed, which is not
 * necessarily an installed `solc` package (a consumer of the published artifacts has none).
 */
export function solcVersionOfBuild(buildInfoId: string): string {
  const match = /^solc-(\d+)_(\d+)_(\d+)-/.exec(buildInfoId);
  if (match === null) throw new Error(`cannot read the solc version of build info id "${buildInfoId}"`);
  return `${match[1]}.${match[2]}.${match[3]}`;
}
