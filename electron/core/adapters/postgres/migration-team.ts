/**
 * Schema v2 of the team database: people, not desks, and four-eyes approval (issue 26 items 3 and 4).
 *
 * - Each person connects as their own login role, a member of one of the groups `refund_viewer` (reads),
 *   `refund_maker` (refunds, requests for approval) or `refund_checker` (approves or rejects other people's
 *   requests up to a personal limit, and sends what they approved). Groups get SELECT and EXECUTE on the
 *   functions below — never INSERT, UPDATE or DELETE on a table (see TEAM_GRANTS, re-applied by every
 *   migration run).
 * - Desks write ONLY through SECURITY DEFINER functions owned by the schema owner, with a pinned
 *   search_path. They stamp `session_user` (the person: a SECURITY DEFINER function changes current_user,
 *   never session_user) and the desk id the connection announced (`refund_desk.desk`, else its
 *   application_name) on every row and every audit entry, with the server's time.
 * - Four-eyes: `approval_policies` (per account and currency, stored here so no desk can lower its own)
 *   makes a refund above `approval_above_minor` impossible to record as `sending`: it is requested
 *   (`request_refund`, state `awaiting_approval`, nothing sent) with its exact payment, amount, currency
 *   and reason, then approved by ANOTHER person whose `approval_limits` cover it, before it expires on the
 *   server's clock (`approve_request`) — or rejected with a comment (`reject_request`, state `declined`),
 *   cancelled by its requester (`cancel_request`) or expired (`expire_requests`). Nobody edits a request:
 *   a trigger refuses any change of what was asked. Only the approver moves `approved` to `sending`.
 * - The audit and the intent events are append-only: UPDATE, DELETE and TRUNCATE are revoked from the
 *   groups AND refused by statement triggers, for the owner's ordinary sessions too.
 *
 * SQLSTATEs of the refusals (mapped to people's words in connection.ts): RD010 approval required, RD011
 * own request, RD012 above the checker's limit, RD013 expired, RD014 not awaiting approval, RD015 no such
 * request, RD016 not through this function, RD017 not in the group, RD020 a request is never edited,
 * RD030 append-only.
 */

/** The lock class of the desks' advisory locks (intent-store.ts LOCK_CLASS): SQL takes the same locks. */
const LOCK_CLASS = 0x52440001;

export const TEAM_MIGRATION_SQL = `
-- Roles belong to the cluster: another database of it (or a concurrent migration) may have made them.
DO $$
DECLARE
  g text;
BEGIN
  FOREACH g IN ARRAY ARRAY['refund_viewer', 'refund_maker', 'refund_checker'] LOOP
    IF NOT EXISTS (SELECT 1 FROM pg_roles WHERE rolname = g) THEN
      BEGIN
        EXECUTE format('CREATE ROLE %I NOLOGIN', g);
      EXCEPTION WHEN duplicate_object OR unique_violation THEN NULL;
      END;
    END IF;
  END LOOP;
END $$;

-- Which desk a connection is: what it announced, else its application name (shown in pg_stat_activity).
CREATE FUNCTION refund_desk.desk_id() RETURNS text LANGUAGE sql STABLE AS $$
  SELECT left(coalesce(nullif(current_setting('refund_desk.desk', true), ''),
                       nullif(current_setting('application_name', true), ''), 'unknown'), 100) $$;

-- The server's time as the desks write theirs (Date.prototype.toISOString): for steps the server decides.
CREATE FUNCTION refund_desk.iso_now() RETURNS text LANGUAGE sql STABLE AS $$
  SELECT to_char(now() AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') $$;

ALTER TABLE refund_desk.intents
  ADD COLUMN created_desk text NOT NULL DEFAULT refund_desk.desk_id(),
  ADD COLUMN changed_desk text NOT NULL DEFAULT refund_desk.desk_id(),
  ADD COLUMN reason text,
  ADD COLUMN requested_by text,
  ADD COLUMN requested_desk text,
  ADD COLUMN requested_on_server timestamptz,
  ADD COLUMN expires_at timestamptz,
  ADD COLUMN approved_by text,
  ADD COLUMN approved_desk text,
  ADD COLUMN approved_on_server timestamptz,
  ADD COLUMN closed_by text,
  ADD COLUMN closed_desk text,
  ADD COLUMN closed_on_server timestamptz,
  ADD COLUMN close_comment text,
  ADD CONSTRAINT intents_four_eyes CHECK (approved_by IS NULL OR approved_by <> requested_by),
  ADD CONSTRAINT intents_request_complete CHECK (
    requested_by IS NULL OR (reason IS NOT NULL AND length(btrim(reason)) > 0 AND expires_at IS NOT NULL));
CREATE INDEX intents_requests ON refund_desk.intents (state, expires_at) WHERE requested_by IS NOT NULL;

ALTER TABLE refund_desk.intent_events ADD COLUMN desk_id text NOT NULL DEFAULT refund_desk.desk_id();
ALTER TABLE refund_desk.audit ADD COLUMN desk_id text NOT NULL DEFAULT refund_desk.desk_id();

CREATE TABLE refund_desk.approval_policies (
  -- '*': every environment of the merchant and store.
  environment text NOT NULL DEFAULT '*',
  merchant_no text NOT NULL,
  store_no text NOT NULL,
  currency text NOT NULL CHECK (currency ~ '^[A-Z]{3}$'),
  approval_above_minor bigint NOT NULL CHECK (approval_above_minor BETWEEN 0 AND 9007199254740991),
  expire_hours integer NOT NULL DEFAULT 24 CHECK (expire_hours BETWEEN 1 AND 720),
  set_by text NOT NULL DEFAULT session_user,
  set_on_server timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (environment, merchant_no, store_no, currency)
);

CREATE TABLE refund_desk.approval_limits (
  login text NOT NULL,
  currency text NOT NULL CHECK (currency ~ '^[A-Z]{3}$'),
  up_to_minor bigint NOT NULL CHECK (up_to_minor BETWEEN 1 AND 9007199254740991),
  set_by text NOT NULL DEFAULT session_user,
  set_on_server timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (login, currency)
);

-- Every write stamps the person, the desk, the server's time and transaction; what was asked never changes.
CREATE OR REPLACE FUNCTION refund_desk.stamp_intent() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  NEW.changed_by := session_user;
  NEW.changed_desk := refund_desk.desk_id();
  NEW.changed_on_server := now();
  NEW.changed_xid := pg_current_xact_id();
  IF TG_OP = 'INSERT' THEN
    NEW.created_by := session_user;
    NEW.created_desk := refund_desk.desk_id();
    NEW.created_on_server := now();
    RETURN NEW;
  END IF;
  NEW.created_by := OLD.created_by;
  NEW.created_desk := OLD.created_desk;
  NEW.created_on_server := OLD.created_on_server;
  IF (NEW.id, NEW.kind, NEW.environment, NEW.base_url, NEW.merchant_no, NEW.store_no, NEW.amount_minor,
      NEW.currency, NEW.reason, NEW.requested_by, NEW.requested_desk, NEW.requested_on_server, NEW.expires_at)
     IS DISTINCT FROM
     (OLD.id, OLD.kind, OLD.environment, OLD.base_url, OLD.merchant_no, OLD.store_no, OLD.amount_minor,
      OLD.currency, OLD.reason, OLD.requested_by, OLD.requested_desk, OLD.requested_on_server, OLD.expires_at)
     OR (OLD.kind = 'refund' AND OLD.transaction_no IS NOT NULL AND NEW.transaction_no IS DISTINCT FROM OLD.transaction_no)
     OR (OLD.approved_by IS NOT NULL AND NEW.approved_by IS DISTINCT FROM OLD.approved_by) THEN
    RAISE EXCEPTION USING ERRCODE = 'RD020', MESSAGE = format(
      'intent %s: what was asked (payment, amount, currency, reason, requester) is never edited; cancel it and make a new request', OLD.id);
  END IF;
  RETURN NEW;
END $$;

CREATE FUNCTION refund_desk.append_only() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  RAISE EXCEPTION USING ERRCODE = 'RD030', MESSAGE = format(
    'refund_desk.%s is append-only: %s is refused (for every login, the owner included)', TG_TABLE_NAME, TG_OP);
END $$;
CREATE TRIGGER audit_append_only BEFORE UPDATE OR DELETE OR TRUNCATE ON refund_desk.audit
  FOR EACH STATEMENT EXECUTE FUNCTION refund_desk.append_only();
CREATE TRIGGER intent_events_append_only BEFORE UPDATE OR DELETE OR TRUNCATE ON refund_desk.intent_events
  FOR EACH STATEMENT EXECUTE FUNCTION refund_desk.append_only();

-- RFC 7396 merge patch (SQLite's json_patch; the port's RecordPatch.data): null removes a member.
CREATE FUNCTION refund_desk.merge_patch(target jsonb, patch jsonb) RETURNS jsonb LANGUAGE plpgsql IMMUTABLE AS $$
DECLARE
  k text;
  v jsonb;
  result jsonb;
BEGIN
  IF patch IS NULL OR jsonb_typeof(patch) <> 'object' THEN RETURN patch; END IF;
  result := CASE WHEN jsonb_typeof(target) = 'object' THEN target ELSE '{}'::jsonb END;
  FOR k, v IN SELECT * FROM jsonb_each(patch) LOOP
    IF jsonb_typeof(v) = 'null' THEN
      result := result - k;
    ELSE
      result := jsonb_set(result, ARRAY[k], refund_desk.merge_patch(result -> k, v));
    END IF;
  END LOOP;
  RETURN result;
END $$;

-- The account's threshold for a currency (an exact environment before '*'); NULL: no approval needed.
CREATE FUNCTION refund_desk.approval_policy(p_environment text, p_merchant text, p_store text, p_currency text)
RETURNS refund_desk.approval_policies LANGUAGE sql STABLE AS $$
  SELECT * FROM refund_desk.approval_policies
   WHERE environment IN (p_environment, '*') AND merchant_no = p_merchant AND store_no = p_store AND currency = p_currency
   ORDER BY environment = '*' LIMIT 1 $$;

CREATE FUNCTION refund_desk.refuse_above_policy(i refund_desk.intents) RETURNS void LANGUAGE plpgsql STABLE AS $$
DECLARE
  p refund_desk.approval_policies := refund_desk.approval_policy(i.environment, i.merchant_no, i.store_no, i.currency);
BEGIN
  IF i.kind = 'refund' AND p.approval_above_minor IS NOT NULL AND i.amount_minor > p.approval_above_minor THEN
    RAISE EXCEPTION USING ERRCODE = 'RD010', MESSAGE = format(
      'a refund of %s %s minor units is above this account''s approval limit (%s): it must be requested and approved by a checker; nothing was sent',
      i.amount_minor, i.currency, p.approval_above_minor);
  END IF;
END $$;

-- The payment's advisory lock, the same one a desk's decision takes (intent-store.ts scopeText, lockId).
CREATE FUNCTION refund_desk.lock_payment(i refund_desk.intents) RETURNS void LANGUAGE sql AS $$
  SELECT pg_advisory_xact_lock(${LOCK_CLASS}, ('x' || left(encode(sha256(convert_to(
    concat_ws(chr(31), 'payment', i.environment, i.merchant_no, i.store_no, i.transaction_no), 'UTF8')), 'hex'), 8))::bit(32)::int4) $$;

CREATE FUNCTION refund_desk.audit_step(i refund_desk.intents, p_outcome text, p_detail text, p_data jsonb)
RETURNS void LANGUAGE sql AS $$
  INSERT INTO refund_desk.audit (kind, at, outcome, operator, profile_id, profile_name, environment, subject_id,
    transaction_no, amount_minor, currency, detail, data)
  VALUES (i.kind, refund_desk.iso_now(), p_outcome, session_user, i.profile_id, i.profile_name, i.environment, i.id,
    i.transaction_no, i.amount_minor, i.currency, p_detail, p_data) $$;

CREATE FUNCTION refund_desk.event_step(i refund_desk.intents, p_from text, p_type text, p_data jsonb)
RETURNS void LANGUAGE sql AS $$
  INSERT INTO refund_desk.intent_events (intent_id, at, type, from_state, to_state, data)
  VALUES (i.id, refund_desk.iso_now(), p_type, p_from, i.state, p_data) $$;

-- ---- The engine's writes (the store port), for makers and checkers -------------------------------------

CREATE FUNCTION refund_desk.insert_intent(rec jsonb, lease_ms float8, event jsonb)
RETURNS SETOF refund_desk.intents LANGUAGE plpgsql SECURITY DEFINER SET search_path = pg_catalog, pg_temp AS $$
DECLARE
  r refund_desk.intents := jsonb_populate_record(NULL::refund_desk.intents, rec);
BEGIN
  IF r.state IN ('awaiting_approval', 'approved') THEN
    RAISE EXCEPTION USING ERRCODE = 'RD016', MESSAGE =
      'a request for approval is recorded by request_refund and approved by approve_request, never inserted as such';
  END IF;
  IF r.state = 'sending' THEN PERFORM refund_desk.refuse_above_policy(r); END IF;
  RETURN QUERY
  WITH ins AS (
    INSERT INTO refund_desk.intents (id, kind, state, profile_id, profile_name, environment, base_url, merchant_no,
      store_no, transaction_no, reference, amount_minor, currency, settle_currency, operator, created_at, updated_at,
      sender, lease_until, ret_code, ret_msg, detail, card_last4, last_check_at, last_check_found, last_check_note,
      checks, attempts, data, reason)
    VALUES (r.id, r.kind, r.state, r.profile_id, r.profile_name, r.environment, r.base_url, r.merchant_no,
      r.store_no, r.transaction_no, r.reference, r.amount_minor, r.currency, r.settle_currency, r.operator,
      r.created_at, r.updated_at, r.sender,
      CASE WHEN lease_ms IS NULL THEN NULL ELSE clock_timestamp() + lease_ms * interval '1 millisecond' END,
      r.ret_code, r.ret_msg, r.detail, r.card_last4, r.last_check_at, r.last_check_found, r.last_check_note,
      coalesce(r.checks, 0), coalesce(r.attempts, 0), coalesce(r.data, '{}'), r.reason)
    ON CONFLICT DO NOTHING
    RETURNING *),
  ev AS (
    INSERT INTO refund_desk.intent_events (intent_id, at, type, from_state, to_state, data)
    SELECT id, event ->> 'at', event ->> 'type', NULL, state, coalesce(event -> 'data', '{}') FROM ins)
  SELECT * FROM ins;
END $$;

CREATE FUNCTION refund_desk.transition_intent(p_id text, p_from text[], p_to text, p_patch jsonb, event jsonb)
RETURNS SETOF refund_desk.intents LANGUAGE plpgsql SECURITY DEFINER SET search_path = pg_catalog, pg_temp AS $$
DECLARE
  cur refund_desk.intents;
BEGIN
  SELECT * INTO cur FROM refund_desk.intents WHERE id = p_id FOR UPDATE;
  IF NOT FOUND OR NOT (cur.state = ANY (p_from)) THEN RETURN; END IF;
  IF p_to IN ('awaiting_approval', 'approved') OR cur.state = 'awaiting_approval' THEN
    RAISE EXCEPTION USING ERRCODE = 'RD016', MESSAGE = format(
      'intent %s: a request for approval changes only by approve_request, reject_request, cancel_request or expiry', p_id);
  END IF;
  IF p_to = 'sending' AND cur.state = 'approved' AND cur.approved_by IS DISTINCT FROM session_user THEN
    RAISE EXCEPTION USING ERRCODE = 'RD016', MESSAGE = format(
      'intent %s was approved by %s: only the person who approved it sends it', p_id, cur.approved_by);
  END IF;
  IF p_to = 'sending' AND cur.state <> 'approved' THEN PERFORM refund_desk.refuse_above_policy(cur); END IF;
  RETURN QUERY
  WITH upd AS (
    UPDATE refund_desk.intents SET
      state = p_to,
      updated_at = event ->> 'at',
      -- Leaving sending ends the sender's lease: nobody is sending it any more.
      lease_until = CASE WHEN p_to = 'sending' THEN lease_until ELSE NULL END,
      transaction_no = CASE WHEN p_patch ? 'transactionNo' THEN p_patch ->> 'transactionNo' ELSE transaction_no END,
      ret_code = CASE WHEN p_patch ? 'retCode' THEN p_patch ->> 'retCode' ELSE ret_code END,
      ret_msg = CASE WHEN p_patch ? 'retMsg' THEN p_patch ->> 'retMsg' ELSE ret_msg END,
      detail = CASE WHEN p_patch ? 'detail' THEN p_patch ->> 'detail' ELSE detail END,
      data = CASE WHEN jsonb_typeof(p_patch -> 'data') = 'object' AND p_patch -> 'data' <> '{}'
               THEN refund_desk.merge_patch(data, p_patch -> 'data') ELSE data END
    WHERE id = p_id
    RETURNING *),
  ev AS (
    INSERT INTO refund_desk.intent_events (intent_id, at, type, from_state, to_state, data)
    SELECT id, event ->> 'at', event ->> 'type', cur.state, state, coalesce(event -> 'data', '{}') FROM upd)
  SELECT * FROM upd;
END $$;

CREATE FUNCTION refund_desk.record_audit(e jsonb) RETURNS void
LANGUAGE plpgsql SECURITY DEFINER SET search_path = pg_catalog, pg_temp AS $$
DECLARE
  a refund_desk.audit := jsonb_populate_record(NULL::refund_desk.audit, e);
BEGIN
  INSERT INTO refund_desk.audit (kind, at, outcome, operator, profile_id, profile_name, environment, subject_id,
    transaction_no, amount_minor, currency, ret_code, ret_msg, detail, data)
  VALUES (a.kind, a.at, a.outcome, a.operator, a.profile_id, a.profile_name, a.environment, a.subject_id,
    a.transaction_no, a.amount_minor, a.currency, a.ret_code, a.ret_msg, a.detail, coalesce(a.data, '{}'));
END $$;

CREATE FUNCTION refund_desk.note_check(p_id text, p_at text, p_found boolean, p_note text, p_data jsonb)
RETURNS SETOF refund_desk.intents LANGUAGE sql SECURITY DEFINER SET search_path = pg_catalog, pg_temp AS $$
  WITH upd AS (
    UPDATE refund_desk.intents SET last_check_at = p_at, last_check_found = p_found, last_check_note = p_note,
      checks = checks + 1, updated_at = p_at WHERE id = p_id RETURNING *),
  ev AS (
    INSERT INTO refund_desk.intent_events (intent_id, at, type, from_state, to_state, data)
    SELECT id, p_at, 'checked', state, state, p_data FROM upd)
  SELECT * FROM upd $$;

CREATE FUNCTION refund_desk.renew_lease(p_id text, p_holder text, p_ms float8) RETURNS boolean
LANGUAGE plpgsql SECURITY DEFINER SET search_path = pg_catalog, pg_temp AS $$
BEGIN
  UPDATE refund_desk.intents SET lease_until = clock_timestamp() + p_ms * interval '1 millisecond'
   WHERE id = p_id AND state = 'sending' AND sender = p_holder;
  RETURN FOUND;
END $$;

-- ---- Four-eyes ----------------------------------------------------------------------------------------

-- Requests past their time (server clock) become 'expired' (audited); they no longer block the payment.
CREATE FUNCTION refund_desk.expire_requests() RETURNS integer
LANGUAGE plpgsql SECURITY DEFINER SET search_path = pg_catalog, pg_temp AS $$
DECLARE
  i refund_desk.intents;
  n integer := 0;
BEGIN
  FOR i IN
    UPDATE refund_desk.intents SET state = 'expired', updated_at = refund_desk.iso_now(), closed_by = session_user,
      closed_desk = refund_desk.desk_id(), closed_on_server = now(), close_comment = 'expired on the server clock'
     WHERE state = 'awaiting_approval' AND expires_at <= now()
    RETURNING *
  LOOP
    PERFORM refund_desk.event_step(i, 'awaiting_approval', 'approval_expired', '{}');
    PERFORM refund_desk.audit_step(i, 'approval_expired', 'expired on the server clock', jsonb_build_object('expiresAt', i.expires_at));
    n := n + 1;
  END LOOP;
  RETURN n;
END $$;

-- A maker's request: recorded exactly as asked, as awaiting_approval; nothing is sent.
CREATE FUNCTION refund_desk.request_refund(rec jsonb, event jsonb)
RETURNS SETOF refund_desk.intents LANGUAGE plpgsql SECURITY DEFINER SET search_path = pg_catalog, pg_temp AS $$
DECLARE
  r refund_desk.intents := jsonb_populate_record(NULL::refund_desk.intents, rec);
  p refund_desk.approval_policies;
  hours integer;
BEGIN
  IF r.kind IS DISTINCT FROM 'refund' OR r.transaction_no IS NULL THEN
    RAISE EXCEPTION USING ERRCODE = 'RD016', MESSAGE = 'only a refund of a named payment can be requested for approval';
  END IF;
  IF r.reason IS NULL OR length(btrim(r.reason)) = 0 THEN
    RAISE EXCEPTION USING ERRCODE = '22023', MESSAGE = 'a request for approval needs its reason';
  END IF;
  PERFORM refund_desk.lock_payment(r);
  PERFORM refund_desk.expire_requests();
  p := refund_desk.approval_policy(r.environment, r.merchant_no, r.store_no, r.currency);
  hours := coalesce(p.expire_hours, 24);
  INSERT INTO refund_desk.intents (id, kind, state, profile_id, profile_name, environment, base_url, merchant_no,
    store_no, transaction_no, amount_minor, currency, settle_currency, operator, created_at, updated_at, data, reason,
    requested_by, requested_desk, requested_on_server, expires_at)
  VALUES (r.id, 'refund', 'awaiting_approval', r.profile_id, r.profile_name, r.environment, r.base_url,
    r.merchant_no, r.store_no, r.transaction_no, r.amount_minor, r.currency, r.settle_currency, r.operator,
    r.created_at, r.updated_at, coalesce(r.data, '{}'), r.reason, session_user, refund_desk.desk_id(), now(),
    now() + hours * interval '1 hour')
  RETURNING * INTO r;
  INSERT INTO refund_desk.intent_events (intent_id, at, type, from_state, to_state, data)
  VALUES (r.id, coalesce(event ->> 'at', refund_desk.iso_now()), coalesce(event ->> 'type', 'approval_requested'),
    NULL, r.state, coalesce(event -> 'data', '{}'));
  PERFORM refund_desk.audit_step(r, 'approval_requested', r.reason,
    jsonb_build_object('expiresAt', r.expires_at, 'approvalAboveMinor', p.approval_above_minor));
  RETURN NEXT r;
END $$;

CREATE FUNCTION refund_desk.open_request(p_id text) RETURNS refund_desk.intents
LANGUAGE plpgsql AS $$
DECLARE
  i refund_desk.intents;
BEGIN
  SELECT * INTO i FROM refund_desk.intents WHERE id = p_id FOR UPDATE;
  IF NOT FOUND OR i.requested_by IS NULL THEN
    RAISE EXCEPTION USING ERRCODE = 'RD015', MESSAGE = format('there is no request for approval %s', p_id);
  END IF;
  IF i.state = 'awaiting_approval' AND i.expires_at <= now() THEN
    RAISE EXCEPTION USING ERRCODE = 'RD013', MESSAGE = format(
      'request %s expired at %s (server time): nothing was sent; the requester makes a new request', p_id,
      to_char(i.expires_at AT TIME ZONE 'UTC', 'YYYY-MM-DD HH24:MI:SS "UTC"'));
  END IF;
  IF i.state <> 'awaiting_approval' THEN
    RAISE EXCEPTION USING ERRCODE = 'RD014', MESSAGE = format(
      'request %s is %s, not awaiting approval (by %s)', p_id, i.state, coalesce(i.approved_by, i.closed_by, '?'));
  END IF;
  RETURN i;
END $$;

-- A checker approves ANOTHER person's request within their own limit, before it expires; then their desk
-- sends it (approved -> sending, by them only). Refusals are the database's, whatever the screen shows.
CREATE FUNCTION refund_desk.approve_request(p_id text)
RETURNS SETOF refund_desk.intents LANGUAGE plpgsql SECURITY DEFINER SET search_path = pg_catalog, pg_temp AS $$
DECLARE
  i refund_desk.intents;
  up_to bigint;
BEGIN
  IF NOT pg_has_role(session_user, 'refund_checker', 'MEMBER') THEN
    RAISE EXCEPTION USING ERRCODE = 'RD017', MESSAGE = format('%s is not a checker: only members of refund_checker approve', session_user);
  END IF;
  i := refund_desk.open_request(p_id);
  IF i.requested_by = session_user THEN
    RAISE EXCEPTION USING ERRCODE = 'RD011', MESSAGE = format(
      'request %s is your own: another person with the checker role approves it', p_id);
  END IF;
  SELECT l.up_to_minor INTO up_to FROM refund_desk.approval_limits l WHERE l.login = session_user AND l.currency = i.currency;
  IF up_to IS NULL OR i.amount_minor > up_to THEN
    RAISE EXCEPTION USING ERRCODE = 'RD012', MESSAGE = format(
      'request %s is %s %s minor units, above your approval limit (%s): a checker with a higher limit approves it',
      p_id, i.amount_minor, i.currency, coalesce(up_to::text || ' ' || i.currency, 'none in ' || i.currency));
  END IF;
  UPDATE refund_desk.intents SET state = 'approved', updated_at = refund_desk.iso_now(), approved_by = session_user,
    approved_desk = refund_desk.desk_id(), approved_on_server = now()
   WHERE id = p_id RETURNING * INTO i;
  PERFORM refund_desk.event_step(i, 'awaiting_approval', 'approved', jsonb_build_object('by', session_user));
  PERFORM refund_desk.audit_step(i, 'approved', NULL, jsonb_build_object('requestedBy', i.requested_by));
  RETURN NEXT i;
END $$;

CREATE FUNCTION refund_desk.close_request(p_id text, p_state text, p_comment text)
RETURNS refund_desk.intents LANGUAGE plpgsql AS $$
DECLARE
  i refund_desk.intents;
BEGIN
  IF p_comment IS NULL OR length(btrim(p_comment)) = 0 THEN
    RAISE EXCEPTION USING ERRCODE = '22023', MESSAGE = 'say why (a comment is required)';
  END IF;
  UPDATE refund_desk.intents SET state = p_state, updated_at = refund_desk.iso_now(), closed_by = session_user,
    closed_desk = refund_desk.desk_id(), closed_on_server = now(), close_comment = left(p_comment, 1000)
   WHERE id = p_id RETURNING * INTO i;
  PERFORM refund_desk.event_step(i, 'awaiting_approval', p_state, jsonb_build_object('by', session_user));
  PERFORM refund_desk.audit_step(i, 'approval_' || p_state, i.close_comment, jsonb_build_object('requestedBy', i.requested_by));
  RETURN i;
END $$;

CREATE FUNCTION refund_desk.reject_request(p_id text, p_comment text)
RETURNS SETOF refund_desk.intents LANGUAGE plpgsql SECURITY DEFINER SET search_path = pg_catalog, pg_temp AS $$
DECLARE
  i refund_desk.intents;
BEGIN
  IF NOT pg_has_role(session_user, 'refund_checker', 'MEMBER') THEN
    RAISE EXCEPTION USING ERRCODE = 'RD017', MESSAGE = format('%s is not a checker: only members of refund_checker reject', session_user);
  END IF;
  i := refund_desk.open_request(p_id);
  IF i.requested_by = session_user THEN
    RAISE EXCEPTION USING ERRCODE = 'RD011', MESSAGE = format('request %s is your own: cancel it instead', p_id);
  END IF;
  RETURN NEXT refund_desk.close_request(p_id, 'declined', p_comment);
END $$;

CREATE FUNCTION refund_desk.cancel_request(p_id text, p_comment text)
RETURNS SETOF refund_desk.intents LANGUAGE plpgsql SECURITY DEFINER SET search_path = pg_catalog, pg_temp AS $$
DECLARE
  i refund_desk.intents := refund_desk.open_request(p_id);
BEGIN
  IF i.requested_by <> session_user THEN
    RAISE EXCEPTION USING ERRCODE = 'RD016', MESSAGE = format(
      'request %s is %s''s: only its requester cancels it (a checker rejects it)', p_id, i.requested_by);
  END IF;
  RETURN NEXT refund_desk.close_request(p_id, 'cancelled', p_comment);
END $$;
`;

/**
 * Who may do what: re-applied by every migration run (idempotent), so a table or function a later
 * migration adds is covered the same way. Groups read everything and write only through the functions.
 */
export const TEAM_GRANTS = `
REVOKE ALL ON SCHEMA refund_desk FROM PUBLIC;
GRANT USAGE ON SCHEMA refund_desk TO refund_viewer, refund_maker, refund_checker;
GRANT refund_viewer TO refund_maker, refund_checker;
REVOKE ALL ON ALL TABLES IN SCHEMA refund_desk FROM PUBLIC, refund_viewer, refund_maker, refund_checker;
REVOKE ALL ON ALL SEQUENCES IN SCHEMA refund_desk FROM PUBLIC, refund_viewer, refund_maker, refund_checker;
GRANT SELECT ON ALL TABLES IN SCHEMA refund_desk TO refund_viewer;
REVOKE EXECUTE ON ALL FUNCTIONS IN SCHEMA refund_desk FROM PUBLIC, refund_viewer, refund_maker, refund_checker;
GRANT EXECUTE ON FUNCTION refund_desk.desk_id(), refund_desk.iso_now(), refund_desk.expire_requests()
  TO refund_viewer;
GRANT EXECUTE ON FUNCTION
  refund_desk.insert_intent(jsonb, float8, jsonb),
  refund_desk.transition_intent(text, text[], text, jsonb, jsonb),
  refund_desk.record_audit(jsonb),
  refund_desk.note_check(text, text, boolean, text, jsonb),
  refund_desk.renew_lease(text, text, float8)
  TO refund_maker, refund_checker;
GRANT EXECUTE ON FUNCTION refund_desk.request_refund(jsonb, jsonb), refund_desk.cancel_request(text, text)
  TO refund_maker;
GRANT EXECUTE ON FUNCTION refund_desk.approve_request(text), refund_desk.reject_request(text, text)
  TO refund_checker;
`;
