/**
 * Entry point of the `ferry` command (run by bin.mjs, or `node ts/cli/ferry.ts` on Node ≥ 22.18).
 * Wires the real process into runFerry and sets the exit code without cutting stdout short.
 */
import { processIo } from "./cliIo.ts";
import { runFerry } from "./runFerry.ts";

process.exitCode = await runFerry(process.argv.slice(2), processIo());
