/**
 * POST /quote/v2 with `useDepositAddress: true` (strict, and open without `strict`), over real HTTP on two real local chains
 * (EDR, Ferry deployed on both through ts/testing deployFerry, the DepositAddressFactory included) and a
 * real store (PGlite; the deposit-address table on both engines is test/service/store/depositAddresses.test.ts):
 * the step is a plain transfer to the strict address the factory itself predicts, the service's
 * forwarding gas is in `relayerGas`, the quote and its address are stored together, the status
 * record carries `depositAddress`, and what this slice does not serve is 400 UNSUPPORTED_ROUTE.
 */
import type { TransactionData } from "../../../ts/service/quote/quoteSteps.ts";
import { expect } from "chai";
import { network } from "hardhat";
import { decodeFunctionData, erc20Abi, getAddress, padHex, zeroAddress, type Address, type PublicClient } from "viem";
import { privateKeyToAccount } from "viem/accounts";
import { depositAddressFactoryAbi } from "../../../ts/abi/DepositAddressFactory.ts";
import type { FerryConfig } from "../../../ts/service/config/configSchema.ts";
import { parseConfig, resolveChainContracts } from "../../../ts/service/config/parseConfig.ts";
import { chainClientsOf, type ChainClient } from "../../../ts/service/chains/chainClients.ts";
import type { Quote } from "../../../ts/service/quote/buildQuote.ts";
import { DEPOSIT_ADDRESS_FORWARD_GAS, DEPOSIT_ADDRESS_TRANSFER_GAS } from "../../../ts/service/quote/depositAddressQuote.ts";
import { createStore, type Store } from "../../../ts/service/store/createStore.ts";
import { deployFerry, type FerryFixture } from "../../../ts/testing/deployFerry.ts";
import { errorBody, listen, type Listening } from "./testApp.ts";
import { canonicalHex } from "../../../ts/service/model/values.ts";

const SOLVER_KEY = "0x7c852118294e51e653712a81e05800f419141751be58f605c371e15141b007a6";
const ATTESTER_KEY = "0x47e179ec197488593b187f80a00eb0da91f1b9d0b13f8733526f3b3b2d2b2e0a";
const SOLVER = privateKeyToAccount(SOLVER_KEY).address;
const ORIGIN = 31337;
const DESTINATION = 31338;

const origin = await network.create("origin");
const destination = await network.create("destination");
const [, user, refund] = await origin.viem.getWalletClients();
const originClient = await origin.viem.getPublicClient();
const destinationClient = await destination.viem.getPublicClient();

function serviceConfig(originFerry: FerryFixture, destinationFerry: FerryFixture, withFactory: boolean): FerryConfig {
  const chain = (id: number, name: string, ferry: FerryFixture) => ({
    id,
    name,
    displayName: name,
    rpcUrl: "http://127.0.0.1:1",
    nativeCurrency: { symbol: "ETH", name: "Ether", decimals: 18, usdPrice: "3000" },
    erc20Currencies: [{ address: ferry.stablecoin!.address, symbol: "fUSD", name: "Ferry Test USD", decimals: 6, usdPrice: "1" }],
    contracts: {
      depository: ferry.addresses.depository,
      attestedReceiver: ferry.addresses.attestedReceiver,
      multicaller: ferry.addresses.multicaller,
      ...(withFactory && { depositAddressFactory: ferry.addresses.depositAddressFactory }),
    },
  });
  return resolveChainContracts(
    parseConfig(
      { chains: [chain(ORIGIN, "ferry-origin", originFerry), chain(DESTINATION, "ferry-destination", destinationFerry)], rateLimits: { anonymousPerMinute: 100_000 } },
      { FERRY_SOLVER_KEY: SOLVER_KEY, FERRY_ATTESTER_KEY: ATTESTER_KEY },
      "/tmp",
    ),
    new Map(),
  );
}

describe("POST /quote/v2 with a strict deposit address", function () {
  let store: Store;
  let server: Listening;
  let withoutFactory: Listening;
  let originFerry: FerryFixture;
  let destinationFerry: FerryFixture;
  const testClient = (id: number, client: unknown) => ({ config: { id }, publicClient: client as PublicClient }) as unknown as ChainClient;
  const clients = chainClientsOf([testClient(ORIGIN, originClient), testClient(DESTINATION, destinationClient)]);

  const post = (target: Listening, body: unknown) =>
    fetch(`${target.url}/quote/v2`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(body) });
  const body = (overrides: Record<string, unknown> = {}) => ({
    user: user!.account.address,
    originChainId: ORIGIN,
    destinationChainId: DESTINATION,
    originCurrency: zeroAddress,
    destinationCurrency: zeroAddress,
    amount: "100000000000000000",
    tradeType: "EXACT_INPUT",
    useDepositAddress: true,
    strict: true,
    ...overrides,
  });
  async function quoteOf(overrides: Record<string, unknown> = {}): Promise<Quote> {
    const response = await post(server, body(overrides));
    const json = (await response.json()) as Quote;
    expect(response.status, JSON.stringify(json)).to.equal(200);
    return json;
  }
  async function refused(overrides: Record<string, unknown>, target = server): Promise<string> {
    const response = await post(target, body(overrides));
    expect(response.status).to.equal(400);
    return (await errorBody(response)).errorCode;
  }
  /** The strict address as the factory onchain derives it. */
  const predicted = (refundTo: Address, quote: Quote, currency: Address) =>
    originClient.readContract({
      address: originFerry.addresses.depositAddressFactory,
      abi: depositAddressFactoryAbi,
      functionName: "predictStrict",
      args: [refundTo, quote.protocol.v2.orderId as `0x${string}`, currency, BigInt(quote.details.currencyIn.amount)],
    });

  before(async function () {
    originFerry = await deployFerry(origin.viem);
    destinationFerry = await deployFerry(destination.viem);
    for (const ferry of [originFerry, destinationFerry]) await ferry.stablecoin!.write.mint([SOLVER, 1_000_000n * 10n ** 6n]);
    store = await createStore();
    server = await listen({ config: serviceConfig(originFerry, destinationFerry, true), deps: { store, chainClients: clients } });
    withoutFactory = await listen({ config: serviceConfig(originFerry, destinationFerry, false), deps: { store, chainClients: clients } });
  });
  after(async () => {
    await server?.close();
    await withoutFactory?.close();
    await store?.close();
  });

  it("quotes native: one plain value transfer to the factory's strict address, forwarding gas charged, stored with the quote", async () => {
    const quote = await quoteOf({ refundTo: refund!.account.address });
    expect(quote.steps).to.have.length(1);
    const [step] = quote.steps;
    expect(step!.id).to.equal("deposit");
    const address = await predicted(refund!.account.address, quote, zeroAddress);
    expect(getAddress(step!.depositAddress)).to.equal(address);
    const tx = step!.items[0]!.data as TransactionData;
    expect(tx).to.deep.include({ to: step!.depositAddress, data: "0x", value: quote.details.currencyIn.amount, chainId: ORIGIN });
    expect(await originClient.getCode({ address })).to.equal(undefined); // counterfactual: nothing deployed at quote time
    // The payer's gas is a plain transfer's; the service's deployAndForward is in relayerGas.
    const gasPrice = BigInt(quote.fees.gas.amount) / DEPOSIT_ADDRESS_TRANSFER_GAS.native;
    expect(BigInt(quote.fees.gas.amount)).to.equal(DEPOSIT_ADDRESS_TRANSFER_GAS.native * gasPrice);
    const stored = (await store.getQuote(canonicalHex(step!.requestId)))!;
    expect(stored.intent.depositAddress).to.deep.equal({
      address: step!.depositAddress.toLowerCase(),
      mode: "strict",
      factory: originFerry.addresses.depositAddressFactory.toLowerCase(),
      forwardGas: DEPOSIT_ADDRESS_FORWARD_GAS.native * gasPrice,
    });
    expect(BigInt(quote.fees.relayerGas.amount) >= stored.intent.fees.relayerGas + stored.intent.depositAddress!.forwardGas).to.equal(true);
    const row = (await store.getDepositAddress(ORIGIN, canonicalHex(step!.depositAddress)))!;
    expect(row).to.include({ mode: "strict", refundTo: refund!.account.address.toLowerCase(), requestId: stored.requestId, orderId: stored.orderId, currency: zeroAddress, state: "watching" });
    expect(row.amount).to.equal(BigInt(quote.details.currencyIn.amount));

    const status = await (await fetch(`${server.url}/intents/status/v3?requestId=${step!.requestId}`)).json();
    expect(status).to.deep.include({ status: "waiting", depositAddress: { address: step!.depositAddress.toLowerCase(), depositAddressType: "strict", depositor: null, depositTxHash: null } });
  });

  it("quotes an ERC-20: the token's transfer(address, amount), no approve step; refundTo defaults to the user", async () => {
    const stablecoin = originFerry.stablecoin!.address;
    const quote = await quoteOf({ originCurrency: stablecoin, destinationCurrency: destinationFerry.stablecoin!.address, amount: "25000000" });
    expect(quote.steps.map((s) => s.id)).to.deep.equal(["deposit"]);
    const [step] = quote.steps;
    const address = await predicted(user!.account.address, quote, getAddress(stablecoin));
    expect(getAddress(step!.depositAddress)).to.equal(address);
    const tx = step!.items[0]!.data as TransactionData;
    expect(getAddress(tx.to)).to.equal(getAddress(stablecoin));
    expect(tx.value).to.equal("0");
    const call = decodeFunctionData({ abi: erc20Abi, data: tx.data });
    expect(call.functionName).to.equal("transfer");
    expect(call.args).to.deep.equal([address, 25_000_000n]);
  });

  it("quotes an open address without strict: the factory's predictOpen of the user and route, the same for every quote of it, stored once", async () => {
    const recipient = getAddress(refund!.account.address);
    const first = await quoteOf({ strict: undefined, recipient, amount: "100000000000000000" });
    const again = await quoteOf({ strict: false, recipient, amount: "30000000000000000" });
    const address = await originClient.readContract({
      address: originFerry.addresses.depositAddressFactory,
      abi: depositAddressFactoryAbi,
      functionName: "predictOpen",
      args: [user!.account.address, BigInt(DESTINATION), padHex(zeroAddress, { size: 32 }), padHex(recipient, { size: 32 })],
    });
    for (const quote of [first, again]) expect(getAddress(quote.steps[0]!.depositAddress)).to.equal(address);
    // Another route (another recipient, another destination currency) is another address; a strict quote of the same route too.
    const other = await quoteOf({ strict: false });
    expect(getAddress(other.steps[0]!.depositAddress)).to.not.equal(address);
    const fusdRoute = await quoteOf({ strict: false, recipient, originCurrency: originFerry.stablecoin!.address, destinationCurrency: destinationFerry.stablecoin!.address, amount: "25000000" });
    expect(getAddress(fusdRoute.steps[0]!.depositAddress)).to.not.equal(address);
    const strict = await quoteOf({ recipient });
    expect(getAddress(strict.steps[0]!.depositAddress)).to.not.equal(address);
    // A real quote: one plain transfer of the quoted amount, the forwarding gas in relayerGas; the intent says open.
    const tx = first.steps[0]!.items[0]!.data as TransactionData;
    expect([getAddress(tx.to), tx.data, tx.value]).to.deep.equal([address, "0x", "100000000000000000"]);
    const intent = (await store.getQuote(canonicalHex(first.steps[0]!.requestId)))!.intent;
    expect(intent.depositAddress).to.deep.include({ address: address.toLowerCase(), mode: "open" });
    expect(intent.depositAddress!.forwardGas > 0n).to.equal(true);
    // Stored once, with the first quote's route; every quote a placeholder of it.
    const row = await store.getOpenDepositAddress(ORIGIN, canonicalHex(address));
    expect(row).to.deep.include({ refundTo: canonicalHex(user!.account.address), apiKeyId: null });
    expect(row!.route).to.deep.include({ recipient: canonicalHex(recipient), destinationChainId: DESTINATION, destinationCurrency: zeroAddress, originCurrency: zeroAddress });
    expect(await store.getSupersedingRequestId(canonicalHex(again.steps[0]!.requestId))).to.equal(null);
    // The status record of an open quote names the address, type open.
    const status = (await (await fetch(`${server.url}/intents/status/v3?requestId=${first.steps[0]!.requestId}`)).json()) as { status: string; depositAddress: unknown };
    expect(status).to.deep.include({ status: "waiting", depositAddress: { address: address.toLowerCase(), depositAddressType: "open", depositor: null, depositTxHash: null } });
  });

  it("keeps 400 UNSUPPORTED_ROUTE for what this slice does not serve; a quote without it is unchanged", async () => {
    expect(await refused({ txs: [{ to: user!.account.address, data: "0x" }] })).to.equal("UNSUPPORTED_ROUTE");
    expect(await refused({ usePermit: true })).to.equal("UNSUPPORTED_ROUTE");
    expect(await refused({}, withoutFactory)).to.equal("UNSUPPORTED_ROUTE"); // an origin without a factory
    expect(await refused({ strict: undefined }, withoutFactory)).to.equal("UNSUPPORTED_ROUTE"); // open, alike
    expect(await refused({ strict: false, usePermit: true })).to.equal("UNSUPPORTED_ROUTE");
    const plain = await quoteOf({ useDepositAddress: false, strict: undefined });
    expect(plain.steps.map((s) => s.depositAddress)).to.deep.equal([""]);
    expect((await store.getQuote(canonicalHex(plain.steps[0]!.requestId)))!.intent.depositAddress).to.equal(undefined);
  });
});
