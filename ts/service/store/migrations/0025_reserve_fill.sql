-- Issue 26: a fill's reservation in one statement. It used to be a transaction of four (BEGIN, the
-- per-chain advisory lock, the sums-check-write, COMMIT). The lock has to come before the sums, and in
-- a plain statement the snapshot is taken before the lock is granted, so the sums would miss the
-- reservations committed while it waited. Inside a VOLATILE PL/pgSQL function each statement takes a
-- fresh snapshot (READ COMMITTED), so the function takes the lock, then sums what the other fills in
-- flight hold, checks, and writes only when it fits; the lock is held until the caller's transaction
-- (the call's own, when it is made alone) commits. The lock key is the one the four statements took,
-- so a replica still running the older code waits on the same lock.
--
-- The caller (ts/service/store/solver/solverReservations.ts) works out what the fill needs in native
-- and in its token and whether the balances alone are short; the function adds what others hold.
CREATE FUNCTION ferry_reserve_fill(
  p_request_id text, p_chain_id bigint, p_currency text, p_amount numeric, p_gas numeric, p_at timestamptz,
  p_native_currency text, p_native_balance numeric, p_token_balance numeric,
  p_need_native numeric, p_need_token numeric, p_balance_short boolean
) RETURNS TABLE (reserved_native text, reserved_token text, reserved boolean)
LANGUAGE plpgsql VOLATILE SET search_path FROM CURRENT AS $$
DECLARE
  held_native numeric;
  held_token numeric;
  fits boolean;
BEGIN
  PERFORM pg_advisory_xact_lock(hashtextextended('ferry.solver_reservations.' || p_chain_id::text, 0));
  SELECT coalesce(sum(s.gas), 0) + coalesce(sum(s.amount) FILTER (WHERE s.currency = p_native_currency), 0),
         coalesce(sum(s.amount) FILTER (WHERE s.currency = p_currency AND p_currency <> p_native_currency), 0)
    INTO held_native, held_token
    FROM solver_reservations s JOIN requests r ON r.id = s.request_id
   WHERE s.chain_id = p_chain_id AND s.request_id <> p_request_id AND r.status IN ('pending', 'submitted');
  fits := NOT p_balance_short AND p_native_balance - held_native >= p_need_native AND p_token_balance - held_token >= p_need_token;
  IF fits THEN
    INSERT INTO solver_reservations (request_id, chain_id, currency, amount, gas, created_at)
    VALUES (p_request_id, p_chain_id, p_currency, p_amount, p_gas, p_at)
    ON CONFLICT (request_id) DO UPDATE SET chain_id = EXCLUDED.chain_id, currency = EXCLUDED.currency, amount = EXCLUDED.amount, gas = EXCLUDED.gas, created_at = EXCLUDED.created_at;
  END IF;
  RETURN QUERY SELECT held_native::text, held_token::text, fits;
END;
$$;
