// POST /execute/permits' submitter across replicas: failed permit requests (the fill would revert) are
// counted per user in the store, so two service instances on one database allow the limit once, not
// twice. Real EDR chains (the fill is really simulated and reverts), both store engines.
import { canonicalAddress, canonicalHex } from "../../../../ts/service/model/values.ts";
import { expect } from "chai";
import { encodeFunctionData, erc20Abi, maxUint256, type Hex } from "viem";
import { privateKeyToAccount } from "viem/accounts";
import { createChainClients } from "../../../../ts/service/chains/chainClients.ts";
import { resolveAccounts } from "../../../../ts/service/chains/serviceAccounts.ts";
import { ServiceError } from "../../../../ts/service/errors/serviceError.ts";
import { SILENT_LOG } from "../../../../ts/service/logging/logger.ts";
import type { QuotedIntent } from "../../../../ts/service/model/quotedIntent.ts";
import { permitTypedData } from "../../../../ts/service/model/permitTypedData.ts";
import { createPermitDepositSubmitter } from "../../../../ts/service/solver/fill/submitPermitDeposit.ts";
import type { Store } from "../../../../ts/service/store/createStore.ts";
import { describeEachEngine } from "../../store/engines.ts";
import { makeIntent, saveQuote, startTwoChains, type TwoChains } from "../twoChains.ts";

describeEachEngine("permit submissions on replicas sharing one store", (engine) => {
  let env: TwoChains | undefined;
  const stores: Store[] = [];

  before(async function () {
    this.timeout(120_000);
    env = await startTwoChains();
  });
  after(async () => {
    for (const store of stores) await store.close().catch(() => {});
    await env?.close();
  });

  /** A service instance's submitter on `store` (nothing may be sent: every permit here must be refused). */
  const submitterOn = (store: Store, limit: number) => {
    const accounts = resolveAccounts(env!.config);
    return createPermitDepositSubmitter({
      store,
      clients: createChainClients(env!.config.chains, { solver: accounts.solver!, attester: accounts.attester! }),
      chains: env!.config.chains,
      allocator: accounts.allocator,
      attester: accounts.attester,
      transactions: { send: async () => expect.fail("a refused permit sent a transaction") },
      maxGas: BigInt(env!.config.solver.maxGasPerTransaction),
      failuresPerUserPerHour: limit,
    });
  };

  /** A Permit2 quote of fUSD whose destination call always reverts, and the user's real signature over it. */
  const revertingPermit = async (store: Store): Promise<{ intent: QuotedIntent; signature: Hex }> => {
    const depository = canonicalAddress(env!.config.chains.find((c) => c.id === env!.origin.chainId)!.contracts.depository);
    const intent = makeIntent(env!, {
      originCurrency: canonicalAddress(env!.stablecoin),
      originAmount: 10_000_000n,
      destinationAmount: 1n,
      fillGasLimit: 1_000_000n,
      calls: [{ to: canonicalAddress(env!.stablecoin), data: canonicalHex(encodeFunctionData({ abi: erc20Abi, functionName: "transfer", args: [env!.user.address, maxUint256] })), value: 0n }],
    });
    intent.permit = { kind: "permit2", nonce: BigInt(intent.orderId) >> 8n, deadline: intent.expiresAt };
    await saveQuote(store, intent);
    const typed = permitTypedData({ permit: intent.permit, chainId: intent.originChainId, token: intent.originCurrency, depository, user: intent.user, amount: intent.originAmount, orderId: intent.orderId });
    const signature = await privateKeyToAccount(env!.user.privateKey).signTypedData(typed as Parameters<ReturnType<typeof privateKeyToAccount>["signTypedData"]>[0]);
    return { intent, signature };
  };

  const outcome = async (submit: () => Promise<unknown>): Promise<string> => {
    try {
      await submit();
      return "sent";
    } catch (error) {
      if (error instanceof ServiceError) return `${error.statusCode} ${error.code}`;
      throw error;
    }
  };

  it("failedPermits_twoInstancesOneStore_allowTheLimitOnceNotTwice", async function () {
    this.timeout(120_000);
    let a: Store = engine.store;
    let b: Store = engine.store;
    if (engine.kind === "postgres") {
      const db = await engine.freshDatabase();
      [a, b] = [await db.open(), await db.open()];
      stores.push(a, b);
    }
    const [first, second] = [submitterOn(a, 2), submitterOn(b, 2)];
    const { intent, signature } = await revertingPermit(a);
    const submission = { requestId: intent.requestId, kind: "permit2", signature };
    const codes: string[] = [];
    for (const replica of [first, second, first, second]) codes.push(await outcome(() => replica.submit(submission, SILENT_LOG)));
    expect(codes).to.deep.equal(["400 PERMIT_FILL_WOULD_FAIL", "400 PERMIT_FILL_WOULD_FAIL", "429 PERMITS_RATE_LIMITED", "429 PERMITS_RATE_LIMITED"]);

    // The window is the store's clock: an hour later the user may try again (and is refused on the merits).
    engine.clock.ms += 3600_000;
    expect(await outcome(() => second.submit(submission, SILENT_LOG))).to.equal("400 PERMIT_FILL_WOULD_FAIL");
  });
});
