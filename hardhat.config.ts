import { createRequire } from "node:module";
import { availableParallelism, tmpdir } from "node:os";
import path from "node:path";
import { configVariable, defineConfig } from "hardhat/config";
import type { HttpNetworkUserConfig } from "hardhat/types/config";
import hardhatViem from "@nomicfoundation/hardhat-viem";
import hardhatMocha from "@nomicfoundation/hardhat-mocha";
import hardhatNetworkHelpers from "@nomicfoundation/hardhat-network-helpers";
import hardhatViemAssertions from "@nomicfoundation/hardhat-viem-assertions";
import hardhatIgnitionViem from "@nomicfoundation/hardhat-ignition-viem";
import hardhatKeystore from "@nomicfoundation/hardhat-keystore";
import { COMPILER_SETTINGS, VIA_IR_SOURCES } from "./ts/deploy/compilerSettings.ts";

const require = createRequire(import.meta.url);
// solc-js from the npm "solc" package: Hardhat never downloads a compiler.
const SOLJSON = require.resolve("solc/soljson.js");
const SOLC_VERSION: string = require("solc/package.json").version;

// The settings live in ts/deploy/compilerSettings.ts (shipped code reads them without this config);
// re-exported for scripts that print them.
export { COMPILER_SETTINGS, VIA_IR_SOURCES };

/**
 * Networks for `ferry deploy --network <name>` and `npx hardhat ignition deploy … --network <name>`.
 * A remote network's RPC URL is the configuration variable FERRY_RPC_URL_<NAME> and its deployer key
 * FERRY_DEPLOYER_KEY: Hardhat resolves both from the environment, then from the keystore when
 * @nomicfoundation/hardhat-keystore is installed and listed in `plugins` (`npx hardhat keystore set
 * FERRY_DEPLOYER_KEY`). Add a chain with one more line. See ts/deploy/README.md.
 */
function remoteNetwork(name: string, chainType: "l1" | "op" | "generic" = "l1"): HttpNetworkUserConfig {
  return {
    type: "http",
    chainType,
    url: configVariable(`FERRY_RPC_URL_${name}`),
    accounts: [configVariable("FERRY_DEPLOYER_KEY")],
  };
}

const SOLIDITY_BUILD = {
  compilers: [{ version: SOLC_VERSION, path: SOLJSON, settings: COMPILER_SETTINGS }],
  overrides: Object.fromEntries(
    VIA_IR_SOURCES.map((source) => [
      source,
      { version: SOLC_VERSION, path: SOLJSON, settings: { ...COMPILER_SETTINGS, viaIR: true } },
    ]),
  ),
};

// FERRY_TEST_JOBS=N runs the mocha test files in N worker processes (mocha's parallel mode): most of
// the suite waits on chains, child processes and databases, not on the CPU. 1 (or unset) runs them in
// this process, one after another; `auto` (what `npm test` uses) is twice the CPUs, at most 8. With
// FERRY_TEST_TIMINGS set, the workers time their files into a file the reporter reads at the end
// (test/fileTimingsHooks.ts); the workers load this config too, so the main process's file is kept.
const TEST_JOBS =
  process.env.FERRY_TEST_JOBS === "auto" ? Math.min(2 * availableParallelism(), 8) : Math.max(1, Number.parseInt(process.env.FERRY_TEST_JOBS ?? "1", 10) || 1);
if (TEST_JOBS > 1 && process.env.FERRY_TEST_TIMINGS) process.env.FERRY_TEST_TIMINGS_PARTS ??= path.join(tmpdir(), `ferry-test-timings-${process.pid}.jsonl`);

export default defineConfig({
  plugins: [hardhatViem, hardhatViemAssertions, hardhatNetworkHelpers, hardhatMocha, hardhatIgnitionViem, hardhatKeystore],
  // One build for every profile: `hardhat ignition deploy` builds the production profile, and the
  // deterministic addresses must be the same whichever command built the artifacts.
  solidity: {
    profiles: { default: SOLIDITY_BUILD, production: SOLIDITY_BUILD },
  },
  test: {
    solidity: {
      fuzz: { runs: 256 },
      invariant: { runs: 64, depth: 32 },
      fsPermissions: { readFile: ["test/vectors/attestations.json", "test/vectors/order-ids.json", "test/vectors/calldata.json"] },
    },
    // FERRY_TEST_TIMINGS=1 (or =<file>.json) adds each test file's wall time, hooks included, after
    // the run: test/timingsReporter.ts, docs/performance.md "Test suite wall time".
    mocha: {
      timeout: 120_000,
      ...(process.env.FERRY_TEST_TIMINGS ? { reporter: "test/timingsReporter.ts" } : {}),
      ...(TEST_JOBS > 1 ? { parallel: true, jobs: TEST_JOBS } : {}),
      // In parallel runs a failed test's error must survive the worker's JSON (test/serializableFailures.ts).
      ...(TEST_JOBS > 1 ? { require: ["test/serializableFailures.ts", ...(process.env.FERRY_TEST_TIMINGS ? ["test/fileTimingsHooks.ts"] : [])] } : {}),
    },
  },
  networks: {
    origin: { type: "edr-simulated", chainType: "l1", chainId: 31337 },
    destination: { type: "edr-simulated", chainType: "l1", chainId: 31338 },
    // A local node (`npx hardhat node --hostname 127.0.0.1`, the devnet, anvil): its unlocked accounts.
    localhost: { type: "http", chainType: "l1", url: configVariable("FERRY_RPC_URL_LOCALHOST", { default: "http://127.0.0.1:8545" }) },
    sepolia: remoteNetwork("SEPOLIA"),
    baseSepolia: remoteNetwork("BASE_SEPOLIA", "op"),
    arbitrumSepolia: remoteNetwork("ARBITRUM_SEPOLIA", "generic"),
    // Forks a real chain (see "Fork testing" in the README): FORK_URL is a configuration variable
    // (env, or the keystore when that plugin is on), read only when this network is used, so other
    // commands work without it. FORK_BLOCK pins the block (reproducible, and EDR caches the state);
    // FORK_CHAIN_ID runs the fork under the real chain's id (default: Hardhat's 31337).
    fork: {
      type: "edr-simulated",
      chainType: "l1",
      ...(process.env.FORK_CHAIN_ID ? { chainId: Number(process.env.FORK_CHAIN_ID) } : {}),
      forking: {
        url: configVariable("FORK_URL"),
        ...(process.env.FORK_BLOCK ? { blockNumber: BigInt(process.env.FORK_BLOCK) } : {}),
      },
    },
  },
});
