-- Issue 12, the solver at scale.

-- Wake-ups across processes: every statement that writes outbox events notifies `ferry_outbox` (sent
-- when its transaction commits; PostgreSQL folds the notifications of one transaction into one). A
-- replica's solver, webhook worker and websocket tail LISTEN on it (PostgreSQL; the embedded engine is
-- one process and is woken in process) and read at once instead of at their next poll.
CREATE FUNCTION ferry_notify_outbox() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM pg_notify('ferry_outbox', '');
  RETURN NULL;
END;
$$;

CREATE TRIGGER request_events_notify AFTER INSERT ON request_events
  FOR EACH STATEMENT EXECUTE FUNCTION ferry_notify_outbox();
