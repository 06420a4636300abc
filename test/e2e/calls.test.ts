/**
 * End to end: destination calls (`txs`) and the gas top-up on the devnet.
 * - bridge fUSD 31337 → 31338 and deposit it into the ERC-4626 vault (ts/devnet/devnetMarket.ts) in
 *   one intent: the calls approve the vault and deposit for the user; what they leave goes to the
 *   refund recipient; the requestId is the calls' commitment, the order carries them;
 * - a reverting call (a deposit above the vault's cap: ERC4626ExceededMaxDeposit) is caught by the
 *   fill's simulation: failure → refund with EXECUTION_REVERTED and the decoded revert in `details`;
 * - `topupGas`: an fUSD bridge whose recipient also gets destination ETH.
 */
import { expect } from "chai";
import { encodeFunctionData, encodePacked, erc20Abi, parseAbi, type Abi, type Address, type Hex } from "viem";
import packedPathRouterArtifact from "../../artifacts/contracts/mocks/PackedPathRouter.sol/PackedPathRouter.json" with { type: "json" };
import packedV2RouterArtifact from "../../artifacts/contracts/mocks/PackedV2Router.sol/PackedV2Router.json" with { type: "json" };
import { multicallerAbi } from "../../ts/abi/Multicaller.ts";
import type { Quote } from "../../ts/client/apiTypes.ts";
import { callsRequestId } from "../../ts/core/destinationCalls.ts";
import { waitForRequest } from "../../ts/client/waitForRequest.ts";
import { DEVNET_VAULT_CAP } from "../../ts/devnet/devnetMarket.ts";
import { DESTINATION, ORIGIN, freshRecipient, startE2eDevnet, type E2eDevnet } from "./e2eDevnet.ts";

const PATH_ROUTER_ABI = parseAbi(["function exactInput(uint256 amountIn, uint256 minOut, bytes path, address to) returns (uint256)"]);
const VAULT_ABI = parseAbi(["function deposit(uint256 assets, address receiver) returns (uint256)", "function balanceOf(address) view returns (uint256)", "function convertToAssets(uint256) view returns (uint256)"]);

describe("e2e: destination calls and gas top-up", function () {
  this.timeout(240_000);
  let devnet: E2eDevnet;
  let fusd: Address;
  let vault: Address;

  before(async function () {
    this.timeout(150_000);
    devnet = await startE2eDevnet();
    fusd = devnet.destination.file.contracts.stablecoin!;
    vault = devnet.destination.file.contracts.vault!;
  });
  after(async () => devnet?.close());

  const fusdOf = (chain: "origin" | "destination", address: Address) =>
    devnet[chain].publicClient.readContract({ address: fusd, abi: erc20Abi, functionName: "balanceOf", args: [address] });

  /** The destination's swap fixtures: a stranger's wallet (users[5]), the Multicaller, WETH and the WETH/fUSD pair. */
  const swapSetup = () => ({
    strangerWallet: devnet.destination.wallet(devnet.users[5]!),
    multicaller: devnet.destination.file.contracts.multicaller!,
    weth: devnet.destination.file.contracts.wrappedNative!,
    pair: devnet.destination.file.contracts.uniswapV2Pair!,
  });

  /** A router mock deployed on the destination by `wallet` (a stranger: the routers are anyone's). */
  const deployRouter = async (wallet: ReturnType<E2eDevnet["destination"]["wallet"]>, artifact: { abi: unknown; bytecode: string }, args: readonly unknown[]): Promise<Address> => {
    const hash = await wallet.deployContract({ abi: artifact.abi as Abi, bytecode: artifact.bytecode as Hex, args });
    return (await devnet.destination.publicClient.waitForTransactionReceipt({ hash })).contractAddress!;
  };

  /** The user's calls: approve the vault for `amount`, deposit `amount` for `owner`. */
  const vaultCalls = (amount: bigint, owner: Address) => [
    { to: fusd, data: encodeFunctionData({ abi: erc20Abi, functionName: "approve", args: [vault, amount] }), value: "0" },
    { to: vault, data: encodeFunctionData({ abi: VAULT_ABI, functionName: "deposit", args: [amount, owner] }), value: "0" },
  ];

  const callQuote = (user: Address, amount: bigint, txs: ReturnType<typeof vaultCalls>, tradeType = "EXACT_OUTPUT"): Promise<Quote> =>
    devnet.client.getQuote({
      user,
      recipient: user,
      originChainId: ORIGIN,
      destinationChainId: DESTINATION,
      originCurrency: fusd,
      destinationCurrency: fusd,
      amount: amount.toString(),
      tradeType,
      txs,
    });

  it("bridges fUSD and deposits it into the vault in one intent; leftovers go to the refund recipient", async () => {
    const user = devnet.users[0]!;
    const amount = 500_000_000n; // 500 fUSD arrive on 31338
    const deposit = 400_000_000n; // the calls put 400 into the vault: 100 are left for the sweep
    const quote = await callQuote(user.address, amount, vaultCalls(deposit, user.address));
    const requestId = quote.steps.at(-1)!.requestId as `0x${string}`;
    const calls = vaultCalls(deposit, user.address).map((c) => ({ to: c.to.toLowerCase() as Address, data: c.data, value: 0n }));
    // The sweep list: the output currency, then every token the calls name (the vault's shares).
    expect(requestId).to.equal(callsRequestId(quote.protocol.v2.orderId as `0x${string}`, calls, [fusd.toLowerCase() as Address, vault.toLowerCase() as Address]));
    expect(quote.protocol.v2.orderData.output.calls).to.have.length(2);
    expect(quote.details.operation).to.equal("bridge");

    const before = await fusdOf("destination", user.address);
    const result = await devnet.client.executeQuote({ quote, walletClient: devnet.origin.wallet(user), pollIntervalMs: 200, timeoutMs: 120_000 });
    expect(result.status.status).to.equal("success");
    const shares = await devnet.destination.publicClient.readContract({ address: vault, abi: VAULT_ABI, functionName: "balanceOf", args: [user.address] });
    expect(await devnet.destination.publicClient.readContract({ address: vault, abi: VAULT_ABI, functionName: "convertToAssets", args: [shares] })).to.equal(deposit);
    expect((await fusdOf("destination", user.address)) - before).to.equal(amount - deposit);
    const multicaller = devnet.destination.file.contracts.multicaller!;
    expect(await fusdOf("destination", multicaller)).to.equal(0n);
  });

  it("vault shares the calls leave in the Multicaller go to the refund recipient; nobody else can sweep them", async () => {
    // The attack: calls that deposit into the vault for the Multicaller itself leave the shares
    // there, and the Multicaller runs anyone's calls: a stranger sweeps the shares to itself.
    const user = devnet.users[1]!;
    const stranger = devnet.destination.wallet(devnet.users[5]!);
    const multicaller = devnet.destination.file.contracts.multicaller!;
    const amount = 50_000_000n;
    const quote = await callQuote(user.address, amount, vaultCalls(amount, multicaller));
    const result = await devnet.client.executeQuote({ quote, walletClient: devnet.origin.wallet(user), pollIntervalMs: 200, timeoutMs: 120_000 });
    expect(result.status.status).to.equal("success");
    const sharesOf = (owner: Address) => devnet.destination.publicClient.readContract({ address: vault, abi: VAULT_ABI, functionName: "balanceOf", args: [owner] });
    expect(await sharesOf(multicaller), "no shares left in the Multicaller").to.equal(0n);
    const userShares = await sharesOf(user.address);
    expect((await devnet.destination.publicClient.readContract({ address: vault, abi: VAULT_ABI, functionName: "convertToAssets", args: [userShares] })) >= amount, "the user holds the shares").to.equal(true);
    const hash = await stranger.writeContract({ address: multicaller, abi: multicallerAbi, functionName: "multicall", args: [[], stranger.account.address, [vault]] });
    await devnet.destination.publicClient.waitForTransactionReceipt({ hash });
    expect(await sharesOf(stranger.account.address), "the stranger took nothing").to.equal(0n);
  });

  it("a token a call outputs without naming it (packed calldata) cannot be left for a stranger: such calls are refused", async () => {
    // The attack: a swap through a router that takes packed (non-ABI) calldata sends its output (WETH)
    // to the Multicaller; the calldata names neither WETH nor anything ABI-shaped, so the sweep list
    // missed it, the WETH stayed in the Multicaller and a stranger swept it to itself.
    const user = devnet.users[4]!;
    const { strangerWallet, multicaller, weth, pair } = swapSetup();
    const router = await deployRouter(strangerWallet, packedV2RouterArtifact, []);
    const token0 = await devnet.destination.publicClient.readContract({ address: pair, abi: parseAbi(["function token0() view returns (address)"]), functionName: "token0" });
    const amount = 30_000_000n; // 30 fUSD arrive in the Multicaller and are swapped for ~0.01 WETH
    const txs = [
      { to: fusd, data: encodeFunctionData({ abi: erc20Abi, functionName: "approve", args: [router, amount] }), value: "0" },
      { to: router, data: encodePacked(["address", "bool", "uint128"], [pair, token0.toLowerCase() === fusd.toLowerCase(), amount]), value: "0" },
    ];
    const response = await fetch(`${devnet.file.apiUrl}/quote/v2`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ user: user.address, recipient: user.address, originChainId: ORIGIN, destinationChainId: DESTINATION, originCurrency: fusd, destinationCurrency: fusd, amount: amount.toString(), tradeType: "EXACT_OUTPUT", txs }),
    });
    const body = (await response.json()) as Quote & { errorCode?: string; message?: string };
    const wethOf = (owner: Address) => devnet.destination.publicClient.readContract({ address: weth, abi: erc20Abi, functionName: "balanceOf", args: [owner] });
    if (response.status === 200) {
      // Today: the fill succeeds and leaves the swap's WETH in the Multicaller for anyone to sweep.
      await devnet.client.executeQuote({ quote: body, walletClient: devnet.origin.wallet(user), pollIntervalMs: 200, timeoutMs: 120_000 });
      const left = await wethOf(multicaller);
      const hash = await strangerWallet.writeContract({ address: multicaller, abi: multicallerAbi, functionName: "multicall", args: [[], strangerWallet.account.address, [weth]] });
      await devnet.destination.publicClient.waitForTransactionReceipt({ hash });
      expect.fail(`the quote was accepted: ${left} WETH stayed in the Multicaller and the stranger now holds ${await wethOf(strangerWallet.account.address)}`);
    }
    expect([response.status, body.errorCode]).to.deep.equal([400, "INVALID_REQUEST"]);
    expect(body.message).to.match(/body\/txs\/1: .*not ABI-encoded/);
    expect(await wethOf(multicaller)).to.equal(0n);
  });

  it("a token hidden in a packed path of ABI-shaped calldata is found by tracing the fill and goes to the refund recipient", async () => {
    // The attack: an ABI-encoded router call whose route is a packed `bytes` path (tokenIn ‖ fee ‖
    // tokenOut, Uniswap V3 style) swaps the fUSD for WETH and sends it to the Multicaller. No 32-byte
    // word of the calldata is WETH, so the calldata scan missed it: the WETH stayed in the Multicaller
    // and a stranger swept it to itself.
    const user = devnet.users[3]!;
    const { strangerWallet, multicaller, weth, pair } = swapSetup();
    const router = await deployRouter(strangerWallet, packedPathRouterArtifact, [pair]);
    const amount = 30_000_000n; // 30 fUSD arrive in the Multicaller and are swapped for ~0.01 WETH
    const path = encodePacked(["address", "uint24", "address"], [fusd, 3000, weth]);
    const txs = [
      { to: fusd, data: encodeFunctionData({ abi: erc20Abi, functionName: "approve", args: [router, amount] }), value: "0" },
      { to: router, data: encodeFunctionData({ abi: PATH_ROUTER_ABI, functionName: "exactInput", args: [amount, 1n, path, multicaller] }), value: "0" },
    ];
    const wethOf = (owner: Address) => devnet.destination.publicClient.readContract({ address: weth, abi: erc20Abi, functionName: "balanceOf", args: [owner] });
    const quote = await callQuote(user.address, amount, txs);
    const requestId = quote.steps.at(-1)!.requestId as Hex;
    const calls = txs.map((c) => ({ to: c.to.toLowerCase() as Address, data: c.data, value: 0n }));
    const userBefore = await wethOf(user.address);
    const result = await devnet.client.executeQuote({ quote, walletClient: devnet.origin.wallet(user), pollIntervalMs: 200, timeoutMs: 120_000 });
    expect(result.status.status).to.equal("success");
    const left = await wethOf(multicaller);
    const hash = await strangerWallet.writeContract({ address: multicaller, abi: multicallerAbi, functionName: "multicall", args: [[], strangerWallet.account.address, [weth]] });
    await devnet.destination.publicClient.waitForTransactionReceipt({ hash });
    expect(left, `${left} WETH stayed in the Multicaller; the stranger swept ${await wethOf(strangerWallet.account.address)}`).to.equal(0n);
    expect((await wethOf(user.address)) > userBefore, "the refund recipient got the swap's WETH").to.equal(true);
    // The sweep list the requestId commits to: the output currency, then the traced WETH.
    expect(requestId).to.equal(callsRequestId(quote.protocol.v2.orderId as Hex, calls, [fusd.toLowerCase() as Address, weth.toLowerCase() as Address]));
  });

  it("a reverting call ends in refund with EXECUTION_REVERTED and the decoded revert", async () => {
    const user = devnet.users[1]!;
    const cap = DEVNET_VAULT_CAP; // 10,000 fUSD
    const amount = cap + 1_000_000n; // one fUSD above the vault's per-deposit cap
    const quote = await callQuote(user.address, amount, vaultCalls(amount, user.address));
    const requestId = quote.steps.at(-1)!.requestId;
    const before = await fusdOf("origin", user.address);
    const seen: string[] = [];
    await devnet.client
      .executeQuote({ quote, walletClient: devnet.origin.wallet(user), pollIntervalMs: 100, timeoutMs: 120_000, onProgress: (p) => p.status && seen.push(p.status.status) })
      .catch(() => undefined);
    const status = await waitForRequest({ client: devnet.client, requestId, pollIntervalMs: 200, timeoutMs: 60_000, until: (s) => s.status === "refund" });
    expect(status).to.include({ status: "refund", failReason: "EXECUTION_REVERTED" });
    expect(status.details).to.deep.include({ error: "CallReverted", callIndex: 1 });
    expect(status.details!.revert).to.deep.include({ type: "customError", name: "ERC4626ExceededMaxDeposit", label: "ERC4626ExceededMaxDeposit" });
    expect((status.details!.revert as { args: Record<string, string> }).args).to.deep.equal({ receiver: user.address, assets: amount.toString(), max: cap.toString() });
    // A refund in progress is never shown as `failure`.
    expect(seen).to.not.include("failure");
    // The deposit came back in full (fUSD pays no gas).
    expect(await fusdOf("origin", user.address)).to.equal(before);
  });

  it("calls that need more gas than txsGasLimit priced are not sent: refund with SWAP_USES_TOO_MUCH_GAS", async () => {
    const user = devnet.users[3]!;
    const amount = 20_000_000n;
    const quote = await devnet.client.getQuote({
      user: user.address,
      recipient: user.address,
      originChainId: ORIGIN,
      destinationChainId: DESTINATION,
      originCurrency: fusd,
      destinationCurrency: fusd,
      amount: amount.toString(),
      tradeType: "EXACT_OUTPUT",
      txs: vaultCalls(amount, user.address),
      txsGasLimit: 21_000,
    });
    const requestId = quote.steps.at(-1)!.requestId;
    await devnet.client.executeQuote({ quote, walletClient: devnet.origin.wallet(user), pollIntervalMs: 200, timeoutMs: 120_000 }).catch(() => undefined);
    const status = await waitForRequest({ client: devnet.client, requestId, pollIntervalMs: 200, timeoutMs: 60_000, until: (s) => s.status === "refund" });
    expect(status).to.include({ status: "refund", failReason: "SWAP_USES_TOO_MUCH_GAS" });
    expect(BigInt(status.details!.gasEstimate as string) > BigInt(status.details!.gasLimit as string)).to.equal(true);
    expect(await devnet.destination.publicClient.readContract({ address: vault, abi: VAULT_ABI, functionName: "balanceOf", args: [user.address] })).to.equal(0n);
  });

  it("topupGas: an fUSD bridge whose recipient also gets destination ETH", async () => {
    const user = devnet.users[2]!;
    const recipient = freshRecipient();
    const topup = 3n * 10n ** 15n; // 0.003 ETH
    const quote = await devnet.client.getQuote({
      user: user.address,
      recipient,
      originChainId: ORIGIN,
      destinationChainId: DESTINATION,
      originCurrency: fusd,
      destinationCurrency: fusd,
      amount: (50n * 10n ** 6n).toString(),
      tradeType: "EXACT_INPUT",
      topupGas: true,
      topupGasAmount: topup.toString(),
    });
    const plain = await devnet.client.getQuote({
      user: user.address,
      recipient,
      originChainId: ORIGIN,
      destinationChainId: DESTINATION,
      originCurrency: fusd,
      destinationCurrency: fusd,
      amount: (50n * 10n ** 6n).toString(),
      tradeType: "EXACT_INPUT",
    });
    // The top-up (0.003 ETH ≈ 9 fUSD) is paid from the deposit, in relayerGas.
    expect(BigInt(plain.details.currencyOut.amount) - BigInt(quote.details.currencyOut.amount) > 9_000_000n).to.equal(true);
    const result = await devnet.client.executeQuote({ quote, walletClient: devnet.origin.wallet(user), pollIntervalMs: 200, timeoutMs: 120_000 });
    expect(result.status.status).to.equal("success");
    expect(await devnet.destination.publicClient.getBalance({ address: recipient })).to.equal(topup);
    expect(await fusdOf("destination", recipient)).to.equal(BigInt(quote.details.currencyOut.amount));
  });
});
