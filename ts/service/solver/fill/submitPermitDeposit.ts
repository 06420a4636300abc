/**
 * POST /execute/permits's logic: a user's signature for a usePermit quote (ts/service/quote/permitSteps.ts)
 * is checked against the quote as stored — never against anything the client sends — and the service's
 * solver wallet submits the deposit (`Depository.depositErc20Permit` with the allocator's `PermitDeposit`
 * authorisation binding the orderId, or `Depository.depositPermit2`); the service pays that gas (quoted
 * in `relayerGas`). The request is created in `depositing` with the deposit's hash once it is broadcast;
 * the indexer then moves it to `pending` from the `Deposited` event, as any deposit.
 *
 * Checks, in order (each a 4xx, nothing sent): a quote with this requestId (REQUEST_NOT_FOUND, 404) →
 * quoted with a permit (PERMIT_NOT_QUOTED) of this kind (INVALID_REQUEST) → not expired (QUOTE_EXPIRED:
 * now after the quote's expiresAt, which is also the signed deadline) → the signature recovers to the
 * quote's user over the message the quote asked to sign (INVALID_PERMIT_SIGNATURE: a permit for another
 * spender, amount, token, deadline or order recovers to someone else) → not submitted yet (a repeated
 * post answers 200 and sends nothing: the request is past `depositing`, or this service's permit deposit
 * for it is in flight; a `depositing` request nudged in by someone else's unmined deposit call does not
 * count) → the fill simulates (PERMIT_FILL_WOULD_FAIL with the decoded reason: the quote's fill, its
 * destination calls included, built and signed exactly as the solver will — ../../model/attestations.ts,
 * ./fillTransaction.ts — and estimated from the solver's wallet on the destination chain, held to the
 * calls' quoted gas) → the deposit simulates (PERMIT_DEPOSIT_REVERTED with the decoded
 * reason) — unless the order's deposit is already onchain (someone submitted the same signature first:
 * the request follows that deposit, 200).
 *
 * Griefing: without the fill simulation, a usePermit quote whose fill must fail (a destination call
 * that always reverts) made the operator pay the permit deposit, the cancel and the refund while its
 * user sent no transaction and got every token back. Now such a permit is refused before anything is
 * sent, and failed permit requests (the fill or the deposit would revert, after the signature proved
 * the user signed) count per user: over `failuresPerUserPerHour` in the last hour, POST
 * /execute/permits answers 429 PERMITS_RATE_LIMITED for that user. The count is the store's
 * (../store/permitFailures.ts), so replicas sharing a database share it: N replicas allow the limit
 * once, not N times (concurrent posts of one user may each pass the check before any of them is
 * recorded: the limit can be exceeded by the requests in flight at that moment, no more). An ERC-20
 * fill is simulated only once the solver allows the receiver to pull that token (the solver approves
 * it once per token, at its first fill); before that a plain fill is not simulated (it can only fail
 * for the solver's own reasons; logged) and a fill with destination calls is refused
 * (PERMIT_FILL_WOULD_FAIL: deposit with the transaction steps instead).
 *
 * The deposit goes through the nonce manager (../../transactions/nonceManager.ts, purpose `permit-deposit`, subject the
 * requestId): the solver key's nonces are the store's, shared with the fills and payouts of every
 * replica, so it never takes a nonce one of them holds; its gas limit stays within
 * `solver.maxGasPerTransaction`. No request step follows it: the solver loop follows pending
 * permit deposits (re-broadcast, fee bumps, superseded) like any of its transactions, so the nonce is
 * never left as a gap. The `depositing` request is written after the broadcast: a crash in between
 * loses only that record; the deposit itself is indexed from the chain like any other.
 */
import { parseSignature, recoverTypedDataAddress, encodeFunctionData, isAddressEqual, type Address, type Hex, type LocalAccount } from "viem";
import { depositoryAbi } from "../../../abi/Depository.ts";
import { signPermitDeposit } from "../../../core/permitDeposit.ts";
import type { ChainClients } from "../../chains/chainClients.ts";
import { KeyNotConfiguredError } from "../../chains/serviceAccounts.ts";
import type { ChainConfig } from "../../config/configSchema.ts";
import { ServiceError } from "../../errors/serviceError.ts";
import type { Logger } from "../../logging/logger.ts";
import type { QuotedIntent } from "../../model/quotedIntent.ts";
import { permitTypedData } from "../../model/permitTypedData.ts";
import type { Store } from "../../store/createStore.ts";
import { DEPOSITED_EVENT } from "../indexer/depositEvent.ts";
import { newRequestFor } from "../indexer/depositRequest.ts";
import { decodeRevert, isRevert, revertDataOf } from "../../transactions/revertReason.ts";
import type { NonceManager } from "../../transactions/nonceManager.ts";
import { signAttestationDigest } from "../../../core/signAttestation.ts";
import { preparedFillOf } from "../../model/attestations.ts";
import { canonicalAddress, canonicalHex, ZERO_ADDRESS } from "../../model/values.ts";
import { callsOverGasBudget, fillTransaction } from "../../transactions/fillTransaction.ts";
import { erc20Abi } from "viem";
import type { Bytes32 } from "../../model/values.ts";

export type PermitSubmission = { requestId: Bytes32; kind: string; signature: Hex };
export type PermitSubmissionResult = { message: string; requestId: Hex; txHash?: Hex };

/** How far back (blocks) a submission looks for the order's deposit made by someone else: more than a quote's lifetime on any chain. */
const DEPOSIT_LOOKBACK_BLOCKS = 10_000n;
/** The window `failuresPerUserPerHour` counts failed permit requests in. */
const FAILURE_WINDOW_MS = 3600_000;

export function createPermitDepositSubmitter(deps: {
  store: Store;
  clients: ChainClients;
  chains: readonly ChainConfig[];
  allocator: LocalAccount | undefined;
  /** The process's nonce manager: the deposit is sent from the solver's key. */
  transactions: Pick<NonceManager, "send">;
  /** `solver.maxGasPerTransaction`. */
  maxGas: bigint;
  /** Signs the fill attestation the simulation sends (the solver's attester). */
  attester: LocalAccount | undefined;
  /** `rateLimits.failedPermitsPerUserPerHour`. */
  failuresPerUserPerHour: number;
  now?: () => Date;
}): { submit(submission: PermitSubmission, log: Logger): Promise<PermitSubmissionResult> } {
  const now = deps.now ?? (() => new Date());
  return {
    async submit(submission, log) {
      const quote = await deps.store.getQuote(submission.requestId);
      if (!quote) throw new ServiceError("REQUEST_NOT_FOUND", `no quote with requestId ${submission.requestId}`);
      const user = quote.intent.user;
      if ((await deps.store.countPermitFailures(user, FAILURE_WINDOW_MS)) >= deps.failuresPerUserPerHour) {
        throw new ServiceError("PERMITS_RATE_LIMITED", `too many failed permit requests for ${user} in the last hour; retry later`);
      }
      try {
        return await submitChecked(submission, quote, log);
      } catch (error) {
        if (error instanceof ServiceError && (error.code === "PERMIT_FILL_WOULD_FAIL" || error.code === "PERMIT_DEPOSIT_REVERTED")) await deps.store.recordPermitFailure(user, FAILURE_WINDOW_MS);
        throw error;
      }
    },
  };

  async function submitChecked({ requestId, kind, signature }: PermitSubmission, quote: NonNullable<Awaited<ReturnType<Store["getQuote"]>>>, log: Logger): Promise<PermitSubmissionResult> {
      const intent = quote.intent;
      const permit = intent.permit;
      if (!permit) throw new ServiceError("PERMIT_NOT_QUOTED", `quote ${requestId} was not quoted with usePermit: deposit with its transaction steps`);
      if (kind !== permit.kind) throw new ServiceError("INVALID_REQUEST", `body/kind: quote ${requestId} asked for a ${permit.kind} signature, not ${kind}`);
      if (Math.floor(now().getTime() / 1000) > intent.expiresAt) throw new ServiceError("QUOTE_EXPIRED", `quote ${requestId} expired at ${intent.expiresAt}; ask for a new one`);

      const client = deps.clients.get(intent.originChainId);
      const depository = client.config.contracts.depository;
      const typed = permitTypedData({
        permit,
        chainId: intent.originChainId,
        token: intent.originCurrency,
        depository,
        user: intent.user,
        amount: intent.originAmount,
        orderId: intent.orderId,
      });
      let signer: Address;
      try {
        signer = await recoverTypedDataAddress({ ...typed, signature } as Parameters<typeof recoverTypedDataAddress>[0]);
      } catch (cause) {
        throw new ServiceError("INVALID_PERMIT_SIGNATURE", "signature: not a valid ECDSA signature", { cause });
      }
      if (!isAddressEqual(signer, intent.user)) {
        throw new ServiceError("INVALID_PERMIT_SIGNATURE", `signature: signed by ${signer}, not by the quote's user over the quoted ${permit.kind} message`);
      }

      // Already submitted? Only if the order's deposit is credited (the request is past `depositing`) or
      // this service's own permit deposit for it is in flight. A request in `waiting`/`depositing` can
      // also come from anyone's unmined deposit call nudged through POST /transactions/index — one that
      // may never succeed — so it does not stop the user's permit: the deposit is simulated and sent,
      // and if the order's deposit did land meanwhile the simulation says so (handled below).
      const existing = (await deps.store.getRequest(requestId)) ?? (await deps.store.getRequestByOrderId(intent.orderId));
      const credited = existing !== null && existing.status !== "waiting" && existing.status !== "depositing";
      if (credited || (existing && (await deps.store.findPendingSolverTransaction(intent.originChainId, "permit-deposit", requestId)))) {
        return { message: "deposit already submitted", requestId };
      }

      const wallet = client.solverWallet;
      if (!wallet) throw new KeyNotConfiguredError("solver");
      await simulateFill(intent, log);
      const data = await depositCall(intent, permit.kind, signature, depository, deps.allocator);
      let hash: Bytes32;
      try {
        const tx = { to: depository, data, maxGas: deps.maxGas };
        hash = (await deps.transactions.send({ chainId: intent.originChainId, purpose: "permit-deposit", subject: requestId, tx, record: async () => {}, logFields: { requestId } })).hash;
      } catch (error) {
        if (!isRevert(error)) throw error;
        const deposited = await depositAlreadyOnchain(client.publicClient, depository, intent.orderId);
        if (deposited) {
          await recordDepositing(deps, intent, quote.apiKeyId, deposited, log);
          return { message: "the order's deposit is already onchain", requestId, txHash: deposited };
        }
        const decoded = decodeRevert(revertDataOf(error));
        throw new ServiceError("PERMIT_DEPOSIT_REVERTED", `the deposit would revert: ${decoded.errorName ?? decoded.failReason}`, { cause: error });
      }
      log.info({ requestId, kind: permit.kind, hash }, "permit deposit sent");
      await recordDepositing(deps, intent, quote.apiKeyId, hash, log);
      return { message: "deposit submitted", requestId, txHash: hash };
  }

  /**
   * The quote's fill as the solver will send it (the attestation built and signed alike, its calls
   * held to their quoted gas), estimated from the solver's wallet on the destination chain: a revert
   * or a gas need over the quote is PERMIT_FILL_WOULD_FAIL.
   */
  async function simulateFill(intent: QuotedIntent, log: Logger): Promise<void> {
    if (!deps.attester) throw new KeyNotConfiguredError("attester");
    const dest = deps.clients.get(intent.destinationChainId);
    const solver = dest.solverWallet?.account.address;
    if (!solver) throw new KeyNotConfiguredError("solver");
    const receiver = dest.config.contracts.attestedReceiver;
    if (intent.destinationCurrency !== ZERO_ADDRESS) {
      const allowance = await dest.publicClient.readContract({ address: intent.destinationCurrency, abi: erc20Abi, functionName: "allowance", args: [solver, receiver] });
      if (allowance < intent.destinationAmount) {
        // A plain fill can only fail for the solver's own reasons; calls are the griefing path, and
        // they cannot be simulated before the solver's first fill of the token: refused until then.
        if (!intent.calls?.length) {
          log.warn({ requestId: intent.requestId, token: intent.destinationCurrency }, "permit: fill not simulated (the solver has not approved the receiver for this token yet)");
          return;
        }
        throw new ServiceError("PERMIT_FILL_WOULD_FAIL", "the fill's destination calls cannot be simulated yet (no fill of this token so far): deposit with the transaction steps (a quote without usePermit)");
      }
    }
    const { attestation, digest } = preparedFillOf(intent, receiver);
    const signature = await signAttestationDigest(deps.attester, digest);
    const tx = { to: receiver, ...fillTransaction(intent, attestation, signature, { chainId: dest.config.id, receiver }) };
    let reason: string;
    try {
      const overBudget = await callsOverGasBudget(dest.publicClient, solver, tx, intent);
      if (!overBudget) {
        if (!intent.calls?.length) await dest.publicClient.estimateGas({ account: solver, to: tx.to, data: tx.data, value: tx.value });
        return;
      }
      reason = `${overBudget.failReason}: the destination calls need ${overBudget.details?.gasEstimate} gas, the quote priced ${overBudget.details?.gasLimit}`;
    } catch (error) {
      if (!isRevert(error)) throw error;
      const decoded = decodeRevert(revertDataOf(error));
      reason = decoded.errorName ?? decoded.failReason;
    }
    log.warn({ requestId: intent.requestId, reason }, "permit refused: the fill would fail");
    throw new ServiceError("PERMIT_FILL_WOULD_FAIL", `the fill would fail (${reason}): no deposit is sent; ask for a quote whose destination calls succeed`);
  }
}

async function depositCall(intent: QuotedIntent, kind: "eip2612" | "permit2", signature: Hex, depository: Address, allocator: LocalAccount | undefined): Promise<Hex> {
  const permit = intent.permit!;
  const deadline = BigInt(permit.deadline);
  if (kind === "permit2") {
    return encodeFunctionData({
      abi: depositoryAbi,
      functionName: "depositPermit2",
      args: [intent.user, intent.originCurrency, intent.originAmount, intent.orderId, permit.nonce, deadline, signature],
    });
  }
  if (!allocator) throw new KeyNotConfiguredError("allocator");
  const deposit = { depositor: intent.user, token: intent.originCurrency, amount: intent.originAmount, id: intent.orderId, deadline };
  const authorization = await signPermitDeposit({ account: allocator, chainId: intent.originChainId, depository, deposit });
  const { v, r, s } = parseSignature(signature);
  return encodeFunctionData({ abi: depositoryAbi, functionName: "depositErc20Permit", args: [deposit, Number(v ?? 27n), r, s, authorization] });
}

/** The hash of a recent `Deposited(orderId, …)` on the Depository, or null. */
async function depositAlreadyOnchain(publicClient: ChainClients extends { get(id: number): infer C } ? C extends { publicClient: infer P } ? P : never : never, depository: Address, orderId: Hex): Promise<Bytes32 | null> {
  const head = await publicClient.getBlockNumber({ cacheTime: 0 });
  const fromBlock = head > DEPOSIT_LOOKBACK_BLOCKS ? head - DEPOSIT_LOOKBACK_BLOCKS : 0n;
  const logs = await publicClient.getLogs({ address: depository, event: DEPOSITED_EVENT, args: { id: orderId }, fromBlock, toBlock: head });
  const hash = logs[0]?.transactionHash;
  return hash ? canonicalHex(hash) : null;
}

/** Creates the request in `depositing` with the deposit's hash, unless one exists (the indexer may have been first). */
async function recordDepositing(
  deps: { store: Store; chains: readonly ChainConfig[] },
  intent: QuotedIntent,
  apiKeyId: string | null,
  hash: Bytes32,
  log: Logger,
): Promise<void> {
  try {
    await deps.store.transaction(async (tx) => {
      if ((await tx.getRequest(intent.requestId)) ?? (await tx.getRequestByOrderId(intent.orderId))) return;
      await tx.createRequest({ ...newRequestFor(intent, apiKeyId, hash, null, deps.chains), status: "depositing" });
    });
  } catch (error) {
    // A concurrent creation (the indexer saw the deposit first) leaves the request as the indexer wrote it.
    if (await deps.store.getRequest(intent.requestId)) return;
    throw error;
  }
  log.info({ requestId: intent.requestId, hash }, "permit deposit: request depositing");
}
