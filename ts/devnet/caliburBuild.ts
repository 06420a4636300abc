/**
 * Calibur (Uniswap's EIP-7702 batch executor, the delegate of the relay SDK's `executeGaslessBatch`)
 * compiled from the sources vendored in `vendor/calibur/` with the compiler settings of its
 * foundry.toml — outside the project's `hardhat build`, because a via-IR compile of Calibur takes
 * minutes and the devnet only needs its bytes. `scripts/build-calibur.ts` writes the result to
 * `vendor/calibur.json`; `npm run test:vendor` compiles again and compares the bytes.
 *
 * Source unit names are Calibur's own repository layout (`src/…`, `lib/<dependency>/…`) with the
 * remappings forge derives from its `lib/` folder, so the compiler sees what `forge build` sees. The
 * dependencies that are on npm are read from npm packages pinned to the submodule commits' releases;
 * the two that are not (webauthn-sol, FreshCryptoLib) are vendored beside Calibur's sources.
 */
import { existsSync, readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import type { Abi, Hex } from "viem";

const VENDOR_DIR = join(dirname(fileURLToPath(import.meta.url)), "vendor");
const CALIBUR_DIR = join(VENDOR_DIR, "calibur");
export const CALIBUR_ARTIFACT_PATH = join(VENDOR_DIR, "calibur.json");

/** Where the code comes from: Calibur's v1.0.0 commit (the one its README lists as deployed) and its submodules. */
export const CALIBUR_SOURCE = {
  repository: "https://github.com/Uniswap/calibur",
  commit: "35d80918e120d177a49d3d90bcd4dd011caedd32",
  version: "v1.0.0",
  dependencies: {
    "lib/solady": { commit: "1eb89b9af0a09468c6ccff51ce8ed5eb520b4fb5", from: "npm solady@0.1.9 (the commit is tag v0.1.9)" },
    "lib/openzeppelin-contracts": { commit: "acd4ff74de833399287ed6b31b4debf6b2b35527", from: "npm @openzeppelin/contracts@5.2.0 (the commit is tag v5.2.0)" },
    "lib/account-abstraction": {
      commit: "3c9ef104688649b7ba6ee0c788aa494783ee24f7",
      from: "npm @account-abstraction/contracts@0.8.0 (only IAccount and PackedUserOperation are used: interfaces, same declarations as v0.7.0)",
    },
    "lib/webauthn-sol": { commit: "619f20ab0f074fef41066ee4ab24849a913263b2", from: "vendored: base-org/webauthn-sol src/WebAuthn.sol, latest stored version (the pinned commit could not be fetched here)" },
    "lib/webauthn-sol/lib/FreshCryptoLib": { commit: "8179e08cac72072bd260796633fec41fdfd5b441", from: "vendored: rdubois-crypto/FreshCryptoLib solidity/src at that commit (webauthn-sol's pin could not be read here)" },
  },
} as const;

/**
 * Calibur's foundry.toml: the `via_ir` profile (10,000 runs) that `compilation_restrictions` puts
 * src/CaliburEntry.sol and src/Calibur.sol in, bytecode_hash none; solc 0.8.29 is CaliburEntry's exact
 * pragma. The EVM version is not set in foundry.toml: prague, forge's default since 1.2 and the
 * hardfork EIP-7702 needs (solc 0.8.29 emits the same instructions for cancun and prague).
 */
export const CALIBUR_SOLC_VERSION = "0.8.29";
export const CALIBUR_SOLC_SETTINGS = {
  viaIR: true,
  optimizer: { enabled: true, runs: 10_000 },
  evmVersion: "prague",
  metadata: { bytecodeHash: "none" },
  remappings: [
    "@openzeppelin/contracts/=lib/openzeppelin-contracts/contracts/",
    "FreshCryptoLib/=lib/webauthn-sol/lib/FreshCryptoLib/solidity/src/",
    "account-abstraction/=lib/account-abstraction/contracts/",
    "openzeppelin-contracts/=lib/openzeppelin-contracts/",
    "solady/=lib/solady/src/",
    "webauthn-sol/=lib/webauthn-sol/",
  ],
  outputSelection: { "src/CaliburEntry.sol": { CaliburEntry: ["abi", "evm.bytecode.object", "evm.deployedBytecode.object", "evm.deployedBytecode.immutableReferences"] } },
} as const;

/**
 * What is deployed at Calibur's canonical address is `CaliburEntry` (src/CaliburEntry.sol, deployed by
 * its script/DeployCaliburEntry.s.sol): `Calibur` with a custom storage layout (`layout at` the ERC-7201
 * root that `ERC7201.CUSTOM_STORAGE_ROOT` reports), so its storage slots differ from a plain `Calibur`'s.
 */
export interface CaliburArtifact {
  contractName: "CaliburEntry";
  source: typeof CALIBUR_SOURCE;
  compiler: { version: string; settings: typeof CALIBUR_SOLC_SETTINGS };
  abi: Abi;
  /** Creation code: the constructor fills the immutables (name and version hashes, and `address(this)`). */
  bytecode: Hex;
  /** Runtime code as solc emits it, the immutables zeroed (see `immutableReferences`). */
  deployedBytecode: Hex;
  immutableReferences: Record<string, { start: number; length: number }[]>;
}

const require = createRequire(import.meta.url);

/** Maps a source unit name of Calibur's layout to a file: vendored, or inside a pinned npm package. */
export function caliburSourcePath(unit: string): string {
  const packages: [string, string][] = [
    ["lib/solady/src/", join(dirname(require.resolve("solady-0.1.9/package.json")), "src")],
    ["lib/openzeppelin-contracts/contracts/", dirname(require.resolve("openzeppelin-contracts-5.2.0/package.json"))],
    ["lib/account-abstraction/contracts/", dirname(require.resolve("@account-abstraction/contracts/package.json"))],
  ];
  for (const [prefix, dir] of packages) if (unit.startsWith(prefix)) return join(dir, unit.slice(prefix.length));
  if (unit.startsWith("lib/webauthn-sol/lib/FreshCryptoLib/")) return join(CALIBUR_DIR, "lib/FreshCryptoLib", unit.slice("lib/webauthn-sol/lib/FreshCryptoLib/".length));
  return join(CALIBUR_DIR, unit);
}

/** solc-js: `compile` takes the standard JSON input and a callback that reads each imported source unit. */
type ReadSource = (unit: string) => { contents: string } | { error: string };
type SolcJs = { version(): string; compile(input: string, callbacks: { ["import"]: ReadSource }): string };

interface SolcOutput {
  errors?: { severity: string; formattedMessage: string }[];
  contracts?: Record<string, Record<string, { abi: Abi; evm: { bytecode: { object: string }; deployedBytecode: { object: string; immutableReferences: CaliburArtifact["immutableReferences"] } } }>>;
}

/** Compiles CaliburEntry (a minute or two: via-IR in solc-js). Throws with solc's messages on an error. */
export function compileCalibur(): CaliburArtifact {
  const solc = require("solc-0.8.29") as SolcJs;
  if (!solc.version().startsWith(`${CALIBUR_SOLC_VERSION}+`)) throw new Error(`calibur: expected solc ${CALIBUR_SOLC_VERSION}, the solc-0.8.29 package is ${solc.version()}`);
  const input = {
    language: "Solidity",
    sources: { "src/CaliburEntry.sol": { content: readFileSync(caliburSourcePath("src/CaliburEntry.sol"), "utf8") } },
    settings: CALIBUR_SOLC_SETTINGS,
  };
  const output = JSON.parse(
    solc.compile(JSON.stringify(input), {
      import: (unit) => {
        const path = caliburSourcePath(unit);
        return existsSync(path) ? { contents: readFileSync(path, "utf8") } : { error: `calibur: no source for ${unit} (looked at ${path})` };
      },
    }),
  ) as SolcOutput;
  const errors = (output.errors ?? []).filter((e) => e.severity === "error");
  if (errors.length > 0) throw new Error(`calibur: solc failed:\n${errors.map((e) => e.formattedMessage).join("\n")}`);
  const contract = output.contracts?.["src/CaliburEntry.sol"]?.["CaliburEntry"];
  if (contract === undefined) throw new Error("calibur: solc produced no CaliburEntry contract");
  return {
    contractName: "CaliburEntry",
    source: CALIBUR_SOURCE,
    compiler: { version: solc.version(), settings: CALIBUR_SOLC_SETTINGS },
    abi: contract.abi,
    bytecode: `0x${contract.evm.bytecode.object}`,
    deployedBytecode: `0x${contract.evm.deployedBytecode.object}`,
    immutableReferences: contract.evm.deployedBytecode.immutableReferences,
  };
}

/** The committed artifact. */
export function readCaliburArtifact(): CaliburArtifact {
  return JSON.parse(readFileSync(CALIBUR_ARTIFACT_PATH, "utf8")) as CaliburArtifact;
}
