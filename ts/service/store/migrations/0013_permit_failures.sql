-- Failed permit requests per user (issue 20): POST /execute/permits refuses a permit whose fill or
-- deposit would revert, and counts that refusal against the quote's user. Counted here rather than in
-- process memory so that every replica sharing the database sees the same count: N replicas allow the
-- limit once, not N times. Rows older than the window are deleted when the user fails again.
CREATE TABLE permit_failures (
  id           bigserial PRIMARY KEY,
  user_address text NOT NULL,
  failed_at    timestamptz(3) NOT NULL
);
CREATE INDEX permit_failures_user_time ON permit_failures (user_address, failed_at);
