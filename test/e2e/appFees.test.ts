/**
 * End to end, issue 15 deliverable 3: an app fee quoted on a fUSD bridge reaches its recipient. The
 * official SDK (@relayprotocol/relay-sdk, unmodified) quotes with `appFees` and executes; after the fill
 * the solver's repayment settles the deposit — the solver repaid originAmount minus the app fee, the fee
 * credited to the app's claimable balance in the origin Depository — `getAppFees` shows it, and
 * `claimAppFees` withdraws it with the app's own wallet.
 */
import { expect } from "chai";
import { adaptViemWallet, createClient, getClient, LogLevel } from "@relayprotocol/relay-sdk";
import { configureDynamicChains } from "@relayprotocol/relay-sdk/chain-utils";
import { erc20Abi, getAddress, type Address } from "viem";
import { depositoryAbi } from "../../ts/abi/Depository.ts";
import { DESTINATION, ORIGIN, freshRecipient, startE2eDevnet, type E2eDevnet } from "./e2eDevnet.ts";

describe("e2e: app fees reach their recipient (relay-sdk getAppFees / claimAppFees)", function () {
  this.timeout(240_000);
  let devnet: E2eDevnet;
  let fusd: Address;

  before(async function () {
    this.timeout(120_000);
    devnet = await startE2eDevnet();
    fusd = devnet.origin.file.contracts.stablecoin!;
    createClient({
      baseApiUrl: devnet.file.apiUrl,
      source: "ferry-e2e",
      logLevel: LogLevel.None,
      pollingInterval: 300,
      maxPollingAttemptsBeforeTimeout: 200,
      confirmationPollingInterval: 100,
    });
    await configureDynamicChains();
  });
  after(async () => devnet?.close());

  const fusdBalance = (address: Address) =>
    devnet.origin.publicClient.readContract({ address: fusd, abi: erc20Abi, functionName: "balanceOf", args: [address] });

  it("a 1% app fee is credited at repayment, listed by getAppFees and claimed with claimAppFees", async () => {
    const user = devnet.users[0]!;
    const app = devnet.users[3]!;
    const solver = devnet.account("solver").address;
    const recipient = freshRecipient();
    const relay = getClient();
    const solverBefore = await fusdBalance(solver);

    const quote = await relay.actions.getQuote({
      chainId: ORIGIN,
      toChainId: DESTINATION,
      currency: fusd,
      toCurrency: devnet.destination.file.contracts.stablecoin!,
      amount: "100000000",
      tradeType: "EXACT_INPUT",
      wallet: devnet.origin.wallet(user),
      user: user.address,
      recipient,
      options: { appFees: [{ recipient: app.address, fee: "100" }] },
    });
    const appFee = BigInt(quote.fees!.app!.amount!);
    expect(appFee).to.equal(1_000_000n); // 1% of 100 fUSD
    const requestId = quote.steps!.at(-1)!.requestId!;

    const { data } = await relay.actions.execute({ quote, wallet: adaptViemWallet(devnet.origin.wallet(user)) });
    expect(data.steps!.at(-1)!.items!.at(-1)!.checkStatus).to.equal("success");

    // The repayment follows the fill: wait for the credit to show up.
    let balances: Awaited<ReturnType<typeof relay.actions.getAppFees>> = [];
    for (let i = 0; i < 200 && balances.length === 0; i++) {
      balances = await relay.actions.getAppFees({ wallet: app.address });
      if (balances.length === 0) await new Promise((resolve) => setTimeout(resolve, 100));
    }
    expect(balances).to.have.length(1);
    expect(balances[0]!.currency!.chainId).to.equal(ORIGIN);
    expect(balances[0]!.currency!.address!.toLowerCase()).to.equal(fusd.toLowerCase());
    expect(balances[0]!.amount).to.equal(appFee.toString());
    expect(balances[0]!.amountFormatted).to.equal("1");

    // The solver was repaid the deposit minus the app fee, never the whole deposit.
    const originAmount = BigInt(quote.details!.currencyIn!.amount!);
    expect((await fusdBalance(solver)) - solverBefore).to.equal(originAmount - appFee);
    // The request record's appFees are what was credited.
    const page = await devnet.client.getRequests({ id: requestId });
    expect(page.requests[0]!.data.appFees).to.deep.equal([
      { recipient: app.address.toLowerCase(), bps: "100", amount: appFee.toString(), amountUsd: "1", amountUsdCurrent: "1" },
    ]);

    const appBefore = await fusdBalance(app.address);
    await relay.actions.claimAppFees({ wallet: devnet.origin.wallet(app), chainId: ORIGIN, currency: fusd });
    expect((await fusdBalance(app.address)) - appBefore).to.equal(appFee);
    expect(await relay.actions.getAppFees({ wallet: app.address })).to.deep.equal([]);
    const left = await devnet.origin.publicClient.readContract({
      address: devnet.origin.file.contracts.depository,
      abi: depositoryAbi,
      functionName: "claimable",
      args: [app.address, fusd],
    });
    expect(left).to.equal(0n);
  });
});

describe("e2e: addresses as EIP-55 says, on every route that takes one", function () {
  this.timeout(240_000);
  let devnet: E2eDevnet;

  before(async function () {
    this.timeout(120_000);
    devnet = await startE2eDevnet();
  });
  after(async () => devnet?.close());

  const upper = (address: string) => `0x${address.slice(2).toUpperCase()}`;
  /** One hex letter's case flipped in a checksummed address: the typo EIP-55 exists to catch. */
  const typo = (address: string) => {
    const checksummed = getAddress(address);
    const i = [...checksummed].findIndex((c, j) => j > 1 && /[a-fA-F]/.test(c));
    const c = checksummed[i]!;
    return checksummed.slice(0, i) + (c === c.toUpperCase() ? c.toLowerCase() : c.toUpperCase()) + checksummed.slice(i + 1);
  };
  const call = async (method: "GET" | "POST", path: string, body?: unknown) => {
    const response = await fetch(`${devnet.file.apiUrl}${path}`, {
      method,
      ...(body !== undefined && { headers: { "content-type": "application/json" }, body: JSON.stringify(body) }),
    });
    return { status: response.status, body: (await response.json()) as { errorCode?: string; message?: string } };
  };
  const quoteBody = (user: string, extra: Record<string, unknown> = {}) => ({
    user,
    originChainId: ORIGIN,
    destinationChainId: DESTINATION,
    originCurrency: devnet.origin.file.contracts.stablecoin!,
    destinationCurrency: devnet.destination.file.contracts.stablecoin!,
    amount: "10000000",
    tradeType: "EXACT_INPUT",
    ...extra,
  });

  it("accepts all-uppercase and all-lowercase addresses, and refuses a mistyped mixed case with INVALID_ADDRESS everywhere", async () => {
    const wallet = devnet.users[3]!.address;
    const fusd = devnet.origin.file.contracts.stablecoin!;
    const claim = (recipient: string, currency: string = fusd) => ({ chainId: ORIGIN, currency, recipient });
    // Accepted: one case carries no checksum.
    for (const address of [upper(wallet), wallet.toLowerCase(), getAddress(wallet)]) {
      expect((await call("GET", `/app-fees/${address}/balances`)).status, address).to.equal(200);
      expect((await call("POST", "/quote/v2", quoteBody(address, { recipient: address, refundTo: address }))).status, address).to.equal(200);
      expect((await call("GET", `/requests/v2?user=${address}`)).status, address).to.equal(200);
      // Nothing to claim, but the addresses were read.
      expect((await call("POST", `/app-fees/${address}/claim`, claim(address, upper(fusd)))).body.errorCode, address).to.equal("NOTHING_TO_CLAIM");
    }
    // Refused, the same code on every route: a mixed case that is not the address's checksum.
    const bad = typo(wallet);
    const refusals: [string, { status: number; body: { errorCode?: string } }][] = [
      ["balances wallet", await call("GET", `/app-fees/${bad}/balances`)],
      ["claim wallet", await call("POST", `/app-fees/${bad}/claim`, claim(wallet))],
      ["claim recipient", await call("POST", `/app-fees/${wallet}/claim`, claim(bad))],
      ["claim currency", await call("POST", `/app-fees/${wallet}/claim`, claim(wallet, typo(fusd)))],
      ["quote user", await call("POST", "/quote/v2", quoteBody(bad))],
      ["quote recipient", await call("POST", "/quote/v2", quoteBody(wallet, { recipient: bad }))],
      ["quote app fee recipient", await call("POST", "/quote/v2", quoteBody(wallet, { appFees: [{ recipient: bad, fee: "10" }] }))],
      ["requests user", await call("GET", `/requests/v2?user=${bad}`)],
    ];
    for (const [what, response] of refusals) expect([what, response.status, response.body.errorCode]).to.deep.equal([what, 400, "INVALID_ADDRESS"]);
  });
});
