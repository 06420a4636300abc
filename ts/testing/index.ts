/**
 * Ferry's test fixtures for integrators (`import { deployFerry } from "ferry/testing"`): a working
 * Ferry on a Hardhat network or fork in one call. Needs Hardhat 3 with hardhat-viem.
 * This barrel is the package entry; inside the repo, import from the defining file.
 */
export * from "./deployFerry.ts";
