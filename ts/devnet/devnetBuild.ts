/**
 * The contract build `npm start` runs before it deploys (scripts/devnet.ts): a no-op when the
 * artifacts are up to date, over a minute of solc on the first run. So that the terminal is never
 * silent that long it says which case it is, then a line every `tickMs` while solc runs, then how
 * long it took. Compiler warnings about files outside the project (OpenZeppelin, Solady, Uniswap
 * under node_modules: not ours to fix) are not printed; errors always are, and so are warnings in
 * the project's own files.
 */
import { existsSync } from "node:fs";
import { join } from "node:path";

/** The part of a solc error/warning this reads (Hardhat's CompilerOutputError, as its build prints it). */
export type SolcDiagnostic = { severity: "error" | "warning" | "info" | string; formattedMessage?: string };

/** Where solc located a diagnostic: the path after `-->` (Hardhat has put the file's path there). */
function locationOf(diagnostic: SolcDiagnostic): string | undefined {
  return /-->\s+([^\s:]+)/.exec(diagnostic.formattedMessage ?? "")?.[1];
}

/** Keeps errors, and warnings that are not located in a file under node_modules. */
export function withoutDependencyWarnings<T extends SolcDiagnostic>(diagnostics: readonly T[]): T[] {
  return diagnostics.filter((diagnostic) => diagnostic.severity === "error" || !/(^|[\\/])node_modules[\\/]/.test(locationOf(diagnostic) ?? ""));
}

/** An artifact every devnet deploys from: without it, this is a first build (solc runs on every source). */
export const MARKER_ARTIFACT = join("artifacts", "contracts", "Depository.sol", "Depository.json");

export type ContractBuildOptions = {
  /** Runs the build (Hardhat's build task). */
  build: () => Promise<unknown>;
  /** The project root (where artifacts/ is). */
  root: string;
  log: (line: string) => void;
  /** Interval of the "still compiling" lines. Default 15 s. */
  tickMs?: number;
  now?: () => number;
};

export async function buildContracts(options: ContractBuildOptions): Promise<{ firstBuild: boolean; elapsedMs: number }> {
  const now = options.now ?? Date.now;
  const started = now();
  const firstBuild = !existsSync(join(options.root, MARKER_ARTIFACT));
  options.log(
    firstBuild
      ? "compiling the contracts (first run: ~1–2 min; later starts reuse the build)…"
      : "checking the contract build (recompiles only what changed)…",
  );
  const seconds = () => Math.round((now() - started) / 1000);
  const ticker = setInterval(() => options.log(`  still compiling… ${seconds()} s`), options.tickMs ?? 15_000);
  try {
    await options.build();
  } finally {
    clearInterval(ticker);
  }
  const elapsedMs = now() - started;
  options.log(firstBuild || elapsedMs >= 2_000 ? `contracts compiled in ${(elapsedMs / 1000).toFixed(0)} s` : "contracts up to date");
  return { firstBuild, elapsedMs };
}
