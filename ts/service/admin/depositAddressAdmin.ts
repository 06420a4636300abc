/**
 * The operator's view of one deposit address (`ferry deposit-addresses show <address>`, GET
 * /admin/deposit-addresses/{address}): on every chain where the service handed it out (the factory sits
 * at the same address on each chain, so one address can have a row per chain), what it is bound to
 * and each payment it saw, with what became of it:
 * - the payment forwarded into the Depository (outcome `forwarded`, the quote's request);
 * - each refund out of it (outcome `refund <state>`: planned, sent, confirmed, ignored below the stray
 *   threshold, reverted — ../solver/depositAddress/), with its reason, the payment it returns (the
 *   payer's transaction and block, as far as they can be told) and the refund transaction.
 * An address the service never handed out is DEPOSIT_ADDRESS_NOT_FOUND. Pure reads of the store.
 */
import { ServiceError } from "../errors/serviceError.ts";
import type { Address } from "../model/values.ts";
import type { Queryable } from "../store/engine.ts";
import { listDepositAddressChains, type StoredDepositAddress } from "../store/depositAddresses.ts";

/** One payment seen at the address and its outcome (amounts as decimal strings, the smallest unit). */
export type DepositAddressPaymentView = {
  /** The payer's transaction, when it could be told (a plain transfer; an internal transfer leaves it null). */
  txHash: string | null;
  depositor: string | null;
  currency: string;
  amount: string;
  block: number;
  /** `forwarded`, or `refund planned|sent|confirmed|ignored|reverted`. */
  outcome: string;
  /** A refund's failReason (why it went back); a reverted refund's own failReason follows it. */
  reason: string | null;
  requestId: string;
  refundTxHash: string | null;
};

export type DepositAddressView = {
  chainId: number;
  address: string;
  mode: string;
  state: string;
  requestId: string;
  orderId: string;
  currency: string;
  amount: string;
  refundTo: string;
  expiresAt: string;
  payments: DepositAddressPaymentView[];
};

export type DepositAddressAdmin = {
  /** `address` canonical (the route's schema, the CLI). */
  showDepositAddress(address: Address): Promise<DepositAddressView[]>;
};

export class DepositAddressNotFoundError extends ServiceError {
  constructor(address: string) {
    super("DEPOSIT_ADDRESS_NOT_FOUND", `the service never handed out the deposit address ${address}`);
  }
}

export function depositAddressAdmin(store: { engine: Queryable }): DepositAddressAdmin {
  return {
    async showDepositAddress(address) {
      const rows = await listDepositAddressChains(store.engine, address);
      if (rows.length === 0) throw new DepositAddressNotFoundError(address);
      return rows.map(depositAddressView);
    },
  };
}

export function depositAddressView(row: StoredDepositAddress): DepositAddressView {
  const payments: DepositAddressPaymentView[] = [];
  if (row.payment) {
    payments.push({
      txHash: row.payment.txHash,
      depositor: row.payment.depositor,
      currency: row.payment.token,
      amount: row.amount.toString(),
      block: row.payment.blockNumber,
      outcome: "forwarded",
      reason: null,
      requestId: row.requestId,
      refundTxHash: null,
    });
  }
  for (const refund of row.refunds ?? []) {
    payments.push({
      txHash: refund.payment.txHash,
      depositor: refund.payment.depositor,
      currency: refund.token,
      amount: refund.amount.toString(),
      block: refund.payment.blockNumber,
      outcome: `refund ${refund.state}`,
      reason: refund.failReason ? `${refund.reason} (${refund.failReason})` : refund.reason,
      requestId: row.requestId,
      refundTxHash: refund.txHash,
    });
  }
  return {
    chainId: row.chainId,
    address: row.address,
    mode: row.mode,
    state: row.state,
    requestId: row.requestId,
    orderId: row.orderId,
    currency: row.currency,
    amount: row.amount.toString(),
    refundTo: row.refundTo,
    expiresAt: row.expiresAt,
    payments,
  };
}
