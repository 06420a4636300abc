/**
 * End to end, issue 15 deliverable 4: ERC-20 deposits authorised by a signature (quote body
 * `usePermit`). The quote returns a `signature` step (signatureKind eip712) whose signature is posted to
 * POST /execute/permits; the service checks it against the stored quote and submits the deposit from its
 * own wallet; the request goes depositing → pending → success. EIP-2612 and Permit2 (the canonical
 * Permit2 at its canonical address on the devnet), each also with the permit front-run by someone else;
 * the official SDK (unmodified) executes an EIP-2612 one; signatures over anything but the quoted message
 * and posts for an expired quote are refused (4xx). Quote responses validate against /openapi.json.
 * Ferry's own typed client (`executeQuote`) executes an EIP-2612 and a Permit2 quote (approve
 * transaction, then the signature) to success, and refuses tampered signature steps before the wallet
 * signs anything.
 */
import { expect } from "chai";
import { Ajv } from "ajv";
import { adaptViemWallet, createClient, getClient, LogLevel } from "@relayprotocol/relay-sdk";
import { configureDynamicChains } from "@relayprotocol/relay-sdk/chain-utils";
import { encodeFunctionData, erc20Abi, maxUint256, parseSignature, type Address, type Hex } from "viem";
import { depositoryAbi } from "../../ts/abi/Depository.ts";
import { mockStablecoinAbi } from "../../ts/abi/MockStablecoin.ts";
import { PERMIT2_ADDRESS } from "../../ts/core/permitDeposit.ts";
import { DEVNET_USD_PRICES } from "../../ts/devnet/devnetConfig.ts";
import type { Quote } from "../../ts/client/apiTypes.ts";
import { ExecuteQuoteError } from "../../ts/client/clientErrors.ts";
import type { ExecuteProgress } from "../../ts/client/executeQuote.ts";
import { DESTINATION, ORIGIN, freshRecipient, startE2eDevnet, type E2eDevnet } from "./e2eDevnet.ts";

type SignData = { signatureKind: string; domain: Record<string, unknown>; types: Record<string, { name: string; type: string }[]>; primaryType: string; value: Record<string, unknown> };
type PermitQuote = {
  steps: { id: string; kind: string; requestId: Hex; items: { data: { sign?: SignData; post?: { endpoint: string; body: Record<string, unknown> }; to?: Address; data?: Hex } }[] }[];
  details: { currencyIn: { amount: string }; currencyOut: { amount: string } };
  fees: { gas: { amount: string }; relayerGas: { amount: string } };
  expiresAt: number;
  protocol: { v2: { orderId: Hex } };
};

describe("e2e: signature-authorised fUSD deposits (usePermit: EIP-2612, Permit2)", function () {
  this.timeout(300_000);
  let devnet: E2eDevnet;
  let fusd: Address;
  let depository: Address;
  let quoteResponseValidator: (value: unknown) => boolean;

  before(async function () {
    this.timeout(120_000);
    devnet = await startE2eDevnet();
    fusd = devnet.origin.file.contracts.stablecoin!;
    depository = devnet.origin.file.contracts.depository;
    createClient({ baseApiUrl: devnet.file.apiUrl, source: "ferry-e2e", logLevel: LogLevel.None, pollingInterval: 300, maxPollingAttemptsBeforeTimeout: 200 });
    await configureDynamicChains();
    const openapi = (await (await fetch(`${devnet.file.apiUrl}/openapi.json`)).json()) as {
      paths: Record<string, Record<string, { responses: Record<string, { content: Record<string, { schema: object }> }> }>>;
    };
    const ajv = new Ajv({ strict: false, allErrors: true });
    quoteResponseValidator = ajv.compile(openapi.paths["/quote/v2"]!.post!.responses["200"]!.content["application/json"]!.schema);
  });
  after(async () => devnet?.close());

  /** The body of a permit quote for fUSD → the destination stablecoin (the raw-HTTP and the SDK tests send the same). */
  const permitQuoteRequest = (user: Address, recipient: Address, amount: bigint, extra: Record<string, unknown> = {}) => ({
    user,
    recipient,
    originChainId: ORIGIN,
    destinationChainId: DESTINATION,
    originCurrency: fusd,
    destinationCurrency: devnet.destination.file.contracts.stablecoin!,
    amount: amount.toString(),
    tradeType: "EXACT_INPUT" as const,
    usePermit: true,
    ...extra,
  });
  const quotePermit = async (user: Address, recipient: Address, amount: bigint, extra: Record<string, unknown> = {}) => {
    const response = await fetch(`${devnet.file.apiUrl}/quote/v2`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify(permitQuoteRequest(user, recipient, amount, extra)),
    });
    const body = (await response.json()) as PermitQuote;
    expect(response.status, JSON.stringify(body)).to.equal(200);
    expect(quoteResponseValidator(body), "the quote validates against /openapi.json").to.equal(true);
    return body;
  };
  const authorize = (quote: PermitQuote) => quote.steps.find((s) => s.id === "authorize")!;
  const sign = (wallet: ReturnType<E2eDevnet["origin"]["wallet"]>, data: SignData) =>
    wallet.signTypedData({ domain: data.domain, types: data.types, primaryType: data.primaryType, message: data.value } as Parameters<typeof wallet.signTypedData>[0]);
  const post = async (quote: PermitQuote, signature: Hex) => {
    const step = authorize(quote).items[0]!.data.post!;
    const response = await fetch(`${devnet.file.apiUrl}${step.endpoint}?signature=${signature}`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ ...step.body, referrer: "ferry-e2e" }),
    });
    return { status: response.status, body: (await response.json()) as { message: string; errorCode?: string; txHash?: Hex } };
  };
  const waitSuccess = async (requestId: Hex) => {
    for (let i = 0; i < 400; i++) {
      const status = await devnet.client.getStatus(requestId);
      if (status.status === "success") return status;
      if (status.status === "failure" || status.status === "refund") throw new Error(`request ${requestId} ${status.status}: ${status.failReason}`);
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    throw new Error(`request ${requestId} did not succeed`);
  };
  const fusdOf = (address: Address, chain: "origin" | "destination" = "origin") =>
    devnet[chain].publicClient.readContract({ address: chain === "origin" ? fusd : devnet.destination.file.contracts.stablecoin!, abi: erc20Abi, functionName: "balanceOf", args: [address] });

  it("the official SDK executes an EIP-2612 permit-signed deposit (one signature, no user transaction) to success", async () => {
    const user = devnet.users[0]!;
    const recipient = freshRecipient();
    const wallet = devnet.origin.wallet(user);
    const ethBefore = await devnet.origin.publicClient.getBalance({ address: user.address });
    const quote = await getClient().actions.getQuote({
      chainId: ORIGIN,
      toChainId: DESTINATION,
      currency: fusd,
      toCurrency: devnet.destination.file.contracts.stablecoin!,
      amount: "30000000",
      tradeType: "EXACT_INPUT",
      wallet,
      user: user.address,
      recipient,
      options: { usePermit: true },
    });
    expect(quote.steps!.map((s) => [s.id, s.kind])).to.deep.equal([["authorize", "signature"]]);
    expect((quote.steps![0]!.items![0]!.data as { sign: SignData }).sign.signatureKind).to.equal("eip712");
    expect(quote.fees!.gas!.amount).to.equal("0");
    const fusdBefore = await fusdOf(user.address);
    const { data } = await getClient().actions.execute({ quote, wallet: adaptViemWallet(wallet) });
    expect(data.steps!.at(-1)!.items!.at(-1)!.checkStatus).to.equal("success");
    expect(await fusdOf(user.address)).to.equal(fusdBefore - BigInt(quote.details!.currencyIn!.amount!));
    expect(await fusdOf(recipient, "destination")).to.equal(BigInt(quote.details!.currencyOut!.amount!));
    expect(await devnet.origin.publicClient.getBalance({ address: user.address }), "the user paid no gas").to.equal(ethBefore);
  });

  it("EIP-2612: a permit front-run by someone else (submitted to the token first) does not break the deposit", async () => {
    const user = devnet.users[1]!;
    const attacker = devnet.origin.wallet(devnet.users[5]!);
    const recipient = freshRecipient();
    const quote = await quotePermit(user.address, recipient, 20_000_000n);
    const step = authorize(quote);
    expect(step.kind).to.equal("signature");
    const signData = step.items[0]!.data.sign!;
    const signature = await sign(devnet.origin.wallet(user), signData);
    const { v, r, s } = parseSignature(signature);
    const value = signData.value as { value: string; deadline: string };
    const frontRun = await attacker.writeContract({
      address: fusd,
      abi: mockStablecoinAbi,
      functionName: "permit",
      args: [user.address, depository, BigInt(value.value), BigInt(value.deadline), Number(v), r, s],
    });
    expect((await devnet.origin.publicClient.waitForTransactionReceipt({ hash: frontRun })).status).to.equal("success");
    const posted = await post(quote, signature);
    expect(posted.status, JSON.stringify(posted.body)).to.equal(200);
    await waitSuccess(step.requestId);
    expect(await fusdOf(recipient, "destination")).to.equal(BigInt(quote.details.currencyOut.amount));
  });

  it("Permit2: approve Permit2 once, sign the witness transfer, the service deposits → success", async () => {
    const user = devnet.users[2]!;
    const recipient = freshRecipient();
    const wallet = devnet.origin.wallet(user);
    const quote = await quotePermit(user.address, recipient, 15_000_000n, { permitKind: "permit2" });
    expect(quote.steps.map((s) => s.id)).to.deep.equal(["approve", "authorize"]);
    const approve = quote.steps[0]!.items[0]!.data;
    expect(approve.to!.toLowerCase()).to.equal(fusd.toLowerCase());
    const hash = await wallet.sendTransaction({ to: approve.to!, data: approve.data! });
    await devnet.origin.publicClient.waitForTransactionReceipt({ hash });
    expect(await devnet.origin.publicClient.readContract({ address: fusd, abi: erc20Abi, functionName: "allowance", args: [user.address, PERMIT2_ADDRESS] })).to.equal(maxUint256);
    const before = await fusdOf(user.address);
    const posted = await post(quote, await sign(wallet, authorize(quote).items[0]!.data.sign!));
    expect(posted.status, JSON.stringify(posted.body)).to.equal(200);
    const status = await waitSuccess(authorize(quote).requestId);
    expect(status.inTxHashes.map((h) => h.toLowerCase())).to.include(posted.body.txHash!.toLowerCase());
    expect(await fusdOf(user.address)).to.equal(before - BigInt(quote.details.currencyIn.amount));
    // A second quote after the approval has only the signature step.
    const again = await quotePermit(user.address, recipient, 1_000_000n, { permitKind: "permit2" });
    expect(again.steps.map((s) => s.id)).to.deep.equal(["authorize"]);
  });

  it("Permit2: the same signature submitted first by someone else credits the order once, and the request succeeds", async () => {
    const user = devnet.users[2]!;
    const recipient = freshRecipient();
    const attacker = devnet.origin.wallet(devnet.users[5]!);
    const quote = await quotePermit(user.address, recipient, 12_000_000n, { permitKind: "permit2" });
    const signData = authorize(quote).items[0]!.data.sign!;
    const signature = await sign(devnet.origin.wallet(user), signData);
    const value = signData.value as { permitted: { amount: string }; nonce: string; deadline: string; witness: { orderId: Hex } };
    const before = await fusdOf(user.address);
    const frontRun = await attacker.writeContract({
      address: depository,
      abi: depositoryAbi,
      functionName: "depositPermit2",
      args: [user.address, fusd, BigInt(value.permitted.amount), value.witness.orderId, BigInt(value.nonce), BigInt(value.deadline), signature],
    });
    expect((await devnet.origin.publicClient.waitForTransactionReceipt({ hash: frontRun })).status).to.equal("success");
    const posted = await post(quote, signature);
    expect(posted.status, JSON.stringify(posted.body)).to.equal(200);
    await waitSuccess(authorize(quote).requestId);
    expect(await fusdOf(user.address), "taken once").to.equal(before - BigInt(quote.details.currencyIn.amount));
  });

  it("EIP-2612: a never-succeeding deposit for the order, broadcast and nudged by someone else first, does not swallow the user's permit", async () => {
    // The attack: with the order's deposit still unmined, anyone can broadcast a deposit call for the
    // orderId that will revert (here a permit deposit with a worthless signature) and nudge it through
    // POST /transactions/index: a request appears in `depositing`. The service must still submit the
    // user's own permit deposit when it is posted, or the user's deposit never happens.
    const user = devnet.users[4]!;
    const recipient = freshRecipient();
    const attacker = devnet.origin.wallet(devnet.users[5]!);
    const quote = await quotePermit(user.address, recipient, 9_000_000n);
    const signData = authorize(quote).items[0]!.data.sign!;
    const requestId = authorize(quote).requestId;
    const value = signData.value as { deadline: string };
    const resumeMining = await devnet.holdMining(devnet.origin);
    try {
      const bogus = await attacker.writeContract({
        address: depository,
        abi: depositoryAbi,
        functionName: "depositErc20Permit",
        args: [{ depositor: user.address, token: fusd, amount: BigInt(quote.details.currencyIn.amount), id: quote.protocol.v2.orderId, deadline: BigInt(value.deadline) }, 27, `0x${"11".repeat(32)}`, `0x${"22".repeat(32)}`, `0x${"33".repeat(65)}`],
        gas: 300_000n,
      });
      const nudge = await fetch(`${devnet.file.apiUrl}/transactions/index`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ chainId: ORIGIN, txHash: bogus }),
      });
      expect(nudge.status, await nudge.clone().text()).to.equal(200);
      expect((await devnet.client.getStatus(requestId)).status, "the nudged request exists").to.not.equal("waiting");

      const posted = await post(quote, await sign(devnet.origin.wallet(user), signData));
      expect(posted.status, JSON.stringify(posted.body)).to.equal(200);
      expect(posted.body.txHash, `the service sent the user's deposit (${posted.body.message})`).to.match(/^0x[0-9a-f]{64}$/);
    } finally {
      await resumeMining();
    }
    await waitSuccess(requestId);
  });

  describe("griefing: a permit whose fill must fail", () => {
    /** What the service's accounts (solver, attester, allocator) hold in native on both chains: what it spends on gas. */
    const operatorNative = async () => {
      let total = 0n;
      for (const role of ["solver", "attester", "allocator"] as const) {
        const address = devnet.account(role).address;
        total += (await devnet.origin.publicClient.getBalance({ address })) + (await devnet.destination.publicClient.getBalance({ address }));
      }
      return total;
    };
    /** A destination call that always reverts: the Multicaller transfers far more fUSD than it ever holds. */
    const revertingCall = (to: Address) => ({
      to: devnet.destination.file.contracts.stablecoin!,
      data: encodeFunctionData({ abi: erc20Abi, functionName: "transfer", args: [to, 10n ** 30n] }),
      value: "0",
    });
    const settle = async (requestId: Hex) => {
      for (let i = 0; i < 600; i++) {
        const status = await devnet.client.getStatus(requestId);
        if (["refund", "failure", "success"].includes(status.status) && (status.status !== "failure" || i > 50)) return status.status;
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
      return (await devnet.client.getStatus(requestId)).status;
    };

    it("the attack costs the operator nothing: the fill is simulated first and the permit refused (4xx), nothing is sent", async () => {
      const attacker = devnet.users[5]!;
      const wallet = devnet.origin.wallet(attacker);
      const operatorBefore = await operatorNative();
      const attackerEthBefore = await devnet.origin.publicClient.getBalance({ address: attacker.address });
      const fusdBefore = await fusdOf(attacker.address);
      const quote = await quotePermit(attacker.address, attacker.address, 10_000_000n, { txs: [revertingCall(attacker.address)] });
      const posted = await post(quote, await sign(wallet, authorize(quote).items[0]!.data.sign!));
      if (posted.status === 200) await settle(authorize(quote).requestId); // today: deposit, cancel, refund
      const operatorSpent = operatorBefore - (await operatorNative());
      const attackerSpent = attackerEthBefore - (await devnet.origin.publicClient.getBalance({ address: attacker.address }));
      console.log(`      operator spent ${operatorSpent} wei of gas, the attacker ${attackerSpent} (post: ${posted.status} ${posted.body.errorCode ?? posted.body.message})`);
      expect([posted.status, posted.body.errorCode]).to.deep.equal([400, "PERMIT_FILL_WOULD_FAIL"]);
      expect(operatorSpent, "the operator paid no gas").to.equal(0n);
      expect(attackerSpent).to.equal(0n);
      expect(await fusdOf(attacker.address), "nothing was taken from the user either").to.equal(fusdBefore);
    });

    it("a fill that passes the simulation and fails later: the refund keeps the service's gas, the attacker's net is negative", async () => {
      // The attack: a destination call that succeeds when POST /execute/permits simulates the fill
      // (the Multicaller pulls 1 unit of fUSD the attacker approved to it) and fails by fill time (the
      // attacker revoked the approval meanwhile). The operator paid the permit deposit, the cancel and
      // the refund; the attacker got every token back.
      const attacker = devnet.users[2]!;
      const originWallet = devnet.origin.wallet(attacker);
      const destWallet = devnet.destination.wallet(attacker);
      const destFusd = devnet.destination.file.contracts.stablecoin!;
      const multicaller = devnet.destination.file.contracts.multicaller!;
      const approveMulticaller = async (amount: bigint) =>
        devnet.destination.publicClient.waitForTransactionReceipt({
          hash: await destWallet.writeContract({ address: destFusd, abi: erc20Abi, functionName: "approve", args: [multicaller, amount] }),
        });
      await approveMulticaller(1n);
      const pull = { to: destFusd, data: encodeFunctionData({ abi: erc20Abi, functionName: "transferFrom", args: [attacker.address, attacker.address, 1n] }), value: "0" };
      const amount = 10_000_000n;
      const quote = (await quotePermit(attacker.address, attacker.address, amount, { txs: [pull] })) as PermitQuote & {
        fees: { refundGas?: { amount: string } };
        details: { refundCurrency: { amount: string; minimumAmount: string } };
      };
      const bound = BigInt(quote.fees.refundGas?.amount ?? "0");
      const requestId = authorize(quote).requestId;
      const operatorBefore = await operatorNative();
      const fusdBefore = await fusdOf(attacker.address);
      const resumeMining = await devnet.holdMining(devnet.origin);
      try {
        const posted = await post(quote, await sign(originWallet, authorize(quote).items[0]!.data.sign!));
        expect(posted.status, JSON.stringify(posted.body)).to.equal(200); // the simulation passed
        await approveMulticaller(0n); // …and the state changes before the fill
      } finally {
        await resumeMining();
      }
      expect(await settle(requestId)).to.equal("refund");
      const operatorSpentWei = operatorBefore - (await operatorNative());
      const lost = fusdBefore - (await fusdOf(attacker.address));
      const record = (await (await fetch(`${devnet.file.apiUrl}/requests/v2?id=${requestId}`)).json()) as { requests: { data: { fees: { gas: string }; refundCurrencyData: { amount: string } } }[] };
      const data = record.requests[0]!.data;
      // The devnet prices ETH at its configured USD price; fUSD at $1: the operator's spend in fUSD units.
      const ethUsd = Number(DEVNET_USD_PRICES.eth);
      const spentFusd = (Number(operatorSpentWei) / 1e18) * ethUsd * 1e6;
      console.log(`      operator spent ${operatorSpentWei} wei (≈${(spentFusd / 1e6).toFixed(6)} fUSD); the refund kept ${lost} fUSD units (quote bound ${bound}); record fees.gas ${data.fees.gas}, refunded ${data.refundCurrencyData.amount}`);
      expect(lost > 0n, "the attacker's refund was reduced: attacker net < 0").to.equal(true);
      expect(bound > 0n && lost <= bound, "kept at most what the quote showed").to.equal(true);
      expect(BigInt(quote.details.refundCurrency.minimumAmount)).to.equal(BigInt(quote.details.currencyIn.amount) - bound);
      expect(Number(lost)).to.be.at.least(Math.floor(spentFusd * 0.9), "the charge covers the operator's gas");
      expect([data.fees.gas, data.refundCurrencyData.amount]).to.deep.equal([lost.toString(), (BigInt(quote.details.currencyIn.amount) - lost).toString()]);
    });

    it("failed permit requests of one user are rate-limited (429 PERMITS_RATE_LIMITED); another user is not", async () => {
      const attacker = devnet.users[5]!;
      const wallet = devnet.origin.wallet(attacker);
      const quote = await quotePermit(attacker.address, attacker.address, 10_000_000n, { txs: [revertingCall(attacker.address)] });
      const signature = await sign(wallet, authorize(quote).items[0]!.data.sign!);
      const codes: string[] = [];
      for (let i = 0; i < 6; i++) {
        const posted = await post(quote, signature);
        codes.push(`${posted.status} ${posted.body.errorCode}`);
      }
      // The test above already counted one failure of this user (default: 5 per hour).
      expect(codes.slice(0, 4)).to.deep.equal(Array(4).fill("400 PERMIT_FILL_WOULD_FAIL"));
      expect(codes.slice(4)).to.deep.equal(Array(2).fill("429 PERMITS_RATE_LIMITED"));
      const other = devnet.users[3]!;
      const otherQuote = await quotePermit(other.address, other.address, 10_000_000n, { txs: [revertingCall(other.address)] });
      const otherPost = await post(otherQuote, await sign(devnet.origin.wallet(other), authorize(otherQuote).items[0]!.data.sign!));
      expect([otherPost.status, otherPost.body.errorCode]).to.deep.equal([400, "PERMIT_FILL_WOULD_FAIL"]);
    });
  });

  it("refuses (4xx) a permit for another spender, amount or token, a Permit2 signature for another order, and an expired quote", async () => {
    const user = devnet.users[3]!;
    const wallet = devnet.origin.wallet(user);
    const quote = await quotePermit(user.address, user.address, 10_000_000n);
    const signData = authorize(quote).items[0]!.data.sign!;
    const value = signData.value as Record<string, unknown>;
    const variants: [string, SignData][] = [
      ["spender", { ...signData, value: { ...value, spender: devnet.users[5]!.address } }],
      ["amount", { ...signData, value: { ...value, value: "10000001" } }],
      ["token", { ...signData, domain: { ...signData.domain, verifyingContract: devnet.destination.file.contracts.depository } }],
    ];
    for (const [what, data] of variants) {
      const posted = await post(quote, await sign(wallet, data));
      expect([what, posted.status, posted.body.errorCode]).to.deep.equal([what, 400, "INVALID_PERMIT_SIGNATURE"]);
    }
    const p2 = await quotePermit(user.address, user.address, 10_000_000n, { permitKind: "permit2" });
    const p2Sign = authorize(p2).items[0]!.data.sign!;
    const otherOrder = { ...p2Sign, value: { ...p2Sign.value, witness: { orderId: `0x${"ab".repeat(32)}` } } };
    const replay = await post(p2, await sign(wallet, otherOrder));
    expect([replay.status, replay.body.errorCode]).to.deep.equal([400, "INVALID_PERMIT_SIGNATURE"]);

    const short = await quotePermit(user.address, user.address, 10_000_000n, { ttl: 1 });
    await new Promise((resolve) => setTimeout(resolve, Math.max(0, short.expiresAt * 1000 - Date.now()) + 1_100));
    const expired = await post(short, await sign(wallet, authorize(short).items[0]!.data.sign!));
    expect([expired.status, expired.body.errorCode]).to.deep.equal([400, "QUOTE_EXPIRED"]);
    // Nothing was taken from the user by any of these.
    expect(await fusdOf(user.address)).to.equal(1_000_000n * 10n ** 6n);
  });

  describe("Ferry's typed client (executeQuote)", () => {
    /** The devnet wallet of `user`, counting the typed-data signatures it gives. */
    const countingWallet = (user: (typeof devnet.users)[number]) => {
      const wallet = devnet.origin.wallet(user);
      const counter = { signatures: 0 };
      const counted = {
        ...wallet,
        signTypedData: ((args: Parameters<typeof wallet.signTypedData>[0]) => {
          counter.signatures += 1;
          return wallet.signTypedData(args);
        }) as typeof wallet.signTypedData,
      } as typeof wallet;
      return { wallet: counted, counter };
    };
    const clientQuote = (user: Address, recipient: Address, amount: bigint, extra: Record<string, unknown> = {}) =>
      devnet.client.getQuote(permitQuoteRequest(user, recipient, amount, extra));

    it("executes an EIP-2612 quote: checks the permit, signs it, posts it, and follows the request to success (no user transaction)", async () => {
      const user = devnet.users[0]!;
      const recipient = freshRecipient();
      const { wallet, counter } = countingWallet(user);
      const quote = await clientQuote(user.address, recipient, 25_000_000n);
      expect(quote.steps.map((s) => [s.id, s.kind])).to.deep.equal([["authorize", "signature"]]);
      const before = await fusdOf(user.address);
      const ethBefore = await devnet.origin.publicClient.getBalance({ address: user.address });
      const phases: string[] = [];
      const result = await devnet.client.executeQuote({
        quote,
        walletClient: wallet,
        pollIntervalMs: 250,
        timeoutMs: 120_000,
        onProgress: (p: ExecuteProgress) => phases.push(p.phase === "status" ? `status:${p.status!.status}` : p.phase),
      });
      expect(result.status.status).to.equal("success");
      expect(counter.signatures).to.equal(1);
      expect(phases.slice(0, 3)).to.deep.equal(["signing", "signed", "submitted"]);
      expect(phases.at(-1)).to.equal("status:success");
      expect(result.txHashes.map((t) => [t.stepId, t.sentBy])).to.deep.equal([["authorize", "service"]]);
      expect(result.status.inTxHashes.map((h) => h.toLowerCase())).to.include(result.txHashes[0]!.txHash.toLowerCase());
      expect(await fusdOf(user.address)).to.equal(before - BigInt(quote.details.currencyIn.amount));
      expect(await fusdOf(recipient, "destination")).to.equal(BigInt(quote.details.currencyOut.amount));
      expect(await devnet.origin.publicClient.getBalance({ address: user.address }), "the user paid no gas").to.equal(ethBefore);
    });

    it("executes a Permit2 quote: the approve transaction to Permit2, then the witness signature, to success", async () => {
      const user = devnet.users[4]!;
      const recipient = freshRecipient();
      const { wallet, counter } = countingWallet(user);
      const quote = await clientQuote(user.address, recipient, 18_000_000n, { permitKind: "permit2" });
      expect(quote.steps.map((s) => [s.id, s.kind])).to.deep.equal([["approve", "transaction"], ["authorize", "signature"]]);
      const before = await fusdOf(user.address);
      const result = await devnet.client.executeQuote({ quote, walletClient: wallet, publicClient: devnet.origin.publicClient, pollIntervalMs: 250, timeoutMs: 120_000 });
      expect(result.status.status).to.equal("success");
      expect(counter.signatures).to.equal(1);
      expect(result.txHashes.map((t) => [t.stepId, t.sentBy ?? "wallet"])).to.deep.equal([["approve", "wallet"], ["authorize", "service"]]);
      expect(await devnet.origin.publicClient.readContract({ address: fusd, abi: erc20Abi, functionName: "allowance", args: [user.address, PERMIT2_ADDRESS] })).to.equal(maxUint256);
      expect(await fusdOf(user.address)).to.equal(before - BigInt(quote.details.currencyIn.amount));
      expect(await fusdOf(recipient, "destination")).to.equal(BigInt(quote.details.currencyOut.amount));
    });

    it("refuses a tampered signature step (spender, amount, token, deadline, Permit2 order or nonce) with PERMIT_MISMATCH before signing anything", async () => {
      const user = devnet.users[3]!;
      const attacker = devnet.users[5]!.address;
      const eip2612 = await clientQuote(user.address, user.address, 7_000_000n);
      const permit2 = await clientQuote(user.address, user.address, 7_000_000n, { permitKind: "permit2" });
      type Tamper = [string, Quote, (sign: { domain: Record<string, unknown>; value: Record<string, unknown>; message?: Record<string, unknown> }) => void, string];
      const tampers: Tamper[] = [
        ["spender", eip2612, (sign) => (sign.value.spender = attacker), "value.spender"],
        ["amount", eip2612, (sign) => (sign.value.value = "7000001"), "value.value"],
        ["owner", eip2612, (sign) => (sign.value.owner = attacker), "value.owner"],
        ["deadline", eip2612, (sign) => (sign.value.deadline = String(Number(sign.value.deadline) + 86_400)), "value.deadline"],
        ["token", eip2612, (sign) => (sign.domain.verifyingContract = devnet.destination.file.contracts.depository), "domain.verifyingContract"],
        ["chain", eip2612, (sign) => (sign.domain.chainId = String(DESTINATION)), "domain.chainId"],
        ["message only", eip2612, (sign) => (sign.message = { ...sign.value, spender: attacker }), "message.spender"],
        ["permit2 spender", permit2, (sign) => (sign.value.spender = attacker), "value.spender"],
        ["permit2 amount", permit2, (sign) => ((sign.value.permitted as Record<string, unknown>).amount = "7000001"), "value.permitted.amount"],
        ["permit2 order", permit2, (sign) => ((sign.value.witness as Record<string, unknown>).orderId = `0x${"ab".repeat(32)}`), "value.witness.orderId"],
        ["permit2 nonce", permit2, (sign) => (sign.value.nonce = "1"), "value.nonce"],
        ["permit2 contract", permit2, (sign) => (sign.domain.verifyingContract = attacker), "domain.verifyingContract"],
      ];
      for (const [what, original, tamper, field] of tampers) {
        const quote = structuredClone(original);
        const item = quote.steps.find((s) => s.id === "authorize")!.items[0]!;
        const sign = (item.data as { sign: Parameters<Tamper[2]>[0] }).sign;
        tamper(sign);
        if (what !== "message only") sign.message = sign.value;
        const { wallet, counter } = countingWallet(user);
        const nonce = await devnet.origin.publicClient.getTransactionCount({ address: user.address });
        let error: unknown;
        try {
          await devnet.client.executeQuote({ quote, walletClient: wallet, pollIntervalMs: 250, timeoutMs: 10_000 });
        } catch (caught) {
          error = caught;
        }
        expect(error, what).to.be.instanceOf(ExecuteQuoteError);
        expect([what, (error as ExecuteQuoteError).code, (error as ExecuteQuoteError).field]).to.deep.equal([what, "PERMIT_MISMATCH", field]);
        expect(counter.signatures, `${what}: nothing signed`).to.equal(0);
        expect(await devnet.origin.publicClient.getTransactionCount({ address: user.address }), `${what}: nothing sent`).to.equal(nonce);
      }
      // The untampered quotes are not requests: nothing was posted for them.
      for (const quote of [eip2612, permit2]) {
        const status = await devnet.client.getStatus(quote.steps.at(-1)!.requestId);
        expect(status.status).to.equal("waiting");
      }
    });
  });
});
