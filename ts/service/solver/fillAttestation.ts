/**
 * The v2 fill attestation of a request, from the fields the indexer wrote into its `data` (the same
 * source the signature route reads, so the two never disagree). Pure.
 */
import type { Address, Hex } from "viem";
import type { StoredRequest } from "../store/requests.ts";
import { StoredValueInvalidError } from "../model/storedValue.ts";
import type { StoredDeposit } from "./depositRequest.ts";

/** The `data` fields the solver reads back, typed. */
export type SolverRequestData = {
  originCurrency: Address;
  originAmount: bigint;
  destinationCurrency: Address;
  destinationAmount: bigint;
  fillDeadline: number;
  quoteExpiresAt: number;
  refundTo: Address;
  deposit: StoredDeposit;
};

const isAddress = (v: unknown): v is Address => typeof v === "string" && /^0x[0-9a-fA-F]{40}$/.test(v);
const isUint = (v: unknown): v is string => typeof v === "string" && /^\d+$/.test(v);

export function readSolverData(request: StoredRequest): SolverRequestData {
  const d = request.data;
  const need = <T>(field: string, ok: boolean, value: T): T => {
    if (!ok) throw new StoredValueInvalidError("requests.data", request.id, field, "is missing or malformed");
    return value;
  };
  const deposit = d.deposit as StoredDeposit | undefined;
  need("deposit", typeof deposit === "object" && deposit !== null && isAddress(deposit.token) && isUint(deposit.amount) && Number.isSafeInteger(deposit.chainId), deposit);
  return {
    originCurrency: need("originCurrency", isAddress(d.originCurrency), d.originCurrency as Address),
    originAmount: BigInt(need("originAmount", isUint(d.originAmount), d.originAmount as string)),
    destinationCurrency: need("destinationCurrency", isAddress(d.destinationCurrency), d.destinationCurrency as Address),
    destinationAmount: BigInt(need("destinationAmount", isUint(d.destinationAmount), d.destinationAmount as string)),
    fillDeadline: need("fillDeadline", Number.isSafeInteger(d.fillDeadline), d.fillDeadline as number),
    quoteExpiresAt: need("quoteExpiresAt", Number.isSafeInteger(d.quoteExpiresAt), d.quoteExpiresAt as number),
    refundTo: need("refundTo", isAddress(d.refundTo), d.refundTo as Address),
    deposit: deposit!,
  };
}

/** Loose v2 input for ts/core's signAttestation / normalizeFillAttestation. */
export function fillAttestationOf(request: StoredRequest, data: SolverRequestData, receiver: Address): Record<string, unknown> {
  return {
    requestId: request.id as Hex,
    orderId: request.orderId as Hex,
    originChainId: request.originChainId,
    originUser: request.user,
    originCurrency: data.originCurrency,
    originAmount: data.originAmount,
    destinationChainId: request.destinationChainId,
    destinationUser: request.recipient,
    destinationCurrency: data.destinationCurrency,
    destinationAmount: data.destinationAmount,
    deadline: data.fillDeadline,
    receiver,
  };
}
