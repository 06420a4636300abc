/**
 * A payment into a deposit address, as the solver saw it on the origin chain: who paid, in which
 * transaction, what and how much. For an ERC-20 it is the `Transfer` log (transaction hash and log
 * index); for native currency the balance the address held at a confirmed block (no log exists for a
 * plain value transfer), with the transaction found in that block's range when the node can say
 * (`txHash` null otherwise: the request record's `depositTxHash` stays null).
 */
import { Type, type StaticDecode } from "typebox";
import { Address, Bytes32, ChainId, Uint256, UnixSeconds } from "./values.ts";

export const DepositAddressPayment = Type.Object(
  {
    chainId: ChainId,
    /** The deposit address paid. */
    address: Address,
    /** The currency paid (zero address = native). */
    token: Address,
    amount: Uint256,
    /** The payer (`from` of the Transfer log or of the native transfer); null when not known. */
    depositor: Type.Union([Address, Type.Null()]),
    txHash: Type.Union([Bytes32, Type.Null()]),
    /** The first block at which the address held the amount (when the payment landed). */
    blockNumber: Type.Integer({ minimum: 0 }),
    /** That block's time: the payment is on time when this is at most the quote's `expiresAt`. */
    blockTimestamp: UnixSeconds,
  },
  { additionalProperties: false },
);
export type DepositAddressPayment = StaticDecode<typeof DepositAddressPayment>;
