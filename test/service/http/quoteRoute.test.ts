/**
 * POST /quote/v2 over real HTTP on loopback, against two real local chains (Hardhat EDR "origin" 31337
 * and "destination" 31338, Ferry deployed on both through ts/testing deployFerry) and a real store
 * (PGlite in memory): live gas prices and allowances, the approve step, the stored quote and intent,
 * `waiting` status and attestations before the deposit, the public client's request body, and 400s.
 */
import type { TransactionData } from "../../../ts/service/quote/quoteSteps.ts";
import { expect } from "chai";
import { network } from "hardhat";
import { createClient, getClient, LogLevel } from "@relayprotocol/relay-sdk";
import { zeroAddress, type Address, type Hex, type PublicClient } from "viem";
import { privateKeyToAccount } from "viem/accounts";
import { recoverOrderSigner } from "../../../ts/core/orderSignature.ts";
import { verifyAttestation } from "../../../ts/core/verifyAttestation.ts";
import { verifyQuote } from "../../../ts/core/verifyQuote.ts";
import type { FerryConfig } from "../../../ts/service/config/configSchema.ts";
import { parseConfig, resolveChainContracts } from "../../../ts/service/config/parseConfig.ts";
import { chainClientsOf, type ChainClient } from "../../../ts/service/chains/chainClients.ts";
import type { Quote } from "../../../ts/service/quote/buildQuote.ts";
import { apiKeyStore } from "../../../ts/service/store/apiKeys.ts";
import { createStore, type Store } from "../../../ts/service/store/createStore.ts";
import { deployFerry, type FerryFixture } from "../../../ts/testing/deployFerry.ts";
import { errorBody, listen, type Listening } from "./testApp.ts";
import { canonicalHex } from "../../../ts/service/model/values.ts";

// Hardhat accounts #3 (solver) and #4 (attester).
const SOLVER_KEY = "0x7c852118294e51e653712a81e05800f419141751be58f605c371e15141b007a6";
const ATTESTER_KEY = "0x47e179ec197488593b187f80a00eb0da91f1b9d0b13f8733526f3b3b2d2b2e0a";
const SOLVER = privateKeyToAccount(SOLVER_KEY).address;
const ATTESTER = privateKeyToAccount(ATTESTER_KEY).address;
const ORIGIN = 31337;
const DESTINATION = 31338;

const origin = await network.create("origin");
const destination = await network.create("destination");
const [, user, , , , app] = await origin.viem.getWalletClients();
const originClient = await origin.viem.getPublicClient();
const destinationClient = await destination.viem.getPublicClient();

function serviceConfig(originFerry: FerryFixture, destinationFerry: FerryFixture, env: Record<string, string>): FerryConfig {
  const chain = (id: number, name: string, ferry: FerryFixture) => ({
    id,
    name,
    displayName: name,
    rpcUrl: "http://127.0.0.1:1",
    nativeCurrency: { symbol: "ETH", name: "Ether", decimals: 18, usdPrice: "3000" },
    erc20Currencies: [{ address: ferry.stablecoin!.address, symbol: "fUSD", name: "Ferry Test USD", decimals: 6, usdPrice: "1" }],
    contracts: { depository: ferry.addresses.depository, attestedReceiver: ferry.addresses.attestedReceiver, multicaller: ferry.addresses.multicaller },
  });
  return resolveChainContracts(
    parseConfig(
      { chains: [chain(ORIGIN, "ferry-origin", originFerry), chain(DESTINATION, "ferry-destination", destinationFerry)], rateLimits: { anonymousPerMinute: 100_000 } },
      env,
      "/tmp",
    ),
    new Map(),
  );
}

describe("POST /quote/v2 over HTTP on real local chains", function () {
  let store: Store;
  let server: Listening;
  let originFerry: FerryFixture;
  let destinationFerry: FerryFixture;
  let stablecoin: Address;
  // The test chains' EDR clients stand in for the process's chain clients (the quote reads through `publicClient` only).
  const testClient = (id: number, client: unknown) => ({ config: { id }, publicClient: client as PublicClient }) as unknown as ChainClient;
  const clients = chainClientsOf([testClient(ORIGIN, originClient), testClient(DESTINATION, destinationClient)]);

  const post = (body: unknown, headers: Record<string, string> = {}) =>
    fetch(`${server.url}/quote/v2`, { method: "POST", headers: { "content-type": "application/json", ...headers }, body: JSON.stringify(body) });
  const nativeBody = (overrides: Record<string, unknown> = {}) => ({
    user: user!.account.address,
    recipient: app!.account.address,
    originChainId: ORIGIN,
    destinationChainId: DESTINATION,
    originCurrency: zeroAddress,
    destinationCurrency: zeroAddress,
    amount: "100000000000000000",
    tradeType: "EXACT_INPUT",
    ...overrides,
  });
  const stableBody = (overrides: Record<string, unknown> = {}) =>
    nativeBody({ originCurrency: stablecoin, destinationCurrency: destinationFerry.stablecoin!.address, amount: "25000000", ...overrides });
  async function quoteOf(body: unknown, headers: Record<string, string> = {}): Promise<Quote> {
    const response = await post(body, headers);
    const json = (await response.json()) as Quote;
    expect(response.status, JSON.stringify(json)).to.equal(200);
    return json;
  }
  async function rejected(body: unknown, status = 400): Promise<{ message: string; errorCode: string }> {
    const response = await post(body);
    expect(response.status).to.equal(status);
    return errorBody(response);
  }
  const chainIdOf = (name: string) => ({ "ferry-origin": ORIGIN, "ferry-destination": DESTINATION })[name];

  before(async function () {
    originFerry = await deployFerry(origin.viem);
    destinationFerry = await deployFerry(destination.viem);
    stablecoin = originFerry.stablecoin!.address;
    // The solver holds fUSD to fill with (quotes above its inventory are refused: SOLVER_BALANCE_TOO_LOW).
    for (const ferry of [originFerry, destinationFerry]) await ferry.stablecoin!.write.mint([SOLVER, 1_000_000n * 10n ** 6n]);
    store = await createStore();
    const config = serviceConfig(originFerry, destinationFerry, { FERRY_SOLVER_KEY: SOLVER_KEY, FERRY_ATTESTER_KEY: ATTESTER_KEY });
    server = await listen({ config, deps: { store, chainClients: clients } });
  });
  after(async () => {
    await server?.close();
    await store?.close();
  });

  it("quotes a native bridge with live gas prices, stores it with its intent and the api key", async () => {
    const key = await apiKeyStore(store).createApiKey("integrator");
    const quote = await quoteOf(nativeBody({ referrer: "shop" }), { "x-api-key": key.key });
    expect(quote.steps.map((s) => s.id)).to.deep.equal(["deposit"]);
    const result = verifyQuote(quote, { chainIdOf });
    expect(result.valid, result.valid ? "" : result.error.message).to.equal(true);
    const gas = BigInt(quote.fees.gas.amount);
    expect(gas > 0n && gas % 35_000n === 0n, `gas fee ${gas} = 35000 × a live gas price`).to.equal(true);
    expect(BigInt(quote.fees.relayerGas.amount) > 0n).to.equal(true);
    expect(quote.details.operation).to.equal("bridge");
    expect(quote.protocol.v2.orderSignature).to.equal(undefined);
    // Expiry runs on the chains' clocks (the later of the wall clock and each chain's latest block).
    const chainNow = async (client: typeof originClient | typeof destinationClient) =>
      Math.max(Math.floor(Date.now() / 1000), Number((await client.getBlock()).timestamp));
    const [originNow, destinationNow] = [await chainNow(originClient), await chainNow(destinationClient)];
    expect(quote.expiresAt).to.be.within(originNow + 295, originNow + 301);
    expect(quote.fillDeadline - quote.expiresAt).to.be.within(600, 601 + Math.max(0, destinationNow - originNow));

    const requestId = quote.steps[0]!.requestId as Hex;
    const stored = await store.getQuote(canonicalHex(requestId));
    expect(stored, "stored").to.not.equal(null);
    expect(stored!.quote).to.deep.equal(quote);
    expect(stored!.orderId).to.equal(quote.protocol.v2.orderId);
    expect(stored!.apiKeyId).to.equal((await apiKeyStore(store).verify(key.key))!.id);
    expect(stored!.expiresAt).to.equal(new Date(quote.expiresAt * 1000).toISOString());
    expect(stored!.intent).to.deep.include({
      requestId,
      orderId: quote.protocol.v2.orderId,
      user: user!.account.address.toLowerCase(),
      recipient: app!.account.address.toLowerCase(),
      refundTo: user!.account.address.toLowerCase(),
      originAmount: 100000000000000000n,
      destinationAmount: BigInt(quote.details.currencyOut.amount),
      expiresAt: quote.expiresAt,
      fillDeadline: quote.fillDeadline,
      referrer: "shop",
    });
    expect((await store.getQuoteByOrderId(canonicalHex(quote.protocol.v2.orderId)))!.intent).to.deep.equal(stored!.intent);
  });

  it("adds an approve step while the allowance is short and drops it once approved; the deposit then goes through", async () => {
    await originFerry.stablecoin!.write.mint([user!.account.address, 100_000_000n]);
    const first = await quoteOf(stableBody());
    expect(first.steps.map((s) => s.id)).to.deep.equal(["approve", "deposit"]);
    expect(first.details.userBalance).to.equal("100000000");
    const approve = first.steps[0]!.items[0]!;
    expect(approve.check).to.equal(undefined);
    const approveTx = approve.data as TransactionData;
    const approveHash = await user!.sendTransaction({ to: approveTx.to as Address, data: approveTx.data, chain: null });
    expect((await originClient.waitForTransactionReceipt({ hash: approveHash })).status).to.equal("success");

    const second = await quoteOf(stableBody());
    expect(second.steps.map((s) => s.id)).to.deep.equal(["deposit"]);
    const deposit = second.steps[0]!.items[0]!;
    const result = verifyQuote(second, { chainIdOf });
    expect(result.valid, result.valid ? "" : result.error.message).to.equal(true);
    const depositTx = deposit.data as TransactionData;
    const hash = await user!.sendTransaction({ to: depositTx.to as Address, data: depositTx.data, value: BigInt(depositTx.value), chain: null });
    expect((await originClient.waitForTransactionReceipt({ hash })).status).to.equal("success");
    expect(await originFerry.stablecoin!.read.balanceOf([originFerry.addresses.depository])).to.equal(25_000_000n);
  });

  it("answers status `waiting` and both attestations for a quoted requestId before any deposit is indexed", async () => {
    const quote = await quoteOf(nativeBody());
    const requestId = quote.steps[0]!.requestId;
    const stored = (await store.getQuote(canonicalHex(requestId)))!;
    for (const path of ["/intents/status/v3", "/intents/status"]) {
      const response = await fetch(`${server.url}${path}?requestId=${requestId}`);
      expect(response.status).to.equal(200);
      expect(await response.json()).to.deep.equal({
        status: "waiting",
        inTxHashes: [],
        txHashes: [],
        updatedAt: Date.parse(stored.createdAt),
        originChainId: ORIGIN,
        destinationChainId: DESTINATION,
        details: null,
        failReason: "N/A",
        refundFailReason: "N/A",
        depositAddress: null,
      });
    }

    const response = await fetch(`${server.url}/requests/${requestId}/signature`);
    expect(response.status).to.equal(200);
    const record = (await response.json()) as {
      requestData: Record<string, unknown>;
      signature: Hex;
      fillAttestation: { attestation: Record<string, string>; signature: Hex };
    };
    expect(record.requestData).to.deep.equal({
      originChainId: ORIGIN,
      originUser: user!.account.address.toLowerCase(),
      originCurrency: zeroAddress,
      originAmount: "100000000000000000",
      destinationChainId: DESTINATION,
      destinationUser: app!.account.address.toLowerCase(),
    });
    const now = BigInt(Math.floor(Date.now() / 1000));
    const v1 = await verifyAttestation({ format: "v1", attestation: { requestId, ...record.requestData }, signature: record.signature, signers: [ATTESTER], now });
    expect(v1.valid).to.equal(true);
    const a = record.fillAttestation.attestation;
    expect(a.orderId).to.equal(quote.protocol.v2.orderId);
    expect(a.deadline).to.equal(String(quote.fillDeadline));
    expect(a.destinationAmount).to.equal(quote.details.currencyOut.amount);
    expect(a.receiver.toLowerCase()).to.equal(destinationFerry.addresses.attestedReceiver.toLowerCase());
    const v2 = await verifyAttestation({ format: "v2", attestation: a, signature: record.fillAttestation.signature, signers: [ATTESTER], now });
    expect(v2.valid).to.equal(true);

    const unknown = `0x${"ee".repeat(32)}`;
    for (const path of [`/intents/status/v3?requestId=${unknown}`, `/requests/${unknown}/signature`]) {
      const r = await fetch(`${server.url}${path}`);
      expect(r.status, path).to.equal(404);
      expect((await errorBody(r)).errorCode).to.equal("REQUEST_NOT_FOUND");
    }
  });

  it("signs the orderId with the solver key when includeProtocolData is set", async () => {
    const quote = await quoteOf(nativeBody({ includeProtocolData: true }));
    const signature = quote.protocol.v2.orderSignature as Hex;
    expect(await recoverOrderSigner(quote.protocol.v2.orderId, signature)).to.equal(SOLVER);
    expect(quote.protocol.v2.orderData).to.deep.include({ solver: SOLVER.toLowerCase(), version: "v1", solverChainId: "ferry-origin" });
  });

  it("takes the public client's getQuote body (@relayprotocol/relay-sdk) with options, app fees and ignored fields", async () => {
    createClient({ baseApiUrl: server.url, source: "ferry-quote-test", logLevel: LogLevel.None });
    const quote = (await getClient().actions.getQuote({
      chainId: ORIGIN,
      toChainId: DESTINATION,
      currency: zeroAddress,
      toCurrency: zeroAddress,
      amount: "100000000000000000",
      tradeType: "EXACT_INPUT",
      user: user!.account.address,
      recipient: app!.account.address,
      options: {
        appFees: [{ recipient: app!.account.address, fee: "50" }],
        includeProtocolData: true,
        slippageTolerance: "50",
        useExternalLiquidity: false,
        refundTo: app!.account.address,
        originGasOverhead: 21_000,
        explicitDeposit: true,
        topupGas: false,
        usePermit: false,
        subsidizeFees: false,
      },
    })) as unknown as Quote;
    expect(quote.fees.app.amount).to.equal(((10n ** 17n * 50n) / 10_000n).toString());
    expect(quote.protocol.v2.orderSignature).to.match(/^0x[0-9a-f]{130}$/);
    expect(BigInt(quote.fees.gas.amount) % 56_000n).to.equal(0n); // (35_000 + 21_000) × gas price
    const stored = (await store.getQuote(canonicalHex(quote.steps[0]!.requestId)))!;
    expect(stored.intent.referrer).to.equal("ferry-quote-test");
    expect(stored.intent.refundTo).to.equal(app!.account.address.toLowerCase());
    expect(stored.intent.appFees).to.deep.equal([{ recipient: app!.account.address.toLowerCase(), bps: "50", amount: BigInt(quote.fees.app.amount) }]);
  });

  it("quotes EXACT_OUTPUT and same-chain transfers", async () => {
    const exactOut = await quoteOf(stableBody({ tradeType: "EXACT_OUTPUT", amount: "10000000" }));
    expect(exactOut.details.currencyOut.amount).to.equal("10000000");
    expect(BigInt(exactOut.details.currencyIn.amount) > 10_000_000n).to.equal(true);
    const send = await quoteOf(nativeBody({ destinationChainId: ORIGIN }));
    expect(send.details.operation).to.equal("bridge");
  });

  it("answers 400 {message, errorCode} for malformed and unsupported bodies", async () => {
    const invalid = async (body: unknown, field?: string) => {
      const error = await rejected(body);
      expect(error.errorCode, `${JSON.stringify(body).slice(0, 120)} → ${error.message}`).to.equal("INVALID_REQUEST");
      if (field) expect(error.message).to.contain(field);
    };
    const { user: _user, ...withoutUser } = nativeBody();
    await invalid(withoutUser, "user");
    await invalid(nativeBody({ user: "0x1234" }), "user");
    await invalid(nativeBody({ amount: "0" }), "amount");
    await invalid(nativeBody({ amount: "1.5" }), "amount");
    await invalid(nativeBody({ amount: 1000 }), "amount");
    await invalid(nativeBody({ amount: "1".repeat(79) }), "amount");
    await invalid(nativeBody({ tradeType: "EXACT_SWAP" }), "tradeType");
    await invalid(nativeBody({ originChainId: "31337" }), "originChainId");
    await invalid(nativeBody({ txs: [{ to: "0x12", data: "0x" }] }), "txs");
    await invalid(nativeBody({ txs: [{ to: app!.account.address, data: "0xz1" }] }), "txs");
    await invalid(nativeBody({ topupGasAmount: "-1" }), "topupGasAmount");
    await invalid(nativeBody({ appFees: [{ recipient: app!.account.address, fee: "10001" }] }), "appFees");
    await invalid(nativeBody({ appFees: [{ recipient: app!.account.address }] }), "fee");
    await invalid(nativeBody({ slippageTolerance: "20000" }), "slippageTolerance");

    const code = async (body: unknown) => (await rejected(body)).errorCode;
    expect(await code(nativeBody({ originChainId: 1 }))).to.equal("UNSUPPORTED_CHAIN");
    expect(await code(nativeBody({ originCurrency: app!.account.address }))).to.equal("UNSUPPORTED_CURRENCY");
    expect(await code(nativeBody({ destinationCurrency: destinationFerry.stablecoin!.address }))).to.equal("UNSUPPORTED_ROUTE");
    // A known field stays strictly validated; an unknown one is accepted and ignored (a newer client must not break).
    expect((await quoteOf(nativeBody({ surprise: 1, futureOption: { nested: true } }))).details.operation).to.equal("bridge");
    expect(await code(nativeBody({ useDepositAddress: true }))).to.equal("UNSUPPORTED_ROUTE");
    // A reclaimable deposit is the depositor's own transaction: not a permit the service submits, not a deposit address.
    expect(await code(stableBody({ reclaimable: true, usePermit: true }))).to.equal("UNSUPPORTED_ROUTE");
    expect(await code(nativeBody({ reclaimable: true, useDepositAddress: true }))).to.equal("UNSUPPORTED_ROUTE");
    await invalid(nativeBody({ reclaimable: "yes" }), "reclaimable");
    expect((await quoteOf(nativeBody({ reclaimable: true, usePermit: true }))).reclaimAt, "usePermit is ignored for a native deposit").to.be.a("number");
    expect(await code(nativeBody({ amount: "1000" }))).to.equal("AMOUNT_TOO_LOW");
    expect(await code(nativeBody({ appFees: [{ recipient: app!.account.address, fee: "9995" }] }))).to.equal("INVALID_APP_FEES");
  });

  it("answers 503 without a solver key, and 503 CHAIN_UNAVAILABLE when a chain does not answer", async () => {
    const noSolver = await listen({ config: serviceConfig(originFerry, destinationFerry, {}), deps: { store, chainClients: clients } });
    const deadRpc = await listen({ config: serviceConfig(originFerry, destinationFerry, { FERRY_SOLVER_KEY: SOLVER_KEY }), deps: { store } });
    try {
      for (const [target, expected] of [
        [noSolver, "SOLVER_NOT_CONFIGURED"],
        [deadRpc, "CHAIN_UNAVAILABLE"],
      ] as const) {
        const response = await fetch(`${target.url}/quote/v2`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(nativeBody()) });
        expect(response.status).to.equal(503);
        expect((await errorBody(response)).errorCode).to.equal(expected);
      }
    } finally {
      await noSolver.close();
      await deadRpc.close();
    }
  });
});
