/**
 * App fees accrue in each chain's Depository as claimable balances: the repayment's settlement credits
 * `claimable[recipient][token]` (ts/service/solver/payout/payoutPlan.ts), and the recipient withdraws with
 * `claim(token, to)`. This reads them — onchain, per configured chain and currency — for
 * GET /app-fees/{wallet}/balances and POST /app-fees/{wallet}/claim. No database: the Depository's
 * `claimable` mapping is the balance, so nothing can disagree with what `claim` pays.
 *
 * The mapping also holds payouts the Depository could not deliver (PayoutClaimable: a payee that
 * rejected native currency); for a wallet that is also such a payee, its balance includes them, and
 * `claim` withdraws both alike.
 */
import type { Address } from "viem";
import { depositoryAbi } from "../../../abi/Depository.ts";
import type { ChainClient, ChainClients } from "../../chains/chainClients.ts";
import type { ChainConfig } from "../../config/configSchema.ts";
import { ServiceError } from "../../errors/serviceError.ts";
import { canonicalAddress, ZERO_ADDRESS } from "../../model/values.ts";
import { findCurrency, type RouteCurrency } from "../../quote/quoteRoute.ts";

export type ClaimableBalance = { chain: ChainConfig; depository: Address; currency: RouteCurrency; amount: bigint };

/** Every currency configured on `chain`: the native one first, then the ERC-20s. */
export function chainCurrencies(chain: ChainConfig): RouteCurrency[] {
  const addresses = [ZERO_ADDRESS, ...chain.erc20Currencies.map((c) => c.address)];
  return addresses.map((address) => findCurrency(chain, address)!);
}

/** `claimable(wallet, currency)` on the chain's Depository; CHAIN_UNAVAILABLE when the RPC fails. */
export async function readClaimable(client: ChainClient, wallet: Address, currency: RouteCurrency): Promise<ClaimableBalance> {
  const depository = client.config.contracts.depository;
  try {
    const amount = await client.publicClient.readContract({ address: depository, abi: depositoryAbi, functionName: "claimable", args: [wallet, currency.address] });
    return { chain: client.config, depository, currency, amount };
  } catch (cause) {
    throw new ServiceError("CHAIN_UNAVAILABLE", `chain ${client.config.id} did not answer; retry`, { cause });
  }
}

/** The wallet's non-zero claimable balances on every configured chain the service has a client for. */
export async function readAllClaimable(clients: ChainClients, chains: readonly ChainConfig[], wallet: Address): Promise<ClaimableBalance[]> {
  const reads = chains.filter((chain) => clients.has(chain.id)).flatMap((chain) => chainCurrencies(chain).map((currency) => readClaimable(clients.get(chain.id), wallet, currency)));
  return (await Promise.all(reads)).filter((balance) => balance.amount > 0n);
}
