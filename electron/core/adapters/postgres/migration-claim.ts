/**
 * Schema v4 of the team database: the approver's desk sends an approved refund under a normal sender's
 * lease (issue 26 items 2 and 4).
 *
 * v2 let the approver move `approved` -> `sending` through `transition_intent`, which keeps no lease and
 * sets no `sender`, so `renew_lease` could never renew it and other desks could only guess how long the
 * send might take. Now:
 * - `approve_and_claim(id, holder, lease_ms, event)` approves another person's request (every refusal of
 *   `approve_request` in its own words: own request, above the limit, expired, not awaiting, no such
 *   request, not a checker) — or takes up one this same person approved and never sent — AND moves it to
 *   `sending` with `sender` = holder and `lease_until` on the server's clock, in the caller's transaction.
 *   The desk then renews it with `renew_lease` like any send; a desk that dies leaves it to be resolved
 *   by query by any desk once the lease runs out.
 * - `approved` -> `sending` without a sender and a lease is refused by a trigger (RD016), whoever writes:
 *   a claim nobody can renew would look abandoned at once.
 * - A claim made by a schema-3 desk that is in flight while the database is migrated (no lease, no sender)
 *   keeps what schema 3 promised it: it counts as being sent for 120 s from the claim.
 */
export const CLAIM_MIGRATION_SQL = `
CREATE FUNCTION refund_desk.approve_and_claim(p_id text, p_holder text, p_lease_ms float8, event jsonb)
RETURNS SETOF refund_desk.intents LANGUAGE plpgsql SECURITY DEFINER SET search_path = pg_catalog, pg_temp AS $$
DECLARE
  i refund_desk.intents;
  up_to bigint;
BEGIN
  IF p_holder IS NULL OR length(btrim(p_holder)) = 0 OR NOT coalesce(p_lease_ms > 0, false) THEN
    RAISE EXCEPTION USING ERRCODE = '22023', MESSAGE = 'a claim for sending names its sender and a lease length';
  END IF;
  SELECT * INTO i FROM refund_desk.intents WHERE id = p_id FOR UPDATE;
  IF FOUND AND i.state = 'approved' AND i.approved_by = session_user THEN
    -- Taken up again by the person who approved it (their desk stopped before sending): still a checker
    -- within their limit now.
    IF NOT pg_has_role(session_user, 'refund_checker', 'MEMBER') THEN
      RAISE EXCEPTION USING ERRCODE = 'RD017', MESSAGE = format('%s is not a checker: only members of refund_checker approve', session_user);
    END IF;
    SELECT l.up_to_minor INTO up_to FROM refund_desk.approval_limits l WHERE l.login = session_user AND l.currency = i.currency;
    IF up_to IS NULL OR i.amount_minor > up_to THEN
      RAISE EXCEPTION USING ERRCODE = 'RD012', MESSAGE = format(
        'request %s is %s %s minor units, above your approval limit (%s): a checker with a higher limit approves it',
        p_id, i.amount_minor, i.currency, coalesce(up_to::text || ' ' || i.currency, 'none in ' || i.currency));
    END IF;
  ELSE
    PERFORM refund_desk.approve_request(p_id);
  END IF;
  UPDATE refund_desk.intents SET state = 'sending', sender = left(p_holder, 200),
    updated_at = coalesce(event ->> 'at', refund_desk.iso_now()),
    lease_until = clock_timestamp() + p_lease_ms * interval '1 millisecond'
   WHERE id = p_id AND state = 'approved' AND approved_by = session_user
  RETURNING * INTO i;
  IF NOT FOUND THEN
    RAISE EXCEPTION USING ERRCODE = 'RD014', MESSAGE = format('request %s is no longer approved: nothing was sent', p_id);
  END IF;
  INSERT INTO refund_desk.intent_events (intent_id, at, type, from_state, to_state, data)
  VALUES (i.id, coalesce(event ->> 'at', refund_desk.iso_now()), coalesce(event ->> 'type', 'approved_and_claimed'),
    'approved', i.state, coalesce(event -> 'data', '{}') || jsonb_build_object('sender', i.sender));
  RETURN NEXT i;
END $$;

CREATE FUNCTION refund_desk.claim_holds_lease() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF NEW.sender IS NULL OR NEW.lease_until IS NULL THEN
    RAISE EXCEPTION USING ERRCODE = 'RD016', MESSAGE = format(
      'intent %s: an approved refund is sent only through approve_and_claim, which gives its sender a lease', NEW.id);
  END IF;
  RETURN NEW;
END $$;
CREATE TRIGGER intents_claim_lease BEFORE UPDATE ON refund_desk.intents
  FOR EACH ROW WHEN (OLD.state = 'approved' AND NEW.state = 'sending')
  EXECUTE FUNCTION refund_desk.claim_holds_lease();

UPDATE refund_desk.intents SET lease_until = changed_on_server + interval '120 seconds'
 WHERE state = 'sending' AND lease_until IS NULL AND approved_by IS NOT NULL;
`;

/** Re-applied by every migration run after TEAM_GRANTS (which revokes every function's EXECUTE). */
export const CLAIM_GRANTS = `
GRANT EXECUTE ON FUNCTION refund_desk.approve_and_claim(text, text, float8, jsonb) TO refund_checker;
`;
