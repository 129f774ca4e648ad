/**
 * Schema v7 of the team database: a batch awaiting approval ends without running — rejected by a checker
 * with a comment, or expired on the server's clock — as a single request does (issue 27, the rest of
 * four-eyes for a batch as a whole; v6 is migration-batch.ts).
 *
 * - Two more batch states, `rejected` and `expired`: final, nothing was sent. Their rows still to send end
 *   `refused` with outcome `declined` (and the checker's comment) or `expired`, so the report says why.
 * - `reject_batch`: a checker OTHER than the starter (RD011, and a CHECK constraint on the row: the
 *   database refuses it whoever writes), with a comment that is not blank, rejects a batch awaiting
 *   approval. Audited with the comment.
 * - `expire_batches`: every batch awaiting approval past its `expires_at` (server clock, the policy's
 *   window, 24 h by default) becomes `expired` (audited). Run by the desks' reads (any person) and at the
 *   start of approving or rejecting. A batch found expired by `approve_batch` or `reject_batch` is marked
 *   and ANSWERED as `expired` (not raised: an exception would roll the marking back); the desk tells the
 *   person it expired.
 * - Cancelling a batch awaiting approval is its starter's alone (a checker rejects it), as for a request.
 */
export const BATCH_CLOSE_MIGRATION_SQL = `
ALTER TABLE refund_desk.batches DROP CONSTRAINT batches_state_check;
ALTER TABLE refund_desk.batches ADD CONSTRAINT batches_state_check CHECK (state IN
  ('awaiting_approval', 'running', 'paused', 'cancelled', 'finished', 'rejected', 'expired'));
ALTER TABLE refund_desk.batches
  ADD COLUMN closed_by text,
  ADD COLUMN closed_desk text,
  ADD COLUMN closed_on_server timestamptz,
  ADD COLUMN close_comment text,
  -- Four-eyes, whoever writes: a rejected batch names its checker, never its starter, and says why.
  ADD CONSTRAINT batches_reject_four_eyes CHECK (state <> 'rejected' OR (closed_by IS NOT NULL
    AND closed_by <> created_by AND length(btrim(coalesce(close_comment, ''))) > 0));

-- A rejected or expired batch stays so: its closing is never edited.
CREATE FUNCTION refund_desk.keep_batch_closed() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF OLD.state IN ('rejected', 'expired') AND (NEW.state, NEW.closed_by, NEW.close_comment, NEW.closed_on_server)
     IS DISTINCT FROM (OLD.state, OLD.closed_by, OLD.close_comment, OLD.closed_on_server) THEN
    RAISE EXCEPTION USING ERRCODE = 'RD020', MESSAGE = format('batch %s is %s: that is final', OLD.id, OLD.state);
  END IF;
  RETURN NEW;
END $$;
CREATE TRIGGER batches_keep_closed BEFORE UPDATE ON refund_desk.batches
  FOR EACH ROW EXECUTE FUNCTION refund_desk.keep_batch_closed();

-- Ends a batch awaiting approval: its rows still to send are refused with the reason; audited.
CREATE FUNCTION refund_desk.close_batch(p_id text, p_state text, p_comment text, p_outcome text, p_detail text)
RETURNS refund_desk.batches LANGUAGE plpgsql AS $$
DECLARE
  b refund_desk.batches;
BEGIN
  UPDATE refund_desk.batches SET state = p_state, updated_at = refund_desk.iso_now(), closed_by = session_user,
    closed_desk = refund_desk.desk_id(), closed_on_server = now(), close_comment = left(p_comment, 1000)
   WHERE id = p_id AND state = 'awaiting_approval' RETURNING * INTO b;
  UPDATE refund_desk.batch_rows SET state = 'refused', outcome = p_outcome, detail = left(p_detail, 700),
    at = refund_desk.iso_now(), operator = session_user
   WHERE batch_id = p_id AND state = 'pending';
  PERFORM refund_desk.audit_batch(b, 'batch_' || p_state, p_detail,
    jsonb_build_object('startedBy', b.created_by, 'expiresAt', b.expires_at));
  RETURN b;
END $$;

CREATE FUNCTION refund_desk.expire_batches() RETURNS integer
LANGUAGE plpgsql SECURITY DEFINER SET search_path = pg_catalog, pg_temp AS $$
DECLARE
  b refund_desk.batches;
  n integer := 0;
BEGIN
  FOR b IN SELECT * FROM refund_desk.batches WHERE state = 'awaiting_approval' AND expires_at <= now()
    ORDER BY id FOR UPDATE SKIP LOCKED LOOP
    PERFORM refund_desk.close_batch(b.id, 'expired', 'expired on the server clock', 'expired', format(
      'Refund batch %s expired at %s (server time) before a checker approved it: nothing was sent.', b.id,
      to_char(b.expires_at AT TIME ZONE 'UTC', 'YYYY-MM-DD HH24:MI:SS "UTC"')));
    n := n + 1;
  END LOOP;
  RETURN n;
END $$;

CREATE FUNCTION refund_desk.reject_batch(p_id text, p_comment text)
RETURNS SETOF refund_desk.batches LANGUAGE plpgsql SECURITY DEFINER SET search_path = pg_catalog, pg_temp AS $$
DECLARE
  b refund_desk.batches;
BEGIN
  IF NOT pg_has_role(session_user, 'refund_checker', 'MEMBER') THEN
    RAISE EXCEPTION USING ERRCODE = 'RD017', MESSAGE = format('%s is not a checker: only members of refund_checker reject', session_user);
  END IF;
  IF p_comment IS NULL OR length(btrim(p_comment)) = 0 THEN
    RAISE EXCEPTION USING ERRCODE = '22023', MESSAGE = 'say why (a comment is required)';
  END IF;
  PERFORM refund_desk.expire_batches();
  SELECT * INTO b FROM refund_desk.batches WHERE id = p_id FOR UPDATE;
  IF NOT FOUND THEN
    RAISE EXCEPTION USING ERRCODE = 'RD015', MESSAGE = format('there is no refund batch %s in the team database', p_id);
  END IF;
  IF b.state = 'expired' THEN
    RETURN NEXT b; -- marked expired (kept); the desk says so
    RETURN;
  END IF;
  IF b.state <> 'awaiting_approval' THEN
    RAISE EXCEPTION USING ERRCODE = 'RD014', MESSAGE = format('refund batch %s is %s, not awaiting approval', p_id, b.state);
  END IF;
  IF b.created_by = session_user THEN
    RAISE EXCEPTION USING ERRCODE = 'RD011', MESSAGE = format(
      'refund batch %s is your own: cancel it instead (another person with the checker role rejects it)', p_id);
  END IF;
  RETURN NEXT refund_desk.close_batch(p_id, 'rejected', p_comment, 'declined',
    format('Refund batch %s rejected by %s: %s', p_id, session_user, left(btrim(p_comment), 600)));
END $$;

-- v6's approval (kept, renamed, callable only from here), with expiry marked first: an expired batch is
-- answered as expired and nothing is approved.
ALTER FUNCTION refund_desk.approve_batch(text) RENAME TO approve_batch_v6;
CREATE FUNCTION refund_desk.approve_batch(p_id text)
RETURNS SETOF refund_desk.batches LANGUAGE plpgsql SECURITY DEFINER SET search_path = pg_catalog, pg_temp AS $$
DECLARE
  b refund_desk.batches;
BEGIN
  IF NOT pg_has_role(session_user, 'refund_checker', 'MEMBER') THEN
    RAISE EXCEPTION USING ERRCODE = 'RD017', MESSAGE = format('%s is not a checker: only members of refund_checker approve', session_user);
  END IF;
  PERFORM refund_desk.expire_batches();
  SELECT * INTO b FROM refund_desk.batches WHERE id = p_id;
  IF FOUND AND b.state = 'expired' THEN
    RETURN NEXT b;
    RETURN;
  END IF;
  RETURN QUERY SELECT * FROM refund_desk.approve_batch_v6(p_id);
END $$;

-- v6's state changes, plus: a batch awaiting approval is cancelled only by its starter.
CREATE OR REPLACE FUNCTION refund_desk.set_batch_state(p_id text, p_state text, p_at text) RETURNS boolean
LANGUAGE plpgsql SECURITY DEFINER SET search_path = pg_catalog, pg_temp AS $$
DECLARE
  cur refund_desk.batches;
BEGIN
  SELECT * INTO cur FROM refund_desk.batches WHERE id = p_id FOR UPDATE;
  IF NOT FOUND THEN RETURN false; END IF;
  IF cur.state = 'awaiting_approval' AND p_state = 'cancelled' AND cur.created_by <> session_user THEN
    RAISE EXCEPTION USING ERRCODE = 'RD016', MESSAGE = format(
      'refund batch %s is %s''s: only its starter cancels it (a checker rejects it)', p_id, cur.created_by);
  END IF;
  -- Waiting for approval ends only by approve_batch (then running), reject_batch, expiry or cancelling it.
  IF NOT ((p_state = 'running' AND cur.state IN ('running', 'paused'))
       OR (p_state = 'paused' AND cur.state IN ('running', 'paused'))
       OR (p_state = 'cancelled' AND cur.state IN ('awaiting_approval', 'running', 'paused', 'cancelled'))
       OR (p_state = 'finished' AND cur.state IN ('running', 'finished'))) THEN
    RAISE EXCEPTION USING ERRCODE = 'RD016', MESSAGE = format(
      'batch %s is %s: it cannot become %s%s', p_id, cur.state, p_state,
      CASE WHEN cur.state = 'awaiting_approval' THEN ' before a checker approves it' ELSE '' END);
  END IF;
  UPDATE refund_desk.batches SET state = p_state, updated_at = coalesce(p_at, refund_desk.iso_now()) WHERE id = p_id;
  RETURN true;
END $$;

CREATE INDEX batches_list ON refund_desk.batches (merchant_no, store_no, created_at DESC, id DESC);
`;

/** Re-applied by every migration run after TEAM_GRANTS (which revokes every function's EXECUTE). */
export const BATCH_CLOSE_GRANTS = `
GRANT EXECUTE ON FUNCTION refund_desk.expire_batches() TO refund_viewer;
GRANT EXECUTE ON FUNCTION refund_desk.reject_batch(text, text) TO refund_checker;
`;
