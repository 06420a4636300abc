/**
 * `npm run build:calibur`: compiles Uniswap's Calibur from the vendored sources (ts/devnet/vendor/calibur,
 * ts/devnet/caliburBuild.ts) with solc 0.8.29, via-IR, 10,000 runs, and writes ts/devnet/vendor/calibur.json,
 * the artifact the devnet places at Calibur's canonical address. Slow (minutes: via-IR in solc-js), which
 * is why it is not part of `hardhat build`; `npm run test:vendor` rebuilds and compares with the committed file.
 */
import { writeFileSync } from "node:fs";
import { CALIBUR_ARTIFACT_PATH, compileCalibur } from "../ts/devnet/caliburBuild.ts";

const started = Date.now();
console.log("compiling Calibur (solc 0.8.29, via-IR: a few minutes)…");
const artifact = compileCalibur();
writeFileSync(CALIBUR_ARTIFACT_PATH, `${JSON.stringify(artifact, null, 2)}\n`);
console.log(`wrote ${CALIBUR_ARTIFACT_PATH}: runtime ${(artifact.deployedBytecode.length - 2) / 2} bytes, ${((Date.now() - started) / 1000).toFixed(1)} s`);
