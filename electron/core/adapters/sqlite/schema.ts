import type { Migration } from './database';

/**
 * The schema of `refund-desk.db`, as migrations in order. Never edit a released migration: add one.
 * test/unit/adapters/sqlite-migrations.test.ts opens a database at every earlier version and migrates it.
 *
 * - v1, money: refund intents (current state, one row each), their events (the history, append-only),
 *   the audit log, and a change counter that watchers in other processes follow.
 * - v2, the rest of main's durable state: verified IPN events with their dedup keys, reconciliation jobs
 *   and answers, and the report of the one-time import of the older JSON-lines files.
 * - v3, a reconciliation run is a record: its facts (file, formats, mapping, profile, period, options,
 *   data sources) and summary on the job, the ledger handed over (in chunks), the service's list of the
 *   period (per window, with when it was fetched) and every item of the report. Jobs of earlier versions
 *   keep their answers and have no facts (their reports were never stored).
 * - v4, back-office payments: customers registered from this desk, their stored methods (vaultId), the
 *   payment-creation intents (journaled before the request leaves) with their history, and the payments
 *   audit log. A reference is unique per merchant except among creates the service rejected (nothing was
 *   created, so the same reference may be sent again). No card number, security code or expiry is ever a
 *   column: a card is kept as its last 4.
 * - v5, refunds closed as not sent stay watched (issue 24): `closed_not_sent_at` says when a person
 *   closed an unknown refund as not sent; such an intent stays `refused` (it does not block or count)
 *   but is asked about by reference for a week, and if the service lists it, it becomes the refund it
 *   was. Intents closed by earlier versions get the time of their `closed_not_sent` event, so they are
 *   watched too. Only a column and an index: no table is rebuilt.
 * - month-end close (issue 28, exceptions and sign-off): see the migration's own comment. Self-contained
 *   (only new tables and triggers), so it can be renumbered when branches merge.
 */
export const MIGRATIONS: readonly Migration[] = [
  {
    version: 1,
    sql: `
CREATE TABLE change_counter (id INTEGER PRIMARY KEY CHECK (id = 1), seq INTEGER NOT NULL);
INSERT INTO change_counter (id, seq) VALUES (1, 0);
CREATE TABLE intents (
  id TEXT PRIMARY KEY,
  seq INTEGER NOT NULL,
  state TEXT NOT NULL CHECK (state IN
    ('sending', 'accepted', 'rejected', 'refused', 'outcome_unknown', 'succeeded', 'failed')),
  profile_id TEXT NOT NULL,
  profile_name TEXT NOT NULL,
  environment TEXT NOT NULL,
  base_url TEXT NOT NULL,
  merchant_no TEXT NOT NULL,
  store_no TEXT NOT NULL,
  transaction_no TEXT NOT NULL,
  reference TEXT,
  amount_minor INTEGER NOT NULL CHECK (amount_minor > 0),
  currency TEXT NOT NULL CHECK (length(currency) = 3),
  settle_currency TEXT NOT NULL,
  reason_code TEXT NOT NULL,
  reason_note TEXT NOT NULL,
  operator TEXT NOT NULL,
  created_at TEXT NOT NULL,
  updated_at TEXT NOT NULL,
  sender TEXT,
  refund_transaction_no TEXT,
  refund_status TEXT,
  ret_code TEXT,
  ret_msg TEXT,
  detail TEXT,
  last_check_at TEXT,
  last_check_found INTEGER,
  last_check_note TEXT,
  checks INTEGER NOT NULL DEFAULT 0,
  attempts INTEGER NOT NULL DEFAULT 0,
  imported INTEGER NOT NULL DEFAULT 0
);
CREATE INDEX intents_payment ON intents (merchant_no, store_no, transaction_no);
CREATE INDEX intents_seq ON intents (seq);
CREATE INDEX intents_open ON intents (state) WHERE state IN ('sending', 'outcome_unknown', 'accepted');
CREATE TABLE intent_events (
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  intent_id TEXT NOT NULL REFERENCES intents (id),
  at TEXT NOT NULL,
  type TEXT NOT NULL,
  from_state TEXT,
  to_state TEXT NOT NULL,
  data TEXT NOT NULL
);
CREATE INDEX intent_events_intent ON intent_events (intent_id);
CREATE TABLE audit (
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  at TEXT NOT NULL,
  outcome TEXT NOT NULL,
  operator TEXT NOT NULL,
  profile_id TEXT NOT NULL,
  profile_name TEXT NOT NULL,
  environment TEXT NOT NULL,
  intent_id TEXT NOT NULL,
  transaction_no TEXT NOT NULL,
  amount_minor INTEGER NOT NULL,
  currency TEXT NOT NULL,
  reason_code TEXT NOT NULL,
  reason_note TEXT NOT NULL,
  ret_code TEXT,
  ret_msg TEXT,
  refund_transaction_no TEXT,
  detail TEXT
)`,
  },
  {
    version: 2,
    sql: `
CREATE TABLE ipn_events (
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  dedup_key TEXT NOT NULL UNIQUE,
  profile_id TEXT NOT NULL,
  received_at TEXT NOT NULL,
  data TEXT NOT NULL
);
CREATE TABLE recon_jobs (
  id TEXT PRIMARY KEY,
  profile_id TEXT NOT NULL,
  label TEXT NOT NULL,
  created_at TEXT NOT NULL,
  keys TEXT NOT NULL,
  ended_as TEXT CHECK (ended_as IN ('completed', 'cancelled'))
);
CREATE TABLE recon_results (
  job_id TEXT NOT NULL REFERENCES recon_jobs (id) ON DELETE CASCADE,
  key TEXT NOT NULL,
  data TEXT NOT NULL,
  PRIMARY KEY (job_id, key)
);
CREATE TABLE import_problems (
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  at TEXT NOT NULL,
  source TEXT NOT NULL,
  line INTEGER,
  reason TEXT NOT NULL,
  excerpt TEXT
);
CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL)`,
  },
  {
    version: 3,
    sql: `
ALTER TABLE recon_jobs ADD COLUMN facts TEXT;
ALTER TABLE recon_jobs ADD COLUMN summary TEXT;
ALTER TABLE recon_jobs ADD COLUMN statement TEXT;
ALTER TABLE recon_jobs ADD COLUMN started INTEGER NOT NULL DEFAULT 1;
CREATE INDEX recon_jobs_profile ON recon_jobs (profile_id, created_at);
CREATE TABLE recon_inputs (
  job_id TEXT NOT NULL REFERENCES recon_jobs (id) ON DELETE CASCADE,
  seq INTEGER NOT NULL,
  kind TEXT NOT NULL CHECK (kind IN ('row', 'unusable', 'cached')),
  count INTEGER NOT NULL,
  data TEXT NOT NULL,
  PRIMARY KEY (job_id, seq)
);
CREATE TABLE recon_windows (
  job_id TEXT NOT NULL REFERENCES recon_jobs (id) ON DELETE CASCADE,
  start_date TEXT NOT NULL,
  end_date TEXT NOT NULL,
  fetched_at TEXT NOT NULL,
  state TEXT NOT NULL CHECK (state IN ('listed', 'unsupported')),
  data TEXT NOT NULL,
  PRIMARY KEY (job_id, start_date)
);
CREATE TABLE recon_items (
  job_id TEXT NOT NULL REFERENCES recon_jobs (id) ON DELETE CASCADE,
  seq INTEGER NOT NULL,
  line INTEGER,
  outcome TEXT NOT NULL,
  data TEXT NOT NULL,
  PRIMARY KEY (job_id, seq)
)`,
  },
  {
    version: 4,
    sql: `
CREATE TABLE customers (
  id TEXT PRIMARY KEY,
  profile_id TEXT NOT NULL,
  environment TEXT NOT NULL,
  base_url TEXT NOT NULL,
  merchant_no TEXT NOT NULL,
  store_no TEXT NOT NULL,
  customer_no TEXT NOT NULL,
  customer_code TEXT,
  first_name TEXT NOT NULL,
  last_name TEXT NOT NULL,
  email TEXT NOT NULL,
  country_code TEXT NOT NULL,
  state TEXT,
  operator TEXT NOT NULL,
  created_at TEXT NOT NULL
);
CREATE INDEX customers_profile ON customers (profile_id, created_at);
CREATE UNIQUE INDEX customers_number ON customers (merchant_no, customer_no, profile_id);
CREATE TABLE payment_methods (
  id TEXT PRIMARY KEY,
  customer_id TEXT NOT NULL REFERENCES customers (id),
  vendor TEXT NOT NULL,
  vault_id TEXT NOT NULL,
  card_last4 TEXT CHECK (card_last4 IS NULL OR (length(card_last4) = 4 AND card_last4 NOT GLOB '*[^0-9]*')),
  payment_id TEXT,
  created_at TEXT NOT NULL,
  UNIQUE (customer_id, vault_id)
);
CREATE TABLE payment_intents (
  id TEXT PRIMARY KEY,
  kind TEXT NOT NULL CHECK (kind IN ('link', 'whitelabel', 'card', 'charge')),
  state TEXT NOT NULL CHECK (state IN
    ('sending', 'open', 'succeeded', 'failed', 'closed', 'rejected', 'outcome_unknown', 'not_created')),
  profile_id TEXT NOT NULL,
  profile_name TEXT NOT NULL,
  environment TEXT NOT NULL,
  base_url TEXT NOT NULL,
  merchant_no TEXT NOT NULL,
  store_no TEXT NOT NULL,
  operator TEXT NOT NULL,
  reference TEXT NOT NULL,
  amount_minor INTEGER NOT NULL CHECK (amount_minor > 0),
  currency TEXT NOT NULL CHECK (length(currency) = 3),
  settle_currency TEXT NOT NULL,
  vendor TEXT NOT NULL,
  terminal TEXT NOT NULL,
  description TEXT,
  note TEXT,
  goods TEXT NOT NULL,
  timeout_min INTEGER,
  customer_id TEXT REFERENCES customers (id),
  customer_no TEXT,
  method_id TEXT REFERENCES payment_methods (id),
  save_card INTEGER NOT NULL DEFAULT 0,
  card_last4 TEXT CHECK (card_last4 IS NULL OR (length(card_last4) = 4 AND card_last4 NOT GLOB '*[^0-9]*')),
  sender TEXT,
  transaction_no TEXT,
  payment_status TEXT,
  cashier_url TEXT,
  auth_url TEXT,
  saved_method_id TEXT REFERENCES payment_methods (id),
  ret_code TEXT,
  ret_msg TEXT,
  detail TEXT,
  last_check_at TEXT,
  last_check_found INTEGER,
  last_check_note TEXT,
  checks INTEGER NOT NULL DEFAULT 0,
  created_at TEXT NOT NULL,
  updated_at TEXT NOT NULL,
  paid_at TEXT
);
CREATE UNIQUE INDEX payment_intents_reference ON payment_intents (merchant_no, reference) WHERE state <> 'rejected';
CREATE INDEX payment_intents_profile ON payment_intents (profile_id, created_at);
CREATE INDEX payment_intents_transaction ON payment_intents (merchant_no, transaction_no);
CREATE INDEX payment_intents_open ON payment_intents (state) WHERE state IN ('sending', 'open', 'outcome_unknown');
CREATE TABLE payment_events (
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  intent_id TEXT NOT NULL REFERENCES payment_intents (id),
  at TEXT NOT NULL,
  type TEXT NOT NULL,
  from_state TEXT,
  to_state TEXT NOT NULL,
  data TEXT NOT NULL
);
CREATE INDEX payment_events_intent ON payment_events (intent_id);
CREATE TABLE payment_audit (
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  at TEXT NOT NULL,
  operator TEXT NOT NULL,
  profile_id TEXT NOT NULL,
  profile_name TEXT NOT NULL,
  environment TEXT NOT NULL,
  action TEXT NOT NULL,
  outcome TEXT NOT NULL,
  subject_id TEXT NOT NULL,
  reference TEXT,
  transaction_no TEXT,
  customer_no TEXT,
  amount_minor INTEGER,
  currency TEXT,
  vendor TEXT,
  ret_code TEXT,
  ret_msg TEXT,
  detail TEXT
)`,
  },
  {
    // v5 (issue 24, "close as not sent"): closed refunds stay watched. Kept apart from any other change.
    version: 5,
    sql: `
ALTER TABLE intents ADD COLUMN closed_not_sent_at TEXT;
UPDATE intents SET closed_not_sent_at = (
  SELECT e.at FROM intent_events e
   WHERE e.intent_id = intents.id AND e.type = 'closed_not_sent'
   ORDER BY e.id DESC LIMIT 1)
 WHERE state = 'refused';
CREATE INDEX intents_closed_watch ON intents (closed_not_sent_at)
 WHERE state = 'refused' AND closed_not_sent_at IS NOT NULL`,
  },
  {
    // Month-end close (issue 28): exceptions you work, carry-forward, sign-off. NEW TABLES ONLY, nothing
    // existing is altered, so this migration can be renumbered at merge without touching any other.
    // - recon_exceptions: one row per exception of a run — `i<seq>` for the run's own non-matched item
    //   `seq`, `c<n>` for one carried from an earlier run (its item kept in `carried`). Kept beside the
    //   run's record: working an exception never writes recon_items / recon_jobs (the figures).
    // - recon_exception_audit: every change (who, when, what, before/after), append-only (triggers).
    // - recon_signoffs: who signed a run, when, the comment, the exceptions listed open, the content
    //   hash. Once a run has a row here the database refuses any change to its exceptions and items
    //   (triggers), whoever asks — the screen's refusal is only the friendly half.
    version: 6,
    sql: `
CREATE TABLE recon_exceptions (
  run_id TEXT NOT NULL REFERENCES recon_jobs (id) ON DELETE CASCADE,
  id TEXT NOT NULL,
  item_seq INTEGER,
  state TEXT NOT NULL CHECK (state IN ('open', 'explained', 'resolved', 'written_off')),
  owner TEXT,
  notes TEXT NOT NULL,
  match TEXT,
  carried TEXT,
  age_from TEXT NOT NULL,
  age_from_what TEXT NOT NULL CHECK (age_from_what IN ('ledger', 'service', 'run')),
  updated_at TEXT NOT NULL,
  version INTEGER NOT NULL,
  PRIMARY KEY (run_id, id)
);
CREATE TABLE recon_exception_audit (
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  run_id TEXT NOT NULL,
  exception_id TEXT,
  at TEXT NOT NULL,
  by TEXT NOT NULL,
  action TEXT NOT NULL,
  before TEXT,
  after TEXT
);
CREATE INDEX recon_exception_audit_run ON recon_exception_audit (run_id, id);
CREATE TABLE recon_signoffs (
  run_id TEXT PRIMARY KEY REFERENCES recon_jobs (id),
  by TEXT NOT NULL,
  at TEXT NOT NULL,
  comment TEXT NOT NULL,
  open_ids TEXT NOT NULL,
  content_hash TEXT NOT NULL CHECK (length(content_hash) = 64)
);
CREATE TRIGGER recon_exception_audit_no_update BEFORE UPDATE ON recon_exception_audit
BEGIN SELECT RAISE(ABORT, 'the exception audit is append-only'); END;
CREATE TRIGGER recon_exception_audit_no_delete BEFORE DELETE ON recon_exception_audit
BEGIN SELECT RAISE(ABORT, 'the exception audit is append-only'); END;
CREATE TRIGGER recon_signoffs_no_update BEFORE UPDATE ON recon_signoffs
BEGIN SELECT RAISE(ABORT, 'a sign-off cannot change'); END;
CREATE TRIGGER recon_exceptions_signed_insert BEFORE INSERT ON recon_exceptions
WHEN EXISTS (SELECT 1 FROM recon_signoffs s WHERE s.run_id = NEW.run_id)
BEGIN SELECT RAISE(ABORT, 'run signed: its exceptions cannot change'); END;
CREATE TRIGGER recon_exceptions_signed_update BEFORE UPDATE ON recon_exceptions
WHEN EXISTS (SELECT 1 FROM recon_signoffs s WHERE s.run_id = OLD.run_id)
BEGIN SELECT RAISE(ABORT, 'run signed: its exceptions cannot change'); END;
CREATE TRIGGER recon_exceptions_signed_delete BEFORE DELETE ON recon_exceptions
WHEN EXISTS (SELECT 1 FROM recon_signoffs s WHERE s.run_id = OLD.run_id)
BEGIN SELECT RAISE(ABORT, 'run signed: its exceptions cannot change'); END;
CREATE TRIGGER recon_items_signed_insert BEFORE INSERT ON recon_items
WHEN EXISTS (SELECT 1 FROM recon_signoffs s WHERE s.run_id = NEW.job_id)
BEGIN SELECT RAISE(ABORT, 'run signed: its items cannot change'); END;
CREATE TRIGGER recon_items_signed_update BEFORE UPDATE ON recon_items
WHEN EXISTS (SELECT 1 FROM recon_signoffs s WHERE s.run_id = OLD.job_id)
BEGIN SELECT RAISE(ABORT, 'run signed: its items cannot change'); END;
CREATE TRIGGER recon_items_signed_delete BEFORE DELETE ON recon_items
WHEN EXISTS (SELECT 1 FROM recon_signoffs s WHERE s.run_id = OLD.job_id)
BEGIN SELECT RAISE(ABORT, 'run signed: its items cannot change'); END`,
  },
];
