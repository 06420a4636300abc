-- Attribution without x-api-key (issue 15): the official client sends `x-api-key` only to the
-- reference service's own hosts, but always sends its `source` as the quote body's `referrer`. The
-- operator ties a referrer to one API key (`ferry keys referrer <keyId> <referrer>`); an anonymous
-- quote with that referrer is stored under the key, so the key's webhooks fire for its requests.
-- One key per referrer (unique); attribution only: no rate limit or other privilege follows from it.
ALTER TABLE api_keys ADD COLUMN referrer text;
CREATE UNIQUE INDEX api_keys_referrer ON api_keys (referrer) WHERE referrer IS NOT NULL;
