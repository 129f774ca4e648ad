import type { Currency } from '../../../../shared/domain/currencies';
import type { IntentKind } from '../../services/engine/port';
import type { PaymentTimelineStore, TimelineRow } from '../../services/timeline/port';
import type { Database } from './database';
import { insertAuditRecord } from './intent-store';

function json(text: string): Record<string, unknown> {
  try {
    const v: unknown = JSON.parse(text);
    return v && typeof v === 'object' ? (v as Record<string, unknown>) : {};
  } catch {
    return {};
  }
}

/**
 * A payment's timeline from what the database keeps: the audit of its refunds and of this desk's
 * create, the checks of those intents (state unchanged, so not audited), the verified IPNs recorded
 * for it, and its notes.
 */
export function createSqliteTimelineStore(db: Database): PaymentTimelineStore {
  return {
    async addNote(note, audit) {
      db.immediate(() => {
        db.run(
          `INSERT INTO payment_notes (id, profile_id, environment, merchant_no, store_no, transaction_no, at,
             operator, text) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)`,
          note.id,
          note.profileId,
          note.environment,
          note.merchantNo,
          note.storeNo,
          note.transactionNo,
          note.at,
          note.operator,
          note.text,
        );
        insertAuditRecord(db, audit);
      });
    },
    async recordLookup(l) {
      db.immediate(() =>
        db.run(
          `INSERT INTO payment_lookups (profile_id, environment, merchant_no, store_no, transaction_no, at, operator,
             matched_by) VALUES (?, ?, ?, ?, ?, ?, ?, ?)`,
          l.profileId,
          l.environment,
          l.merchantNo,
          l.storeNo,
          l.transactionNo,
          l.at,
          l.operator,
          l.matchedBy,
        ),
      );
    },
    async rows(k) {
      const out: TimelineRow[] = [];
      // The intents of this payment at this account; their audit rows name them as subject.
      const intents = `SELECT id FROM intents WHERE merchant_no = ? AND store_no = ? AND transaction_no = ?
        AND environment = ?`;
      const audit = db.all<{
        kind: IntentKind;
        at: string;
        outcome: string;
        operator: string;
        amount_minor: number | null;
        currency: string | null;
        ret_msg: string | null;
        detail: string | null;
        data: string;
      }>(
        `SELECT kind, at, outcome, operator, amount_minor, currency, ret_msg, detail, data FROM audit
          WHERE transaction_no = ? AND environment = ? AND (profile_id = ? OR subject_id IN (${intents}))
          ORDER BY id`,
        k.transactionNo,
        k.environment,
        k.profileId,
        k.merchantNo,
        k.storeNo,
        k.transactionNo,
        k.environment,
      );
      for (const a of audit) {
        const data = json(a.data);
        // A note's audit row is the note itself on the timeline.
        if (data['action'] === 'payment.note') continue;
        out.push({
          source: 'audit',
          kind: a.kind,
          at: a.at,
          outcome: a.outcome,
          operator: a.operator,
          data,
          ...(a.amount_minor !== null ? { amountMinor: a.amount_minor } : {}),
          ...(a.currency !== null ? { currency: a.currency as Currency } : {}),
          ...(a.ret_msg ? { retMsg: a.ret_msg } : {}),
          ...(a.detail ? { detail: a.detail } : {}),
        });
      }
      const checks = db.all<{ kind: IntentKind; at: string; data: string }>(
        `SELECT i.kind, e.at, e.data FROM intent_events e JOIN intents i ON i.id = e.intent_id
          WHERE e.type = 'checked' AND e.intent_id IN (${intents}) ORDER BY e.id`,
        k.merchantNo,
        k.storeNo,
        k.transactionNo,
        k.environment,
      );
      for (const c of checks) {
        const d = json(c.data);
        out.push({
          source: 'check',
          kind: c.kind,
          at: c.at,
          found: d['found'] === true,
          note: typeof d['note'] === 'string' ? d['note'] : '',
        });
      }
      const ipns = db.all<{ data: string }>(
        `SELECT data FROM ipn_events WHERE profile_id = ? AND json_extract(data, '$.transactionNo') = ?
          ORDER BY id`,
        k.profileId,
        k.transactionNo,
      );
      for (const row of ipns) {
        const e = json(row.data);
        if (typeof e['receivedAt'] !== 'string' || typeof e['status'] !== 'string') continue;
        out.push({
          source: 'ipn',
          at: e['receivedAt'],
          kind: e['kind'] === 'refund' ? 'refund' : 'payment',
          status: e['status'],
          ...(typeof e['refundTransactionNo'] === 'string'
            ? { refundTransactionNo: e['refundTransactionNo'] }
            : {}),
        });
      }
      const notes = db.all<{ at: string; operator: string; text: string }>(
        `SELECT at, operator, text FROM payment_notes WHERE merchant_no = ? AND store_no = ? AND transaction_no = ?
          AND environment = ? ORDER BY at, id`,
        k.merchantNo,
        k.storeNo,
        k.transactionNo,
        k.environment,
      );
      for (const n of notes) out.push({ source: 'note', at: n.at, operator: n.operator, text: n.text });
      const lookups = db.all<{ at: string; operator: string; matched_by: string }>(
        `SELECT at, operator, matched_by FROM payment_lookups WHERE merchant_no = ? AND store_no = ?
          AND transaction_no = ? AND environment = ? ORDER BY id`,
        k.merchantNo,
        k.storeNo,
        k.transactionNo,
        k.environment,
      );
      for (const l of lookups)
        out.push({ source: 'lookup', at: l.at, operator: l.operator, matchedBy: l.matched_by });
      return out;
    },
  };
}
