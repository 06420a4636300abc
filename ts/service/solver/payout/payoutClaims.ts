/**
 * Payouts the Depository could not make: `execute` forwards bounded gas to each payee, and a payee
 * that cannot receive within it (rejects native currency, burns the gas, is blocklisted by the token,
 * the token returns false) gets a claimable balance instead (`PayoutClaimable(nonce, index, to,
 * token, amount)`); the other payouts of the request go on. The payout landed, the funds are the
 * payee's: the service records which calls became claimable and tells the payee how to claim
 * (`claim(token, to)` on the Depository, sent by the payee, to any address it chooses). Pure.
 */
import { decodeLog } from "../../chains/decodeLog.ts";
import type { Receipt } from "../../chains/readReceipt.ts";
import { depositoryAbi } from "../../../abi/Depository.ts";
import type { ClaimablePayout, Payout } from "../../model/payout.ts";
import type { Details } from "../../model/solverState.ts";
import type { Address } from "../../model/values.ts";

const PAYOUT_CLAIMABLE_EVENT = depositoryAbi.find((i) => i.type === "event" && i.name === "PayoutClaimable")!;

/** The calls of the payout with `nonce` that `receipt`'s `execute` made claimable, in call order. */
export function claimablePayoutsOf(receipt: Receipt, depository: Address, nonce: bigint): ClaimablePayout[] {
  const out: ClaimablePayout[] = [];
  for (const log of receipt.logs) {
    const args = decodeLog([PAYOUT_CLAIMABLE_EVENT], log);
    if (!args || args.emitter !== depository || args.nonce !== nonce) continue;
    out.push({ index: Number(args.index), to: args.to, token: args.token, amount: args.amount });
  }
  return out.sort((a, b) => a.index - b.index);
}

/** How a payee claims what a payout made claimable (the first claimable call), for a request's public `details`; null when nothing is. */
export function claimDetails(kind: "repayment" | "refund", payout: Payout): Details | null {
  const claim = payout.claimable?.[0];
  if (!claim) return null;
  return {
    claimable: kind,
    claimChainId: payout.chainId,
    claimDepository: payout.depository,
    claimPayee: claim.to,
    claimToken: claim.token,
    claimAmount: claim.amount.toString(),
    claimHow: `the payee could not receive within the payout's gas: its funds wait in the Depository; the payee (${claim.to}) calls claim(token, to) on ${payout.depository} (chain ${payout.chainId}) with token ${claim.token} and any recipient address`,
  };
}
