/**
 * The app ledger's metrics (ts/service/http/metrics/appBalanceMetrics.ts) over HTTP on both engines:
 * held and debited USD per purpose from the store, refused USD per purpose and code from this process.
 */
import { expect } from "chai";
import { describeEachEngine } from "../../store/engines.ts";
import { fixtureConfig, listen, type Listening } from "../testApp.ts";

const APP = "key_00000000000000a1";

describeEachEngine("GET /metrics: app balances", (engine) => {
  let server: Listening;
  before(async () => {
    server = await listen({ config: fixtureConfig(), deps: { store: engine.store } });
  });
  after(async () => server?.close());

  it("appBalanceMetrics_heldDebitedAndRefused_perPurpose", async () => {
    const ledger = engine.store.appBalances;
    await ledger.credit({ apiKeyId: APP, amountUsd: 10_000_000n, source: { chainId: 1, txHash: "0x" + "ab".repeat(32), logIndex: 0 }, currency: "0x" + "00".repeat(20), amount: 1n });
    const execute = await ledger.hold({ apiKeyId: APP, amountUsd: 2_000_000n, purpose: "execute", reference: "r1" });
    await ledger.settle({ holdId: execute.holdId, spentUsd: 1_500_000n });
    await ledger.hold({ apiKeyId: APP, amountUsd: 3_000_000n, purpose: "sponsorship", reference: "r2" });
    await ledger.hold({ apiKeyId: APP, amountUsd: 99_000_000n, purpose: "fastFill", reference: "r3" }).catch(() => {});
    const text = await (await fetch(`${server.url}/metrics`)).text();
    expect(text).to.include('ferry_app_balance_held_usd{purpose="sponsorship"} 3');
    expect(text).to.include('ferry_app_balance_held_usd{purpose="execute"} 0');
    expect(text).to.include('ferry_app_balance_debited_usd{purpose="execute"} 1.5');
    expect(text).to.include('ferry_app_balance_refused_usd_total{purpose="fastFill",code="SPONSOR_BALANCE_TOO_LOW"} 99');
  });
});
