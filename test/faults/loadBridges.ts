/**
 * Bridges as an integrator makes them, for fault tests: fresh users funded on the origin chain
 * (hardhat_setBalance), a quote through the service's POST /quote/v2 (with an API key, so its webhook
 * endpoint gets the events), then the quote's deposit step sent from the user's own wallet. Quoting
 * and depositing are separate so a test can quote while the service is up and deposit while it is
 * down (dead, or its database stopped).
 */
import { createPublicClient, http, keccak256, parseEther, type Address, type Hex, type PublicClient } from "viem";
import { generatePrivateKey, privateKeyToAccount } from "viem/accounts";
import type { TwoChains } from "../service/solver/twoChains.ts";

export type LoadUser = { address: Address; privateKey: Hex };

export type QuotedBridge = {
  user: LoadUser;
  requestId: Hex;
  orderId: Hex;
  deposit: { to: Address; data: Hex; value: bigint; chainId: number };
};

export type DepositedBridge = QuotedBridge & { depositHash: Hex };

/** `count` fresh users with `balance` native on the origin chain. */
export async function fundLoadUsers(env: TwoChains, count: number, balance = parseEther("10")): Promise<LoadUser[]> {
  const users = Array.from({ length: count }, () => {
    const privateKey = generatePrivateKey();
    return { privateKey, address: privateKeyToAccount(privateKey).address };
  });
  for (const user of users) await env.origin.testClient.setBalance({ address: user.address, value: balance });
  return users;
}

/** POST /quote/v2 for a native bridge origin → destination; retried while the service answers 5xx or is unreachable. */
export async function quoteBridge(
  baseUrl: string | (() => string),
  env: TwoChains,
  user: LoadUser,
  options: { apiKey?: string; amount?: bigint; timeoutMs?: number } = {},
): Promise<QuotedBridge> {
  const body = {
    user: user.address,
    recipient: user.address,
    originChainId: env.origin.chainId,
    destinationChainId: env.destination.chainId,
    originCurrency: "0x0000000000000000000000000000000000000000",
    destinationCurrency: "0x0000000000000000000000000000000000000000",
    amount: (options.amount ?? parseEther("0.01")).toString(),
    tradeType: "EXACT_INPUT",
  };
  const deadline = Date.now() + (options.timeoutMs ?? 60_000);
  for (;;) {
    const url = typeof baseUrl === "string" ? baseUrl : baseUrl();
    let answer: string;
    try {
      const response = await fetch(`${url}/quote/v2`, {
        method: "POST",
        headers: { "content-type": "application/json", ...(options.apiKey ? { "x-api-key": options.apiKey } : {}) },
        body: JSON.stringify(body),
      });
      if (response.ok) return bridgeOf(user, (await response.json()) as QuoteBody);
      answer = `${response.status} ${await response.text()}`;
      if (response.status < 500) throw new Error(`POST /quote/v2 answered ${answer}`);
    } catch (error) {
      if ((error as Error).message.startsWith("POST /quote/v2 answered")) throw error;
      answer = (error as Error).message;
    }
    if (Date.now() > deadline) throw new Error(`no quote within the timeout: ${answer}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

type QuoteBody = {
  steps: Array<{ kind: string; requestId: Hex; items: Array<{ data: { to: Address; data: Hex; value: string; chainId: number } }> }>;
  protocol: { v2: { orderId: Hex } };
};

function bridgeOf(user: LoadUser, quote: QuoteBody): QuotedBridge {
  const step = quote.steps.find((s) => s.kind === "transaction" && s.items.length > 0);
  const item = step?.items.at(-1)?.data;
  if (!step || !item) throw new Error("the quote has no deposit step");
  return { user, requestId: step.requestId.toLowerCase() as Hex, orderId: quote.protocol.v2.orderId.toLowerCase() as Hex, deposit: { ...item, value: BigInt(item.value) } };
}

/**
 * Sends the quote's deposit from the user's wallet and waits for its receipt. Under load the chain
 * (in this process) answers slowly: the transaction is signed once and its bytes re-sent on a timeout
 * (the same hash: a node that already has it says so), with long timeouts.
 */
export async function depositBridge(env: TwoChains, bridge: QuotedBridge): Promise<DepositedBridge> {
  const client = createPublicClient({ chain: env.origin.chain, transport: http(env.origin.rpcUrl, { timeout: 60_000, retryCount: 0 }) }) as PublicClient;
  const account = privateKeyToAccount(bridge.user.privateKey);
  const [nonce, fees] = await Promise.all([client.getTransactionCount({ address: account.address, blockTag: "pending" }), client.estimateFeesPerGas()]);
  const raw = await account.signTransaction({
    chainId: env.origin.chainId,
    type: "eip1559",
    nonce,
    to: bridge.deposit.to,
    data: bridge.deposit.data,
    value: bridge.deposit.value,
    gas: 200_000n,
    maxFeePerGas: fees.maxFeePerGas! * 2n,
    maxPriorityFeePerGas: fees.maxPriorityFeePerGas!,
  });
  const depositHash = keccak256(raw);
  for (let attempt = 0; ; attempt++) {
    try {
      await client.sendRawTransaction({ serializedTransaction: raw });
      break;
    } catch (error) {
      if (/already known|nonce too low|known transaction/i.test(String((error as Error).message))) break;
      if (attempt >= 5) throw error;
    }
  }
  const receipt = await client.waitForTransactionReceipt({ hash: depositHash, pollingInterval: 100, timeout: 300_000 });
  if (receipt.status !== "success") throw new Error(`deposit ${depositHash} reverted`);
  return { ...bridge, depositHash };
}

/** The public status of a request, or undefined when the service does not answer 200. */
export async function publicStatus(baseUrl: string, requestId: string): Promise<{ status: string; failReason?: string } | undefined> {
  try {
    const response = await fetch(`${baseUrl}/intents/status/v3?requestId=${requestId}`);
    if (response.status !== 200) return undefined;
    return (await response.json()) as { status: string; failReason?: string };
  } catch {
    return undefined;
  }
}
