-- The solver's work claims: a short lease per request so that several solver loops (one process or
-- several replicas) never work on the same request at once. A lease that was not released (the
-- process died) lapses at expires_at and the request is claimable again.
CREATE TABLE solver_claims (
  request_id text PRIMARY KEY REFERENCES requests (id),
  owner      text NOT NULL,
  expires_at timestamptz(3) NOT NULL
);

-- The solver's work list reads requests by status.
CREATE INDEX requests_status ON requests (status, updated_at);
