/**
 * Schema v3 of the team database: month-end close shared by the desks (issue 28 item 7), so a controller
 * signs what the clerks worked, whichever desk ran the reconciliation. The same rules as a single desk's
 * SQLite (schema v6 there: electron/core/adapters/sqlite/schema.ts), held by the database:
 *
 * - `recon_runs` + `recon_run_items`: an ended run as published by the desk that ran it — its facts,
 *   summary, statement, item count, its NON-matched items (what is worked) and the SHA-256 of its whole
 *   record (`record_hash`, shared/recon/seal.ts recordLines). Published once, in one transaction (items
 *   only in the publishing transaction), never rewritten: UPDATE, DELETE and TRUNCATE are refused.
 * - `recon_exceptions`: one row per exception with its `version` (optimistic: a change names the version
 *   it was made on), stamped with the login and desk of its last write. No foreign key to the run: a run
 *   that carries exceptions forward stores them before its own record ends, and is published after.
 * - `recon_exception_audit`: every change (the desk's `by`, plus the login `session_user` and the desk
 *   id), append-only. `recon_signoffs`: who signed (the login too), when, the comment, the exceptions
 *   listed open, the content hash; append-only. Once a run has a sign-off, every change to its exceptions
 *   is refused by a trigger (RD040), whoever asks.
 * - Writes ONLY through the SECURITY DEFINER functions below (makers and checkers work exceptions; only
 *   checkers sign, RD017), which serialise per run with a transaction-level advisory lock.
 *
 * SQLSTATEs: RD040 run signed, RD041 published with another record, RD042 items outside the publishing
 * transaction, RD043 not published.
 */

/** The lock class of the close's per-run advisory locks (apart from the intents' LOCK_CLASS). */
const CLOSE_LOCK_CLASS = 0x52440003;

export const CLOSE_MIGRATION_SQL = `
CREATE TABLE refund_desk.recon_runs (
  run_id text COLLATE "C" PRIMARY KEY CHECK (length(run_id) BETWEEN 1 AND 200),
  profile_id text NOT NULL,
  profile_name text NOT NULL,
  label text NOT NULL,
  period_from text,
  period_to text,
  created_at text COLLATE "C" NOT NULL,
  facts jsonb NOT NULL CHECK (jsonb_typeof(facts) = 'object'),
  summary jsonb NOT NULL CHECK (jsonb_typeof(summary) = 'object'),
  statement jsonb NOT NULL CHECK (jsonb_typeof(statement) = 'array'),
  items integer NOT NULL CHECK (items >= 0),
  exception_items integer NOT NULL CHECK (exception_items >= 0 AND exception_items <= items),
  record_hash text NOT NULL CHECK (record_hash ~ '^[0-9a-f]{64}$'),
  published_by text NOT NULL DEFAULT session_user,
  published_desk text NOT NULL DEFAULT refund_desk.desk_id(),
  published_on_server timestamptz NOT NULL DEFAULT now(),
  published_xid xid8 NOT NULL DEFAULT pg_current_xact_id()
);
CREATE INDEX recon_runs_created ON refund_desk.recon_runs (created_at, run_id);

CREATE TABLE refund_desk.recon_run_items (
  run_id text COLLATE "C" NOT NULL REFERENCES refund_desk.recon_runs (run_id),
  seq integer NOT NULL CHECK (seq >= 0),
  outcome text NOT NULL CHECK (outcome <> 'matched'),
  item jsonb NOT NULL CHECK (jsonb_typeof(item) = 'object'),
  PRIMARY KEY (run_id, seq)
);

CREATE TABLE refund_desk.recon_exceptions (
  run_id text COLLATE "C" NOT NULL,
  id text COLLATE "C" NOT NULL CHECK (id ~ '^[ic][0-9]+$'),
  item_seq integer,
  state text NOT NULL CHECK (state IN ('open', 'explained', 'resolved', 'written_off')),
  owner text,
  notes jsonb NOT NULL CHECK (jsonb_typeof(notes) = 'array'),
  match jsonb,
  carried jsonb,
  age_from text NOT NULL,
  age_from_what text NOT NULL CHECK (age_from_what IN ('ledger', 'service', 'run')),
  updated_at text NOT NULL,
  version integer NOT NULL CHECK (version >= 0),
  created_by text NOT NULL DEFAULT session_user,
  created_desk text NOT NULL DEFAULT refund_desk.desk_id(),
  changed_by text NOT NULL DEFAULT session_user,
  changed_desk text NOT NULL DEFAULT refund_desk.desk_id(),
  changed_on_server timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (run_id, id)
);

CREATE TABLE refund_desk.recon_exception_audit (
  id bigserial PRIMARY KEY,
  run_id text COLLATE "C" NOT NULL,
  exception_id text,
  at text NOT NULL,
  by text NOT NULL,
  action text NOT NULL,
  before jsonb,
  after jsonb,
  by_login text NOT NULL DEFAULT session_user,
  desk_id text NOT NULL DEFAULT refund_desk.desk_id(),
  on_server timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX recon_exception_audit_run ON refund_desk.recon_exception_audit (run_id, id);

CREATE TABLE refund_desk.recon_signoffs (
  run_id text COLLATE "C" PRIMARY KEY REFERENCES refund_desk.recon_runs (run_id),
  by text NOT NULL,
  at text NOT NULL,
  comment text NOT NULL CHECK (length(btrim(comment)) > 0),
  open_ids jsonb NOT NULL CHECK (jsonb_typeof(open_ids) = 'array'),
  content_hash text NOT NULL CHECK (content_hash ~ '^[0-9a-f]{64}$'),
  signed_login text NOT NULL DEFAULT session_user,
  signed_desk text NOT NULL DEFAULT refund_desk.desk_id(),
  signed_on_server timestamptz NOT NULL DEFAULT now()
);

-- A published record, the audit and a sign-off never change (refund_desk.append_only: RD030).
CREATE TRIGGER recon_runs_append_only BEFORE UPDATE OR DELETE OR TRUNCATE ON refund_desk.recon_runs
  FOR EACH STATEMENT EXECUTE FUNCTION refund_desk.append_only();
CREATE TRIGGER recon_run_items_append_only BEFORE UPDATE OR DELETE OR TRUNCATE ON refund_desk.recon_run_items
  FOR EACH STATEMENT EXECUTE FUNCTION refund_desk.append_only();
CREATE TRIGGER recon_exception_audit_append_only BEFORE UPDATE OR DELETE OR TRUNCATE
  ON refund_desk.recon_exception_audit FOR EACH STATEMENT EXECUTE FUNCTION refund_desk.append_only();
CREATE TRIGGER recon_signoffs_append_only BEFORE UPDATE OR DELETE OR TRUNCATE ON refund_desk.recon_signoffs
  FOR EACH STATEMENT EXECUTE FUNCTION refund_desk.append_only();

-- A signed run's exceptions never change, whoever asks; every write is stamped with the login and desk.
CREATE FUNCTION refund_desk.recon_exception_guard() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  run text;
BEGIN
  IF TG_OP = 'TRUNCATE' THEN
    RAISE EXCEPTION USING ERRCODE = 'RD040', MESSAGE = 'refund_desk.recon_exceptions: TRUNCATE is refused (signed runs'' exceptions never change)';
  END IF;
  run := CASE WHEN TG_OP = 'INSERT' THEN NEW.run_id ELSE OLD.run_id END;
  IF EXISTS (SELECT 1 FROM refund_desk.recon_signoffs s WHERE s.run_id = run) THEN
    RAISE EXCEPTION USING ERRCODE = 'RD040', MESSAGE = format(
      'run %s signed: its exceptions cannot change', run);
  END IF;
  IF TG_OP = 'DELETE' THEN RETURN OLD; END IF;
  NEW.changed_by := session_user;
  NEW.changed_desk := refund_desk.desk_id();
  NEW.changed_on_server := now();
  IF TG_OP = 'INSERT' THEN
    NEW.created_by := session_user;
    NEW.created_desk := refund_desk.desk_id();
  ELSE
    NEW.created_by := OLD.created_by;
    NEW.created_desk := OLD.created_desk;
  END IF;
  RETURN NEW;
END $$;
CREATE TRIGGER recon_exceptions_guard BEFORE INSERT OR UPDATE OR DELETE ON refund_desk.recon_exceptions
  FOR EACH ROW EXECUTE FUNCTION refund_desk.recon_exception_guard();
CREATE TRIGGER recon_exceptions_no_truncate BEFORE TRUNCATE ON refund_desk.recon_exceptions
  FOR EACH STATEMENT EXECUTE FUNCTION refund_desk.recon_exception_guard();

-- One writer per run at a time (a change and a sign-off of the same run wait for each other).
CREATE FUNCTION refund_desk.close_lock(p_run text) RETURNS void LANGUAGE sql AS $$
  SELECT pg_catalog.pg_advisory_xact_lock(${CLOSE_LOCK_CLASS}, pg_catalog.hashtext(p_run)) $$;

CREATE FUNCTION refund_desk.close_audit(p_run text, p_exception text, p_audit jsonb, p_before jsonb, p_after jsonb)
RETURNS void LANGUAGE sql AS $$
  INSERT INTO refund_desk.recon_exception_audit (run_id, exception_id, at, by, action, before, after, by_login, desk_id)
  VALUES (p_run, p_exception, p_audit ->> 'at', p_audit ->> 'by', p_audit ->> 'action', p_before, p_after,
    session_user, refund_desk.desk_id()) $$;

-- Publishes an ended run (its record's figures and non-matched items); the same record again is a no-op.
CREATE FUNCTION refund_desk.publish_recon_run(p_run jsonb)
RETURNS text LANGUAGE plpgsql SECURITY DEFINER SET search_path = pg_catalog, pg_temp AS $$
DECLARE
  id text := p_run -> 'facts' ->> 'runId';
  r refund_desk.recon_runs;
BEGIN
  PERFORM refund_desk.close_lock(id);
  SELECT * INTO r FROM refund_desk.recon_runs WHERE run_id = id;
  IF FOUND THEN
    IF r.record_hash = p_run ->> 'recordHash' THEN RETURN 'already'; END IF;
    RAISE EXCEPTION USING ERRCODE = 'RD041', MESSAGE = format(
      'run %s was published with another record (by %s at desk %s): a run''s figures are never rewritten',
      id, r.published_by, r.published_desk);
  END IF;
  INSERT INTO refund_desk.recon_runs (run_id, profile_id, profile_name, label, period_from, period_to, created_at,
    facts, summary, statement, items, exception_items, record_hash, published_by, published_desk)
  VALUES (id, p_run -> 'facts' ->> 'profileId', p_run -> 'facts' ->> 'profileName', p_run -> 'facts' ->> 'label',
    p_run -> 'facts' -> 'options' -> 'period' ->> 'from', p_run -> 'facts' -> 'options' -> 'period' ->> 'to',
    p_run -> 'facts' ->> 'createdAt', p_run -> 'facts', p_run -> 'summary', p_run -> 'statement',
    (p_run ->> 'items')::integer, (p_run ->> 'exceptionItems')::integer, p_run ->> 'recordHash',
    session_user, refund_desk.desk_id());
  RETURN 'published';
END $$;

-- The non-matched items of a run, only in the transaction that published it (so nobody adds any later).
CREATE FUNCTION refund_desk.add_recon_run_items(p_run text, p_items jsonb)
RETURNS integer LANGUAGE plpgsql SECURITY DEFINER SET search_path = pg_catalog, pg_temp AS $$
DECLARE
  r refund_desk.recon_runs;
  n integer;
BEGIN
  SELECT * INTO r FROM refund_desk.recon_runs WHERE run_id = p_run;
  IF NOT FOUND OR r.published_xid <> pg_current_xact_id() THEN
    RAISE EXCEPTION USING ERRCODE = 'RD042', MESSAGE = format(
      'the items of run %s are added only in the transaction that publishes it', p_run);
  END IF;
  INSERT INTO refund_desk.recon_run_items (run_id, seq, outcome, item)
  SELECT p_run, (e ->> 'seq')::integer, e -> 'item' ->> 'outcome', e -> 'item'
    FROM jsonb_array_elements(p_items) e;
  GET DIAGNOSTICS n = ROW_COUNT;
  IF (SELECT count(*) FROM refund_desk.recon_run_items WHERE run_id = p_run) > r.exception_items THEN
    RAISE EXCEPTION USING ERRCODE = 'RD042', MESSAGE = format(
      'run %s was published with %s non-matched items; more were handed over', p_run, r.exception_items);
  END IF;
  RETURN n;
END $$;

CREATE FUNCTION refund_desk.exception_row(p_run text, e jsonb) RETURNS refund_desk.recon_exceptions
LANGUAGE sql IMMUTABLE AS $$
  SELECT p_run, e ->> 'id', CASE WHEN e ->> 'id' LIKE 'i%' THEN substr(e ->> 'id', 2)::integer END,
    e ->> 'state', e ->> 'owner', e -> 'notes', e -> 'match', e -> 'carried', e ->> 'ageFrom', e ->> 'ageFromWhat',
    e ->> 'updatedAt', (e ->> 'version')::integer, NULL::text, NULL::text, NULL::text, NULL::text, NULL::timestamptz $$;

-- Stores exceptions not stored yet (an existing id is left as it is), each with an audit entry when asked.
CREATE FUNCTION refund_desk.add_recon_exceptions(p_run text, p_records jsonb, p_audit jsonb)
RETURNS text LANGUAGE plpgsql SECURITY DEFINER SET search_path = pg_catalog, pg_temp AS $$
DECLARE
  e jsonb;
  x refund_desk.recon_exceptions;
  n integer;
BEGIN
  PERFORM refund_desk.close_lock(p_run);
  IF EXISTS (SELECT 1 FROM refund_desk.recon_signoffs WHERE run_id = p_run) THEN RETURN 'signed'; END IF;
  FOR e IN SELECT value FROM jsonb_array_elements(p_records) LOOP
    x := refund_desk.exception_row(p_run, e);
    INSERT INTO refund_desk.recon_exceptions (run_id, id, item_seq, state, owner, notes, match, carried, age_from,
      age_from_what, updated_at, version)
    VALUES (x.run_id, x.id, x.item_seq, x.state, x.owner, x.notes, x.match, x.carried, x.age_from,
      x.age_from_what, x.updated_at, x.version)
    ON CONFLICT (run_id, id) DO NOTHING;
    GET DIAGNOSTICS n = ROW_COUNT;
    IF n > 0 AND p_audit IS NOT NULL THEN
      PERFORM refund_desk.close_audit(p_run, x.id, p_audit, NULL, e);
    END IF;
  END LOOP;
  RETURN 'ok';
END $$;

-- Changes exceptions, all or none: every 'before' must still be the stored version, the run unsigned.
CREATE FUNCTION refund_desk.change_recon_exceptions(p_run text, p_changes jsonb, p_audit jsonb)
RETURNS jsonb LANGUAGE plpgsql SECURITY DEFINER SET search_path = pg_catalog, pg_temp AS $$
DECLARE
  c jsonb;
  v integer;
BEGIN
  PERFORM refund_desk.close_lock(p_run);
  IF EXISTS (SELECT 1 FROM refund_desk.recon_signoffs WHERE run_id = p_run) THEN
    RETURN jsonb_build_object('ok', false, 'reason', 'signed');
  END IF;
  FOR c IN SELECT value FROM jsonb_array_elements(p_changes) LOOP
    SELECT version INTO v FROM refund_desk.recon_exceptions WHERE run_id = p_run AND id = c -> 'before' ->> 'id';
    IF NOT FOUND THEN
      RETURN jsonb_build_object('ok', false, 'reason', 'missing', 'id', c -> 'before' ->> 'id');
    END IF;
    IF v <> (c -> 'before' ->> 'version')::integer THEN
      RETURN jsonb_build_object('ok', false, 'reason', 'changed', 'id', c -> 'before' ->> 'id');
    END IF;
  END LOOP;
  FOR c IN SELECT value FROM jsonb_array_elements(p_changes) LOOP
    UPDATE refund_desk.recon_exceptions SET state = c -> 'after' ->> 'state', owner = c -> 'after' ->> 'owner',
      notes = c -> 'after' -> 'notes', match = c -> 'after' -> 'match', carried = c -> 'after' -> 'carried',
      updated_at = p_audit ->> 'at', version = version + 1
     WHERE run_id = p_run AND id = c -> 'before' ->> 'id';
    PERFORM refund_desk.close_audit(p_run, c -> 'before' ->> 'id', p_audit, c -> 'before', c -> 'after');
  END LOOP;
  RETURN jsonb_build_object('ok', true);
END $$;

-- The controller signs a published run, once; the sign-off carries their login and desk.
CREATE FUNCTION refund_desk.sign_recon_run(p_signoff jsonb)
RETURNS text LANGUAGE plpgsql SECURITY DEFINER SET search_path = pg_catalog, pg_temp AS $$
DECLARE
  id text := p_signoff ->> 'runId';
BEGIN
  IF NOT pg_has_role(session_user, 'refund_checker', 'MEMBER') THEN
    RAISE EXCEPTION USING ERRCODE = 'RD017', MESSAGE = format(
      '%s is not a checker: only members of refund_checker sign a run', session_user);
  END IF;
  PERFORM refund_desk.close_lock(id);
  IF NOT EXISTS (SELECT 1 FROM refund_desk.recon_runs WHERE run_id = id) THEN
    RAISE EXCEPTION USING ERRCODE = 'RD043', MESSAGE = format(
      'run %s is not in the team database: the desk that ran it publishes it when it ends', id);
  END IF;
  IF EXISTS (SELECT 1 FROM refund_desk.recon_signoffs WHERE run_id = id) THEN RETURN 'signed'; END IF;
  INSERT INTO refund_desk.recon_signoffs (run_id, by, at, comment, open_ids, content_hash, signed_login, signed_desk)
  VALUES (id, p_signoff ->> 'by', p_signoff ->> 'at', p_signoff ->> 'comment', p_signoff -> 'openAtSignOff',
    p_signoff ->> 'contentHash', session_user, refund_desk.desk_id());
  PERFORM refund_desk.close_audit(id, NULL,
    jsonb_build_object('at', p_signoff ->> 'at', 'by', p_signoff ->> 'by', 'action', 'sign_off'), NULL, p_signoff);
  RETURN 'ok';
END $$;
`;

/**
 * Who may work and sign (re-applied by every migration run, after TEAM_GRANTS, which revokes every
 * function's EXECUTE and grants SELECT on every table to the viewers): makers and checkers work
 * exceptions and publish runs; only checkers sign.
 */
export const CLOSE_GRANTS = `
GRANT EXECUTE ON FUNCTION
  refund_desk.publish_recon_run(jsonb),
  refund_desk.add_recon_run_items(text, jsonb),
  refund_desk.add_recon_exceptions(text, jsonb, jsonb),
  refund_desk.change_recon_exceptions(text, jsonb, jsonb)
  TO refund_maker, refund_checker;
GRANT EXECUTE ON FUNCTION refund_desk.sign_recon_run(jsonb) TO refund_checker;
`;

/** The tables a desk writes (through the functions): the desk-version guard covers them (migrate.ts). */
export const CLOSE_TABLES = [
  'recon_runs',
  'recon_run_items',
  'recon_exceptions',
  'recon_exception_audit',
  'recon_signoffs',
] as const;
