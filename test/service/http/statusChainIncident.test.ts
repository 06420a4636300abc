/** details.chainIncident on an open request's Status record, never on a final one. */
import { expect } from "chai";
import type { ChainHealth } from "../../../ts/service/chains/chainHealth.ts";
import { withChainIncident } from "../../../ts/service/http/statusChainIncident.ts";
import { statusRecordOf, type StatusFacts, type StatusRecord } from "../../../ts/service/model/publicRecords.ts";
import type { RequestStatus } from "../../../ts/service/model/requestStatus.ts";

const record = (status: string, details: StatusFacts["details"] = null): StatusRecord =>
  statusRecordOf({ status: status as RequestStatus, inTxHashes: [], txHashes: [], updatedAt: 0, originChainId: 1, destinationChainId: 2, details, failReason: null, refundFailReason: null });
const HALTED: ChainHealth = { blockProductionLagging: false, disabled: true, depositEnabled: false, reason: "CHAIN_HALTED" };
const LAGGING: ChainHealth = { blockProductionLagging: true, disabled: false, depositEnabled: false, reason: "BLOCK_PRODUCTION_LAGGING" };
const OK: ChainHealth = { blockProductionLagging: false, disabled: false, depositEnabled: true, reason: null };

describe("withChainIncident", function () {
  it("names the origin's incident first, then the destination's, keeping the other details", function () {
    expect(withChainIncident(record("waiting"), (id) => (id === 1 ? HALTED : LAGGING)).details).to.deep.equal({ chainIncident: { chainId: 1, incident: "CHAIN_HALTED" } });
    expect(withChainIncident(record("pending", { reason: "x" }), (id) => (id === 2 ? LAGGING : OK)).details).to.deep.equal({ reason: "x", chainIncident: { chainId: 2, incident: "BLOCK_PRODUCTION_LAGGING" } });
  });

  it("leaves final records and healthy chains alone", function () {
    for (const status of ["success", "failure", "refund"]) expect(withChainIncident(record(status), () => HALTED).details).to.equal(null);
    expect(withChainIncident(record("waiting"), () => OK).details).to.equal(null);
    expect(withChainIncident(record("waiting"), () => undefined).details).to.equal(null);
  });
});
