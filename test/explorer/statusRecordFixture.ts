/** A status record (GET /intents/status/v3) for the explorer's pure tests: `waiting` on 1 → 2 unless `fields` say otherwise. */
import type { StatusRecord } from "../../ts/client/apiTypes.ts";

export const statusRecord = (fields: Partial<StatusRecord> = {}): StatusRecord => ({
  status: "waiting",
  inTxHashes: [],
  txHashes: [],
  updatedAt: Date.UTC(2026, 0, 1),
  originChainId: 1,
  destinationChainId: 2,
  details: null,
  failReason: "N/A",
  refundFailReason: "N/A",
  depositAddress: null,
  ...fields,
});
