/**
 * Exactly-once accounting after a fault, from the chains and the store, never from the service's own
 * word: for every bridge,
 * - its deposit: one `Deposited(orderId)` on the origin chain;
 * - its end: `success` or `refund`, reached exactly once (one such outbox event);
 * - fills: `success` ⇔ exactly one `Filled(requestId)` on the destination; no request filled twice;
 * - payouts: `success` ⇔ one `RequestExecuted` under the repayment nonce and none under the refund
 *   nonce; `refund` ⇔ the reverse (the Depository's guard is the nonce, so "once" is also checked
 *   by counting the logs);
 * - webhooks: every outbox event of the request reached the receiver with a 2xx at least once
 *   (deduplicated by X-Ferry-Event-Id), in order, and nothing was delivered that the outbox does not hold.
 * Returns the figures so a test can print them.
 */
import { expect } from "chai";
import type { Hex } from "viem";
import { attestedReceiverAbi } from "../../ts/abi/AttestedReceiver.ts";
import { depositoryAbi } from "../../ts/abi/Depository.ts";
import { payoutNonce } from "../../ts/service/solver/payout/payoutPlan.ts";
import type { Store } from "../../ts/service/store/createStore.ts";
import type { TwoChains } from "../service/solver/twoChains.ts";
import type { ReceivedWebhook } from "../service/webhooks/webhookReceiver.ts";
import { canonicalHex } from "../../ts/service/model/values.ts";

export type AccountedBridge = { requestId: Hex; orderId: Hex };

export type Accounting = { success: number; refund: number; fills: number; repayments: number; refunds: number; webhookEvents: number; webhookDuplicates: number };

const event = <const A extends readonly { type: string; name?: string }[]>(abi: A, name: string) => abi.find((i) => i.type === "event" && i.name === name)!;

export async function accountingOf(env: TwoChains, store: Store, bridges: readonly AccountedBridge[], webhooks?: readonly ReceivedWebhook[]): Promise<Accounting> {
  const origin = env.config.chains.find((c) => c.id === env.origin.chainId)!;
  const destination = env.config.chains.find((c) => c.id === env.destination.chainId)!;
  const [deposits, fills, executions] = await Promise.all([
    env.origin.publicClient.getLogs({ address: origin.contracts.depository, event: event(depositoryAbi, "Deposited") as never, fromBlock: 0n, toBlock: "latest" }),
    env.destination.publicClient.getLogs({ address: destination.contracts.attestedReceiver, event: event(attestedReceiverAbi, "Filled") as never, fromBlock: 0n, toBlock: "latest" }),
    env.origin.publicClient.getLogs({ address: origin.contracts.depository, event: event(depositoryAbi, "RequestExecuted") as never, fromBlock: 0n, toBlock: "latest" }),
  ]);
  const count = <T>(items: readonly T[], key: (item: T) => string) => {
    const counts = new Map<string, number>();
    for (const item of items) counts.set(key(item), (counts.get(key(item)) ?? 0) + 1);
    return counts;
  };
  const depositsById = count(deposits as unknown as { args: { id: Hex } }[], (l) => l.args.id.toLowerCase());
  const fillsById = count(fills as unknown as { args: { requestId: Hex } }[], (l) => l.args.requestId.toLowerCase());
  const executionsByNonce = count(executions as unknown as { args: { nonce: bigint } }[], (l) => l.args.nonce.toString());
  for (const [requestId, n] of fillsById) expect(n, `Filled logs of ${requestId}`).to.equal(1);

  const delivered = new Map<number, ReceivedWebhook[]>();
  for (const hook of webhooks ?? []) {
    const status = typeof hook.statusSent === "number" ? hook.statusSent : 0;
    if (status >= 200 && status < 300) delivered.set(hook.eventId, [...(delivered.get(hook.eventId) ?? []), hook]);
  }
  const totals: Accounting = { success: 0, refund: 0, fills: 0, repayments: 0, refunds: 0, webhookEvents: 0, webhookDuplicates: 0 };
  const ownEventIds = new Set<number>();
  for (const bridge of bridges) {
    const id = bridge.requestId.toLowerCase();
    const what = (s: string) => `${s} of request ${id}`;
    expect(depositsById.get(bridge.orderId.toLowerCase()) ?? 0, what("Deposited logs")).to.equal(1);
    const request = await store.getRequest(canonicalHex(id));
    expect(request, what("the stored request")).to.not.equal(null);
    const events = await store.requestEvents(id);
    const terminal = events.filter((e) => e.status === "success" || e.status === "refund");
    expect(terminal.map((e) => e.status), what(`terminal events (now ${request!.status}, ${request!.failReason ?? "-"})`)).to.have.length(1);
    const end = terminal[0]!.status;
    expect(request!.status, what("status")).to.equal(end);
    const filled = fillsById.get(id) ?? 0;
    const repaid = executionsByNonce.get(payoutNonce("repayment", id as Hex).toString()) ?? 0;
    const refunded = executionsByNonce.get(payoutNonce("refund", id as Hex).toString()) ?? 0;
    if (end === "success") {
      expect([filled, repaid, refunded], what("[fills, repayments, refunds]")).to.deep.equal([1, 1, 0]);
      totals.success += 1;
    } else {
      expect([filled, repaid, refunded], what("[fills, repayments, refunds]")).to.deep.equal([0, 0, 1]);
      totals.refund += 1;
    }
    totals.fills += filled;
    totals.repayments += repaid;
    totals.refunds += refunded;
    if (webhooks) {
      for (const e of events) {
        ownEventIds.add(e.id);
        const copies = delivered.get(e.id) ?? [];
        expect(copies.length, what(`deliveries of event ${e.id} (${e.status})`)).to.be.greaterThan(0);
        for (const copy of copies) expect(JSON.parse(copy.rawBody).data.requestId.toLowerCase(), what(`event ${e.id}'s body`)).to.equal(id);
        totals.webhookEvents += 1;
        totals.webhookDuplicates += copies.length - 1;
      }
      // In order: the first delivery of each event came after the first delivery of the one before.
      const firsts = events.map((e) => Math.min(...delivered.get(e.id)!.map((h) => h.receivedAt)));
      expect(firsts, what("webhook arrival order")).to.deep.equal([...firsts].sort((a, b) => a - b));
    }
  }
  if (webhooks) {
    for (const eventId of delivered.keys()) expect(ownEventIds.has(eventId), `delivered event ${eventId} belongs to a bridge of this test`).to.equal(true);
  }
  return totals;
}
