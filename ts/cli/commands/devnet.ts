/**
 * `ferry devnet send-steps <quote.json>`: sends a quote's steps from a devnet account, the wallet half
 * of bridging from the command line (`curl … /quote/v2 > quote.json && ferry devnet send-steps
 * quote.json --wait`). Reads `.devnet/devnet.json` (../devnetJson.ts) for the chains' RPC URLs and the
 * accounts' (public test) keys; signs each step item's transaction exactly as the quote gives it (to,
 * data, value, chainId — nothing is re-encoded, so a change of the contracts' ABI needs no change here),
 * in order, waiting for each receipt; prints the hashes and the status URL, and with `--wait` follows
 * the status until it is final. A quote whose deposit already went out (a Deposited log under its
 * orderId on the origin chain) is refused (DEPOSIT_ALREADY_SENT) unless `--force`: sending it again
 * would deposit a second time for one quote, and the second deposit is only refunded as a stray.
 */
import { createPublicClient, createWalletClient, defineChain, getAbiItem, http, isAddressEqual, type Address, type Hex } from "viem";
import { depositoryAbi } from "../../abi/Depository.ts";
import { privateKeyToAccount } from "viem/accounts";
import { Type, type Static } from "typebox";
import { Value } from "typebox/value";
import { FerryError } from "../../core/errors.ts";
import { EXIT, UsageError, printError, printResult, readJsonInput, type CliIo } from "../cliIo.ts";
import { runSubcommand, type CommandGroup, type GlobalFlags } from "../commandGroup.ts";
import { devnetDir } from "../devnetDir.ts";
import { readDevnetJson, type DevnetJson } from "../devnetJson.ts";
import { integerFlag, parseCommandArgs } from "../parseCommandArgs.ts";
import { resolve } from "node:path";

const HELP = `Usage: ferry devnet <command> [options]

The local devnet (npm start) from the command line; reads .devnet/devnet.json.

Commands:
  send-steps <quote.json|->  send every step of a quote (POST /quote/v2's answer) from a devnet
                             account, in order, each after the previous one's receipt; prints the
                             transaction hashes and the status URL
                               --account <address|role>  the sender (default: the account the steps
                                                         are from; roles: user, solver, ...)
                               --wait                    follow the status until success, failure
                                                         or refund (exit 1 unless success)
                               --force                   send even when the quote's deposit already
                                                         went out (it is refused otherwise:
                                                         DEPOSIT_ALREADY_SENT)
                               --timeout <s>             for --wait (default 120)
                               --devnet-dir <dir>        where devnet.json is (default
                                                         $FERRY_DEVNET_DIR, else .devnet)

Example:
  curl -s -X POST http://127.0.0.1:8080/quote/v2 -H 'content-type: application/json' -d @intent.json > quote.json
  npx ferry devnet send-steps quote.json --wait

Options: --json  -h, --help
`;

const HexString = Type.String({ pattern: "^0x[0-9a-fA-F]*$" });
const Decimal = Type.String({ pattern: "^[0-9]{1,78}$" });

/** What send-steps reads of a quote: its steps (any other field is ignored). */
const QuoteSteps = Type.Object({
  steps: Type.Array(
    Type.Object({
      id: Type.String(),
      kind: Type.String(),
      items: Type.Array(
        Type.Object({
          data: Type.Object({
            from: Type.Optional(Type.String({ pattern: "^0x[0-9a-fA-F]{40}$" })),
            to: Type.String({ pattern: "^0x[0-9a-fA-F]{40}$" }),
            data: Type.Optional(HexString),
            value: Type.Optional(Decimal),
            chainId: Type.Integer({ minimum: 1 }),
            gas: Type.Optional(Decimal),
            maxFeePerGas: Type.Optional(Decimal),
            maxPriorityFeePerGas: Type.Optional(Decimal),
          }),
          check: Type.Optional(Type.Object({ endpoint: Type.String({ pattern: "^/" }) })),
        }),
      ),
    }),
    { minItems: 1 },
  ),
  /** The quote's order: where its deposit goes and under which id (absent from hand-made step lists). */
  protocol: Type.Optional(
    Type.Object({
      v2: Type.Object({
        orderId: Type.String({ pattern: "^0x[0-9a-fA-F]{64}$" }),
        /** `chainId` is the origin chain's name (the spec's form) or id. */
        paymentDetails: Type.Object({ chainId: Type.Union([Type.String(), Type.Integer()]), depository: Type.String({ pattern: "^0x[0-9a-fA-F]{40}$" }) }),
      }),
    }),
  ),
});
type QuoteSteps = Static<typeof QuoteSteps>;

const DEPOSITED = getAbiItem({ abi: depositoryAbi, name: "Deposited" });

/** The hash of a deposit already made under the quote's orderId on its origin chain, if any. */
async function earlierDeposit(devnet: DevnetJson, quote: QuoteSteps): Promise<Hex | undefined> {
  const order = quote.protocol?.v2;
  if (!order) return undefined;
  const named = String(order.paymentDetails.chainId);
  const depositChainId = quote.steps.at(-1)?.items.at(-1)?.data.chainId;
  const chain = devnet.chains.find((c) => c.name === named || String(c.id) === named) ?? devnet.chains.find((c) => c.id === depositChainId);
  if (!chain) return undefined;
  const client = createPublicClient({ transport: http(chain.rpcUrl) });
  try {
    const logs = await client.getLogs({ address: order.paymentDetails.depository as Address, event: DEPOSITED, args: { id: order.orderId as Hex }, fromBlock: 0n, toBlock: "latest" });
    return logs[0]?.transactionHash ?? undefined;
  } catch (cause) {
    throw new FerryError("CHAIN_UNREACHABLE", `chain ${chain.id} at ${chain.rpcUrl} does not answer: is the devnet (npm start) running?`, { cause });
  }
}

const FINAL = new Set(["success", "failure", "refund", "fallback"]);

type Sent = { step: string; chainId: number; hash: Hex; status: "success" | "reverted" };

async function sendSteps(args: readonly string[], io: CliIo, globals: GlobalFlags): Promise<number> {
  const parsed = parseCommandArgs(
    args,
    { account: { type: "string" }, wait: { type: "boolean" }, force: { type: "boolean" }, timeout: { type: "string" }, "devnet-dir": { type: "string" } },
    { min: 1, max: 1 },
  );
  if (parsed.help) {
    io.stdout(HELP);
    return EXIT.OK;
  }
  const json = parsed.json || globals.json;
  const timeoutSeconds = integerFlag(parsed, "timeout") ?? 120;
  const raw = await readJsonInput(io, parsed.positionals[0]!);
  const error = Value.Errors(QuoteSteps, raw)[0];
  if (error) throw new FerryError("INVALID_INPUT", `${parsed.positionals[0]} is not a quote with steps: ${error.instancePath || "(root)"} ${error.message}`);
  const quote = raw as QuoteSteps;
  const unsupported = quote.steps.find((step) => step.kind !== "transaction");
  if (unsupported) throw new FerryError("UNSUPPORTED_STEP", `step ${unsupported.id} is a ${unsupported.kind} step: send-steps sends transaction steps only`);

  const flagDir = typeof parsed.values["devnet-dir"] === "string" ? parsed.values["devnet-dir"] : undefined;
  const devnet = await readDevnetJson(io, resolve(devnetDir(io, flagDir), "devnet.json"));
  const sender = senderOf(devnet, quote, typeof parsed.values.account === "string" ? parsed.values.account : undefined);
  const progress = (line: string) => (json ? io.stderr : io.stdout)(`${line}\n`);
  const earlier = await earlierDeposit(devnet, quote);
  if (earlier && parsed.values.force !== true) {
    throw new FerryError(
      "DEPOSIT_ALREADY_SENT",
      `this quote's deposit already went out (orderId ${quote.protocol!.v2.orderId}, transaction ${earlier}): sending it again would deposit twice. Ask for a new quote, or pass --force to send anyway`,
    );
  }
  if (earlier) progress(`--force: this quote's deposit already went out in ${earlier}; sending again`);
  progress(`sending ${quote.steps.length} step${quote.steps.length === 1 ? "" : "s"} from ${sender.address} (${sender.role})`);

  const sent: Sent[] = [];
  let check: string | undefined;
  for (const step of quote.steps) {
    for (const item of step.items) {
      const chain = devnet.chains.find((c) => c.id === item.data.chainId);
      if (!chain) throw new FerryError("UNKNOWN_CHAIN", `step ${step.id} is for chain ${item.data.chainId}, which the devnet does not run (it runs ${devnet.chains.map((c) => c.id).join(", ")})`);
      const viemChain = defineChain({ id: chain.id, name: chain.name, nativeCurrency: { name: "Ether", symbol: "ETH", decimals: 18 }, rpcUrls: { default: { http: [chain.rpcUrl] } } });
      const transport = http(chain.rpcUrl);
      const wallet = createWalletClient({ account: privateKeyToAccount(sender.privateKey as Hex), chain: viemChain, transport });
      const publicClient = createPublicClient({ chain: viemChain, transport, pollingInterval: 100 });
      let hash: Hex;
      try {
        hash = await wallet.sendTransaction({
          to: item.data.to as Address,
          ...(item.data.data ? { data: item.data.data as Hex } : {}),
          value: BigInt(item.data.value ?? "0"),
          ...(item.data.gas ? { gas: BigInt(item.data.gas) } : {}),
          ...(item.data.maxFeePerGas ? { maxFeePerGas: BigInt(item.data.maxFeePerGas) } : {}),
          ...(item.data.maxPriorityFeePerGas ? { maxPriorityFeePerGas: BigInt(item.data.maxPriorityFeePerGas) } : {}),
        });
      } catch (cause) {
        const reason = (cause as { shortMessage?: string }).shortMessage ?? (cause as Error).message.split("\n")[0];
        if (/ECONNREFUSED|fetch failed|HTTP request failed/i.test(String((cause as Error).message))) {
          throw new FerryError("CHAIN_UNREACHABLE", `chain ${chain.id} at ${chain.rpcUrl} does not answer: is the devnet (npm start) running?`);
        }
        throw new FerryError("TRANSACTION_REJECTED", `step ${step.id} on chain ${chain.id}: ${reason}`);
      }
      const receipt = await publicClient.waitForTransactionReceipt({ hash, timeout: 60_000 });
      sent.push({ step: step.id, chainId: chain.id, hash, status: receipt.status });
      progress(`${step.id.padEnd(8)} chain ${chain.id}  ${hash}  ${receipt.status}`);
      if (receipt.status !== "success") {
        printError(io, json, new FerryError("TRANSACTION_REVERTED", `step ${step.id} (${hash}) reverted on chain ${chain.id}`));
        if (json) io.stdout(`${JSON.stringify({ transactions: sent })}\n`);
        return EXIT.INVALID;
      }
      if (item.check) check = `${devnet.apiUrl.replace(/\/+$/, "")}${item.check.endpoint}`;
    }
  }
  if (check) progress(`status: ${check}`);
  let status: string | undefined;
  if (parsed.values.wait === true) {
    if (!check) throw new FerryError("NO_STATUS_CHECK", "the quote's steps have no check endpoint to wait on");
    status = await waitForFinal(check, timeoutSeconds * 1000, (line) => progress(line));
  }
  printResult(io, json, status === undefined ? "sent" : `status ${status}`, { transactions: sent, ...(check ? { check } : {}), ...(status ? { status } : {}) });
  return status === undefined || status === "success" ? EXIT.OK : EXIT.INVALID;
}

/** The devnet account that sends: `--account` (an address or a role), else the one the steps are from. */
function senderOf(devnet: DevnetJson, quote: QuoteSteps, flag: string | undefined): DevnetJson["accounts"][number] {
  const from = quote.steps.flatMap((step) => step.items).find((item) => item.data.from)?.data.from;
  let account: DevnetJson["accounts"][number] | undefined;
  if (flag !== undefined) {
    account = /^0x[0-9a-fA-F]{40}$/.test(flag)
      ? devnet.accounts.find((a) => isAddressEqual(a.address as Address, flag as Address))
      : devnet.accounts.find((a) => a.role === flag);
    if (!account) throw new UsageError(`--account ${flag} is not a devnet account (an address or a role in devnet.json: ${[...new Set(devnet.accounts.map((a) => a.role))].join(", ")})`);
    if (from && !isAddressEqual(account.address as Address, from as Address)) {
      throw new FerryError("STEP_SENDER_MISMATCH", `the quote's steps are from ${from}, not ${account.address}: quote with "user": "${account.address}" or drop --account`);
    }
    return account;
  }
  if (from) {
    account = devnet.accounts.find((a) => isAddressEqual(a.address as Address, from as Address));
    if (!account) throw new FerryError("STEP_SENDER_MISMATCH", `the quote's steps are from ${from}, which is not a devnet account: quote with a devnet user's address (devnet.json accounts)`);
    return account;
  }
  account = devnet.accounts.find((a) => a.role === "user");
  if (!account) throw new FerryError("DEVNET_FILE_INVALID", "devnet.json lists no user account");
  return account;
}

async function waitForFinal(url: string, timeoutMs: number, progress: (line: string) => void): Promise<string> {
  const deadline = Date.now() + timeoutMs;
  let last: string | undefined;
  while (Date.now() < deadline) {
    try {
      const response = await fetch(url, { signal: AbortSignal.timeout(5_000) });
      if (response.ok) {
        const { status } = (await response.json()) as { status?: string };
        if (status && status !== last) progress(`status ${status}`);
        last = status ?? last;
        if (status && FINAL.has(status)) return status;
      }
    } catch {
      // The service is briefly busy: try again until the deadline.
    }
    await new Promise((r) => setTimeout(r, 250));
  }
  throw new FerryError("STATUS_TIMEOUT", `no final status after ${Math.round(timeoutMs / 1000)} s (last: ${last ?? "none"}); poll ${url}`);
}

export const devnet: CommandGroup = {
  help: HELP,
  run: (args, io, globals) => runSubcommand("devnet", HELP, { "send-steps": sendSteps }, args, io, globals, (m) => new UsageError(m)),
};
