/**
 * End to end, issue 22 items 2 and 6: POST /execute on the in-process devnet. The relayer (the devnet's
 * FERRY_RELAYER_KEY) relays
 * - an ERC-4337 `EntryPoint.handleOps` (EntryPoint v0.8 of @account-abstraction/contracts at its canonical
 *   address) whose user operation has maxFeePerGas = maxPriorityFeePerGas = 0, sent by an EOA delegated
 *   (EIP-7702 `authorizationList`, a type-4 transaction) to the package's Simple7702Account: the quote's
 *   deposit runs from the user's EOA, the user pays no gas, the request is known (`depositing`, inTxs =
 *   the relayed hash) as soon as /execute answers and reaches `success`;
 * - and refuses, with nothing sent (the relayer's nonce unchanged): a request without x-api-key (401), with
 *   an unknown key (401), a call that reverts (400 with the spec's simulation error body: error,
 *   message, requestId, details {topLevel, innermost, path, revert}), a call while the app balance is
 *   zero (400 SPONSOR_BALANCE_TOO_LOW), an `authorizationList` whose delegate has no code (400
 *   EXECUTION_DELEGATE_HAS_NO_CODE, before anything is held); a replay of the same signed user operation sends nothing new.
 * The gas is paid from the app balance, funded onchain through POST /app-balance/deposits: held before
 * the send, settled once from the receipt (debited = gas used × effective gas price at the configured
 * native price, ≤ the hold). Spam at the end drains the balance: the calls it can pay for are sent,
 * every other is 400 SPONSOR_BALANCE_TOO_LOW with nothing sent, and it stops at zero. An execution
 * whose hold was released with nothing sent is relayed when posted again (a new attempt's hold), and
 * one execution posted four times at once is sent once (the others "already submitted" with its hash).
 * The whole suite runs once per store engine (the devnet's PGlite, then PostgreSQL in a fresh
 * schema: ./e2eEngines.ts), one devnet (chain pair) per engine.
 */
import { expect } from "chai";
import {
  concatHex,
  encodeFunctionData,
  erc20Abi,
  numberToHex,
  pad,
  parseAbi,
  type Address,
  type Hex,
} from "viem";
import { privateKeyToAccount } from "viem/accounts";
import { ENTRY_POINT_V08 } from "../../ts/devnet/devnetAccountAbstraction.ts";
import { DEVNET_RELAYER_INDEX } from "../../ts/devnet/devnetChains.ts";
import { hardhatTestAccount } from "../../ts/devnet/devnetAccounts.ts";
import { startGaslessProxy } from "../../examples/gasless-proxy/node-http.ts";
import { executionId } from "../../ts/service/relay/relayExecution.ts";
import { canonicalAddress } from "../../ts/service/model/values.ts";
import { apiKeyStore } from "../../ts/service/store/apiKeys.ts";
import { DESTINATION, NATIVE, ORIGIN, freshRecipient, type E2eDevnet } from "./e2eDevnet.ts";
import { E2E_ENGINES, startE2eDevnetOn } from "./e2eEngines.ts";

type QuoteSteps = { steps: { id: string; kind: string; requestId: Hex; items: { data: { to: Address; data: Hex; value: string; chainId: number } }[] }[]; details: { currencyOut: { amount: string } } };

const ENTRY_POINT_ABI = parseAbi([
  "struct PackedUserOperation { address sender; uint256 nonce; bytes initCode; bytes callData; bytes32 accountGasLimits; uint256 preVerificationGas; bytes32 gasFees; bytes paymasterAndData; bytes signature; }",
  "function handleOps(PackedUserOperation[] ops, address beneficiary)",
  "function getUserOpHash(PackedUserOperation userOp) view returns (bytes32)",
  "function getNonce(address sender, uint192 key) view returns (uint256)",
]);
const ACCOUNT_ABI = parseAbi(["struct Call { address target; uint256 value; bytes data; }", "function executeBatch(Call[] calls)"]);

for (const engine of E2E_ENGINES) describe(`e2e: POST /execute (relayed rawCalls, ERC-4337 handleOps, EIP-7702) [${engine}]`, function () {
  this.timeout(300_000);
  let devnet: E2eDevnet;
  let running: Awaited<ReturnType<typeof startE2eDevnetOn>> | undefined;
  const relayer = hardhatTestAccount(DEVNET_RELAYER_INDEX).address;

  // One devnet (one chain pair) per engine, shared by every test of the run.
  before(async function () {
    this.timeout(180_000);
    running = await startE2eDevnetOn(engine, this);
    devnet = running.devnet;
  });
  after(async () => running?.close());

  it("runs on the engine it names", async () => {
    expect(devnet.server.store.engine.kind).to.equal(engine);
    if (running!.schema) expect((await devnet.server.store.engine.query<{ v: string }>("SELECT current_schema() AS v")).rows[0]!.v).to.equal(running!.schema);
  });

  const post = async (body: unknown, apiKey: string | null = devnet.file.apiKey) => {
    const response = await fetch(`${devnet.file.apiUrl}/execute`, {
      method: "POST",
      headers: { "content-type": "application/json", ...(apiKey !== null && { "x-api-key": apiKey }) },
      body: JSON.stringify(body),
    });
    return { status: response.status, body: (await response.json()) as Record<string, unknown> & { message: string; errorCode?: string; requestId?: Hex; txHash?: Hex } };
  };
  const appBalance = async () => {
    const response = await fetch(`${devnet.file.apiUrl}/app-balance?limit=50`, { headers: { "x-api-key": devnet.file.apiKey } });
    expect(response.status).to.equal(200);
    return (await response.json()) as { availableUsd: string; heldUsd: string; debitedUsd: string; entries: { kind: string; reference: string | null; amountUsd: string }[] };
  };
  const relayerNonce = () => devnet.origin.publicClient.getTransactionCount({ address: relayer, blockTag: "pending" });

  const quote = async (user: Address, recipient: Address, currency: Address, amount: bigint): Promise<QuoteSteps> => {
    const response = await fetch(`${devnet.file.apiUrl}/quote/v2`, {
      method: "POST",
      headers: { "content-type": "application/json", "x-api-key": devnet.file.apiKey },
      body: JSON.stringify({ user, recipient, originChainId: ORIGIN, destinationChainId: DESTINATION, originCurrency: currency, destinationCurrency: currency, amount: amount.toString(), tradeType: "EXACT_INPUT" }),
    });
    const body = (await response.json()) as QuoteSteps;
    expect(response.status, JSON.stringify(body)).to.equal(200);
    return body;
  };

  /** A user operation of `sender` (a Simple7702Account-delegated EOA) running `calls`, zero fees, signed by `key`. */
  const userOperation = async (key: Hex, calls: { to: Address; value: bigint; data: Hex }[], limits = { verification: 100_000n, call: 150_000n }) => {
    const sender = privateKeyToAccount(key);
    const nonce = await devnet.origin.publicClient.readContract({ address: ENTRY_POINT_V08, abi: ENTRY_POINT_ABI, functionName: "getNonce", args: [sender.address, 0n] });
    const op = {
      sender: sender.address,
      nonce,
      initCode: "0x" as Hex,
      callData: encodeFunctionData({ abi: ACCOUNT_ABI, functionName: "executeBatch", args: [calls.map((c) => ({ target: c.to, value: c.value, data: c.data }))] }),
      accountGasLimits: concatHex([pad(numberToHex(limits.verification), { size: 16 }), pad(numberToHex(limits.call), { size: 16 })]),
      preVerificationGas: 50_000n,
      gasFees: pad("0x0", { size: 32 }),
      paymasterAndData: "0x" as Hex,
      signature: "0x" as Hex,
    };
    const hash = await devnet.origin.publicClient.readContract({ address: ENTRY_POINT_V08, abi: ENTRY_POINT_ABI, functionName: "getUserOpHash", args: [op] });
    return { ...op, signature: await sender.sign({ hash }) };
  };

  const delegation = async (key: Hex) => {
    const account = privateKeyToAccount(key);
    const nonce = await devnet.origin.publicClient.getTransactionCount({ address: account.address });
    const signed = await account.signAuthorization({ contractAddress: devnet.origin.file.contracts.simple7702Account!, chainId: ORIGIN, nonce });
    return { chainId: Number(signed.chainId), address: signed.address, nonce: Number(signed.nonce), yParity: signed.yParity ?? 0, r: signed.r, s: signed.s };
  };

  it("refuses POST /execute without x-api-key (401 API_KEY_REQUIRED) and with an unknown key (401 INVALID_API_KEY): nothing sent", async () => {
    const before = await relayerNonce();
    const body = { executionKind: "rawCalls", data: { chainId: ORIGIN, to: freshRecipient(), data: "0x", value: "0" } };
    const anonymous = await post(body, null);
    expect(anonymous.status, JSON.stringify(anonymous.body)).to.equal(401);
    expect(anonymous.body.errorCode).to.equal("API_KEY_REQUIRED");
    const unknown = await post(body, "ferry_not_a_key_of_this_service_0000");
    expect(unknown.status, JSON.stringify(unknown.body)).to.equal(401);
    expect(unknown.body.errorCode).to.equal("INVALID_API_KEY");
    expect(await relayerNonce()).to.equal(before);
  });

  it("answers a call that reverts with 400 and the spec's simulation error body, and sends nothing", async () => {
    const before = await relayerNonce();
    const stablecoin = devnet.origin.file.contracts.stablecoin!;
    // transferFrom of the relayer's own fUSD from a holder that never approved it: ERC20InsufficientAllowance.
    const holder = devnet.users[5]!.address;
    const data = encodeFunctionData({ abi: erc20Abi, functionName: "transferFrom", args: [holder, relayer, 1_000_000n] });
    const response = await post({ executionKind: "rawCalls", data: { chainId: ORIGIN, to: stablecoin, data, value: "0" } });
    expect(response.status, JSON.stringify(response.body)).to.equal(400);
    expect(response.body.errorCode).to.equal("EXECUTION_SIMULATION_FAILED");
    expect(response.body.error).to.equal("TRANSFER_AMOUNT_EXCEEDS_ALLOWANCE");
    expect(response.body.requestId).to.match(/^0x[0-9a-f]{64}$/);
    const details = response.body.details as { topLevel: { address: string; selector: string; error: string }; innermost: { address: string }; path: unknown[]; revert: { type: string; name: string; selector: string; args: Record<string, string> } };
    expect(details.topLevel.address).to.equal(stablecoin.toLowerCase());
    expect(details.topLevel.selector).to.equal(data.slice(0, 10));
    expect(details.topLevel.error).to.be.a("string");
    expect(details.innermost.address).to.equal(stablecoin.toLowerCase());
    expect(details.path).to.have.length(1);
    expect(details.revert.type).to.equal("customError");
    expect(details.revert.name).to.equal("ERC20InsufficientAllowance");
    expect(details.revert.args.spender).to.equal(relayer);
    expect(await relayerNonce()).to.equal(before);
  });

  it("an app backend's proxy (examples/gasless-proxy) adds the key: a keyless client's /execute reaches the relayer", async () => {
    const { server, url } = await startGaslessProxy({ ferryUrl: devnet.file.apiUrl, apiKey: devnet.file.apiKey });
    try {
      const response = await fetch(`${url}/execute`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ executionKind: "rawCalls", data: { chainId: ORIGIN, to: freshRecipient(), data: "0x", value: "0" } }),
      });
      const body = (await response.json()) as { errorCode?: string };
      // Through the proxy the key is there: no 401; the still unfunded balance answers instead.
      expect(response.status, JSON.stringify(body)).to.equal(400);
      expect(body.errorCode).to.equal("SPONSOR_BALANCE_TOO_LOW");
    } finally {
      await new Promise((resolve) => server.close(resolve));
    }
  });

  it("refuses a call the app balance cannot pay for (400 SPONSOR_BALANCE_TOO_LOW): nothing sent", async () => {
    const before = await relayerNonce();
    const response = await post({ executionKind: "rawCalls", data: { chainId: ORIGIN, to: freshRecipient(), data: "0x", value: "0" } });
    expect(response.status, JSON.stringify(response.body)).to.equal(400);
    expect(response.body.errorCode).to.equal("SPONSOR_BALANCE_TOO_LOW");
    expect(await relayerNonce()).to.equal(before);
  });

  it("funds the app balance onchain (POST /app-balance/deposits, 0.01 ETH)", async () => {
    const funder = devnet.users[3]!;
    const response = await fetch(`${devnet.file.apiUrl}/app-balance/deposits`, {
      method: "POST",
      headers: { "content-type": "application/json", "x-api-key": devnet.file.apiKey },
      body: JSON.stringify({ chainId: ORIGIN, currency: NATIVE, amount: (10n ** 16n).toString() }),
    });
    const order = (await response.json()) as { steps: { items: { data: { to: Address; data: Hex; value: string } }[] }[] };
    expect(response.status, JSON.stringify(order)).to.equal(200);
    const wallet = devnet.origin.wallet(funder);
    for (const step of order.steps) for (const item of step.items) {
      const hash = await wallet.sendTransaction({ to: item.data.to, data: item.data.data, value: BigInt(item.data.value ?? "0") });
      await devnet.origin.publicClient.waitForTransactionReceipt({ hash });
    }
    for (let i = 0; i < 300 && (await appBalance()).availableUsd === "0"; i++) await new Promise((resolve) => setTimeout(resolve, 100));
    expect((await appBalance()).availableUsd).to.equal("30000000");
  });

  it("refuses a user operation that would make the relayer pay for huge gas (400 EXECUTION_GAS_TOO_HIGH): nothing sent", async () => {
    const user = devnet.users[2]!;
    const op = await userOperation(user.privateKey, [{ to: freshRecipient(), value: 0n, data: "0x" }], { verification: 2_000_000n, call: 5_000_000n });
    const before = await relayerNonce();
    const balance = await appBalance();
    const response = await post({ executionKind: "rawCalls", data: { chainId: ORIGIN, to: ENTRY_POINT_V08, data: encodeFunctionData({ abi: ENTRY_POINT_ABI, functionName: "handleOps", args: [[op], relayer] }), value: "0", authorizationList: [await delegation(user.privateKey)] } });
    expect(response.status, JSON.stringify(response.body)).to.equal(400);
    expect(response.body.errorCode).to.equal("EXECUTION_GAS_TOO_HIGH");
    expect(await relayerNonce()).to.equal(before);
    expect((await appBalance()).heldUsd).to.equal(balance.heldUsd);
  });

  it("refuses an authorizationList whose delegate has no code (400 EXECUTION_DELEGATE_HAS_NO_CODE): nothing held, nothing sent", async () => {
    const user = devnet.users[1]!;
    const account = privateKeyToAccount(user.privateKey);
    const nobody = freshRecipient();
    const signed = await account.signAuthorization({ contractAddress: nobody, chainId: ORIGIN, nonce: await devnet.origin.publicClient.getTransactionCount({ address: account.address }) });
    const authorization = { chainId: Number(signed.chainId), address: signed.address, nonce: Number(signed.nonce), yParity: signed.yParity ?? 0, r: signed.r, s: signed.s };
    const before = await relayerNonce();
    const balance = await appBalance();
    // Any call "to the delegated EOA" runs no code: the relayer would pay for a no-op (and a delegation to nothing).
    const data = encodeFunctionData({ abi: ACCOUNT_ABI, functionName: "executeBatch", args: [[{ target: freshRecipient(), value: 0n, data: "0x" }]] });
    const response = await post({ executionKind: "rawCalls", data: { chainId: ORIGIN, to: account.address, data, value: "0", authorizationList: [authorization] } });
    expect(response.status, JSON.stringify(response.body)).to.equal(400);
    expect(response.body.errorCode).to.equal("EXECUTION_DELEGATE_HAS_NO_CODE");
    expect(await relayerNonce()).to.equal(before);
    const after = await appBalance();
    expect(after.heldUsd).to.equal(balance.heldUsd);
    expect(after.debitedUsd).to.equal(balance.debitedUsd);
    expect(await devnet.origin.publicClient.getCode({ address: account.address })).to.equal(undefined);
  });

  it("relays an EIP-7702 EntryPoint.handleOps with zero-fee user operation: the EOA deposits without gas, the request is followed to success", async () => {
    const user = devnet.users[4]!;
    const recipient = freshRecipient();
    const amount = 10n ** 16n;
    const quoted = await quote(user.address, recipient, NATIVE, amount);
    const deposit = quoted.steps.find((s) => s.id === "deposit")!;
    const requestId = deposit.requestId;
    const calls = deposit.items.map((i) => ({ to: i.data.to, value: BigInt(i.data.value), data: i.data.data }));
    const authorization = await delegation(user.privateKey);
    // The user operation's hash is the EntryPoint's (EIP-712 over the op): signed before the delegation exists.
    const op = await userOperation(user.privateKey, calls);
    const handleOps = encodeFunctionData({ abi: ENTRY_POINT_ABI, functionName: "handleOps", args: [[op], relayer] });
    const userBalance = await devnet.origin.publicClient.getBalance({ address: user.address });

    const response = await post({ requestId, executionKind: "rawCalls", data: { chainId: ORIGIN, to: ENTRY_POINT_V08, data: handleOps, value: "0", authorizationList: [authorization] }, executionOptions: { referrer: "ferry-e2e", subsidizeFees: false } });
    expect(response.status, JSON.stringify(response.body)).to.equal(200);
    expect(response.body.requestId).to.equal(requestId);
    const txHash = response.body.txHash!;
    // Known from the moment /execute answers: depositing (or already pending), the relayed hash in inTxs.
    const known = await devnet.client.getStatus(requestId);
    expect(["depositing", "pending", "submitted", "success"]).to.include(known.status);
    expect(known.inTxHashes.map((h) => h.toLowerCase())).to.include(txHash.toLowerCase());

    const receipt = await devnet.origin.publicClient.waitForTransactionReceipt({ hash: txHash });
    expect(receipt.status).to.equal("success");
    expect(receipt.from.toLowerCase()).to.equal(relayer.toLowerCase());
    const tx = await devnet.origin.publicClient.getTransaction({ hash: txHash });
    expect(tx.type).to.equal("eip7702");
    // The user paid the deposit and not one wei of gas.
    expect(userBalance - (await devnet.origin.publicClient.getBalance({ address: user.address }))).to.equal(amount);
    expect((await devnet.origin.publicClient.getCode({ address: user.address }))?.toLowerCase()).to.equal(`0xef0100${devnet.origin.file.contracts.simple7702Account!.slice(2).toLowerCase()}`);

    for (let i = 0; i < 300; i++) {
      const status = await devnet.client.getStatus(requestId);
      if (status.status === "success") break;
      expect(["depositing", "pending", "submitted"]).to.include(status.status);
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    expect((await devnet.client.getStatus(requestId)).status).to.equal("success");
    expect(await devnet.destination.publicClient.getBalance({ address: recipient })).to.equal(BigInt(quoted.details.currencyOut.amount));

    // The gas was held, then debited once from the receipt (gas used × effective price at 3000 USD/ETH, ≤ the hold).
    for (let i = 0; i < 100 && (await appBalance()).debitedUsd === "0"; i++) await new Promise((resolve) => setTimeout(resolve, 100));
    const balance = await appBalance();
    const paid = receipt.gasUsed * receipt.effectiveGasPrice;
    const expected = (paid * 3000n * 10n ** 8n + 10n ** 20n - 1n) / 10n ** 20n;
    expect(balance.debitedUsd).to.equal(expected.toString());
    expect(balance.heldUsd).to.equal("0");
    const lines = balance.entries.filter((e) => e.reference === requestId);
    // Held, then settled: the debit, and the unspent rest of the hold released.
    expect(lines.map((e) => e.kind).sort()).to.deep.equal(["debit", "hold", "release"]);

    // The same signed user operation again: nothing new is sent (already relayed), the nonce stays.
    const before = await relayerNonce();
    const replay = await post({ requestId, executionKind: "rawCalls", data: { chainId: ORIGIN, to: ENTRY_POINT_V08, data: handleOps, value: "0" } });
    expect(replay.status, JSON.stringify(replay.body)).to.equal(200);
    expect(replay.body.message).to.equal("already submitted");
    expect(await relayerNonce()).to.equal(before);
    // Without the requestId the replay is simulated and refused: the EntryPoint's nonce is used (AA25).
    const bare = await post({ executionKind: "rawCalls", data: { chainId: ORIGIN, to: ENTRY_POINT_V08, data: handleOps, value: "0" } });
    expect(bare.status, JSON.stringify(bare.body)).to.equal(400);
    expect(bare.body.errorCode).to.equal("EXECUTION_SIMULATION_FAILED");
    expect(await relayerNonce()).to.equal(before);
  });

  it("a retry after a hold that ended with nothing sent is relayed, once: not answered \"already submitted\"", async () => {
    // What a send that failed (fees moved, the RPC down) or the stuck-hold sweep leaves: the execution's hold, released, no transaction.
    const to = freshRecipient();
    const value = 10n ** 12n;
    const requestId = executionId({ chainId: ORIGIN, to: canonicalAddress(to), data: "0x", value });
    const app = await apiKeyStore(devnet.server.store).verifyApiKey(devnet.file.apiKey);
    const earlier = await devnet.server.store.appBalances.hold({ apiKeyId: app!.id, amountUsd: 1_000n, purpose: "execute", reference: requestId });
    await devnet.server.store.appBalances.release(earlier.holdId);
    const nonceBefore = await relayerNonce();

    const retried = await post({ executionKind: "rawCalls", data: { chainId: ORIGIN, to, data: "0x", value: value.toString() } });
    expect(retried.status, JSON.stringify(retried.body)).to.equal(200);
    expect(retried.body).to.include({ message: "execution submitted", requestId });
    const receipt = await devnet.origin.publicClient.waitForTransactionReceipt({ hash: retried.body.txHash! });
    expect(receipt.status).to.equal("success");
    expect(await devnet.origin.publicClient.getBalance({ address: to })).to.equal(value);

    // Posted again: now it is the relayed one, nothing more is sent; the released hold stays released.
    const again = await post({ executionKind: "rawCalls", data: { chainId: ORIGIN, to, data: "0x", value: value.toString() } });
    expect(again.status, JSON.stringify(again.body)).to.equal(200);
    expect(again.body.message).to.equal("already submitted");
    expect(await relayerNonce()).to.equal(nonceBefore + 1);
    expect((await devnet.server.store.appBalances.getHold(earlier.holdId))?.state).to.equal("released");
  });

  it("the same execution posted several times at once is sent once: the others are answered \"already submitted\" with its hash", async () => {
    // A plain value transfer: nothing onchain stops it from running twice, so the target's balance counts the sends.
    const to = freshRecipient();
    const value = 10n ** 12n;
    const nonceBefore = await relayerNonce();
    const answers = await Promise.all(Array.from({ length: 4 }, () => post({ executionKind: "rawCalls", data: { chainId: ORIGIN, to, data: "0x", value: value.toString() } })));
    for (const answer of answers) expect(answer.status, JSON.stringify(answer.body)).to.equal(200);
    const sent = answers.filter((a) => a.body.message === "execution submitted");
    expect(sent, JSON.stringify(answers.map((a) => a.body))).to.have.length(1);
    for (const answer of answers.filter((a) => a !== sent[0])) expect(answer.body).to.include({ message: "already submitted", txHash: sent[0]!.body.txHash });
    await devnet.origin.publicClient.waitForTransactionReceipt({ hash: sent[0]!.body.txHash! });
    expect(await relayerNonce()).to.equal(nonceBefore + 1);
    expect(await devnet.origin.publicClient.getBalance({ address: to })).to.equal(value);
  });

  it("spam drains the app balance and stops at zero: every call past it is 400 SPONSOR_BALANCE_TOO_LOW and nothing is sent for it", async () => {
    // Each call carries 0.0025 ETH (7.5 USD at the devnet's price) to a fresh target: a few of them drain what is left.
    const value = 25n * 10n ** 14n;
    const start = await appBalance();
    const nonceBefore = await relayerNonce();
    const targets = Array.from({ length: 8 }, () => freshRecipient());
    const answers = await Promise.all(targets.map((to) => post({ executionKind: "rawCalls", data: { chainId: ORIGIN, to, data: "0x", value: value.toString() } })));
    const accepted = answers.filter((a) => a.status === 200);
    const refused = answers.filter((a) => a.status !== 200);
    for (const answer of refused) {
      expect(answer.status, JSON.stringify(answer.body)).to.equal(400);
      expect(answer.body.errorCode).to.equal("SPONSOR_BALANCE_TOO_LOW");
    }
    expect(accepted.length, "the balance paid for some, not all").to.be.within(1, targets.length - 1);
    expect((BigInt(accepted.length) * value * 3000n * 10n ** 6n) / 10n ** 18n <= BigInt(start.availableUsd), "held no more than was available").to.equal(true);
    for (const answer of accepted) {
      const receipt = await devnet.origin.publicClient.waitForTransactionReceipt({ hash: answer.body.txHash! });
      expect(receipt.status).to.equal("success");
    }
    // Exactly the accepted calls ran onchain: one relayed transaction each, the value at each accepted target, nothing at the others.
    expect(await relayerNonce()).to.equal(nonceBefore + accepted.length);
    const funded = await Promise.all(targets.map((address) => devnet.origin.publicClient.getBalance({ address })));
    expect(funded.filter((b) => b === value)).to.have.length(accepted.length);
    expect(funded.filter((b) => b !== value && b !== 0n)).to.deep.equal([]);

    // Settled from the receipts: nothing held, never below zero, and what is left cannot pay the next one.
    for (let i = 0; i < 300 && (await appBalance()).heldUsd !== "0"; i++) await new Promise((resolve) => setTimeout(resolve, 100));
    const drained = await appBalance();
    expect(drained.heldUsd).to.equal("0");
    expect(BigInt(drained.availableUsd) >= 0n).to.equal(true);
    expect(BigInt(drained.availableUsd) < value * 3000n * 10n ** 6n / 10n ** 18n).to.equal(true);
    const next = await post({ executionKind: "rawCalls", data: { chainId: ORIGIN, to: freshRecipient(), data: "0x", value: value.toString() } });
    expect(next.status, JSON.stringify(next.body)).to.equal(400);
    expect(next.body.errorCode).to.equal("SPONSOR_BALANCE_TOO_LOW");
    expect(await relayerNonce()).to.equal(nonceBefore + accepted.length);
  });
});
