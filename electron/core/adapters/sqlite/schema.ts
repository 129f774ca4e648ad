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
 * - v6, month-end close (issue 28, exceptions and sign-off): see the migration's own comment. Self-contained
 *   (only new tables and triggers), so it can be renumbered when branches merge.
 * - v7, one money engine: refund and payment intents in ONE `intents` table with a `kind`, their events
 *   in one `intent_events`, and one `audit` log with a `kind` — migrated in this one transaction, every
 *   row kept. Columns hold what is queried, constrained or shared by every kind (account, payment,
 *   reference, amount, state, lease, check evidence, a card's last 4 with its CHECK); each kind's own
 *   fields are a JSON `data` column (a refund's reason, its refund number and status, when it was
 *   closed as not sent; a payment's goods, vendor, links…), so a new kind (captures, batch rows) needs
 *   no migration and the PostgreSQL store keeps them as jsonb. The invariants are the database's: at
 *   most one open refund (sending, outcome unknown) per account and payment, and a payment reference unique per merchant
 *   among creates the service did not reject. `sender` stays a label for people; whether it is still
 *   sending is its lease (`lease_until`, ms), which migrated rows do not have: they are resolved by query.
 *   Earlier versions enforced "one open refund per payment" in code only, so a file may hold two (an old
 *   journal imported with both unanswered): the unique index would fail the whole migration and leave
 *   the desk without refunds for good. Both are kept, unchanged, and the later one is marked
 *   (`duplicate_of`, with an `open_beside` event) so the index admits it; it still blocks — the
 *   deciding code sees its state, and a trigger refuses a new open refund while any marked one of that
 *   payment is open — and still counts against what remains. Nothing is guessed, nothing is sent.
 *   Indexes lead with what each query pins (kind, merchant, payment or day), so no decision scans the
 *   whole table; the day's index is on the currency as read (trimmed, upper case: earlier versions kept
 *   a code in any case).
 * - v9, refund batches (issue 27): a batch (its account, file digest, who started it, its state and a
 *   lease so that one process runs it at a time) and every row of its file with the dry run's answer,
 *   its row key and what executing it did. Which rows a batch already refunded is read from the refund
 *   intents themselves (their `data.batch.rowKey`, indexed here), so a row whose intent committed just
 *   before a crash is never offered again even if its batch row was not updated. Only new tables and
 *   an index: no table is rebuilt.
 * - v10, the period's list as columns (issue 30): a window of the service's list is stored as one array
 *   per field (`layout` 'columns', ./list-columns.ts) instead of one JSON object per payment. Windows
 *   written earlier keep their text and `layout` 'objects', and are read as before, so a run recorded by
 *   an earlier version resumes and re-checks identically. Report items whose service side is the one their
 *   transaction gives are stored without it (./item-codec.ts); items stored earlier are plain JSON and
 *   read as before. Only a column: no row is rewritten. (The version also keeps an earlier Refund Desk
 *   from opening a file whose windows and items it could not read.)
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
  {
    version: 7,
    sql: `
CREATE TABLE intents_v7 (
  id TEXT PRIMARY KEY,
  kind TEXT NOT NULL CHECK (kind IN ('refund', 'payment')),
  seq INTEGER NOT NULL,
  state TEXT NOT NULL,
  profile_id TEXT NOT NULL,
  profile_name TEXT NOT NULL,
  environment TEXT NOT NULL,
  base_url TEXT NOT NULL,
  merchant_no TEXT NOT NULL,
  store_no TEXT NOT NULL,
  transaction_no TEXT,
  reference TEXT,
  amount_minor INTEGER NOT NULL CHECK (amount_minor > 0),
  currency TEXT NOT NULL CHECK (length(currency) = 3),
  settle_currency TEXT NOT NULL,
  operator TEXT NOT NULL,
  created_at TEXT NOT NULL,
  updated_at TEXT NOT NULL,
  sender TEXT,
  lease_until INTEGER,
  ret_code TEXT,
  ret_msg TEXT,
  detail TEXT,
  card_last4 TEXT CHECK (card_last4 IS NULL OR (length(card_last4) = 4 AND card_last4 NOT GLOB '*[^0-9]*')),
  last_check_at TEXT,
  last_check_found INTEGER,
  last_check_note TEXT,
  checks INTEGER NOT NULL DEFAULT 0,
  attempts INTEGER NOT NULL DEFAULT 0,
  duplicate_of TEXT,
  data TEXT NOT NULL DEFAULT '{}' CHECK (json_valid(data))
);
INSERT INTO intents_v7 (id, kind, seq, state, profile_id, profile_name, environment, base_url, merchant_no,
  store_no, transaction_no, reference, amount_minor, currency, settle_currency, operator, created_at,
  updated_at, sender, ret_code, ret_msg, detail, last_check_at, last_check_found, last_check_note, checks,
  attempts, data)
SELECT id, 'refund', seq, state, profile_id, profile_name, environment, base_url, merchant_no, store_no,
  transaction_no, reference, amount_minor, currency, settle_currency, operator, created_at, updated_at,
  sender, ret_code, ret_msg, detail, last_check_at, last_check_found, last_check_note, checks, attempts,
  json_patch('{}', json_object('reasonCode', reason_code, 'reasonNote', reason_note,
    'refundTransactionNo', refund_transaction_no, 'refundStatus', refund_status,
    'closedNotSentAt', closed_not_sent_at, 'imported', CASE imported WHEN 1 THEN json('true') END))
FROM intents;
INSERT INTO intents_v7 (id, kind, seq, state, profile_id, profile_name, environment, base_url, merchant_no,
  store_no, transaction_no, reference, amount_minor, currency, settle_currency, operator, created_at,
  updated_at, sender, ret_code, ret_msg, detail, card_last4, last_check_at, last_check_found,
  last_check_note, checks, attempts, data)
SELECT id, 'payment', 0, state, profile_id, profile_name, environment, base_url, merchant_no, store_no,
  transaction_no, reference, amount_minor, currency, settle_currency, operator, created_at, updated_at,
  sender, ret_code, ret_msg, detail, card_last4, last_check_at, last_check_found, last_check_note, checks,
  1, json_patch('{}', json_object('paymentKind', kind, 'vendor', vendor, 'terminal', terminal,
    'description', description, 'note', note, 'goods', json(goods), 'timeoutMin', timeout_min,
    'customerId', customer_id, 'customerNo', customer_no, 'methodId', method_id,
    'saveCard', json(CASE save_card WHEN 1 THEN 'true' ELSE 'false' END),
    'paymentStatus', payment_status, 'cashierUrl', cashier_url, 'authUrl', auth_url,
    'savedMethodId', saved_method_id, 'paidAt', paid_at))
FROM payment_intents;
CREATE TABLE intent_events_v7 (
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  intent_id TEXT NOT NULL REFERENCES intents_v7 (id),
  at TEXT NOT NULL,
  type TEXT NOT NULL,
  from_state TEXT,
  to_state TEXT NOT NULL,
  data TEXT NOT NULL
);
INSERT INTO intent_events_v7 (id, intent_id, at, type, from_state, to_state, data)
SELECT id, intent_id, at, type, from_state, to_state, data FROM intent_events ORDER BY id;
INSERT INTO intent_events_v7 (intent_id, at, type, from_state, to_state, data)
SELECT intent_id, at, type, from_state, to_state, data FROM payment_events ORDER BY id;
UPDATE intents_v7 SET duplicate_of = d.first FROM (
  SELECT id, first_value(id) OVER w AS first, row_number() OVER w AS n FROM intents_v7
   WHERE kind = 'refund' AND state IN ('sending', 'outcome_unknown')
  WINDOW w AS (PARTITION BY environment, merchant_no, store_no, transaction_no ORDER BY created_at, id)
) AS d WHERE intents_v7.id = d.id AND d.n > 1;
INSERT INTO intent_events_v7 (intent_id, at, type, from_state, to_state, data)
SELECT id, strftime('%Y-%m-%dT%H:%M:%fZ', 'now'), 'open_beside', state, state,
  json_object('openRefund', duplicate_of, 'note', 'Found open beside refund ' || duplicate_of ||
    ' of the same payment when this version first opened the database. Both are kept; both block further refunds of the payment and count against it until they are resolved by query.')
FROM intents_v7 WHERE duplicate_of IS NOT NULL ORDER BY created_at, id;
CREATE TABLE audit_v7 (
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  kind TEXT NOT NULL CHECK (kind IN ('refund', 'payment')),
  at TEXT NOT NULL,
  outcome TEXT NOT NULL,
  operator TEXT NOT NULL,
  profile_id TEXT NOT NULL,
  profile_name TEXT NOT NULL,
  environment TEXT NOT NULL,
  subject_id TEXT NOT NULL,
  transaction_no TEXT,
  amount_minor INTEGER,
  currency TEXT,
  ret_code TEXT,
  ret_msg TEXT,
  detail TEXT,
  data TEXT NOT NULL DEFAULT '{}' CHECK (json_valid(data))
);
INSERT INTO audit_v7 (id, kind, at, outcome, operator, profile_id, profile_name, environment, subject_id,
  transaction_no, amount_minor, currency, ret_code, ret_msg, detail, data)
SELECT id, 'refund', at, outcome, operator, profile_id, profile_name, environment, intent_id,
  transaction_no, amount_minor, currency, ret_code, ret_msg, detail,
  json_patch('{}', json_object('reasonCode', reason_code, 'reasonNote', reason_note,
    'refundTransactionNo', refund_transaction_no))
FROM audit ORDER BY id;
INSERT INTO audit_v7 (kind, at, outcome, operator, profile_id, profile_name, environment, subject_id,
  transaction_no, amount_minor, currency, ret_code, ret_msg, detail, data)
SELECT 'payment', at, outcome, operator, profile_id, profile_name, environment, subject_id,
  transaction_no, amount_minor, currency, ret_code, ret_msg, detail,
  json_patch('{}', json_object('action', action, 'reference', reference, 'customerNo', customer_no,
    'vendor', vendor))
FROM payment_audit ORDER BY id;
DROP TABLE payment_events;
DROP TABLE payment_intents;
DROP TABLE payment_audit;
DROP TABLE intent_events;
DROP TABLE intents;
DROP TABLE audit;
ALTER TABLE intents_v7 RENAME TO intents;
ALTER TABLE intent_events_v7 RENAME TO intent_events;
ALTER TABLE audit_v7 RENAME TO audit;
CREATE INDEX intents_payment ON intents (kind, merchant_no, transaction_no, store_no);
CREATE INDEX intents_day ON intents (kind, merchant_no, store_no, upper(trim(currency)), created_at);
CREATE INDEX intents_state ON intents (kind, state);
CREATE INDEX intents_reference ON intents (kind, merchant_no, reference);
CREATE INDEX intents_seq ON intents (seq);
CREATE INDEX intents_list ON intents (kind, created_at, id);
CREATE UNIQUE INDEX intents_one_open_refund ON intents (environment, merchant_no, store_no, transaction_no)
  WHERE kind = 'refund' AND state IN ('sending', 'outcome_unknown') AND duplicate_of IS NULL;
CREATE TRIGGER intents_open_beside_duplicate BEFORE INSERT ON intents
  WHEN NEW.kind = 'refund' AND NEW.state IN ('sending', 'outcome_unknown') AND NEW.duplicate_of IS NULL
   AND EXISTS (SELECT 1 FROM intents o WHERE o.kind = 'refund' AND o.merchant_no = NEW.merchant_no
     AND o.transaction_no = NEW.transaction_no AND o.store_no = NEW.store_no
     AND o.environment = NEW.environment AND o.duplicate_of IS NOT NULL
     AND o.state IN ('sending', 'outcome_unknown'))
BEGIN SELECT RAISE(ABORT, 'UNIQUE constraint failed: one open refund per payment (a marked duplicate is open)'); END;
CREATE UNIQUE INDEX intents_payment_reference ON intents (merchant_no, reference)
  WHERE kind = 'payment' AND state <> 'rejected';
CREATE INDEX intent_events_intent ON intent_events (intent_id);
CREATE INDEX audit_kind ON audit (kind, id);
CREATE INDEX audit_profile ON audit (kind, profile_id, id)`,
  },
  {
    // Notes a person keeps on a payment, and the look-ups of it (its timeline). Notes are append-only: a
    // note is corrected by another note, as the audit it is also recorded in.
    version: 8,
    sql: `
CREATE TABLE payment_notes (
  id TEXT PRIMARY KEY,
  profile_id TEXT NOT NULL,
  environment TEXT NOT NULL,
  merchant_no TEXT NOT NULL,
  store_no TEXT NOT NULL,
  transaction_no TEXT NOT NULL,
  at TEXT NOT NULL,
  operator TEXT NOT NULL,
  text TEXT NOT NULL CHECK (length(text) BETWEEN 1 AND 1000)
);
CREATE INDEX payment_notes_payment ON payment_notes (merchant_no, transaction_no, store_no);
CREATE TABLE payment_lookups (
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  profile_id TEXT NOT NULL,
  environment TEXT NOT NULL,
  merchant_no TEXT NOT NULL,
  store_no TEXT NOT NULL,
  transaction_no TEXT NOT NULL,
  at TEXT NOT NULL,
  operator TEXT NOT NULL,
  matched_by TEXT NOT NULL
);
CREATE INDEX payment_lookups_payment ON payment_lookups (merchant_no, transaction_no, store_no);
CREATE INDEX ipn_events_payment ON ipn_events (profile_id, json_extract(data, '$.transactionNo'));
CREATE TRIGGER payment_notes_no_update BEFORE UPDATE ON payment_notes
BEGIN SELECT RAISE(ABORT, 'payment notes are append-only'); END;
CREATE TRIGGER payment_notes_no_delete BEFORE DELETE ON payment_notes
BEGIN SELECT RAISE(ABORT, 'payment notes are append-only'); END`,
  },
  {
    // Refund batches and their rows (issue 27). A row's `dry` is the dry run's answer for it (JSON, the
    // shared/batch/result.ts schema); the other columns are what execution did. A row is `pending` (to
    // be sent), `sending` (taken by the executor: its intent may or may not have committed), `sent` (its
    // refund intent is `intent_id`), `refused` (checked again and not sent) or `skipped` (never to be
    // sent: the dry run refused it, or the batch was cancelled first).
    version: 9,
    sql: `
CREATE TABLE refund_batches (
  id TEXT PRIMARY KEY,
  profile_id TEXT NOT NULL,
  profile_name TEXT NOT NULL,
  environment TEXT NOT NULL,
  base_url TEXT NOT NULL,
  merchant_no TEXT NOT NULL,
  store_no TEXT NOT NULL,
  file_name TEXT NOT NULL,
  file_digest TEXT NOT NULL CHECK (length(file_digest) = 64),
  operator TEXT NOT NULL,
  state TEXT NOT NULL CHECK (state IN ('running', 'paused', 'cancelled', 'finished')),
  created_at TEXT NOT NULL,
  updated_at TEXT NOT NULL,
  runner TEXT,
  lease_until INTEGER,
  data TEXT NOT NULL
);
CREATE INDEX refund_batches_account ON refund_batches (merchant_no, store_no, state);
CREATE TABLE refund_batch_rows (
  batch_id TEXT NOT NULL REFERENCES refund_batches (id),
  line INTEGER NOT NULL,
  row_key TEXT,
  transaction_no TEXT,
  amount_minor INTEGER,
  currency TEXT,
  state TEXT NOT NULL CHECK (state IN ('pending', 'sending', 'sent', 'refused', 'skipped')),
  intent_id TEXT,
  outcome TEXT,
  detail TEXT,
  at TEXT,
  operator TEXT,
  dry TEXT NOT NULL,
  PRIMARY KEY (batch_id, line)
);
CREATE INDEX refund_batch_rows_state ON refund_batch_rows (batch_id, state);
CREATE INDEX intents_batch_row ON intents (merchant_no, store_no, json_extract(data, '$.batch.rowKey'))
  WHERE kind = 'refund' AND json_extract(data, '$.batch.rowKey') IS NOT NULL`,
  },
  {
    version: 10,
    sql: `
ALTER TABLE recon_windows ADD COLUMN layout TEXT NOT NULL DEFAULT 'objects'
  CHECK (layout IN ('objects', 'columns'))`,
  },
  {
    // Team mode (issue 26 items 6 and 7), the desk's own side of the team database:
    // - `team_outbox`: what this desk learnt while the team database could not be reached — the outcome of
    //   a request already committed there as `sending`, a check, an audit entry — kept here (fsync'd by
    //   the commit) and written there once it is back, oldest first. `once_key` is stamped into the row
    //   written there; the team database refuses a second row with the same key, so an entry replayed
    //   twice (a desk killed between the write and the delete here) is written once. `database` is the
    //   team database (login@host/db) it belongs to: a desk pointed elsewhere never writes it there.
    // - `team_outbox_claim`: which process of this data folder replays (one at a time, so entries about
    //   one intent are written in their order).
    // - `desk_file`: a random id of this file, stamped on what is imported from it (never twice).
    // - `team_imports`: the local refunds imported into a team database, and how many there were then.
    // Only new tables: it can be renumbered when branches merge.
    version: 11,
    sql: `
CREATE TABLE team_outbox (
  seq INTEGER PRIMARY KEY AUTOINCREMENT,
  database TEXT NOT NULL,
  once_key TEXT NOT NULL UNIQUE,
  op TEXT NOT NULL CHECK (op IN ('transition', 'check', 'audit')),
  intent_id TEXT NOT NULL,
  queued_at TEXT NOT NULL,
  body TEXT NOT NULL CHECK (json_valid(body)),
  attempts INTEGER NOT NULL DEFAULT 0,
  last_error TEXT
);
CREATE INDEX team_outbox_intent ON team_outbox (database, intent_id);
CREATE TABLE team_outbox_claim (
  database TEXT PRIMARY KEY,
  holder TEXT NOT NULL,
  until_ms INTEGER NOT NULL
);
CREATE TABLE desk_file (id INTEGER PRIMARY KEY CHECK (id = 1), file_id TEXT NOT NULL);
INSERT INTO desk_file (id, file_id) VALUES (1, lower(hex(randomblob(16))));
CREATE TABLE team_imports (
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  database TEXT NOT NULL,
  at TEXT NOT NULL,
  local_refunds INTEGER NOT NULL,
  imported INTEGER NOT NULL,
  already INTEGER NOT NULL,
  audit INTEGER NOT NULL
)`,
  },
  {
    // Report items by reference (issue 30, ./item-codec.ts): since this version an item of a run may refer
    // to the run's own ledger rows (recon_inputs) and list windows (recon_windows) instead of holding
    // copies, so those rows are part of the run's record. Once a run is signed the database refuses any
    // change to them, as it refuses one to its items (v6). The version also keeps an earlier build, which
    // could not read such items, from opening the file.
    version: 12,
    sql: `
CREATE TRIGGER recon_inputs_signed_insert BEFORE INSERT ON recon_inputs
WHEN EXISTS (SELECT 1 FROM recon_signoffs s WHERE s.run_id = NEW.job_id)
BEGIN SELECT RAISE(ABORT, 'run signed: its ledger cannot change'); END;
CREATE TRIGGER recon_inputs_signed_update BEFORE UPDATE ON recon_inputs
WHEN EXISTS (SELECT 1 FROM recon_signoffs s WHERE s.run_id = OLD.job_id)
BEGIN SELECT RAISE(ABORT, 'run signed: its ledger cannot change'); END;
CREATE TRIGGER recon_inputs_signed_delete BEFORE DELETE ON recon_inputs
WHEN EXISTS (SELECT 1 FROM recon_signoffs s WHERE s.run_id = OLD.job_id)
BEGIN SELECT RAISE(ABORT, 'run signed: its ledger cannot change'); END;
CREATE TRIGGER recon_windows_signed_insert BEFORE INSERT ON recon_windows
WHEN EXISTS (SELECT 1 FROM recon_signoffs s WHERE s.run_id = NEW.job_id)
BEGIN SELECT RAISE(ABORT, 'run signed: its list cannot change'); END;
CREATE TRIGGER recon_windows_signed_update BEFORE UPDATE ON recon_windows
WHEN EXISTS (SELECT 1 FROM recon_signoffs s WHERE s.run_id = OLD.job_id)
BEGIN SELECT RAISE(ABORT, 'run signed: its list cannot change'); END;
CREATE TRIGGER recon_windows_signed_delete BEFORE DELETE ON recon_windows
WHEN EXISTS (SELECT 1 FROM recon_signoffs s WHERE s.run_id = OLD.job_id)
BEGIN SELECT RAISE(ABORT, 'run signed: its list cannot change'); END`,
  },
  {
    // Report items in pages (issue 30, ./recon-run-store.ts): a run's items are stored a page at a time
    // — `count` items from `first_seq` on, `data` the JSON array of their texts (./item-codec.ts) — instead
    // of a row (and an index entry) per item: at a million items those rows were most of the time to
    // write the record, and of its size. `unmatched` lists the page's items (by position in the page) whose
    // outcome is not 'matched', so the close reads its exceptions without reading every item; NULL when
    // there are none. Runs stored before keep their recon_items rows, read as before. Once a run is signed
    // the database refuses any change to its pages, as to its items (v6). The version also keeps an
    // earlier build, which would see a run without items, from opening the file.
    version: 13,
    sql: `
CREATE TABLE recon_item_pages (
  job_id TEXT NOT NULL REFERENCES recon_jobs (id) ON DELETE CASCADE,
  first_seq INTEGER NOT NULL CHECK (first_seq >= 0),
  count INTEGER NOT NULL CHECK (count > 0),
  unmatched TEXT,
  data TEXT NOT NULL,
  PRIMARY KEY (job_id, first_seq)
);
CREATE TRIGGER recon_item_pages_signed_insert BEFORE INSERT ON recon_item_pages
WHEN EXISTS (SELECT 1 FROM recon_signoffs s WHERE s.run_id = NEW.job_id)
BEGIN SELECT RAISE(ABORT, 'run signed: its items cannot change'); END;
CREATE TRIGGER recon_item_pages_signed_update BEFORE UPDATE ON recon_item_pages
WHEN EXISTS (SELECT 1 FROM recon_signoffs s WHERE s.run_id = OLD.job_id)
BEGIN SELECT RAISE(ABORT, 'run signed: its items cannot change'); END;
CREATE TRIGGER recon_item_pages_signed_delete BEFORE DELETE ON recon_item_pages
WHEN EXISTS (SELECT 1 FROM recon_signoffs s WHERE s.run_id = OLD.job_id)
BEGIN SELECT RAISE(ABORT, 'run signed: its items cannot change'); END`,
  },
  {
    // The period's list packed (issue 30, ./list-packed.ts): a listed window written since this version
    // is binary columns (`layout` 'packed', `data` a BLOB) — amounts and times read in place, texts cut
    // only when read — instead of the JSON of its arrays, whose parse was the largest single cost of a
    // run at a million payments. Windows written earlier keep their layout and are read as before, so a
    // run recorded earlier re-opens and re-checks identically. SQLite cannot change a CHECK in place: the
    // table is made again with the new layout admitted and every row copied as it is, and the triggers
    // that keep a signed run's list unchanged (v12) are made again on it. The version also keeps an
    // earlier build, which could not read a packed window, from opening the file.
    version: 14,
    sql: `
CREATE TABLE recon_windows_v14 (
  job_id TEXT NOT NULL REFERENCES recon_jobs (id) ON DELETE CASCADE,
  start_date TEXT NOT NULL,
  end_date TEXT NOT NULL,
  fetched_at TEXT NOT NULL,
  state TEXT NOT NULL CHECK (state IN ('listed', 'unsupported')),
  data BLOB NOT NULL,
  layout TEXT NOT NULL DEFAULT 'objects' CHECK (layout IN ('objects', 'columns', 'packed')),
  PRIMARY KEY (job_id, start_date)
);
INSERT INTO recon_windows_v14 (job_id, start_date, end_date, fetched_at, state, data, layout)
  SELECT job_id, start_date, end_date, fetched_at, state, data, layout FROM recon_windows;
DROP TRIGGER recon_windows_signed_insert;
DROP TRIGGER recon_windows_signed_update;
DROP TRIGGER recon_windows_signed_delete;
DROP TABLE recon_windows;
ALTER TABLE recon_windows_v14 RENAME TO recon_windows;
CREATE TRIGGER recon_windows_signed_insert BEFORE INSERT ON recon_windows
WHEN EXISTS (SELECT 1 FROM recon_signoffs s WHERE s.run_id = NEW.job_id)
BEGIN SELECT RAISE(ABORT, 'run signed: its list cannot change'); END;
CREATE TRIGGER recon_windows_signed_update BEFORE UPDATE ON recon_windows
WHEN EXISTS (SELECT 1 FROM recon_signoffs s WHERE s.run_id = OLD.job_id)
BEGIN SELECT RAISE(ABORT, 'run signed: its list cannot change'); END;
CREATE TRIGGER recon_windows_signed_delete BEFORE DELETE ON recon_windows
WHEN EXISTS (SELECT 1 FROM recon_signoffs s WHERE s.run_id = OLD.job_id)
BEGIN SELECT RAISE(ABORT, 'run signed: its list cannot change'); END`,
  },
];
