/**
 * POST /execute's logic: an app's call (a smart wallet's deposit, an EntryPoint `handleOps`, an
 * EIP-7702 batch with its `authorizationList`) relayed from the service's relayer key, the gas paid by
 * the service on the app's behalf.
 *
 * In order (each refusal a 4xx, nothing sent):
 *  1. the chain is configured (UNKNOWN_CHAIN) and the relayer key is (KEY_NOT_CONFIGURED, 500);
 *  2. with a `requestId`: the quote exists (REQUEST_NOT_FOUND, 404), was quoted on this chain
 *     (EXECUTE_CHAIN_MISMATCH) and is not expired (QUOTE_EXPIRED). Without one (smart-account use) the
 *     requestId is made from the call itself — keccak256 of (chainId, to, data, value, authorizations)
 *     — so the same signed batch posted twice is the same execution;
 *  3. already relayed? (the request is past `depositing`, or a relayer transaction — any state: pending,
 *     mined, reverted — names one of this execution's holds that is not released) → 200 "already
 *     submitted" with that transaction's hash; nothing is sent again;
 *  4. the simulation: every authorization's delegate has code on the chain (else 400
 *     EXECUTION_DELEGATE_HAS_NO_CODE: the EOA would run nothing and the relayer pay for a no-op), then
 *     `eth_estimateGas` from the relayer with the authorizations applied. A revert is
 *     400 EXECUTION_SIMULATION_FAILED with the spec's body (./simulationFailure.ts: the failing frames
 *     from a `debug_traceCall` callTracer, the revert decoded); an estimate over `maxGas` is 400
 *     EXECUTION_GAS_TOO_HIGH (the relayer never pays for more gas than the cap, whatever the call burns);
 *  5. the gas is paid by the app: the most the transaction can cost (gas limit × max fee, priced as
 *     the nonce manager prices it, in USD micro-units at the native currency's configured price:
 *     ./gasCharge.ts) is held on the app balance, keyed on the execution's attempt (`hold` is
 *     idempotent on ("execute", reference): ../balances/executeHoldSubject.ts). A released hold paid
 *     for nothing, so the next attempt's hold is taken (at most MAX_EXECUTE_ATTEMPTS, then 409
 *     EXECUTION_ATTEMPTS_EXHAUSTED); a balance that cannot cover it is 400 SPONSOR_BALANCE_TOO_LOW and
 *     nothing is sent. A hold that already ended settled answers "already submitted"; the hold is
 *     settled from the receipt by ./relayer.ts's follower, once;
 *  6. the transaction goes through the relayer's nonce manager (../transactions/nonceManager.ts,
 *     purpose `execute`, subject `executeHoldSubject(hold)`): a type-4 transaction when authorizations are given,
 *     else type 2. Its nonce, its signed bytes and — for a quote — the request in `depositing` with the
 *     transaction's hash in `inTxs` are written in ONE store transaction before the broadcast, so a
 *     crash leaves either nothing or everything needed to re-broadcast and follow it; the indexer then
 *     moves the request to `pending` from the Depository's `Deposited` event like any deposit. That
 *     store transaction first locks the hold and checks again that no other transaction names it: two
 *     posts of one execution that both passed step 3 record (and send) one transaction; the other is
 *     answered "already submitted" with it, and the hold stays the sent one's. A failed send releases
 *     the hold only under that lock when still nothing names it (./stuckExecuteHolds.ts).
 */
import { encodeAbiParameters, type Abi, type Hex } from "viem";
import { executeHoldReference, executeHoldSubject, MAX_EXECUTE_ATTEMPTS } from "../balances/executeHoldSubject.ts";
import type { ChainClients } from "../chains/chainClients.ts";
import { KeyNotConfiguredError, type ServiceAccount } from "../chains/serviceAccounts.ts";
import type { ChainConfig } from "../config/configSchema.ts";
import { ServiceError } from "../errors/serviceError.ts";
import type { Logger } from "../logging/logger.ts";
import type { TxAuthorization } from "../model/solverTransaction.ts";
import { Bytes32, type Address } from "../model/values.ts";
import { keccak256Lowercase } from "../../core/lowercaseHex.ts";
import type { Store } from "../store/createStore.ts";
import type { ExecuteHoldTransaction } from "../store/executeHolds.ts";
import { newRequestFor } from "../solver/indexer/depositRequest.ts";
import { signedAuthorization, type NonceManager } from "../transactions/nonceManager.ts";
import { isRevert, revertDataOf } from "../transactions/revertReason.ts";
import type { FeeOracle } from "../transactions/chainFees.ts";
import { initialFees } from "../transactions/transactionFees.ts";
import { weiToUsdMicros } from "./gasCharge.ts";
import { executionRequest } from "./executionRequest.ts";
import { releaseUnsentExecuteHold, requireHeldExecuteHold } from "./stuckExecuteHolds.ts";
import { simulationFailure, type SimulationFailureBody } from "./simulationFailure.ts";
import { frameNames, traceCall, type TraceClient } from "../transactions/callFrames.ts";

/** What POST /execute asks, decoded once at the route. */
export type ExecuteSubmission = {
  requestId?: Bytes32;
  apiKeyId: string;
  chainId: number;
  to: Address;
  data: Hex;
  value: bigint;
  authorizationList?: readonly TxAuthorization[];
  /** Accepted; its meaning (the quote's fees paid by the app) belongs to fee sponsorship. */
  subsidizeFees: boolean;
};

export type ExecuteResult = { message: string; requestId: Bytes32; txHash?: Bytes32 };

/** Gas headroom over the estimate, as the nonce manager adds it. */
const GAS_HEADROOM_PERCENT = 20n;

/**
 * A send refused under the hold's lock because another post of the same execution recorded its
 * transaction first: not an error for the caller, who is answered "already submitted" with it.
 */
class SentBefore extends Error {
  readonly transaction: ExecuteHoldTransaction;
  constructor(transaction: ExecuteHoldTransaction) {
    super(`already sent as ${transaction.txHash}`);
    this.transaction = transaction;
  }
}

/** The simulation reverted: answered 400 with the spec's body (plus `errorCode`). */
export class ExecutionSimulationFailedError extends ServiceError {
  readonly body: SimulationFailureBody;
  constructor(body: SimulationFailureBody, cause: unknown) {
    super("EXECUTION_SIMULATION_FAILED", body.message, { cause });
    this.body = body;
  }
}

export type RelayExecutor = { execute(submission: ExecuteSubmission, log: Logger): Promise<ExecuteResult> };

export function createRelayExecutor(deps: {
  store: Store;
  clients: ChainClients;
  chains: readonly ChainConfig[];
  /** The relayer's key; without it every execution is KEY_NOT_CONFIGURED. */
  relayer: ServiceAccount | undefined;
  /** The relayer key's nonce manager. */
  transactions: Pick<NonceManager, "send">;
  /** The fee market the nonce manager prices with (the hold is priced alike). */
  fees: FeeOracle;
  /** The chain's cap of max fee × gas limit (wei). */
  maxTransactionFee: (chainId: number) => bigint;
  /** The most gas one relayed transaction may use (`solver.maxGasPerTransaction`). */
  maxGas: bigint;
  /** Extra ABIs frames are named from (the EntryPoint's, the batch executor's). */
  abis?: readonly Abi[];
  now?: () => Date;
}): RelayExecutor {
  const now = deps.now ?? (() => new Date());
  return {
    async execute(submission, log) {
      if (!deps.clients.has(submission.chainId)) throw new ServiceError("UNKNOWN_CHAIN", `data/chainId: chain ${submission.chainId} is not served here`);
      const relayer = deps.relayer;
      if (!relayer) throw new KeyNotConfiguredError("relayer");
      const client = deps.clients.get(submission.chainId);

      const quote = submission.requestId ? await deps.store.getQuote(submission.requestId) : null;
      if (submission.requestId && !quote) throw new ServiceError("REQUEST_NOT_FOUND", `no quote with requestId ${submission.requestId}`);
      if (quote && quote.intent.originChainId !== submission.chainId) {
        throw new ServiceError("EXECUTE_CHAIN_MISMATCH", `data/chainId: quote ${quote.intent.requestId} deposits on chain ${quote.intent.originChainId}, not ${submission.chainId}`);
      }
      if (quote && Math.floor(now().getTime() / 1000) > quote.intent.expiresAt) {
        throw new ServiceError("QUOTE_EXPIRED", `quote ${quote.intent.requestId} expired at ${quote.intent.expiresAt}; ask for a new one`);
      }
      const requestId = submission.requestId ?? executionId(submission);

      const already = await alreadyRelayed(requestId, quote?.intent.orderId);
      if (already) return { message: "already submitted", requestId, txHash: already };
      // Any state: a mined transaction whose hold the follower has not settled yet was sent all the same.
      const sentBefore = await deps.store.findExecuteTransaction(requestId);
      if (sentBefore) return { message: "already submitted", requestId, txHash: sentBefore.txHash };

      // A delegate with no code makes the delegated EOA run nothing: the relayer would pay for a no-op.
      for (const delegate of new Set((submission.authorizationList ?? []).map((a) => a.address))) {
        const code = await client.publicClient.getCode({ address: delegate });
        if (!code || code === "0x") throw new ServiceError("EXECUTION_DELEGATE_HAS_NO_CODE", `data/authorizationList: the delegate ${delegate} has no code on chain ${submission.chainId}: nothing to execute, not sent`);
      }
      const authorizationList = submission.authorizationList?.map(signedAuthorization);
      const call = { account: relayer.address, to: submission.to, data: submission.data, value: submission.value, ...(authorizationList && { authorizationList }) };
      let estimate: bigint;
      try {
        estimate = await client.publicClient.estimateGas(call);
      } catch (error) {
        if (!isRevert(error)) throw error;
        const trace = await traceCall(client.publicClient as unknown as TraceClient, { from: call.account, to: call.to, data: call.data, value: call.value, ...(authorizationList && { authorizationList: authorizationList.map(tracedAuthorization) }) });
        const body = simulationFailure({ requestId, trace, call, revertData: revertDataOf(error) ?? undefined, names: frameNames(client.config, deps.abis ?? []) });
        log.info({ requestId, chainId: submission.chainId, error: body.error }, "execute: simulation failed, nothing sent");
        throw new ExecutionSimulationFailedError(body, error);
      }
      if (estimate > deps.maxGas) throw new ServiceError("EXECUTION_GAS_TOO_HIGH", `the execution needs ${estimate} gas, over the relayer's cap of ${deps.maxGas}: not sent`);

      // The hold: the most the first attempt can cost, as the nonce manager will price it.
      const padded = estimate + (estimate * GAS_HEADROOM_PERCENT) / 100n;
      const gas = padded < deps.maxGas ? padded : deps.maxGas;
      const priced = initialFees(await deps.fees.market(submission.chainId), gas, deps.maxTransactionFee(submission.chainId));
      const native = client.config.nativeCurrency;
      // The value the relayer sends with the call is the app's spend too.
      const amountUsd = weiToUsdMicros(priced.fees.maxFeePerGas * gas + submission.value, native, submission.chainId);
      const { holdId, reference, amountUsd: heldUsd, state } = await holdForAttempt(submission.apiKeyId, requestId, amountUsd);
      if (state === "settled") {
        const sent = await deps.store.findExecuteTransaction(requestId);
        return { message: "already submitted", requestId, ...(sent ? { txHash: sent.txHash } : quote && { txHash: await firstInTx(quote.intent.requestId) }) };
      }
      const subject = executeHoldSubject({ reference, holdId });

      const tx = { to: submission.to, data: submission.data, value: submission.value, maxGas: deps.maxGas, ...(submission.authorizationList && { authorizationList: submission.authorizationList }) };
      let sent;
      try {
        sent = await deps.transactions.send({
        chainId: submission.chainId,
        purpose: "execute",
        subject,
        tx,
        logFields: { requestId, apiKeyId: submission.apiKeyId, holdId },
        // Fees moved up since the hold was priced: the held amount must still cover the first attempt.
        beforeAllocation: async ({ costWei }) => {
          const cost = weiToUsdMicros(costWei + submission.value, native, submission.chainId);
          if (cost > heldUsd) throw new ServiceError("EXECUTION_FEES_MOVED", `the gas now costs up to ${cost} USD micro-units, over the ${heldUsd} held: retry`);
        },
        // In the nonce's store transaction: the request exists with its transaction from the moment it is signed.
        record: async (sent, repos) => {
          // Under the hold's lock: another post of this execution recorded first → nothing recorded, answered with that one;
          // a hold the stuck-hold sweep released meanwhile (./stuckExecuteHolds.ts) pays for nothing: nothing recorded or sent.
          const earlier = await requireHeldExecuteHold(repos, holdId, sent);
          if (earlier) throw new SentBefore(earlier);
          if (!quote) {
            // Without a quote the execution is its own request, followed from its transaction's receipt (./relayer.ts).
            if (!(await repos.getRequest(requestId))) await repos.createRequest(executionRequest(requestId, submission, sent.hash));
            return;
          }
          if ((await repos.getRequest(quote.intent.requestId)) ?? (await repos.getRequestByOrderId(quote.intent.orderId))) return;
          await repos.createRequest({ ...newRequestFor(quote.intent, quote.apiKeyId ?? submission.apiKeyId, sent.hash, null, deps.chains), status: "depositing" });
        },
        });
      } catch (error) {
        if (error instanceof SentBefore) {
          log.info({ requestId, holdId, txHash: error.transaction.txHash }, "execute: another post of this execution sent it first; nothing sent");
          return { message: "already submitted", requestId, txHash: error.transaction.txHash };
        }
        // Nothing was recorded (the nonce, the transaction and the request commit together or not at all): the hold goes back,
        // under its lock and only while no transaction names it (a concurrent post's send may have recorded one).
        await releaseUnsentExecuteHold(deps.store, holdId).catch((release: unknown) => log.warn({ requestId, holdId, err: String(release) }, "execute: releasing the hold failed"));
        throw error;
      }
      log.info({ requestId, chainId: submission.chainId, txHash: sent.hash, type: tx.authorizationList ? "eip7702" : "eip1559" }, "execute: relayed");
      return { message: "execution submitted", requestId, txHash: sent.hash };
    },
  };

  /**
   * The hold this attempt relays under: the first of the execution's attempts (../balances/executeHoldSubject.ts)
   * whose hold is not released. A released hold paid for nothing (released with no transaction recorded —
   * a failed send, the stuck-hold sweep — or when its nonce went to another transaction), so a retry
   * after it takes the next attempt's hold instead of answering "already submitted" for an execution
   * that never ran. A held or settled hold is the execution's own: `hold` is idempotent on its reference,
   * so concurrent posts of one execution meet on one hold.
   */
  async function holdForAttempt(apiKeyId: string, requestId: Bytes32, amountUsd: bigint): Promise<{ holdId: string; reference: string; amountUsd: bigint; state: "held" | "settled" }> {
    for (let attempt = 0; attempt < MAX_EXECUTE_ATTEMPTS; attempt++) {
      const reference = executeHoldReference(requestId, attempt);
      const held = await deps.store.appBalances.hold({ apiKeyId, amountUsd, purpose: "execute", reference });
      const state = (await deps.store.appBalances.getHold(held.holdId))?.state ?? "held";
      if (state !== "released") return { ...held, reference, state };
    }
    throw new ServiceError("EXECUTION_ATTEMPTS_EXHAUSTED", `execution ${requestId} was attempted ${MAX_EXECUTE_ATTEMPTS} times without being sent: not sent again`);
  }

  async function firstInTx(id: Bytes32): Promise<Bytes32 | undefined> {
    return (await deps.store.getRequest(id))?.inTxHashes[0];
  }

  /** The relayed transaction's hash when this requestId was relayed already (or its deposit is credited). */
  async function alreadyRelayed(requestId: Bytes32, orderId: Bytes32 | undefined): Promise<Bytes32 | null> {
    const existing = (await deps.store.getRequest(requestId)) ?? (orderId ? await deps.store.getRequestByOrderId(orderId) : null);
    if (existing && existing.status !== "waiting" && existing.status !== "depositing") return existing.inTxHashes[0] ?? requestId;
    return null;
  }
}

/** The requestId of an execution without a quote: the hash of the call itself (chain included). */
export function executionId(s: Pick<ExecuteSubmission, "chainId" | "to" | "data" | "value" | "authorizationList">): Bytes32 {
  const auths = (s.authorizationList ?? []).map((a) => encodeAbiParameters([{ type: "uint256" }, { type: "address" }, { type: "uint256" }, { type: "bytes32" }, { type: "bytes32" }], [BigInt(a.chainId), a.address, BigInt(a.nonce), a.r, a.s]));
  return keccak256Lowercase(
    encodeAbiParameters(
      [{ type: "string" }, { type: "uint256" }, { type: "address" }, { type: "bytes" }, { type: "uint256" }, { type: "bytes[]" }],
      ["ferry-execute", BigInt(s.chainId), s.to, s.data, s.value, auths],
    ),
  );
}

/** An authorization as `debug_traceCall` takes it (hex quantities). */
function tracedAuthorization(a: ReturnType<typeof signedAuthorization>): Record<string, string> {
  return { chainId: `0x${a.chainId.toString(16)}`, address: a.address, nonce: `0x${a.nonce.toString(16)}`, yParity: `0x${a.yParity.toString(16)}`, r: a.r, s: a.s };
}
