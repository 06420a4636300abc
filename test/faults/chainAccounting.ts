/**
 * The exactly-once accounting every fault test ends with, read from the chains themselves (the nodes,
 * not the service's view), the store and the webhook receiver:
 * - deposits: the `Deposited` logs per orderId on the origin chain;
 * - fills: `Filled` logs per requestId on the destination — one for a success, none otherwise;
 * - repayments and refunds: `RequestExecuted` logs per payout struct hash, and `executed(nonce)` —
 *   exactly one for the success's repayment or the failure's refund;
 * - statuses: each request ends in `success` (repayment confirmed) or `refund`, or — a deposit a reorg
 *   removed — never gets past `waiting` and is never filled;
 * - webhooks: every status change in the outbox was delivered (a 2xx) to the receiver, in order; none
 *   lost (duplicates are allowed: delivery is at least once).
 */
import { expect } from "chai";
import type { Hex } from "viem";
import { attestedReceiverAbi } from "../../ts/abi/AttestedReceiver.ts";
import { depositoryAbi } from "../../ts/abi/Depository.ts";
import type { StoredRequest } from "../../ts/service/model/storedRequest.ts";
import type { FaultChains } from "./chainNodes.ts";
import type { FaultService } from "./chainService.ts";
import { canonicalHex } from "../../ts/service/model/values.ts";

export type Expected = { requestId: Hex; orderId: Hex; outcome: "success" | "refund" | "never" };

const FILLED = attestedReceiverAbi.find((i) => i.type === "event" && i.name === "Filled")!;
const DEPOSITED = depositoryAbi.find((i) => i.type === "event" && i.name === "Deposited")!;
const EXECUTED = depositoryAbi.find((i) => i.type === "event" && i.name === "RequestExecuted")!;

function settled(request: StoredRequest | null, outcome: Expected["outcome"]): boolean {
  if (outcome === "success") return request?.status === "success" && request.solver?.repayment?.status === "confirmed";
  if (outcome === "refund") return request?.status === "refund";
  return true;
}

async function waitFor(what: string, timeoutMs: number, check: () => Promise<boolean>): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check().catch(() => false))) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 200));
  }
}

export type Accounting = { deposits: number; fills: number; payouts: number; webhookEvents: number; webhookDeliveries: number };

export async function assertSettledExactlyOnce(chains: FaultChains, service: FaultService, expected: readonly Expected[], timeoutMs = 120_000): Promise<Accounting> {
  const { store } = service;
  await waitFor("every request to settle", timeoutMs, async () => {
    for (const e of expected) if (!settled(await store.getRequest(canonicalHex(e.requestId)), e.outcome)) return false;
    return true;
  }).catch(async (error: Error) => {
    const states = await Promise.all(expected.map(async (e) => ({ ...e, request: await store.getRequest(canonicalHex(e.requestId)) })));
    throw new Error(
      `${error.message}: ${JSON.stringify(
        states.map((s) => ({ id: s.requestId, want: s.outcome, status: s.request?.status, parked: s.request?.parked, solver: s.request?.solver })),
        (_, v) => (typeof v === "bigint" ? v.toString() : v),
      )}\n${service.logs().filter((l) => /"level":(40|50)/.test(l)).slice(-15).join("")}`,
    );
  });

  const origin = chains.origin.publicClient;
  const destination = chains.destination.publicClient;
  const depository = service.config.chains.find((c) => c.id === chains.origin.chainId)!.contracts.depository;
  const receiver = service.config.chains.find((c) => c.id === chains.destination.chainId)!.contracts.attestedReceiver;
  const totals: Accounting = { deposits: 0, fills: 0, payouts: 0, webhookEvents: 0, webhookDeliveries: 0 };

  for (const e of expected) {
    const request = await store.getRequest(canonicalHex(e.requestId));
    const deposits = await origin.getLogs({ address: depository, event: DEPOSITED, args: { id: e.orderId }, fromBlock: 0n, toBlock: "latest" });
    const fills = await destination.getLogs({ address: receiver, event: FILLED, args: { requestId: e.requestId }, fromBlock: 0n, toBlock: "latest" });
    totals.deposits += deposits.length;
    totals.fills += fills.length;
    if (e.outcome === "never") {
      expect(deposits, `${e.requestId}: the removed deposit is not on the chain`).to.have.length(0);
      expect(fills, `${e.requestId}: filled although its deposit is gone`).to.have.length(0);
      expect(request === null || request.status === "waiting", `${e.requestId}: ${request?.status}`).to.equal(true);
      continue;
    }
    expect(deposits, `${e.requestId}: deposits`).to.have.length(1);
    expect(fills, `${e.requestId}: fills`).to.have.length(e.outcome === "success" ? 1 : 0);
    const payout = e.outcome === "success" ? request!.solver!.repayment! : request!.solver!.refund!;
    const executions = await origin.getLogs({ address: depository, event: EXECUTED, args: { requestHash: payout.requestHash }, fromBlock: 0n, toBlock: "latest" });
    expect(executions, `${e.requestId}: ${e.outcome === "success" ? "repayments" : "refunds"}`).to.have.length(1);
    expect(await origin.readContract({ address: depository, abi: depositoryAbi, functionName: "executed", args: [payout.nonce] })).to.equal(true);
    totals.payouts += executions.length;
    if (e.outcome === "success") expect(request!.txHashes).to.deep.equal([fills[0]!.transactionHash.toLowerCase()]);
  }

  // Webhooks: every outbox event of these requests delivered with a 2xx, per request in event order.
  const events = async () => (await Promise.all(expected.map((e) => store.requestEvents(e.requestId)))).flat();
  const delivered = () => new Set(service.receiver.received.filter((r) => typeof r.statusSent === "number" && r.statusSent < 300).map((r) => r.eventId));
  await waitFor("every webhook to be delivered", 60_000, async () => {
    const seen = delivered();
    return (await events()).every((event) => seen.has(Number(event.id)));
  }).catch(async (error: Error) => {
    const seen = delivered();
    const missing = (await events()).filter((event) => !seen.has(Number(event.id))).map((event) => ({ id: event.id, status: event.status }));
    throw new Error(`${error.message}: missing ${JSON.stringify(missing)}`);
  });
  for (const e of expected) {
    const outbox = await store.requestEvents(e.requestId);
    const bodies = service.receiver.received
      .filter((r) => typeof r.statusSent === "number" && r.statusSent < 300)
      .map((r) => ({ id: r.eventId, body: JSON.parse(r.rawBody) as { data: { requestId?: string; status?: string } } }))
      .filter((r) => outbox.some((event) => Number(event.id) === r.id));
    const firstDeliveries = [...new Map(bodies.map((b) => [b.id, b.body.data.status])).entries()].sort(([a], [b]) => a - b).map(([, status]) => status);
    expect(firstDeliveries, `${e.requestId}: webhook statuses`).to.deep.equal(outbox.map((event) => event.status));
    totals.webhookEvents += outbox.length;
    totals.webhookDeliveries += bodies.length;
  }
  return totals;
}
