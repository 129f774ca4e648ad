import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  type AppStorage,
  DATABASE_FILE,
  openAppStorage,
} from '../../../electron/core/adapters/sqlite/app-storage';
import { type Database, openDatabase } from '../../../electron/core/adapters/sqlite/database';
import { createSqliteIntentStore } from '../../../electron/core/adapters/sqlite/intent-store';
import { MIGRATIONS } from '../../../electron/core/adapters/sqlite/schema';
import { InvariantViolation } from '../../../electron/core/services/engine/port';
import type { PaymentAuditEntry, PaymentIntent } from '../../../electron/core/services/payments/intent';
import { paymentStoreOn } from '../../../electron/core/services/payments/store';
import type { AuditEntry } from '../../../electron/core/services/refunds/audit';
import type { Intent } from '../../../electron/core/services/refunds/intent';
import { createRefundService } from '../../../electron/core/services/refunds/service';
import { refundStoreOn } from '../../../electron/core/services/refunds/store';
import type { Transaction } from '../../../shared/domain/transaction';
import { createFakeLogger } from '../../fakes/logger';

/**
 * Every earlier schema, with rows in every table it had, opened by this version: nothing is lost.
 * Refund and payment intents, their events and both audit logs move into the engine's tables (one
 * `intents` with a kind, one `intent_events`, one `audit`) and must read back exactly as written; every
 * other table must come through row for row.
 */
const LATEST = MIGRATIONS.at(-1)!.version;
/** The version that put refunds and payments into the engine's tables. */
const ENGINE = 7;
const EARLIER = MIGRATIONS.map((m) => m.version).filter((v) => v < ENGINE);

type Row = Record<string, string | number | null>;

function insert(db: Database, table: string, row: Row): void {
  const cols = Object.keys(row);
  db.run(
    `INSERT INTO ${table} (${cols.join(', ')}) VALUES (${cols.map(() => '?').join(', ')})`,
    ...cols.map((c) => row[c]!),
  );
}

const dump = (db: Database, table: string) => db.all(`SELECT * FROM ${table} ORDER BY rowid`);

// ---- v1: refund intents, their events, the refunds' audit log -------------------------------------

const ACCOUNT = {
  profileId: 'p1',
  profileName: 'Main',
  environment: 'vendor-sandbox',
  baseUrl: 'https://mapi.yuansferdev.com',
  merchantNo: '200043',
  storeNo: '300014',
} as const;

const REFUNDS: Intent[] = [
  {
    ...ACCOUNT,
    id: 'RD01',
    transactionNo: '297553638300700001',
    reference: 'order-1',
    amountMinor: 1250,
    currency: 'USD',
    settleCurrency: 'USD',
    reasonCode: 'customer_request',
    reasonNote: 'Mug broken',
    operator: 'Ana',
    createdAt: '2026-01-01T10:00:00.000Z',
    updatedAt: '2026-01-01T10:05:00.000Z',
    state: 'succeeded',
    sender: 'desk:101',
    refundTransactionNo: '397553638300700001',
    refundStatus: 'success',
    lastCheck: { at: '2026-01-01T10:05:00.000Z', found: true, note: 'Listed as success.' },
    checks: 2,
    attempts: 1,
  },
  {
    ...ACCOUNT,
    id: 'RD02',
    transactionNo: '297553638300700002',
    amountMinor: 500,
    currency: 'USD',
    settleCurrency: 'USD',
    reasonCode: 'duplicate',
    reasonNote: '',
    operator: 'Ana',
    createdAt: '2026-01-02T10:00:00.000Z',
    updatedAt: '2026-01-02T10:01:00.000Z',
    state: 'outcome_unknown',
    sender: 'desk:102',
    detail: 'The service did not answer in time.',
    lastCheck: { at: '2026-01-02T10:01:00.000Z', found: false, note: 'Not listed yet.' },
    checks: 1,
    attempts: 1,
  },
  {
    ...ACCOUNT,
    id: 'RD03',
    environment: 'demo',
    baseUrl: '',
    transactionNo: '297553638300700003',
    amountMinor: 700,
    currency: 'CNY',
    settleCurrency: 'USD',
    reasonCode: 'other',
    reasonNote: 'n',
    operator: 'Bo',
    createdAt: '2026-01-03T10:00:00.000Z',
    updatedAt: '2026-01-03T10:00:01.000Z',
    state: 'rejected',
    retCode: '000023',
    retMsg: 'refund amount exceeds',
    detail: 'The service refused the refund.',
    checks: 0,
    attempts: 1,
  },
  {
    ...ACCOUNT,
    id: 'RD04',
    transactionNo: '297553638300700004',
    amountMinor: 900,
    currency: 'USD',
    settleCurrency: 'USD',
    reasonCode: 'other',
    reasonNote: '',
    operator: 'Ana',
    createdAt: '2026-01-04T10:00:00.000Z',
    updatedAt: '2026-01-04T10:00:02.000Z',
    state: 'accepted',
    sender: 'desk:104',
    refundTransactionNo: '397553638300700004',
    refundStatus: 'pending',
    checks: 0,
    attempts: 1,
  },
  {
    ...ACCOUNT,
    id: 'RD05',
    transactionNo: '297553638300700005',
    amountMinor: 300,
    currency: 'USD',
    settleCurrency: 'USD',
    reasonCode: 'other',
    reasonNote: '',
    operator: 'Ana',
    createdAt: '2026-01-05T10:00:00.000Z',
    updatedAt: '2026-01-05T10:00:00.000Z',
    // Its sender died before any answer: it has no lease after the migration, so it is resolved by query.
    state: 'sending',
    sender: 'desk:105',
    checks: 0,
    attempts: 1,
  },
  {
    // Closed as not sent by a person (after enough checks): refused, still watched by reference.
    ...ACCOUNT,
    id: 'RD07',
    transactionNo: '297553638300700007',
    amountMinor: 250,
    currency: 'USD',
    settleCurrency: 'USD',
    reasonCode: 'other',
    reasonNote: '',
    operator: 'Ana',
    createdAt: '2026-01-07T09:00:00.000Z',
    updatedAt: '2026-01-07T12:00:00.000Z',
    state: 'refused',
    sender: 'desk:107',
    detail: 'Closed as not sent by Ana.',
    closedNotSentAt: '2026-01-07T12:00:00.000Z',
    checks: 3,
    attempts: 1,
  },
  {
    ...ACCOUNT,
    id: 'RD06',
    profileId: 'cli:200043:300014',
    profileName: 'cli',
    transactionNo: '297553638300700006',
    amountMinor: 100,
    currency: 'USD',
    settleCurrency: 'USD',
    reasonCode: 'other',
    reasonNote: '',
    operator: 'unknown operator',
    createdAt: '2026-01-06T10:00:00.000Z',
    updatedAt: '2026-01-06T10:00:00.000Z',
    state: 'refused',
    detail: 'Refund Desk stopped before sending this refund. Nothing was sent.',
    checks: 0,
    attempts: 0,
  },
];

function refundRow(i: Intent, seq: number, imported = false): Row {
  return {
    id: i.id,
    seq,
    state: i.state,
    profile_id: i.profileId,
    profile_name: i.profileName,
    environment: i.environment,
    base_url: i.baseUrl,
    merchant_no: i.merchantNo,
    store_no: i.storeNo,
    transaction_no: i.transactionNo,
    reference: i.reference ?? null,
    amount_minor: i.amountMinor,
    currency: i.currency,
    settle_currency: i.settleCurrency ?? '',
    reason_code: i.reasonCode,
    reason_note: i.reasonNote,
    operator: i.operator,
    created_at: i.createdAt,
    updated_at: i.updatedAt,
    sender: i.sender ?? null,
    refund_transaction_no: i.refundTransactionNo ?? null,
    refund_status: i.refundStatus ?? null,
    ret_code: i.retCode ?? null,
    ret_msg: i.retMsg ?? null,
    detail: i.detail ?? null,
    last_check_at: i.lastCheck?.at ?? null,
    last_check_found: i.lastCheck ? (i.lastCheck.found ? 1 : 0) : null,
    last_check_note: i.lastCheck?.note ?? null,
    checks: i.checks,
    attempts: i.attempts,
    imported: imported ? 1 : 0,
  };
}

const CLOSED_AT = '2026-01-07T12:00:00.000Z';

const REFUND_EVENTS: Row[] = [
  {
    intent_id: 'RD01',
    at: 't1',
    type: 'decided',
    from_state: null,
    to_state: 'sending',
    data: '{"sender":"desk:101"}',
  },
  {
    intent_id: 'RD01',
    at: 't2',
    type: 'accepted',
    from_state: 'sending',
    to_state: 'accepted',
    data: '{"refundTransactionNo":"397553638300700001"}',
  },
  {
    intent_id: 'RD01',
    at: 't3',
    type: 'checked',
    from_state: 'accepted',
    to_state: 'accepted',
    data: '{"at":"t3","found":true,"note":"Listed as pending."}',
  },
  {
    intent_id: 'RD02',
    at: 't4',
    type: 'checked',
    from_state: 'outcome_unknown',
    to_state: 'outcome_unknown',
    data: '{"at":"t4","found":false,"reached":false,"note":"Not listed yet."}',
  },
  { intent_id: 'RD06', at: 't5', type: 'legacy:created', from_state: null, to_state: 'refused', data: '{}' },
  {
    intent_id: 'RD07',
    at: CLOSED_AT,
    type: 'closed_not_sent',
    from_state: 'outcome_unknown',
    to_state: 'refused',
    data: '{}',
  },
];

const REFUND_AUDIT: AuditEntry[] = [
  {
    at: '2026-01-01T10:00:01.000Z',
    outcome: 'accepted',
    operator: 'Ana',
    profileId: 'p1',
    profileName: 'Main',
    environment: 'vendor-sandbox',
    intentId: 'RD01',
    transactionNo: '297553638300700001',
    amountMinor: 1250,
    currency: 'USD',
    reasonCode: 'customer_request',
    reasonNote: 'Mug broken',
    refundTransactionNo: '397553638300700001',
  },
  {
    at: '2026-01-03T10:00:01.000Z',
    outcome: 'rejected',
    operator: 'Bo',
    profileId: 'p1',
    profileName: 'Main',
    environment: 'demo',
    intentId: 'RD03',
    transactionNo: '297553638300700003',
    amountMinor: 700,
    currency: 'CNY',
    reasonCode: 'other',
    reasonNote: 'n',
    retCode: '000023',
    retMsg: 'refund amount exceeds',
    detail: 'The service refused the refund.',
  },
  {
    at: '2026-01-07T10:00:00.000Z',
    outcome: 'refused',
    operator: 'Ana',
    profileId: 'p1',
    profileName: 'Main',
    environment: 'vendor-sandbox',
    intentId: '',
    transactionNo: '297553638300700007',
    amountMinor: 99_999,
    currency: 'USD',
    reasonCode: 'other',
    reasonNote: '',
    detail: 'Only 10.00 USD remains refundable on this payment.',
  },
];

function refundAuditRow(e: AuditEntry): Row {
  return {
    at: e.at,
    outcome: e.outcome,
    operator: e.operator,
    profile_id: e.profileId,
    profile_name: e.profileName,
    environment: e.environment,
    intent_id: e.intentId,
    transaction_no: e.transactionNo,
    amount_minor: e.amountMinor,
    currency: e.currency,
    reason_code: e.reasonCode,
    reason_note: e.reasonNote,
    ret_code: e.retCode ?? null,
    ret_msg: e.retMsg ?? null,
    refund_transaction_no: e.refundTransactionNo ?? null,
    detail: e.detail ?? null,
  };
}

function writeV1(db: Database): void {
  REFUNDS.forEach((i, n) => insert(db, 'intents', refundRow(i, n + 1, i.id === 'RD06')));
  db.run('UPDATE change_counter SET seq = ?', REFUNDS.length);
  for (const e of REFUND_EVENTS) insert(db, 'intent_events', e);
  for (const e of REFUND_AUDIT) insert(db, 'audit', refundAuditRow(e));
}

// ---- v2: IPN events, reconciliation jobs and answers, import problems, meta ------------------------

function writeV2(db: Database): void {
  insert(db, 'ipn_events', {
    dedup_key: 'payment:297553638300700001:success',
    profile_id: 'p1',
    received_at: 't1',
    data: '{"kind":"payment","transactionNo":"297553638300700001"}',
  });
  insert(db, 'ipn_events', {
    dedup_key: 'refund:397553638300700001:success',
    profile_id: 'p1',
    received_at: 't2',
    data: '{"kind":"refund"}',
  });
  insert(db, 'recon_jobs', {
    id: 'RC1',
    profile_id: 'p1',
    label: 'june.csv',
    created_at: 't1',
    keys: '["tx:1","tx:2"]',
    ended_as: 'completed',
  });
  insert(db, 'recon_results', { job_id: 'RC1', key: 'tx:1', data: '{"found":true}' });
  insert(db, 'recon_results', { job_id: 'RC1', key: 'tx:2', data: '{"found":false}' });
  insert(db, 'import_problems', {
    at: 't1',
    source: 'refund-journal.jsonl',
    line: 7,
    reason: 'checksum mismatch',
    excerpt: '{"c":"0"}',
  });
  insert(db, 'meta', { key: 'legacy_import', value: '2026-01-01T00:00:00.000Z' });
}

// ---- v3: reconciliation runs as records ------------------------------------------------------------

function writeV3(db: Database): void {
  insert(db, 'recon_jobs', {
    id: 'RC2',
    profile_id: 'p1',
    label: 'july.csv',
    created_at: 't2',
    keys: '["tx:3"]',
    ended_as: null,
    facts: '{"runId":"RC2","label":"july.csv"}',
    summary: '{"matched":1}',
    statement: '{"lines":[]}',
    started: 0,
  });
  insert(db, 'recon_inputs', {
    job_id: 'RC2',
    seq: 0,
    kind: 'row',
    count: 2,
    data: '[{"line":2},{"line":3}]',
  });
  insert(db, 'recon_inputs', { job_id: 'RC2', seq: 1, kind: 'cached', count: 1, data: '[{"key":"tx:3"}]' });
  insert(db, 'recon_windows', {
    job_id: 'RC2',
    start_date: '20260701',
    end_date: '20260715',
    fetched_at: 't3',
    state: 'listed',
    data: '[]',
  });
  insert(db, 'recon_items', { job_id: 'RC2', seq: 0, line: 2, outcome: 'matched', data: '{"line":2}' });
  insert(db, 'recon_items', { job_id: 'RC2', seq: 1, line: null, outcome: 'missing_in_ledger', data: '{}' });
}

// ---- v4: customers, stored methods, payment intents, their events, the payments' audit log ---------

const PAYMENTS: PaymentIntent[] = [
  {
    ...ACCOUNT,
    id: 'PY01',
    kind: 'card',
    operator: 'Ana',
    reference: 'R-1',
    amountMinor: 4250,
    currency: 'USD',
    settleCurrency: 'USD',
    vendor: 'creditcard',
    terminal: 'ONLINE',
    description: 'Two mugs',
    note: 'gift',
    goods: [{ name: 'Mug', quantity: 2 }],
    timeoutMin: 30,
    customerId: 'CU1',
    customerNo: '1234567890123456789012',
    saveCard: true,
    cardLast4: '3220',
    createdAt: '2026-02-01T10:00:00.000Z',
    state: 'succeeded',
    updatedAt: '2026-02-01T10:03:00.000Z',
    sender: 'desk:201',
    transactionNo: '297553638300800001',
    paymentStatus: 'success',
    authUrl: 'https://mapi.yuansferdev.com/3ds/abc',
    savedMethodId: 'PM1',
    lastCheck: { at: '2026-02-01T10:03:00.000Z', found: true, note: 'success' },
    checks: 1,
    paidAt: '2026-02-01T10:02:00.000Z',
  },
  {
    ...ACCOUNT,
    id: 'PY02',
    kind: 'link',
    operator: 'Ana',
    reference: 'R-2',
    amountMinor: 1000,
    currency: 'USD',
    settleCurrency: 'USD',
    vendor: 'alipay',
    terminal: 'ONLINE',
    goods: [],
    saveCard: false,
    createdAt: '2026-02-02T10:00:00.000Z',
    state: 'open',
    updatedAt: '2026-02-02T10:00:01.000Z',
    sender: 'desk:202',
    transactionNo: '297553638300800002',
    paymentStatus: 'pending',
    cashierUrl: 'https://mapi.yuansferdev.com/cashier/xyz',
    checks: 0,
  },
  {
    ...ACCOUNT,
    id: 'PY03',
    kind: 'charge',
    operator: 'Bo',
    reference: 'R-3',
    amountMinor: 1500,
    currency: 'USD',
    settleCurrency: 'USD',
    vendor: 'creditcard',
    terminal: 'ONLINE',
    goods: [{ name: 'Plan', quantity: 1 }],
    customerId: 'CU1',
    customerNo: '1234567890123456789012',
    methodId: 'PM1',
    saveCard: false,
    createdAt: '2026-02-03T10:00:00.000Z',
    state: 'rejected',
    updatedAt: '2026-02-03T10:00:01.000Z',
    sender: 'desk:203',
    retCode: '000100',
    retMsg: 'card declined',
    detail: 'The service refused the payment.',
    checks: 0,
  },
  {
    // The same reference again: allowed, because the create before it was rejected.
    ...ACCOUNT,
    id: 'PY04',
    kind: 'whitelabel',
    operator: 'Bo',
    reference: 'R-3',
    amountMinor: 1500,
    currency: 'USD',
    settleCurrency: 'USD',
    vendor: 'paypal',
    terminal: 'ONLINE',
    goods: [],
    saveCard: false,
    createdAt: '2026-02-04T10:00:00.000Z',
    state: 'outcome_unknown',
    updatedAt: '2026-02-04T10:00:09.000Z',
    sender: 'desk:204',
    detail: 'The service did not answer in time.',
    checks: 0,
  },
];

function paymentRow(p: PaymentIntent): Row {
  return {
    id: p.id,
    kind: p.kind,
    state: p.state,
    profile_id: p.profileId,
    profile_name: p.profileName,
    environment: p.environment,
    base_url: p.baseUrl,
    merchant_no: p.merchantNo,
    store_no: p.storeNo,
    operator: p.operator,
    reference: p.reference,
    amount_minor: p.amountMinor,
    currency: p.currency,
    settle_currency: p.settleCurrency,
    vendor: p.vendor,
    terminal: p.terminal,
    description: p.description ?? null,
    note: p.note ?? null,
    goods: JSON.stringify(p.goods),
    timeout_min: p.timeoutMin ?? null,
    customer_id: p.customerId ?? null,
    customer_no: p.customerNo ?? null,
    method_id: p.methodId ?? null,
    save_card: p.saveCard ? 1 : 0,
    card_last4: p.cardLast4 ?? null,
    sender: p.sender ?? null,
    transaction_no: p.transactionNo ?? null,
    payment_status: p.paymentStatus ?? null,
    cashier_url: p.cashierUrl ?? null,
    auth_url: p.authUrl ?? null,
    saved_method_id: p.savedMethodId ?? null,
    ret_code: p.retCode ?? null,
    ret_msg: p.retMsg ?? null,
    detail: p.detail ?? null,
    last_check_at: p.lastCheck?.at ?? null,
    last_check_found: p.lastCheck ? (p.lastCheck.found ? 1 : 0) : null,
    last_check_note: p.lastCheck?.note ?? null,
    checks: p.checks,
    created_at: p.createdAt,
    updated_at: p.updatedAt,
    paid_at: p.paidAt ?? null,
  };
}

const PAYMENT_EVENTS: Row[] = [
  {
    intent_id: 'PY01',
    at: 'u1',
    type: 'decided',
    from_state: null,
    to_state: 'sending',
    data: '{"sender":"desk:201"}',
  },
  {
    intent_id: 'PY01',
    at: 'u2',
    type: 'created',
    from_state: 'sending',
    to_state: 'open',
    data: '{"transactionNo":"297553638300800001"}',
  },
  {
    intent_id: 'PY01',
    at: 'u3',
    type: 'method_saved',
    from_state: 'succeeded',
    to_state: 'succeeded',
    data: '{"methodId":"PM1"}',
  },
  {
    intent_id: 'PY03',
    at: 'u4',
    type: 'rejected',
    from_state: 'sending',
    to_state: 'rejected',
    data: '{"retCode":"000100"}',
  },
];

const PAYMENT_AUDIT: PaymentAuditEntry[] = [
  {
    at: '2026-02-01T09:00:00.000Z',
    operator: 'Ana',
    profileId: 'p1',
    profileName: 'Main',
    environment: 'vendor-sandbox',
    action: 'customer.register',
    outcome: 'registered',
    subjectId: 'CU1',
    customerNo: '1234567890123456789012',
  },
  {
    at: '2026-02-01T10:02:00.000Z',
    operator: 'Ana',
    profileId: 'p1',
    profileName: 'Main',
    environment: 'vendor-sandbox',
    action: 'payment.final',
    outcome: 'succeeded',
    subjectId: 'PY01',
    reference: 'R-1',
    transactionNo: '297553638300800001',
    customerNo: '1234567890123456789012',
    amountMinor: 4250,
    currency: 'USD',
    vendor: 'creditcard',
  },
  {
    at: '2026-02-03T10:00:01.000Z',
    operator: 'Bo',
    profileId: 'p1',
    profileName: 'Main',
    environment: 'vendor-sandbox',
    action: 'payment.charge',
    outcome: 'rejected',
    subjectId: 'PY03',
    reference: 'R-3',
    amountMinor: 1500,
    currency: 'USD',
    vendor: 'creditcard',
    retCode: '000100',
    retMsg: 'card declined',
    detail: 'The service refused the payment.',
  },
];

function paymentAuditRow(e: PaymentAuditEntry): Row {
  return {
    at: e.at,
    operator: e.operator,
    profile_id: e.profileId,
    profile_name: e.profileName,
    environment: e.environment,
    action: e.action,
    outcome: e.outcome,
    subject_id: e.subjectId,
    reference: e.reference ?? null,
    transaction_no: e.transactionNo ?? null,
    customer_no: e.customerNo ?? null,
    amount_minor: e.amountMinor ?? null,
    currency: e.currency ?? null,
    vendor: e.vendor ?? null,
    ret_code: e.retCode ?? null,
    ret_msg: e.retMsg ?? null,
    detail: e.detail ?? null,
  };
}

function writeV4(db: Database): void {
  insert(db, 'customers', {
    id: 'CU1',
    profile_id: 'p1',
    environment: 'vendor-sandbox',
    base_url: 'https://mapi.yuansferdev.com',
    merchant_no: '200043',
    store_no: '300014',
    customer_no: '1234567890123456789012',
    customer_code: 'ana',
    first_name: 'Ana',
    last_name: 'Lima',
    email: 'ana@example.com',
    country_code: 'US',
    state: 'CA',
    operator: 'Ana',
    created_at: '2026-02-01T09:00:00.000Z',
  });
  insert(db, 'payment_methods', {
    id: 'PM1',
    customer_id: 'CU1',
    vendor: 'creditcard',
    vault_id: 'pp_vault_1',
    card_last4: '3220',
    payment_id: null,
    created_at: '2026-02-01T10:03:00.000Z',
  });
  for (const p of PAYMENTS) insert(db, 'payment_intents', paymentRow(p));
  db.run(`UPDATE payment_methods SET payment_id = 'PY01'`);
  for (const e of PAYMENT_EVENTS) insert(db, 'payment_events', e);
  for (const e of PAYMENT_AUDIT) insert(db, 'payment_audit', paymentAuditRow(e));
}

// ---- v5: when a refund was closed as not sent (issue 24) ---------------------------------------------

/** What v5 itself does for a refund closed by an earlier version (its closed_not_sent event's time). */
function writeV5(db: Database): void {
  db.run(`UPDATE intents SET closed_not_sent_at = ? WHERE id = 'RD07'`, CLOSED_AT);
}

// ---- v6: month-end close — a run's exceptions, their audit, sign-offs (issue 28) ----------------------

function writeV6(db: Database): void {
  insert(db, 'recon_exceptions', {
    run_id: 'RC2',
    id: 'i1',
    item_seq: 1,
    state: 'explained',
    owner: 'Ana',
    notes: '["bank fee"]',
    match: null,
    carried: null,
    age_from: '2026-07-01',
    age_from_what: 'ledger',
    updated_at: 't4',
    version: 2,
  });
  insert(db, 'recon_exception_audit', {
    run_id: 'RC2',
    exception_id: 'i1',
    at: 't4',
    by: 'Ana',
    action: 'explain',
    before: '{"state":"open"}',
    after: '{"state":"explained"}',
  });
  insert(db, 'recon_signoffs', {
    run_id: 'RC1',
    by: 'Bo',
    at: 't5',
    comment: 'June closed',
    open_ids: '[]',
    content_hash: 'a'.repeat(64),
  });
}

const WRITERS: Record<number, (db: Database) => void> = {
  1: writeV1,
  2: writeV2,
  3: writeV3,
  4: writeV4,
  5: writeV5,
  6: writeV6,
};

/** Tables the engine's migration does not touch: they must come through row for row. */
const KEPT_TABLES: Record<number, string[]> = {
  2: ['ipn_events', 'recon_results', 'import_problems', 'meta'],
  3: ['recon_jobs', 'recon_inputs', 'recon_windows', 'recon_items'],
  4: ['customers', 'payment_methods'],
  5: [],
  6: ['recon_exceptions', 'recon_exception_audit', 'recon_signoffs'],
};

/** A data directory holding a database at schema `from`, with rows in every table that version had. */
function earlierDatabase(from: number, extra?: (db: Database) => void) {
  const dataDir = mkdtempSync(join(tmpdir(), `rd-migrate-v${from}-`));
  const db = openDatabase(join(dataDir, DATABASE_FILE), MIGRATIONS.slice(0, from));
  expect(db.schemaVersion()).toBe(from);
  db.immediate(() => {
    for (let v = 1; v <= from; v += 1) WRITERS[v]!(db);
    extra?.(db);
  });
  const kept = new Map<string, unknown[]>();
  for (let v = 2; v <= from; v += 1) for (const t of KEPT_TABLES[v]!) kept.set(t, dump(db, t));
  // recon_jobs gained columns in v3: a v2 job is compared on the columns it had.
  if (from === 2) kept.set('recon_jobs', dump(db, 'recon_jobs'));
  db.close();
  return { dataDir, kept };
}

const openStorage = (dataDir: string, now = () => Date.parse('2026-03-01T00:00:00.000Z')) =>
  openAppStorage({ dataDir, now, log: createFakeLogger() });

const newestFirst = <T extends { createdAt: string }>(xs: readonly T[]) =>
  [...xs].sort((a, b) => b.createdAt.localeCompare(a.createdAt));

/** The raw database under an opened storage, for what no store reads (events, the kept tables). */
const rawDb = (dataDir: string) => openDatabase(join(dataDir, DATABASE_FILE), MIGRATIONS);

describe('migrations from every earlier schema, with data in every table', () => {
  it('the matrix is complete: every version before the engine is tested', () => {
    expect(EARLIER).toEqual([1, 2, 3, 4, 5, 6]);
    expect(Object.keys(WRITERS).map(Number)).toEqual(EARLIER);
  });

  it.each(EARLIER)('schema %i → latest: every intent, event, audit entry and row is kept', async (from) => {
    const { dataDir, kept } = earlierDatabase(from);
    const storage = openStorage(dataDir);
    expect(storage.untrusted()).toBeUndefined();
    const refunds = refundStoreOn(storage.intents);
    const payments = paymentStoreOn(storage.intents, storage.customers);

    // Refund intents read back exactly as written, newest first; their history and checks too.
    expect(await refunds.list()).toEqual(newestFirst(REFUNDS));
    for (const i of REFUNDS) expect(await refunds.get(i.id)).toEqual(i);
    expect(await refunds.checksOf('RD02')).toEqual([
      { at: 't4', found: false, reached: false, note: 'Not listed yet.' },
    ]);
    expect((await refunds.unfinished()).map((i) => i.id)).toEqual(['RD02', 'RD04', 'RD05']);
    // A refund closed as not sent (by v5, or before it: its event's time) is still watched.
    expect((await refunds.closedSince('2026-01-01T00:00:00.000Z')).map((i) => i.id)).toEqual(['RD07']);
    // A refund being sent by an earlier version has no lease: it is resolved by query at once.
    expect((await refunds.orphans()).map((i) => i.id)).toEqual(['RD05']);
    // Newest first, exactly as written.
    expect(await refunds.audit.list()).toEqual([...REFUND_AUDIT].reverse());

    if (from >= 4) {
      expect(await payments.list()).toEqual(newestFirst(PAYMENTS));
      for (const p of PAYMENTS) expect(await payments.get(p.id)).toEqual(p);
      expect((await payments.unfinished()).map((p) => p.id)).toEqual(['PY02', 'PY04']);
      expect(await payments.byTransaction('200043', '297553638300800002')).toEqual(PAYMENTS[1]);
      expect(await payments.audit.list()).toEqual([...PAYMENT_AUDIT].reverse());
      expect(payments.customers.list('p1').map((c) => c.id)).toEqual(['CU1']);
      expect(payments.methods.forCustomer('CU1')).toEqual([
        {
          id: 'PM1',
          customerId: 'CU1',
          vendor: 'creditcard',
          vaultId: 'pp_vault_1',
          cardLast4: '3220',
          paymentId: 'PY01',
          createdAt: '2026-02-01T10:03:00.000Z',
        },
      ]);
    } else {
      expect(await payments.list()).toEqual([]);
      expect(await payments.audit.list()).toEqual([]);
    }

    const db = rawDb(dataDir);
    expect(db.schemaVersion()).toBe(LATEST);
    // Every event of both kinds, in its order, with its data.
    const events = db.all(
      `SELECT intent_id, at, type, from_state, to_state, data FROM intent_events ORDER BY id`,
    );
    expect(events).toEqual([...REFUND_EVENTS, ...(from >= 4 ? PAYMENT_EVENTS : [])]);
    // The tables the engine does not own, row for row.
    for (const [table, rows] of kept) {
      const now = dump(db, table);
      expect(
        now.map((r) => Object.fromEntries(Object.keys(rows[0] as object).map((k) => [k, r[k]]))),
        table,
      ).toEqual(rows);
    }
    // The per-kind tables are gone; their rows live in the engine's.
    const tables = db.all<{ name: string }>(`SELECT name FROM sqlite_master WHERE type = 'table'`);
    for (const gone of ['payment_intents', 'payment_events', 'payment_audit', 'intents_v5'])
      expect(tables.map((t) => t.name)).not.toContain(gone);
    db.close();

    // An IPN recorded by the earlier version is still a duplicate.
    if (from >= 2)
      expect(
        await storage.recordIpn(
          { profileId: 'p1', receivedAt: 't9', kind: 'payment' } as never,
          'payment:297553638300700001:success',
        ),
      ).toBe('duplicate');

    // The engine's rules hold on the migrated rows: the open refund blocks its payment, a taken reference
    // stays taken.
    await expect(decideOpenRefund(storage, REFUNDS[1]!)).rejects.toBeInstanceOf(InvariantViolation);
    if (from >= 4)
      expect(
        await payments.insertSending(
          { ...PAYMENTS[3]!, id: 'PY09' },
          { holder: 'test:1', ms: 15_000 },
          '2026-03-01T00:00:00.000Z',
        ),
      ).toMatchObject({ ok: false, reason: 'reference_in_use', existing: { id: 'PY04' } });
    storage.close();
  });
});

/** Inserts a new `sending` refund of `like`'s payment straight through the store (no service checks). */
function decideOpenRefund(storage: AppStorage, like: Intent, id = 'RDNEW'): Promise<Intent> {
  const refunds = refundStoreOn(storage.intents);
  const account = {
    environment: like.environment,
    baseUrl: like.baseUrl,
    merchantNo: like.merchantNo,
    storeNo: like.storeNo,
  };
  const at = '2026-03-01T00:00:00.000Z';
  return refunds.decide({ account, transactionNo: like.transactionNo, currency: like.currency }, (tx) =>
    tx.insertSending(
      {
        ...account,
        id,
        profileId: like.profileId,
        profileName: like.profileName,
        transactionNo: like.transactionNo,
        amountMinor: 1,
        currency: like.currency,
        settleCurrency: like.settleCurrency ?? like.currency,
        reasonCode: 'other',
        reasonNote: '',
        operator: 'test',
        createdAt: at,
      },
      { holder: 'test:1', ms: 15_000 },
      at,
    ),
  );
}

// ---- An earlier database holding two open refunds of one payment -----------------------------------

/** RD11 (unknown) and RD12 (being sent) of one payment, both open; RD13 (accepted) of it as well. */
const TWICE: Intent[] = [
  {
    ...REFUNDS[1]!,
    id: 'RD11',
    transactionNo: '297553638300709999',
    amountMinor: 1000,
    createdAt: '2026-01-11T10:00:00.000Z',
  },
  {
    ...REFUNDS[4]!,
    id: 'RD12',
    transactionNo: '297553638300709999',
    amountMinor: 2000,
    createdAt: '2026-01-12T10:00:00.000Z',
  },
  {
    ...REFUNDS[3]!,
    id: 'RD13',
    transactionNo: '297553638300709999',
    amountMinor: 400,
    createdAt: '2026-01-13T10:00:00.000Z',
    refundTransactionNo: '397553638300709913',
  },
];

describe('an earlier database with two open refunds of one payment', () => {
  it.each(EARLIER)(
    'schema %i → latest: the migration succeeds, both are kept, both block the payment and count against it',
    async (from) => {
      const { dataDir } = earlierDatabase(from, (db) =>
        TWICE.forEach((i, n) => insert(db, 'intents', refundRow(i, 100 + n))),
      );
      const now = { ms: Date.parse('2026-01-13T12:00:00.000Z') };
      const storage = openStorage(dataDir, () => now.ms);
      expect(storage.untrusted()).toBeUndefined();
      const refunds = refundStoreOn(storage.intents);
      for (const i of TWICE) expect(await refunds.get(i.id)).toEqual(i);

      // The later one is marked, with an event that says why; the earlier one holds the index's place.
      const db = rawDb(dataDir);
      expect(
        db.all(`SELECT id, duplicate_of FROM intents WHERE id IN ('RD11', 'RD12', 'RD13') ORDER BY id`),
      ).toEqual([
        { id: 'RD11', duplicate_of: null },
        { id: 'RD12', duplicate_of: 'RD11' },
        { id: 'RD13', duplicate_of: null },
      ]);
      expect(db.all(`SELECT type, from_state, to_state FROM intent_events WHERE intent_id = 'RD12'`)).toEqual(
        [{ type: 'open_beside', from_state: 'sending', to_state: 'sending' }],
      );
      db.close();

      // Both count: the day's total and what remains refundable.
      expect(
        await refunds.dayTotal(
          '200043',
          '300014',
          'USD',
          '2026-01-11T00:00:00.000Z',
          '2026-01-14T00:00:00.000Z',
        ),
      ).toBe(3400);
      const payment: Transaction = {
        transactionNo: '297553638300709999',
        amountMinor: 10_000,
        currency: 'USD',
        status: 'success',
        transactionType: 'payment',
        refunds: [],
      };
      let sent = 0;
      const service = createRefundService({
        gatewayFor: () =>
          ({
            queryTransaction: async () => ({ transaction: payment }),
            refund: async () => {
              sent += 1;
              throw new Error('must not be sent');
            },
          }) as never,
        store: refunds,
        sender: 'test:1',
        clock: { now: () => now.ms },
        log: createFakeLogger(),
        context: () => ({
          profileId: 'p1',
          profileName: 'Main',
          environment: 'vendor-sandbox',
          baseUrl: 'https://mapi.yuansferdev.com',
          merchantNo: '200043',
          storeNo: '300014',
          operator: 'o',
          guardrails: { limits: [] },
        }),
        newId: () => 'RDTRY',
      });
      expect((await service.preview('p1', payment.transactionNo)).remainingMinor).toBe(10_000 - 3400);
      const submit = () =>
        service.submit({
          profileId: 'p1',
          transactionNo: payment.transactionNo,
          amountMinor: 100,
          currency: 'USD',
          reasonCode: 'other',
          reasonNote: '',
          confirmation: {},
        });
      await expect(submit()).rejects.toMatchObject({ code: 'conflict', details: { moneyMoved: 'no' } });

      // The database itself refuses another open refund of the payment while either is open — also once
      // the one that held the index's place is resolved and only the marked one is left open.
      await expect(decideOpenRefund(storage, TWICE[0]!)).rejects.toBeInstanceOf(InvariantViolation);
      const at = '2026-01-13T12:00:00.000Z';
      expect(
        await refunds.transition('RD11', ['outcome_unknown'], 'rejected', {}, { at, type: 'rejected' }),
      ).toMatchObject({ state: 'rejected' });
      await expect(decideOpenRefund(storage, TWICE[0]!)).rejects.toBeInstanceOf(InvariantViolation);
      await expect(submit()).rejects.toMatchObject({ code: 'conflict', details: { intentId: 'RD12' } });
      expect((await service.preview('p1', payment.transactionNo)).remainingMinor).toBe(10_000 - 2400);

      // Once both are resolved, the payment can be refunded again.
      expect(
        await refunds.transition('RD12', ['sending'], 'rejected', {}, { at, type: 'rejected' }),
      ).toMatchObject({ state: 'rejected' });
      expect(await decideOpenRefund(storage, TWICE[0]!)).toMatchObject({ id: 'RDNEW', state: 'sending' });
      expect(sent).toBe(0);
      storage.close();
    },
  );
});

// ---- v8 → v9: refund batches ------------------------------------------------------------------------

/** A `sending` refund like `like`, inserted as the refund service decides one. */
function decideRefund(
  refunds: ReturnType<typeof refundStoreOn>,
  like: Intent,
  batch?: { id: string; line: number; rowKey: string },
): Promise<Intent> {
  const account = {
    environment: like.environment,
    baseUrl: like.baseUrl,
    merchantNo: like.merchantNo,
    storeNo: like.storeNo,
  };
  const at = '2026-03-01T00:00:00.000Z';
  return refunds.decide({ account, transactionNo: like.transactionNo, currency: like.currency }, (tx) =>
    tx.insertSending(
      {
        ...account,
        id: like.id,
        profileId: like.profileId,
        profileName: like.profileName,
        transactionNo: like.transactionNo,
        amountMinor: like.amountMinor,
        currency: like.currency,
        settleCurrency: like.currency,
        reasonCode: 'other',
        reasonNote: '',
        operator: 'test',
        createdAt: at,
        ...(batch ? { batch } : {}),
      },
      { holder: 'test:1', ms: 15_000 },
      at,
    ),
  );
}

describe('schema 8 → 9: refund batches', () => {
  it('a v8 database with refunds and notes opens at v9; its rows are kept; batches are kept and read back; done rows come from the intents', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'rd-migrate-v8-'));
    const raw8 = openDatabase(
      join(dataDir, DATABASE_FILE),
      MIGRATIONS.filter((m) => m.version <= 8),
    );
    expect(raw8.schemaVersion()).toBe(8);
    // A v8 desk's refunds, written through the engine's store (one of them a batch row's: its data is
    // JSON in either version), and a note.
    const batchData = { id: 'RB1', line: 3, rowKey: 'k'.repeat(64) };
    const v8Refunds = refundStoreOn(createSqliteIntentStore(raw8, { now: () => 0 }));
    for (const [n, id] of ['RD81', 'RD82'].entries())
      await decideRefund(
        v8Refunds,
        { ...REFUNDS[3]!, id, transactionNo: `29755363830080000${n}` },
        n === 0 ? batchData : undefined,
      );
    raw8.immediate(() =>
      insert(raw8, 'payment_notes', {
        id: 'N1',
        profile_id: 'p1',
        environment: 'vendor-sandbox',
        merchant_no: '200043',
        store_no: '300014',
        transaction_no: '297553638300800000',
        at: 't',
        operator: 'ann',
        text: 'called the customer',
      }),
    );
    const intentsBefore = dump(raw8, 'intents');
    raw8.close();

    const storage = openStorage(dataDir);
    expect(storage.untrusted()).toBeUndefined();
    const db = rawDb(dataDir);
    expect(db.schemaVersion()).toBe(LATEST);
    expect(dump(db, 'intents')).toEqual(intentsBefore);
    expect(dump(db, 'payment_notes')).toHaveLength(1);
    db.close();

    const refunds = refundStoreOn(storage.intents);
    expect((await refunds.get('RD81'))?.batch).toEqual(batchData);
    expect((await refunds.get('RD82'))?.batch).toBeUndefined();
    const batches = storage.batches!;
    expect(await batches.doneKeys({ merchantNo: '200043', storeNo: '300014' })).toEqual(
      new Map([[batchData.rowKey, { batchId: 'RB1', intentId: 'RD81', line: 3 }]]),
    );
    const at = '2026-03-01T00:00:00.000Z';
    const batch = {
      id: 'RB2',
      profileId: 'p1',
      profileName: 'Main',
      environment: 'vendor-sandbox' as const,
      baseUrl: 'https://mapi.yuansferdev.com',
      merchantNo: '200043',
      storeNo: '300014',
      fileName: 'claims.csv',
      fileDigest: 'a'.repeat(64),
      operator: 'ann',
      state: 'running' as const,
      createdAt: at,
      updatedAt: at,
      facts: { moneyMode: 'test', checkedAt: at, mapping: {}, dataRows: 2, counts: {}, totals: [] },
    };
    const dry = (line: number) => ({
      line,
      class: 'will_refund' as const,
      transactionNo: '297553638300800009',
      currency: 'USD' as const,
      amountMinor: 100,
      key: String(line).repeat(64).slice(0, 64),
    });
    await batches.create(batch, [
      { batchId: 'RB2', line: 2, state: 'pending', dry: dry(2) },
      {
        batchId: 'RB2',
        line: 3,
        state: 'skipped',
        dry: { line: 3, class: 'unusable', message: 'no reason' },
      },
    ]);
    expect(await batches.get('RB2')).toEqual(batch);
    expect(await batches.unfinished({ merchantNo: '200043', storeNo: '300014' })).toEqual([batch]);
    expect(await batches.moveRow('RB2', 2, ['pending'], 'sending', {})).toBe(true);
    expect(await batches.moveRow('RB2', 2, ['pending'], 'sending', {})).toBe(false);
    expect(
      await batches.moveRow('RB2', 2, ['sending'], 'refused', { outcome: 'refused', detail: 'why' }),
    ).toBe(true);
    expect((await batches.rows('RB2')).map((r) => [r.line, r.state, r.outcome ?? null])).toEqual([
      [2, 'refused', 'refused'],
      [3, 'skipped', null],
    ]);
    // One runner at a time: another is refused until the lease runs out.
    expect(await batches.claim('RB2', 'a:1', 1_000, 11_000)).toBe(true);
    expect(await batches.claim('RB2', 'b:2', 5_000, 15_000)).toBe(false);
    expect(await batches.claim('RB2', 'b:2', 12_000, 22_000)).toBe(true);
    await batches.setState('RB2', 'finished', at);
    expect(await batches.unfinished({ merchantNo: '200043', storeNo: '300014' })).toEqual([]);
    storage.close();
  });
});
