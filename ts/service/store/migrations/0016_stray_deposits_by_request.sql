-- A request's child records (GET /requests/v2?includeChildRequests=true) are the stray deposits that
-- name it: read for a page of requests in one query.
CREATE INDEX stray_deposits_request_id ON stray_deposits (request_id) WHERE request_id IS NOT NULL;
