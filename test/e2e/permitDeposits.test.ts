/**
 * End to end, issue 15 deliverable 4: ERC-20 deposits authorised by a signature (quote body
 * `usePermit`). The quote returns a `signature` step (signatureKind eip712) whose signature is posted to
 * POST /execute/permits; the service checks it against the stored quote and submits the deposit from its
 * own wallet; the request goes depositing → pending → success. EIP-2612 and Permit2 (the canonical
 * Permit2 at its canonical address on the devnet), each also with the permit front-run by someone else;
 * the official SDK (unmodified) executes an EIP-2612 one; signatures over anything but the quoted message
 * and posts for an expired quote are refused (4xx). Quote responses validate against /openapi.json.
 */
import { expect } from "chai";
import { Ajv } from "ajv";
import { adaptViemWallet, createClient, getClient, LogLevel } from "@relayprotocol/relay-sdk";
import { configureDynamicChains } from "@relayprotocol/relay-sdk/chain-utils";
import { erc20Abi, maxUint256, parseSignature, type Address, type Hex } from "viem";
import { depositoryAbi } from "../../ts/abi/Depository.ts";
import { mockStablecoinAbi } from "../../ts/abi/MockStablecoin.ts";
import { PERMIT2_ADDRESS } from "../../ts/core/permitDeposit.ts";
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

  const quotePermit = async (user: Address, recipient: Address, amount: bigint, extra: Record<string, unknown> = {}) => {
    const response = await fetch(`${devnet.file.apiUrl}/quote/v2`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({
        user,
        recipient,
        originChainId: ORIGIN,
        destinationChainId: DESTINATION,
        originCurrency: fusd,
        destinationCurrency: devnet.destination.file.contracts.stablecoin!,
        amount: amount.toString(),
        tradeType: "EXACT_INPUT",
        usePermit: true,
        ...extra,
      }),
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
});
