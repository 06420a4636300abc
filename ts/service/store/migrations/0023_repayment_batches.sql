-- Batched repayment (issue 26; ts/service/solver/payout/README.md): one allocator-signed request paying
-- the repayments of several requests on one Depository. The struct (calls, credits, nonce, expiration,
-- requestHash) is stored here once, before it is signed, in the same transaction as every member's copy
-- (requests.solver_state.repayment with its call indexes); only that struct is ever signed and sent
-- again. Formed under a transaction-scoped advisory lock per Depository with each member's row locked
-- and re-checked, so two replicas never put a request in two batches.
CREATE TABLE repayment_batches (
  -- The Depository nonce (decimal): its replay guard pays the batch once.
  nonce            text PRIMARY KEY,
  chain_id         bigint NOT NULL,
  depository       text NOT NULL,
  -- The payout as a request's solver_state.repayment holds it (model/payout.ts), status included.
  payout           jsonb NOT NULL,
  -- [{requestId, calls: [index], credits: [index]}], in call order.
  members          jsonb NOT NULL,
  -- 'open' while it may still land; 'done' confirmed or reverted; 'dissolved' expired unexecuted (its members re-planned).
  state            text NOT NULL DEFAULT 'open' CHECK (state IN ('open', 'done', 'dissolved')),
  -- The lease of the step that signs, sends and follows it (one at a time across replicas).
  claim_owner      text,
  claim_expires_at timestamptz(3),
  created_at       timestamptz(3) NOT NULL,
  updated_at       timestamptz(3) NOT NULL
);

CREATE INDEX repayment_batches_open ON repayment_batches (chain_id, state);
