-- Webhook endpoints back off on their own (ts/service/webhooks/README.md "Fairness between endpoints").
--
-- An endpoint is an API key's webhook (one per key). Consecutive failed attempts to it (any replica's)
-- pause it: its events are not claimed until `webhook_paused_until`, so a dead endpoint stops holding
-- the workers' shared slots and its events keep their attempts. A delivered attempt, or a new webhook
-- configuration, clears both.
ALTER TABLE api_keys ADD COLUMN webhook_failures integer NOT NULL DEFAULT 0;
ALTER TABLE api_keys ADD COLUMN webhook_paused_until timestamptz(3);

-- The claim counts each endpoint's attempts in flight (leased pending events) to cap them per endpoint.
CREATE INDEX request_events_webhook_leased ON request_events (webhook_lease_expires_at)
  WHERE webhook_state = 'pending' AND webhook_lease_expires_at IS NOT NULL;
