/**
 * An open request's Status record names the incident of a chain it waits on: while its origin or
 * destination chain is disabled or lagging (../chains/chainHealth.ts), `details.chainIncident` is
 * `{chainId, incident}` (the origin's first), so a deposit left `waiting` or `pending` on a chain the
 * solver halted says why. Final records (success, failure, refund) are left as they are. Pure.
 */
import type { ChainHealth, ChainIncident } from "../chains/chainHealth.ts";
import type { StatusRecord } from "../model/publicRecords.ts";

const FINAL = new Set(["success", "failure", "refund"]);

export type StatusChainIncident = { chainId: number; incident: ChainIncident };

/** The incident an open request on these chains waits on, or undefined. */
export function chainIncidentOf(record: Pick<StatusRecord, "status" | "originChainId" | "destinationChainId">, healthOf: (chainId: number) => ChainHealth | undefined): StatusChainIncident | undefined {
  if (FINAL.has(record.status)) return undefined;
  for (const chainId of [record.originChainId, record.destinationChainId]) {
    const incident = healthOf(chainId)?.reason;
    if (incident) return { chainId, incident };
  }
  return undefined;
}

/** The record with `details.chainIncident` set when an incident applies; the record itself otherwise. */
export function withChainIncident(record: StatusRecord, healthOf: (chainId: number) => ChainHealth | undefined): StatusRecord {
  const chainIncident = chainIncidentOf(record, healthOf);
  // `details` is an open object (its declared fields are a reverted fill's frames): chainIncident is one more.
  return chainIncident ? { ...record, details: { ...(record.details ?? {}), chainIncident } as StatusRecord["details"] } : record;
}
