/**
 * Ferry's typed HTTP client and `executeQuote` (package entry; inside the repo, import from the
 * defining file).
 */
export * from "./apiTypes.ts";
export * from "./clientErrors.ts";
export * from "./createFerryClient.ts";
export * from "./executeQuote.ts";
export * from "./ferryApi.ts";
export * from "./quoteExecutionPlan.ts";
export * from "./reclaimDeposit.ts";
export * from "./requestPaths.ts";
export * from "./waitForRequest.ts";
