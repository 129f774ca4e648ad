/**
 * Schema v6 of the team database: refund batches shared by the desks, and four-eyes for a batch as a
 * whole (issue 27 items 3 and 4, in team mode).
 *
 * - `batches` and `batch_rows` hold what SQLite's v9 holds on a single desk (the port:
 *   services/batch/store-port.ts). Desks write them ONLY through the SECURITY DEFINER functions below,
 *   which stamp `session_user` and the desk id with the server's time; what a batch was started with (its
 *   account, file, rows, amounts, totals, starter) is never edited (RD020).
 * - One desk runs a batch at a time: `claim_batch` gives a lease on the SERVER's clock (desks with wrong
 *   clocks agree on it); after a desk dies, another claims the batch once the lease ran out and resumes it.
 * - `create_batch` decides, not the desk, whether the batch may run: its total per currency (the rows to
 *   send) is compared with the account's approval policy; above it in any currency the batch is recorded
 *   as `awaiting_approval` (audited; nothing can be sent) with an expiry on the server's clock.
 * - `approve_batch`: a checker OTHER than the starter (RD011, and a CHECK constraint), whose personal
 *   limit covers the batch's total in EVERY currency (RD012), before it expires (RD013), approves it as a
 *   whole; it becomes `running` and the approver's desk runs it.
 * - A row of an approved batch is sent as its own refund through the engine. Its intent carries the
 *   batch's id, line and row key (`data.batch`); `refuse_above_policy` (v2's check before a refund is
 *   recorded as `sending`) now lets a refund above the single-refund policy through ONLY when that batch
 *   is approved and running, the row is that batch's, is being sent, and names the same payment, amount
 *   and currency. Any other refund above the policy is still refused (RD010).
 * - A row is moved to `sending` only while its batch is `running` (a batch awaiting approval, paused or
 *   cancelled sends nothing, whatever a desk believes).
 */
export const BATCH_MIGRATION_SQL = `
CREATE TABLE refund_desk.batches (
  id text COLLATE "C" PRIMARY KEY CHECK (length(id) BETWEEN 1 AND 80),
  profile_id text NOT NULL,
  profile_name text NOT NULL,
  environment text NOT NULL,
  base_url text NOT NULL,
  merchant_no text NOT NULL,
  store_no text NOT NULL,
  file_name text NOT NULL,
  file_digest text NOT NULL CHECK (file_digest ~ '^[0-9a-f]{64}$'),
  operator text NOT NULL,
  state text NOT NULL CHECK (state IN ('awaiting_approval', 'running', 'paused', 'cancelled', 'finished')),
  created_at text COLLATE "C" NOT NULL,
  updated_at text NOT NULL,
  data jsonb NOT NULL DEFAULT '{}' CHECK (jsonb_typeof(data) = 'object'),
  -- What the batch sends, per currency, as the database summed it from its rows: [{currency, amountMinor, rows}].
  totals jsonb NOT NULL DEFAULT '[]' CHECK (jsonb_typeof(totals) = 'array'),
  runner text,
  lease_until timestamptz,
  expires_at timestamptz,
  approved_by text,
  approved_desk text,
  approved_on_server timestamptz,
  created_by text NOT NULL DEFAULT session_user,
  created_desk text NOT NULL DEFAULT refund_desk.desk_id(),
  created_on_server timestamptz NOT NULL DEFAULT now(),
  changed_by text NOT NULL DEFAULT session_user,
  changed_desk text NOT NULL DEFAULT refund_desk.desk_id(),
  changed_on_server timestamptz NOT NULL DEFAULT now(),
  CONSTRAINT batches_four_eyes CHECK (approved_by IS NULL OR approved_by <> created_by)
);
CREATE INDEX batches_unfinished ON refund_desk.batches (merchant_no, store_no, created_at, id)
  WHERE state IN ('awaiting_approval', 'running', 'paused');

CREATE TABLE refund_desk.batch_rows (
  batch_id text COLLATE "C" NOT NULL REFERENCES refund_desk.batches (id),
  line integer NOT NULL CHECK (line >= 0),
  row_key text,
  transaction_no text,
  amount_minor bigint,
  currency text,
  state text NOT NULL CHECK (state IN ('pending', 'sending', 'sent', 'refused', 'skipped')),
  intent_id text,
  outcome text,
  detail text,
  at text,
  operator text,
  dry jsonb NOT NULL CHECK (jsonb_typeof(dry) = 'object'),
  changed_by text NOT NULL DEFAULT session_user,
  changed_desk text NOT NULL DEFAULT refund_desk.desk_id(),
  changed_on_server timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (batch_id, line),
  -- A row to send names its payment, a positive amount, its currency and its row key.
  CONSTRAINT batch_rows_sendable CHECK (state = 'skipped' OR (row_key IS NOT NULL AND transaction_no IS NOT NULL
    AND currency ~ '^[A-Z]{3}$' AND amount_minor BETWEEN 1 AND 9007199254740991))
);

-- The intents a batch row made, by row key (doneKeys, intentOfRow).
CREATE INDEX intents_batch_row ON refund_desk.intents (merchant_no, store_no, (data #>> '{batch,rowKey}'))
  WHERE kind = 'refund' AND data ? 'batch';

-- Every write stamps the person, the desk and the server's time; what a batch was started with never changes.
CREATE FUNCTION refund_desk.stamp_batch() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  NEW.changed_by := session_user;
  NEW.changed_desk := refund_desk.desk_id();
  NEW.changed_on_server := now();
  IF TG_OP = 'INSERT' THEN
    NEW.created_by := session_user;
    NEW.created_desk := refund_desk.desk_id();
    NEW.created_on_server := now();
    RETURN NEW;
  END IF;
  IF (NEW.id, NEW.environment, NEW.base_url, NEW.merchant_no, NEW.store_no, NEW.file_digest, NEW.created_by,
      NEW.created_desk, NEW.created_on_server)
     IS DISTINCT FROM
     (OLD.id, OLD.environment, OLD.base_url, OLD.merchant_no, OLD.store_no, OLD.file_digest, OLD.created_by,
      OLD.created_desk, OLD.created_on_server)
     OR (OLD.totals <> '[]' AND NEW.totals IS DISTINCT FROM OLD.totals)
     OR (OLD.expires_at IS NOT NULL AND NEW.expires_at IS DISTINCT FROM OLD.expires_at)
     OR (OLD.approved_by IS NOT NULL AND NEW.approved_by IS DISTINCT FROM OLD.approved_by) THEN
    RAISE EXCEPTION USING ERRCODE = 'RD020', MESSAGE = format(
      'batch %s: what it was started with (account, file, totals, starter, approval) is never edited; cancel it and start a new one', OLD.id);
  END IF;
  RETURN NEW;
END $$;
CREATE TRIGGER batches_stamp BEFORE INSERT OR UPDATE ON refund_desk.batches
  FOR EACH ROW EXECUTE FUNCTION refund_desk.stamp_batch();

CREATE FUNCTION refund_desk.stamp_batch_row() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  NEW.changed_by := session_user;
  NEW.changed_desk := refund_desk.desk_id();
  NEW.changed_on_server := now();
  IF TG_OP = 'UPDATE' AND (NEW.batch_id, NEW.line, NEW.row_key, NEW.transaction_no, NEW.amount_minor, NEW.currency, NEW.dry)
     IS DISTINCT FROM (OLD.batch_id, OLD.line, OLD.row_key, OLD.transaction_no, OLD.amount_minor, OLD.currency, OLD.dry) THEN
    RAISE EXCEPTION USING ERRCODE = 'RD020', MESSAGE = format(
      'batch %s line %s: a row''s payment, amount and currency are never edited', OLD.batch_id, OLD.line);
  END IF;
  RETURN NEW;
END $$;
CREATE TRIGGER batch_rows_stamp BEFORE INSERT OR UPDATE ON refund_desk.batch_rows
  FOR EACH ROW EXECUTE FUNCTION refund_desk.stamp_batch_row();

CREATE FUNCTION refund_desk.audit_batch(b refund_desk.batches, p_outcome text, p_detail text, p_data jsonb)
RETURNS void LANGUAGE sql AS $$
  INSERT INTO refund_desk.audit (kind, at, outcome, operator, profile_id, profile_name, environment, subject_id,
    transaction_no, amount_minor, currency, detail, data)
  VALUES ('refund', refund_desk.iso_now(), p_outcome, session_user, b.profile_id, b.profile_name, b.environment, b.id,
    '', CASE WHEN jsonb_array_length(b.totals) = 1 THEN (b.totals -> 0 ->> 'amountMinor')::bigint END,
    CASE WHEN jsonb_array_length(b.totals) = 1 THEN b.totals -> 0 ->> 'currency' END, p_detail,
    p_data || jsonb_build_object('totals', b.totals)) $$;

-- ---- The batch store's writes (services/batch/store-port.ts), for makers and checkers ------------------

-- The batch and its rows; the DATABASE sums what it sends per currency and decides whether it waits for
-- a second person (above the account's approval policy in any currency) or may run.
CREATE FUNCTION refund_desk.create_batch(b jsonb, p_rows jsonb)
RETURNS SETOF refund_desk.batches LANGUAGE plpgsql SECURITY DEFINER SET search_path = pg_catalog, pg_temp AS $$
DECLARE
  r refund_desk.batches := jsonb_populate_record(NULL::refund_desk.batches, b);
  t jsonb;
  p refund_desk.approval_policies;
  tot record;
  above text[] := ARRAY[]::text[];
  hours integer;
BEGIN
  IF jsonb_typeof(p_rows) IS DISTINCT FROM 'array' THEN
    RAISE EXCEPTION USING ERRCODE = '22023', MESSAGE = 'a batch is created with its rows';
  END IF;
  INSERT INTO refund_desk.batches (id, profile_id, profile_name, environment, base_url, merchant_no, store_no,
    file_name, file_digest, operator, state, created_at, updated_at, data)
  VALUES (r.id, r.profile_id, r.profile_name, r.environment, r.base_url, r.merchant_no, r.store_no, r.file_name,
    r.file_digest, r.operator, 'running', r.created_at, r.updated_at, coalesce(r.data, '{}'));
  INSERT INTO refund_desk.batch_rows (batch_id, line, row_key, transaction_no, amount_minor, currency, state,
    intent_id, outcome, detail, at, operator, dry)
  SELECT r.id, x.line, x.row_key, x.transaction_no, x.amount_minor, x.currency, x.state, x.intent_id, x.outcome,
    x.detail, x.at, x.operator, x.dry
    FROM jsonb_populate_recordset(NULL::refund_desk.batch_rows, p_rows) x;
  IF EXISTS (SELECT 1 FROM refund_desk.batch_rows WHERE batch_id = r.id AND state NOT IN ('pending', 'skipped')) THEN
    RAISE EXCEPTION USING ERRCODE = 'RD016', MESSAGE = 'a batch starts with its rows pending or skipped';
  END IF;
  SELECT coalesce(jsonb_agg(jsonb_build_object('currency', s.currency, 'amountMinor', s.total, 'rows', s.n)
           ORDER BY s.first_line), '[]')
    INTO t
    FROM (SELECT currency, sum(amount_minor) AS total, count(*) AS n, min(line) AS first_line
            FROM refund_desk.batch_rows WHERE batch_id = r.id AND state = 'pending' GROUP BY currency) s;
  FOR tot IN SELECT e ->> 'currency' AS currency, (e ->> 'amountMinor')::bigint AS total FROM jsonb_array_elements(t) e LOOP
    p := refund_desk.approval_policy(r.environment, r.merchant_no, r.store_no, tot.currency);
    IF p.approval_above_minor IS NOT NULL AND tot.total > p.approval_above_minor THEN
      above := above || tot.currency;
      hours := least(coalesce(hours, p.expire_hours), p.expire_hours);
    END IF;
  END LOOP;
  IF cardinality(above) > 0 THEN
    UPDATE refund_desk.batches SET totals = t, state = 'awaiting_approval',
      expires_at = now() + coalesce(hours, 24) * interval '1 hour'
     WHERE id = r.id RETURNING * INTO r;
    PERFORM refund_desk.audit_batch(r, 'batch_approval_requested', format(
      'refund batch %s from %s is above the approval limit in %s: a checker approves it as a whole; nothing was sent',
      r.id, r.file_name, array_to_string(above, ', ')), jsonb_build_object('expiresAt', r.expires_at));
  ELSE
    UPDATE refund_desk.batches SET totals = t WHERE id = r.id RETURNING * INTO r;
  END IF;
  RETURN NEXT r;
END $$;

CREATE FUNCTION refund_desk.set_batch_state(p_id text, p_state text, p_at text) RETURNS boolean
LANGUAGE plpgsql SECURITY DEFINER SET search_path = pg_catalog, pg_temp AS $$
DECLARE
  cur text;
BEGIN
  SELECT state INTO cur FROM refund_desk.batches WHERE id = p_id FOR UPDATE;
  IF NOT FOUND THEN RETURN false; END IF;
  -- Waiting for approval ends only by approve_batch (then running) or by cancelling it.
  IF NOT ((p_state = 'running' AND cur IN ('running', 'paused'))
       OR (p_state = 'paused' AND cur IN ('running', 'paused'))
       OR (p_state = 'cancelled' AND cur IN ('awaiting_approval', 'running', 'paused', 'cancelled'))
       OR (p_state = 'finished' AND cur IN ('running', 'finished'))) THEN
    RAISE EXCEPTION USING ERRCODE = 'RD016', MESSAGE = format(
      'batch %s is %s: it cannot become %s%s', p_id, cur, p_state,
      CASE WHEN cur = 'awaiting_approval' THEN ' before a checker approves it' ELSE '' END);
  END IF;
  UPDATE refund_desk.batches SET state = p_state, updated_at = coalesce(p_at, refund_desk.iso_now()) WHERE id = p_id;
  RETURN true;
END $$;

-- One runner per batch, on the server's clock: a dead runner's lease runs out, then another desk takes it.
CREATE FUNCTION refund_desk.claim_batch(p_id text, p_runner text, p_ms float8) RETURNS boolean
LANGUAGE plpgsql SECURITY DEFINER SET search_path = pg_catalog, pg_temp AS $$
BEGIN
  IF p_runner IS NULL OR length(btrim(p_runner)) = 0 OR NOT coalesce(p_ms > 0, false) THEN
    RAISE EXCEPTION USING ERRCODE = '22023', MESSAGE = 'a batch claim names its runner and a lease length';
  END IF;
  UPDATE refund_desk.batches SET runner = left(p_runner, 200),
    lease_until = clock_timestamp() + p_ms * interval '1 millisecond'
   WHERE id = p_id AND (runner IS NULL OR runner = p_runner OR lease_until IS NULL OR lease_until < clock_timestamp());
  RETURN FOUND;
END $$;

CREATE FUNCTION refund_desk.release_batch(p_id text, p_runner text) RETURNS void
LANGUAGE sql SECURITY DEFINER SET search_path = pg_catalog, pg_temp AS $$
  UPDATE refund_desk.batches SET runner = NULL, lease_until = NULL WHERE id = p_id AND runner = p_runner $$;

-- A guarded row transition (absent patch fields are cleared; intent_id is kept unless given). A row is
-- taken for sending only while its batch runs.
CREATE FUNCTION refund_desk.move_batch_row(p_batch text, p_line integer, p_from text[], p_to text, p jsonb)
RETURNS boolean LANGUAGE plpgsql SECURITY DEFINER SET search_path = pg_catalog, pg_temp AS $$
BEGIN
  IF p_to = 'pending' AND NOT (p_from <@ ARRAY['sending', 'pending']) THEN
    RAISE EXCEPTION USING ERRCODE = 'RD016', MESSAGE = 'a batch row goes back to pending only from sending';
  END IF;
  IF p_to = 'sending' AND NOT EXISTS (SELECT 1 FROM refund_desk.batches WHERE id = p_batch AND state = 'running') THEN
    RETURN false;
  END IF;
  UPDATE refund_desk.batch_rows SET state = p_to,
    intent_id = coalesce(p ->> 'intentId', intent_id), outcome = p ->> 'outcome', detail = p ->> 'detail',
    at = p ->> 'at', operator = p ->> 'operator'
   WHERE batch_id = p_batch AND line = p_line AND state = ANY (p_from);
  RETURN FOUND;
END $$;

-- ---- Four-eyes for a batch as a whole ------------------------------------------------------------------

CREATE FUNCTION refund_desk.approve_batch(p_id text)
RETURNS SETOF refund_desk.batches LANGUAGE plpgsql SECURITY DEFINER SET search_path = pg_catalog, pg_temp AS $$
DECLARE
  b refund_desk.batches;
  tot record;
  up_to bigint;
BEGIN
  IF NOT pg_has_role(session_user, 'refund_checker', 'MEMBER') THEN
    RAISE EXCEPTION USING ERRCODE = 'RD017', MESSAGE = format('%s is not a checker: only members of refund_checker approve', session_user);
  END IF;
  SELECT * INTO b FROM refund_desk.batches WHERE id = p_id FOR UPDATE;
  IF NOT FOUND THEN
    RAISE EXCEPTION USING ERRCODE = 'RD015', MESSAGE = format('there is no refund batch %s in the team database', p_id);
  END IF;
  IF b.state <> 'awaiting_approval' THEN
    RAISE EXCEPTION USING ERRCODE = 'RD014', MESSAGE = format(
      'refund batch %s is %s, not awaiting approval%s', p_id, b.state,
      CASE WHEN b.approved_by IS NOT NULL THEN format(' (approved by %s)', b.approved_by) ELSE '' END);
  END IF;
  IF b.expires_at <= now() THEN
    RAISE EXCEPTION USING ERRCODE = 'RD013', MESSAGE = format(
      'refund batch %s expired at %s (server time): nothing was sent; its starter cancels it and starts the file again', p_id,
      to_char(b.expires_at AT TIME ZONE 'UTC', 'YYYY-MM-DD HH24:MI:SS "UTC"'));
  END IF;
  IF b.created_by = session_user THEN
    RAISE EXCEPTION USING ERRCODE = 'RD011', MESSAGE = format(
      'refund batch %s is your own: another person with the checker role approves it', p_id);
  END IF;
  FOR tot IN SELECT e ->> 'currency' AS currency, (e ->> 'amountMinor')::bigint AS total FROM jsonb_array_elements(b.totals) e LOOP
    SELECT l.up_to_minor INTO up_to FROM refund_desk.approval_limits l WHERE l.login = session_user AND l.currency = tot.currency;
    IF up_to IS NULL OR tot.total > up_to THEN
      RAISE EXCEPTION USING ERRCODE = 'RD012', MESSAGE = format(
        'refund batch %s sends %s %s minor units in all, above your approval limit (%s): a checker with a higher limit approves it',
        p_id, tot.total, tot.currency, coalesce(up_to::text || ' ' || tot.currency, 'none in ' || tot.currency));
    END IF;
  END LOOP;
  UPDATE refund_desk.batches SET state = 'running', updated_at = refund_desk.iso_now(), approved_by = session_user,
    approved_desk = refund_desk.desk_id(), approved_on_server = now()
   WHERE id = p_id RETURNING * INTO b;
  PERFORM refund_desk.audit_batch(b, 'batch_approved', format('refund batch %s approved as a whole', p_id),
    jsonb_build_object('startedBy', b.created_by));
  RETURN NEXT b;
END $$;

-- Whether a refund above the single-refund policy is a row of an APPROVED batch, as that row was approved:
-- the batch runs, the row is being sent, same account, payment, amount and currency.
CREATE FUNCTION refund_desk.approved_batch_row(i refund_desk.intents) RETURNS boolean LANGUAGE sql STABLE AS $$
  SELECT coalesce(i.data #>> '{batch,line}' ~ '^[0-9]{1,9}$', false) AND EXISTS (
    SELECT 1 FROM refund_desk.batches b JOIN refund_desk.batch_rows r ON r.batch_id = b.id
     WHERE b.id = i.data #>> '{batch,id}' AND r.line = (i.data #>> '{batch,line}')::integer
       AND b.state = 'running' AND b.approved_by IS NOT NULL
       AND b.environment = i.environment AND b.merchant_no = i.merchant_no AND b.store_no = i.store_no
       AND r.state = 'sending' AND r.row_key = i.data #>> '{batch,rowKey}'
       AND r.transaction_no = i.transaction_no AND r.amount_minor = i.amount_minor AND r.currency = i.currency) $$;

CREATE OR REPLACE FUNCTION refund_desk.refuse_above_policy(i refund_desk.intents) RETURNS void LANGUAGE plpgsql STABLE AS $$
DECLARE
  p refund_desk.approval_policies := refund_desk.approval_policy(i.environment, i.merchant_no, i.store_no, i.currency);
BEGIN
  IF i.kind = 'refund' AND p.approval_above_minor IS NOT NULL AND i.amount_minor > p.approval_above_minor
     AND NOT refund_desk.approved_batch_row(i) THEN
    RAISE EXCEPTION USING ERRCODE = 'RD010', MESSAGE = format(
      'a refund of %s %s minor units is above this account''s approval limit (%s): it must be requested and approved by a checker; nothing was sent',
      i.amount_minor, i.currency, p.approval_above_minor);
  END IF;
END $$;
`;

/** The new tables get the desk version guard (migrate.ts GUARDED). */
export const BATCH_TABLES = ['batches', 'batch_rows'] as const;

/** Re-applied by every migration run after TEAM_GRANTS (which revokes every function's EXECUTE). */
export const BATCH_GRANTS = `
GRANT EXECUTE ON FUNCTION
  refund_desk.create_batch(jsonb, jsonb),
  refund_desk.set_batch_state(text, text, text),
  refund_desk.claim_batch(text, text, float8),
  refund_desk.release_batch(text, text),
  refund_desk.move_batch_row(text, integer, text[], text, jsonb)
  TO refund_maker, refund_checker;
GRANT EXECUTE ON FUNCTION refund_desk.approve_batch(text) TO refund_checker;
`;
