/** What every solver step runs with: the store, the chains, the signing accounts, the nonce manager, a log, a clock and the metrics. */
import type { NonceManager } from "../transactions/nonceManager.ts";
import type { ChainClients } from "../chains/chainClients.ts";
import type { BlockReadCache } from "../chains/blockReadCache.ts";
import type { ServiceAccount } from "../chains/serviceAccounts.ts";
import type { Address, Bytes32 } from "../model/values.ts";
import type { ChainConfig, SolverSettings } from "../config/configSchema.ts";
import type { Logger } from "../logging/logger.ts";
import type { PriceSources } from "../prices/priceSources.ts";
import type { QuoteService } from "../quote/quoteService.ts";
import type { Store } from "../store/createStore.ts";
import type { SolverMetrics } from "./solverMetrics.ts";

export type SolverContext = {
  store: Store;
  clients: ChainClients;
  chains: readonly ChainConfig[];
  log: Logger;
  /** Signs fill attestations (an AttestedReceiver signer). */
  attester: ServiceAccount;
  /** Signs Depository payouts (the Depository's allocator). */
  allocator: ServiceAccount;
  /** The solver's address: fills from it, is repaid to it. Its wallet lives in `clients`. */
  solver: Address;
  /** Every transaction the solver sends goes through it (nonces shared across replicas, fees, replacement). */
  transactions: NonceManager;
  /** Chain reads made once per chain head (../chains/blockReadCache.ts): the solver's own balances for the fill checks. */
  blockReads?: BlockReadCache;
  /**
   * The chains halted after a deep reorg as read at the start of this request's step (./solverStep.ts),
   * with the request, in one statement; absent outside a request's step (stray refunds, withdrawals),
   * where the payout step reads them itself.
   */
  halted?: readonly number[];
  /**
   * The fills this request's step has verified to be the service's own (their hashes, ./fill/verifyOnchainFill.ts):
   * a repayment planned in the same step does not read the receiver again for them. Absent outside a
   * request's step.
   */
  verifiedFills?: Set<Bytes32>;
  /** Aborted when the step's lease is lost or its time is up: no new transaction is started after it. */
  signal?: AbortSignal;
  now: () => Date;
  /** The solver's settings (config `solver`): gas cap, fill deadline margin, stray dust threshold. */
  settings: SolverSettings;
  /** Alerts as Prometheus metrics (./solverMetrics.ts). */
  metrics: SolverMetrics;
  /** Swap price sources (config `quotes.priceSources`): the fill-time re-pricing of swaps. */
  prices: PriceSources;
  /** The service's quote path: each payment into an open deposit address is re-quoted through it (./depositAddress/); absent, none is. */
  quotes?: QuoteService;
};
