/**
 * What the deposit-address e2e tests ask the devnet's public API, as a client that only sends plain
 * transfers would: a deposit-address quote (strict unless the body says otherwise), and the status
 * record once it is final.
 */
import { expect } from "chai";
import type { Hex } from "viem";
import { DESTINATION, ORIGIN, type E2eDevnet } from "./e2eDevnet.ts";
import { startE2eDevnetOn, type E2eEngine } from "./e2eEngines.ts";

type StepData = { to: string; data: string; value: string };
export type DepositAddressQuote = {
  steps: Array<{ id: string; requestId: Hex; depositAddress: string; items: Array<{ data: StepData }> }>;
  details: { currencyIn: { amount: string }; currencyOut: { amount: string } };
};
export type DepositAddressStatus = {
  status: string;
  failReason: string;
  refundFailReason: string;
  inTxHashes: string[];
  txHashes: string[];
  depositAddress: { address: string; depositAddressType: string; depositor: string | null; depositTxHash: string | null } | null;
};

/** The devnet on `engine` for the calling `describe`: started before its tests, closed after them; the function reads it. */
export function devnetOn(engine: E2eEngine): () => E2eDevnet {
  let devnet: E2eDevnet | undefined;
  let close: (() => Promise<void>) | undefined;
  before(async function () {
    this.timeout(180_000);
    const started = await startE2eDevnetOn(engine, this);
    devnet = started.devnet;
    close = () => started.close();
  });
  after(async () => close?.());
  return () => devnet!;
}

/** `devnet` is read when called (the tests start it in a hook). */
export function depositAddressApi(devnet: () => E2eDevnet) {
  return {
    /**
     * POST /quote/v2 with `useDepositAddress: true, strict: true` (origin → destination, EXACT_INPUT unless
     * `body` says otherwise); expects 200. A 503 (a retryable refusal: a chain or price source that did not
     * answer in time on a busy machine) is retried twice, as a client would.
     */
    async quote(body: Record<string, unknown>): Promise<DepositAddressQuote> {
      for (let attempt = 1; ; attempt++) {
        const response = await fetch(`${devnet().file.apiUrl}/quote/v2`, {
          method: "POST",
          headers: { "content-type": "application/json" },
          body: JSON.stringify({ originChainId: ORIGIN, destinationChainId: DESTINATION, tradeType: "EXACT_INPUT", useDepositAddress: true, strict: true, ...body }),
        });
        const json = await response.json();
        if (response.status === 503 && attempt < 3) {
          await new Promise((resolve) => setTimeout(resolve, 1000));
          continue;
        }
        expect(response.status, JSON.stringify(json)).to.equal(200);
        return json as DepositAddressQuote;
      }
    },
    /** GET /intents/status/v3 every 250 ms until `success`, `failure` or `refund` (150 s at most). */
    async statusUntilFinal(requestId: Hex): Promise<DepositAddressStatus> {
      const deadline = Date.now() + 150_000;
      for (;;) {
        const status = (await (await fetch(`${devnet().file.apiUrl}/intents/status/v3?requestId=${requestId}`)).json()) as DepositAddressStatus;
        if (["success", "failure", "refund"].includes(status.status)) return status;
        if (Date.now() > deadline) throw new Error(`request ${requestId} still ${status.status}`);
        await new Promise((resolve) => setTimeout(resolve, 250));
      }
    },
  };
}
