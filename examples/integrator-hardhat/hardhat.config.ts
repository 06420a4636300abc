import { createRequire } from "node:module";
import { configVariable, defineConfig } from "hardhat/config";
import hardhatMocha from "@nomicfoundation/hardhat-mocha";
import hardhatNetworkHelpers from "@nomicfoundation/hardhat-network-helpers";
import hardhatViem from "@nomicfoundation/hardhat-viem";
import hardhatViemAssertions from "@nomicfoundation/hardhat-viem-assertions";

const require = createRequire(import.meta.url);

export default defineConfig({
  plugins: [hardhatViem, hardhatViemAssertions, hardhatNetworkHelpers, hardhatMocha],
  solidity: {
    // solc-js from the npm `solc` package: the build never downloads a compiler (works offline).
    // Drop `path` to let Hardhat download the native compiler instead.
    compilers: [
      {
        version: "0.8.30",
        path: require.resolve("solc/soljson.js"),
        settings: { evmVersion: "prague", optimizer: { enabled: true, runs: 200 } },
      },
    ],
  },
  networks: {
    // A local node (`npx hardhat node --hostname 127.0.0.1`, Ferry's devnet on :8545, anvil).
    localhost: { type: "http", chainType: "l1", url: "http://127.0.0.1:8545" },
    // A fork of a real chain: `FORK_URL=https://… npx hardhat test mocha`; test/fork.test.ts points it
    // at a chain it serves itself (network.create({ network: "fork", override: { forking: { url } } })).
    fork: { type: "edr-simulated", chainType: "l1", forking: { url: configVariable("FORK_URL") } },
  },
});
