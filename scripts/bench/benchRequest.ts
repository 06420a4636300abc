/** A request as the indexer would create it, for the benches that seed the store directly. */
import type { NewRequest } from "../../ts/service/model/storedRequest.ts";
import type { Address } from "../../ts/service/model/values.ts";

const ZERO: Address = "0x0000000000000000000000000000000000000000";

export function benchRequest(r: Omit<NewRequest, "solver">): NewRequest {
  const intent = {
    requestId: r.id,
    orderId: r.orderId,
    tradeType: "EXACT_INPUT" as const,
    user: r.user,
    recipient: r.recipient,
    refundTo: r.user,
    originChainId: r.originChainId,
    originCurrency: ZERO,
    originAmount: 10n ** 18n,
    destinationChainId: r.destinationChainId,
    destinationCurrency: ZERO,
    destinationAmount: 99n * 10n ** 16n,
    expiresAt: 2_000_000_000,
    fillDeadline: 2_000_000_600,
    fees: { relayerGas: 10n ** 15n, relayerService: 10n ** 15n, app: 0n },
    appFees: [],
    slippageToleranceBps: "0",
    referrer: null,
  };
  return { ...r, solver: { intent } };
}

