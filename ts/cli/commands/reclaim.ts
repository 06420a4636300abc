/**
 * `ferry reclaim <orderId>`: the depositor's one-transaction reclaim of a reclaimable deposit whose
 * reclaim time has passed without the allocator releasing it (ts/client reclaimDeposit.ts). Talks to the
 * origin chain only (`--rpc-url`, `--depository`); the depositor's key comes from the environment
 * (FERRY_DEPOSITOR_KEY), never from a flag, so it stays out of shell history and process lists.
 */
import { createPublicClient, createWalletClient, http, type Address, type Hex } from "viem";
import { privateKeyToAccount } from "viem/accounts";
import { parseAddress, parseBytes32 } from "../../core/inputParsers.ts";
import { reclaimDeposit } from "../../client/reclaimDeposit.ts";
import { EXIT, UsageError, printResult } from "../cliIo.ts";
import type { CommandGroup } from "../commandGroup.ts";
import { parseCommandArgs, requiredFlag } from "../parseCommandArgs.ts";

const HELP = `Usage: ferry reclaim <orderId> --rpc-url <url> --depository <address> [--from-block <n>]

Takes a reclaimable deposit back from the origin chain's Depository, in one transaction sent
from the depositor's key: possible once its reclaim time has passed, if the service has not
repaid or refunded the order by then (which releases the deposit). Needs no Ferry service.
Checks first that the deposit is still reclaimable, that the key is its depositor and that the
chain's time has reached its reclaim time (RECLAIM_NOT_LIVE, RECLAIM_NOT_DEPOSITOR, RECLAIM_NOT_YET).

Environment: FERRY_DEPOSITOR_KEY  the depositor's private key (0x + 64 hex digits)

Options: --from-block <n>  where to look for the deposit's event (default 0)  --json  -h, --help
`;

export const reclaim: CommandGroup = {
  help: HELP,
  run: async (args, io, globals) => {
    const parsed = parseCommandArgs(args, { "rpc-url": { type: "string" }, depository: { type: "string" }, "from-block": { type: "string" } }, { min: 1, max: 1 });
    if (parsed.help) {
      io.stdout(HELP);
      return EXIT.OK;
    }
    const id = parseBytes32(parsed.positionals[0], "orderId");
    const depository: Address = parseAddress(requiredFlag(parsed, "depository"), "depository");
    const rpcUrl = requiredFlag(parsed, "rpc-url");
    const fromBlockText = typeof parsed.values["from-block"] === "string" ? parsed.values["from-block"] : undefined;
    if (fromBlockText !== undefined && !/^[0-9]{1,20}$/.test(fromBlockText)) throw new UsageError(`--from-block ${fromBlockText} is not a block number`);
    const key = io.env.FERRY_DEPOSITOR_KEY;
    if (key === undefined || !/^0x[0-9a-fA-F]{64}$/.test(key)) throw new UsageError("set FERRY_DEPOSITOR_KEY to the depositor's private key (0x + 64 hex digits)");
    const transport = http(rpcUrl);
    const publicClient = createPublicClient({ transport, pollingInterval: 250 });
    const chainId = await publicClient.getChainId();
    const chain = { id: chainId, name: `chain ${chainId}`, nativeCurrency: { name: "Ether", symbol: "ETH", decimals: 18 }, rpcUrls: { default: { http: [rpcUrl] } } };
    const walletClient = createWalletClient({ account: privateKeyToAccount(key as Hex), chain, transport });
    const { txHash, deposit } = await reclaimDeposit({ walletClient, publicClient, depository, id, fromBlock: fromBlockText === undefined ? undefined : BigInt(fromBlockText) });
    printResult(io, parsed.json || globals.json, `reclaimed ${deposit.amount} of ${deposit.currency} to ${deposit.depositor} in ${txHash}`, { txHash, ...deposit });
    return EXIT.OK;
  },
};
