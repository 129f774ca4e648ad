/**
 * The team database's schema, as plain SQL migrations in order (schema `refund_desk`). Run ONLY by
 * `migratePostgres` (an administrator's command, with the owner's login) — desks never migrate. Never
 * edit a released migration: add one. `DESK_SCHEMA_VERSION` is the version this build of Refund Desk
 * reads and writes; the database refuses writes from a desk of another version (see `desk_version_guard`).
 *
 * v1, the intent engine's store (the same shape as SQLite's v5, electron/core/adapters/sqlite/schema.ts):
 * - one `intents` table with a `kind`, the kind's own fields as `jsonb`; the record's own times stay the
 *   desk's text (the port's strings, compared as sent), and the SERVER's time and login (`session_user`)
 *   of the first and last write are kept beside them, so people, desks and approvals can be added by a
 *   later migration (columns `desk_id`, approval states in `state`, policy tables) without rewriting rows.
 * - ids and the desk's times compare byte-wise (COLLATE "C"), as SQLite does: pages are cut by
 *   `created_at|id` whatever the database's locale.
 * - the invariants are the database's, whoever writes: at most one open refund (awaiting approval,
 *   approved, sending, outcome unknown) per environment + merchant + store + transactionNo; a payment
 *   reference unique per merchant among creates the service did not reject; an amount is a positive
 *   integer a JavaScript number holds exactly; a card is at most its last 4 digits.
 * - leases are the server's clock (`lease_until timestamptz`): every desk compares against the same time.
 * - the change feed: every write stamps `changed_xid` (its transaction) and NOTIFYs `refund_desk_intents`
 *   with the intent's id (small payloads; a watcher re-reads by `changed_xid`, so a missed notification —
 *   a desk that was not listening — loses nothing).
 * - `intent_events` and `audit` are append-only histories with the server's time and login on each row.
 */
import { BATCH_MIGRATION_SQL } from './migration-batch';
import { BATCH_CLOSE_MIGRATION_SQL } from './migration-batch-close';
import { CLAIM_MIGRATION_SQL } from './migration-claim';
import { CLOSE_MIGRATION_SQL } from './migration-close';
import { OUTBOX_MIGRATION_SQL } from './migration-outbox';
import { TEAM_MIGRATION_SQL } from './migration-team';

export interface PgMigration {
  version: number;
  name: string;
  sql: string;
}

export const PG_MIGRATIONS: readonly PgMigration[] = [
  {
    version: 1,
    name: 'intent store',
    sql: `
CREATE SCHEMA IF NOT EXISTS refund_desk;

CREATE TABLE refund_desk.intents (
  id text COLLATE "C" PRIMARY KEY CHECK (length(id) BETWEEN 1 AND 200),
  kind text NOT NULL CHECK (kind IN ('refund', 'payment')),
  state text NOT NULL,
  profile_id text NOT NULL,
  profile_name text NOT NULL,
  environment text NOT NULL,
  base_url text NOT NULL,
  merchant_no text NOT NULL,
  store_no text NOT NULL,
  transaction_no text,
  reference text,
  amount_minor bigint NOT NULL CHECK (amount_minor > 0 AND amount_minor <= 9007199254740991),
  currency text NOT NULL CHECK (length(currency) = 3),
  settle_currency text NOT NULL,
  operator text NOT NULL,
  created_at text COLLATE "C" NOT NULL,
  updated_at text COLLATE "C" NOT NULL,
  sender text,
  lease_until timestamptz,
  ret_code text,
  ret_msg text,
  detail text,
  card_last4 text CHECK (card_last4 IS NULL OR card_last4 ~ '^[0-9]{4}$'),
  last_check_at text,
  last_check_found boolean,
  last_check_note text,
  checks integer NOT NULL DEFAULT 0,
  attempts integer NOT NULL DEFAULT 0,
  data jsonb NOT NULL DEFAULT '{}' CHECK (jsonb_typeof(data) = 'object'),
  created_by text NOT NULL DEFAULT session_user,
  created_on_server timestamptz NOT NULL DEFAULT now(),
  changed_by text NOT NULL DEFAULT session_user,
  changed_on_server timestamptz NOT NULL DEFAULT now(),
  changed_xid xid8 NOT NULL DEFAULT pg_current_xact_id()
);
CREATE INDEX intents_payment ON refund_desk.intents (merchant_no, store_no, transaction_no);
CREATE INDEX intents_list ON refund_desk.intents (kind, created_at, id);
CREATE INDEX intents_changed ON refund_desk.intents (changed_xid);
CREATE INDEX intents_unfinished ON refund_desk.intents (kind, state)
  WHERE state IN ('awaiting_approval', 'approved', 'sending', 'outcome_unknown', 'accepted', 'open');
CREATE UNIQUE INDEX intents_one_open_refund
  ON refund_desk.intents (environment, merchant_no, store_no, transaction_no)
  WHERE kind = 'refund' AND state IN ('awaiting_approval', 'approved', 'sending', 'outcome_unknown');
CREATE UNIQUE INDEX intents_payment_reference ON refund_desk.intents (merchant_no, reference)
  WHERE kind = 'payment' AND state <> 'rejected';

CREATE TABLE refund_desk.intent_events (
  id bigserial PRIMARY KEY,
  intent_id text NOT NULL REFERENCES refund_desk.intents (id),
  at text NOT NULL,
  type text NOT NULL,
  from_state text,
  to_state text NOT NULL,
  data jsonb NOT NULL DEFAULT '{}',
  by_login text NOT NULL DEFAULT session_user,
  on_server timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX intent_events_intent ON refund_desk.intent_events (intent_id, id);

CREATE TABLE refund_desk.audit (
  id bigserial PRIMARY KEY,
  kind text NOT NULL CHECK (kind IN ('refund', 'payment')),
  at text NOT NULL,
  outcome text NOT NULL,
  operator text NOT NULL,
  profile_id text NOT NULL,
  profile_name text NOT NULL,
  environment text NOT NULL,
  subject_id text NOT NULL,
  transaction_no text,
  amount_minor bigint CHECK (amount_minor IS NULL OR abs(amount_minor) <= 9007199254740991),
  currency text,
  ret_code text,
  ret_msg text,
  detail text,
  data jsonb NOT NULL DEFAULT '{}' CHECK (jsonb_typeof(data) = 'object'),
  by_login text NOT NULL DEFAULT session_user,
  on_server timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX audit_kind ON refund_desk.audit (kind, id);
CREATE INDEX audit_profile ON refund_desk.audit (kind, profile_id, id);

-- Every write stamps the server's login, time and transaction: the change feed reads by changed_xid.
CREATE FUNCTION refund_desk.stamp_intent() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  NEW.changed_by := session_user;
  NEW.changed_on_server := now();
  NEW.changed_xid := pg_current_xact_id();
  IF TG_OP = 'INSERT' THEN
    NEW.created_by := session_user;
    NEW.created_on_server := now();
  ELSE
    NEW.created_by := OLD.created_by;
    NEW.created_on_server := OLD.created_on_server;
  END IF;
  RETURN NEW;
END $$;
CREATE TRIGGER intents_stamp BEFORE INSERT OR UPDATE ON refund_desk.intents
  FOR EACH ROW EXECUTE FUNCTION refund_desk.stamp_intent();

-- "Something changed": the id only (NOTIFY is delivered on commit; payloads must stay under 8000 bytes).
CREATE FUNCTION refund_desk.notify_intent() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM pg_notify('refund_desk_intents', NEW.id);
  RETURN NULL;
END $$;
CREATE TRIGGER intents_notify AFTER INSERT OR UPDATE ON refund_desk.intents
  FOR EACH ROW EXECUTE FUNCTION refund_desk.notify_intent();
`,
  },
  // v2: people (login roles in groups), desk ids, SECURITY DEFINER writes, four-eyes (migration-team.ts).
  { version: 2, name: 'people and four-eyes', sql: TEAM_MIGRATION_SQL },
  // v3: month-end close shared by the desks — published runs, exceptions, audit, sign-offs (migration-close.ts).
  { version: 3, name: 'month-end close', sql: CLOSE_MIGRATION_SQL },
  // v4: the approver's send holds a sender's lease like any other (approve_and_claim; migration-claim.ts).
  { version: 4, name: 'approver lease', sql: CLAIM_MIGRATION_SQL },
  // v5: a desk's late writes (its outbox) and its imported local refunds are written once (migration-outbox.ts).
  { version: 5, name: 'outbox and local import', sql: OUTBOX_MIGRATION_SQL },
  // v6: refund batches shared by the desks, one runner's lease, four-eyes for a batch as a whole (migration-batch.ts).
  { version: 6, name: 'refund batches', sql: BATCH_MIGRATION_SQL },
  // v7: a batch awaiting approval rejected by a checker with a comment, or expired (migration-batch-close.ts).
  { version: 7, name: 'batch reject and expiry', sql: BATCH_CLOSE_MIGRATION_SQL },
];

/** The schema version this build reads and writes. */
export const DESK_SCHEMA_VERSION = PG_MIGRATIONS.at(-1)!.version;
