-- Leases on work that one replica does for all of them (issue 26: two replicas each indexed every
-- chain and each ran the background passes — the same reads twice). A loop does its pass only while it
-- holds the work's lease; one that died leaves it to lapse at expires_at, and another replica takes it.
-- The lease only keeps replicas from doing the same work twice: every write that matters stays a
-- compare-and-set (a deposit credited once, a refund sent once), so two holders at once are harmless.
CREATE TABLE worker_leases (
  name       text PRIMARY KEY,
  owner      text NOT NULL,
  expires_at timestamptz(3) NOT NULL
);
