/**
 * Ferry core: pure hashing, signing and verification shared by the service, the client, the CLI
 * and integrators (`import { ... } from "ferry/core"`). No clock, env, network or filesystem.
 * This barrel is the package entry; inside the repo, import from the defining file.
 */
export * from "./errors.ts";
export * from "./inputParsers.ts";
export * from "./attestationDigest.ts";
export * from "./recoverStrict.ts";
export * from "./signAttestation.ts";
export * from "./verifyAttestation.ts";
export * from "./compactSignature.ts";
export * from "./fillCalldata.ts";
export * from "./orderId.ts";
export * from "./orderJson.ts";
export * from "./orderSignature.ts";
export * from "./depositoryAbi.ts";
export * from "./depositCalldata.ts";
export * from "./payoutRequest.ts";
export * from "./executeCalldata.ts";
export * from "./settlementRequest.ts";
export * from "./releaseRequest.ts";
export * from "./reclaimableDeposit.ts";
export * from "./permitDeposit.ts";
export * from "./verifyQuote.ts";
export * from "./webhookSignature.ts";
export * from "./destinationCalls.ts";
export * from "./lowercaseHex.ts";
export * from "./depositAddress.ts";
export * from "./requestReceipt.ts";
export * from "./verifyReceipt.ts";
