/** Shared by the quote service's chain tests: real EDR chains 31337 and 31338 with their public clients, and the solver account. */
import { network } from "hardhat";
import type { PublicClient } from "viem";
import { privateKeyToAccount } from "viem/accounts";
import { serviceAccountOf } from "../../../ts/service/chains/serviceAccounts.ts";
import { DESTINATION, ORIGIN } from "./quoteFixture.ts";

/** Hardhat account #3: the account quotes are made for (orderData.solver). */
export const QUOTE_SOLVER = serviceAccountOf(privateKeyToAccount("0x7c852118294e51e653712a81e05800f419141751be58f605c371e15141b007a6"));

export async function quoteChains() {
  const origin = await network.create("origin");
  const destination = await network.create("destination");
  const clients = new Map<number, PublicClient>([
    [ORIGIN, (await origin.viem.getPublicClient()) as unknown as PublicClient],
    [DESTINATION, (await destination.viem.getPublicClient()) as unknown as PublicClient],
  ]);
  return { origin, destination, clients };
}
