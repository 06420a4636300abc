import { createRequire } from "node:module";
import { defineConfig } from "hardhat/config";
import hardhatViem from "@nomicfoundation/hardhat-viem";
import hardhatMocha from "@nomicfoundation/hardhat-mocha";
import hardhatNetworkHelpers from "@nomicfoundation/hardhat-network-helpers";
import hardhatViemAssertions from "@nomicfoundation/hardhat-viem-assertions";
import hardhatIgnitionViem from "@nomicfoundation/hardhat-ignition-viem";

const require = createRequire(import.meta.url);
// solc-js from the npm "solc" package: Hardhat never downloads a compiler.
const SOLJSON = require.resolve("solc/soljson.js");
const SOLC_VERSION: string = require("solc/package.json").version;

/** Compiler settings of every Ferry build; printed by `npm run bench:gas`. */
export const COMPILER_SETTINGS = {
  optimizer: { enabled: true, runs: 1_000_000 },
  evmVersion: "prague",
} as const;

/**
 * Sources compiled through the IR pipeline (otherwise the same settings). The Depository's native
 * deposit sits ~250 gas above its floor (21,000 + calldata + LOG3); via-IR's leaner dispatch and
 * decoding is what brings it under the 24,000 budget (measured 24,120 legacy, 23,973 via-IR).
 */
export const VIA_IR_SOURCES = ["contracts/Depository.sol"] as const;

export default defineConfig({
  plugins: [hardhatViem, hardhatViemAssertions, hardhatNetworkHelpers, hardhatMocha, hardhatIgnitionViem],
  solidity: {
    compilers: [{ version: SOLC_VERSION, path: SOLJSON, settings: COMPILER_SETTINGS }],
    overrides: Object.fromEntries(
      VIA_IR_SOURCES.map((source) => [
        source,
        { version: SOLC_VERSION, path: SOLJSON, settings: { ...COMPILER_SETTINGS, viaIR: true } },
      ]),
    ),
  },
  test: {
    solidity: {
      fuzz: { runs: 256 },
      invariant: { runs: 64, depth: 32 },
      fsPermissions: { readFile: ["test/vectors/attestations.json", "test/vectors/order-ids.json"] },
    },
    mocha: { timeout: 120_000 },
  },
  networks: {
    origin: { type: "edr-simulated", chainType: "l1", chainId: 31337 },
    destination: { type: "edr-simulated", chainType: "l1", chainId: 31338 },
  },
});
