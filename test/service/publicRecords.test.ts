/**
 * What leaves the service about a request, after a real bridge on two chains (solver state with a
 * credited deposit, a fill and a repayment behind it):
 * - the signature route's v2 fill attestation is the one the solver sent onchain (one builder: the
 *   same digest);
 * - GET /requests/v2, GET /intents/status/v3, and the webhook/websocket event data carry exactly the
 *   spec's fields — never the solver's deposit, fill, payouts, nonces or request hashes.
 */
import { expect } from "chai";
import { type Hex } from "viem";
import { fillDigest, normalizeFillAttestation } from "../../ts/core/attestationDigest.ts";
import { decodeFill } from "../../ts/core/fillCalldata.ts";
import { statusEventData } from "../../ts/service/events/statusEvent.ts";
import { SPEC_REQUEST_DATA_FIELDS } from "../../ts/service/model/requestData.ts";
import { createStore, type Store } from "../../ts/service/store/createStore.ts";
import { createSolver } from "../../ts/service/solver/startSolver.ts";
import { listen, type Listening } from "./http/testApp.ts";
import { tickUntil } from "./solver/solverHelpers.ts";
import { deposit, makeIntent, saveQuote, startTwoChains, type TwoChains } from "./solver/twoChains.ts";

const STATUS_RECORD_FIELDS = ["status", "inTxHashes", "txHashes", "updatedAt", "originChainId", "destinationChainId", "details", "failReason", "refundFailReason", "depositAddress"];
const REQUEST_RECORD_FIELDS = ["id", "status", "user", "recipient", "depositAddress", "data", "createdAt", "updatedAt"];
/** Words of the solver's private state that must appear nowhere in a public body. */
const PRIVATE_WORDS = ["repayment", "requestHash", "nonce", "solver_state", "solverState", "parked", "depository", "logIndex"];

describe("public records after a real bridge", function () {
  this.timeout(300_000);
  let env: TwoChains;
  let store: Store;
  let server: Listening;
  let requestId: Hex;
  let fillTx: Hex;

  before(async () => {
    env = await startTwoChains();
    store = await createStore();
    const intent = makeIntent(env);
    await saveQuote(store, intent);
    await deposit(env, { orderId: intent.orderId, amount: intent.originAmount });
    const done = await tickUntil(createSolver({ config: env.config, store }), store, intent.requestId, (r) => r.solver?.repayment?.status === "confirmed");
    requestId = done.id;
    fillTx = done.solver!.fill!.hash;
    server = await listen({ config: env.config, deps: { store } });
  });
  after(async () => {
    await server?.close();
    await store?.close();
    await env?.close();
  });

  it("signatureRoute_servesTheVeryFillAttestationTheSolverSent_sameDigest", async () => {
    const body = (await (await fetch(`${server.url}/requests/${requestId}/signature`)).json()) as { fillAttestation: { attestation: Record<string, string> } };
    const tx = await env.destination.publicClient.getTransaction({ hash: fillTx });
    // The solver sends the packed fill: decoded against the chain and receiver it went to.
    const sent = decodeFill(tx.input, { chainId: env.destination.chainId, receiver: tx.to! });
    expect(sent.functionName).to.equal("fill_7hVe");
    expect(fillDigest(normalizeFillAttestation(body.fillAttestation.attestation))).to.equal(fillDigest(sent.attestation));
  });

  it("requestRecord_hasTheSpecsKeys_andItsDataOnlySpecFields", async () => {
    const response = await fetch(`${server.url}/requests/v2?id=${requestId}`);
    const text = await response.text();
    const record = (JSON.parse(text) as { requests: Record<string, unknown>[] }).requests[0]!;
    expect(Object.keys(record).sort()).to.deep.equal([...REQUEST_RECORD_FIELDS].sort());
    const dataKeys = Object.keys(record.data as object);
    expect(dataKeys.filter((k) => !(SPEC_REQUEST_DATA_FIELDS as readonly string[]).includes(k))).to.deep.equal([]);
    expect(dataKeys).to.include.members(["inTxs", "outTxs", "fees", "currencyObject", "failReason"]);
    for (const word of PRIVATE_WORDS) expect(text, word).to.not.contain(`"${word}"`);
  });

  it("statusRecord_andEventData_haveExactlyTheSpecsKeys", async () => {
    const text = await (await fetch(`${server.url}/intents/status/v3?requestId=${requestId}`)).text();
    expect(Object.keys(JSON.parse(text) as object).sort()).to.deep.equal([...STATUS_RECORD_FIELDS].sort());
    for (const word of PRIVATE_WORDS) expect(text, word).to.not.contain(`"${word}"`);
    const events = await store.requestEvents(requestId);
    expect(events.map((e) => e.status)).to.deep.equal(["waiting", "pending", "submitted", "success"]);
    for (const event of events) {
      const data = statusEventData(event.payload);
      expect(Object.keys(data).sort()).to.deep.equal([...STATUS_RECORD_FIELDS, "requestId"].sort());
    }
  });
});
