-- Webhooks (spec "Events"; ts/service/webhooks/README.md).
--
-- Configuration stays on api_keys (webhook_url, webhook_headers from 0001). Signing needs the plaintext
-- API key, which api_keys only holds hashed: `setWebhook` receives the plaintext, checks it against
-- key_hash and stores it encrypted with AES-256-GCM under FERRY_WEBHOOK_SECRET_KEY
-- ('v1:' + base64(iv ‖ tag ‖ ciphertext), the key id as associated data).
ALTER TABLE api_keys ADD COLUMN webhook_secret text;
ALTER TABLE api_keys ADD COLUMN webhook_updated_at timestamptz(3);

-- Delivery state lives on the outbox row itself (one row per status change, written in the status
-- change's transaction), so an event and its delivery state can never be half-written. Every event
-- starts 'pending'; whether it has anywhere to go (request with an API key, key with a webhook, key not
-- revoked) is decided when a worker claims it: nowhere → 'skipped'. `delivered_at` (0001) is left to
-- other channels. `webhook_round` counts redeliveries, so the attempt log of earlier rounds is kept.
ALTER TABLE request_events ADD COLUMN webhook_state text NOT NULL DEFAULT 'pending'
  CHECK (webhook_state IN ('pending', 'delivered', 'failed', 'skipped'));
ALTER TABLE request_events ADD COLUMN webhook_round integer NOT NULL DEFAULT 0;
ALTER TABLE request_events ADD COLUMN webhook_attempts integer NOT NULL DEFAULT 0;
ALTER TABLE request_events ADD COLUMN webhook_next_attempt_at timestamptz(3);
ALTER TABLE request_events ADD COLUMN webhook_lease_owner text;
ALTER TABLE request_events ADD COLUMN webhook_lease_expires_at timestamptz(3);
ALTER TABLE request_events ADD COLUMN webhook_last_status_code integer;
ALTER TABLE request_events ADD COLUMN webhook_last_error text;
ALTER TABLE request_events ADD COLUMN webhook_delivered_at timestamptz(3);

-- The worker's claim reads pending events in id order and checks "no earlier pending event of the same request".
CREATE INDEX request_events_webhook_pending ON request_events (request_id, id) WHERE webhook_state = 'pending';
CREATE INDEX request_events_webhook_pending_id ON request_events (id) WHERE webhook_state = 'pending';

-- The delivery log: one row per attempt. An attempt whose worker died (its lease lapsed) is logged as
-- ABANDONED when the event is claimed again; the worker's own record, if it comes late, replaces it.
CREATE TABLE webhook_attempts (
  event_id    bigint NOT NULL REFERENCES request_events (id),
  round       integer NOT NULL,
  attempt     integer NOT NULL,
  at          timestamptz(3) NOT NULL,
  status_code integer,
  error       text,
  duration_ms integer NOT NULL,
  PRIMARY KEY (event_id, round, attempt)
);
