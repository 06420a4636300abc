/**
 * A valid request receipt built from first principles (no service, no chain): an order, the logs the
 * contracts would emit (encoded from their event ABIs), the attester's signature over the fill digest,
 * the allocator's repayment request. Tests tamper with copies of it. No tests here.
 */
import { encodeAbiParameters, encodeEventTopics, getAddress, keccak256, toHex, type Address, type Hex, type LocalAccount } from "viem";
import { privateKeyToAccount } from "viem/accounts";
import { callsFillDigest, fillDigest, type FillAttestation } from "../../ts/core/attestationDigest.ts";
import { hashOrder } from "../../ts/core/orderId.ts";
import { orderToJson, type Order } from "../../ts/core/orderJson.ts";
import { payoutRequestHash } from "../../ts/core/payoutRequest.ts";
import { RECEIPT_VERSION, requestReceiptToJson, type RequestReceipt } from "../../ts/core/requestReceipt.ts";
import { settlementRequestHash } from "../../ts/core/settlementRequest.ts";
import { signAttestationDigest } from "../../ts/core/signAttestation.ts";
import { RECEIPT_EVENTS_ABI } from "../../ts/core/verifyReceipt.ts";

// Hardhat's public test keys (never used on a real chain).
export const ATTESTER: LocalAccount = privateKeyToAccount("0x7c852118294e51e653712a81e05800f419141751be58f605c371e15141b007a6");
export const SOLVER: Address = getAddress("0x3c44cdddb6a900fa2b585dd299e03d12fa4293bc");
export const USER: Address = getAddress("0x15d34aaf54267db7d7c367839aaf71a00a2c6a65");
export const RECIPIENT: Address = getAddress("0x9965507d1a55bcc2695c58ba16fb37d819b0a4dc");
export const DEPOSITORY: Address = getAddress("0x13fc9b3b7d3ae43834148a79e2121a2233db8711");
export const RECEIVER: Address = getAddress("0x61413af293066f601790ce4b9d2a0608e122f5cf");
export const FUSD: Address = getAddress("0xbae536c2c99c89feaf9c4a19a5c324409c607be8");

const h = (label: string): Hex => keccak256(toHex(label));
const word = (a: Address): Hex => `0x${"0".repeat(24)}${a.slice(2).toLowerCase()}`;

export type ReceiptFixtureOptions = {
  /** Also credit an app fee (a SettlementRequest) instead of a plain CallRequest. */
  appFee?: bigint;
  /** Give the order a destination call (a CallsFillAttestation). */
  withCall?: boolean;
};

/** A typed, valid receipt: 25 fUSD from chain 31337 to 24.9 fUSD on 31338, filled and repaid. */
export async function validReceipt(options: ReceiptFixtureOptions = {}): Promise<RequestReceipt> {
  const originAmount = 25_000_000n;
  const destinationAmount = 24_900_000n;
  const deadline = 1_800_000_000;
  const order: Order = {
    version: "v1",
    solverChainId: "ferry-origin",
    solver: SOLVER.toLowerCase() as Address,
    salt: 7n,
    inputs: [
      {
        payment: { chainId: "ferry-origin", currency: FUSD.toLowerCase() as Hex, amount: originAmount, weight: 1n },
        refunds: [{ chainId: "ferry-origin", recipient: USER.toLowerCase() as Hex, currency: FUSD.toLowerCase() as Hex, minimumAmount: originAmount, deadline, extraData: "0x" }],
      },
    ],
    output: {
      chainId: "ferry-destination",
      payments: [{ recipient: RECIPIENT.toLowerCase() as Hex, currency: FUSD.toLowerCase() as Hex, minimumAmount: destinationAmount, expectedAmount: destinationAmount }],
      deadline,
      calls: options.withCall ? [encodeAbiParameters([{ type: "address" }], [RECIPIENT])] : [],
      extraData: encodeAbiParameters([{ type: "address" }], [RECEIVER]),
    },
    fees: [],
  };
  const orderId = hashOrder(order);
  const requestId = h("receipt fixture request");
  const attestation: FillAttestation = {
    requestId,
    orderId,
    originChainId: 31337n,
    originUser: word(USER),
    originCurrency: word(FUSD),
    originAmount,
    destinationChainId: 31338n,
    destinationUser: word(RECIPIENT),
    destinationCurrency: word(FUSD),
    destinationAmount,
    deadline: BigInt(deadline),
    receiver: RECEIVER,
  };
  const digest = options.withCall ? callsFillDigest(attestation) : fillDigest(attestation);
  const signature = await signAttestationDigest(ATTESTER, digest);
  const fee = options.appFee ?? 0n;
  const calls = [{ to: SOLVER, token: FUSD, amount: originAmount - fee }];
  const credits = fee > 0n ? [{ to: USER, token: FUSD, amount: fee }] : undefined;
  const nonce = BigInt(h("ferry.repayment"));
  const expiration = 1_900_000_000n;
  const requestHash = credits ? settlementRequestHash({ calls, credits, nonce, expiration }) : payoutRequestHash({ calls, nonce, expiration });
  return {
    version: RECEIPT_VERSION,
    requestId,
    chains: { origin: { id: 31337, name: "ferry-origin" }, destination: { id: 31338, name: "ferry-destination" } },
    order: { orderId, orderData: orderToJson(order) },
    deposit: {
      chainId: 31337,
      txHash: h("deposit tx"),
      blockNumber: 41,
      blockHash: h("deposit block"),
      logIndex: 0,
      log: {
        address: DEPOSITORY,
        topics: encodeEventTopics({ abi: RECEIPT_EVENTS_ABI, eventName: "Deposited", args: { id: orderId, depositor: USER } }) as Hex[],
        data: encodeAbiParameters([{ type: "address" }, { type: "uint256" }], [FUSD, originAmount]),
      },
      depository: DEPOSITORY,
      fields: { id: orderId, depositor: USER, token: FUSD, amount: originAmount },
    },
    attestation: { type: options.withCall ? "CallsFillAttestation" : "FillAttestation", fields: attestation, digest, signature },
    signerSet: { chainId: 31338, receiver: RECEIVER, blockNumber: 17, signers: [ATTESTER.address] },
    fill: {
      chainId: 31338,
      txHash: h("fill tx"),
      blockNumber: 17,
      blockHash: h("fill block"),
      logIndex: 1,
      log: {
        address: RECEIVER,
        topics: encodeEventTopics({ abi: RECEIPT_EVENTS_ABI, eventName: "Filled", args: { requestId } }) as Hex[],
        data: encodeAbiParameters([{ type: "address" }, { type: "address" }, { type: "address" }, { type: "uint256" }], [RECIPIENT, SOLVER, FUSD, destinationAmount]),
      },
      receiver: RECEIVER,
      blockTimestamp: 1_700_000_000n,
      filledDigest: digest,
      fields: { requestId, recipient: RECIPIENT, filler: SOLVER, currency: FUSD, amount: destinationAmount },
    },
    repayment: {
      chainId: 31337,
      txHash: h("repayment tx"),
      blockNumber: 44,
      blockHash: h("repayment block"),
      logIndex: 2,
      log: {
        address: DEPOSITORY,
        topics: encodeEventTopics({ abi: RECEIPT_EVENTS_ABI, eventName: "RequestExecuted", args: { requestHash, nonce } }) as Hex[],
        data: "0x",
      },
      depository: DEPOSITORY,
      request: { calls, ...(credits ? { credits } : {}), nonce, expiration },
      fields: { requestHash, nonce },
    },
  };
}

/** The JSON of a valid receipt, as the route serves it. */
export async function validReceiptJson(options: ReceiptFixtureOptions = {}) {
  return JSON.parse(JSON.stringify(requestReceiptToJson(await validReceipt(options))));
}
