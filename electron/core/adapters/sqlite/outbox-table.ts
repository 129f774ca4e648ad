import type { Database } from './database';

/** What waits in the outbox: the write the team database could not take, as it will be replayed. */
export type OutboxOp = 'transition' | 'check' | 'audit';

export interface OutboxEntry {
  seq: number;
  onceKey: string;
  op: OutboxOp;
  intentId: string;
  queuedAt: string;
  body: unknown;
  attempts: number;
  lastError?: string;
}

/** The durable queue of one team database's waiting writes (adapters/outbox-store.ts replays it). */
export interface OutboxQueue {
  /** Durable (the commit is fsync'd, synchronous=FULL) when it returns. */
  append(e: { onceKey: string; op: OutboxOp; intentId: string; queuedAt: string; body: unknown }): void;
  /** Oldest first. */
  first(): OutboxEntry | undefined;
  all(): OutboxEntry[];
  remove(seq: number): void;
  failed(seq: number, error: string): void;
  count(): number;
  /** Entries for other team databases (a desk pointed elsewhere since): never written here. */
  elsewhere(): Array<{ database: string; count: number }>;
  has(intentId: string): boolean;
  /** One replaying process per data folder and database: false while another holds an unexpired claim. */
  claim(holder: string, ms: number): boolean;
  release(holder: string): void;
}

interface Row {
  seq: number;
  once_key: string;
  op: OutboxOp;
  intent_id: string;
  queued_at: string;
  body: string;
  attempts: number;
  last_error: string | null;
}

const entry = (r: Row): OutboxEntry => ({
  seq: r.seq,
  onceKey: r.once_key,
  op: r.op,
  intentId: r.intent_id,
  queuedAt: r.queued_at,
  body: JSON.parse(r.body) as unknown,
  attempts: r.attempts,
  ...(r.last_error ? { lastError: r.last_error } : {}),
});

/** The outbox of `database` (login@host/db) in the desk's SQLite file (schema v11 `team_outbox`). */
export function createOutboxQueue(db: Database, database: string, now: () => number): OutboxQueue {
  return {
    append(e) {
      db.immediate(() =>
        db.run(
          'INSERT INTO team_outbox (database, once_key, op, intent_id, queued_at, body) VALUES (?, ?, ?, ?, ?, ?)',
          database,
          e.onceKey,
          e.op,
          e.intentId,
          e.queuedAt,
          JSON.stringify(e.body),
        ),
      );
    },
    first() {
      const r = db.get<Row>('SELECT * FROM team_outbox WHERE database = ? ORDER BY seq LIMIT 1', database);
      return r && entry(r);
    },
    all: () => db.all<Row>('SELECT * FROM team_outbox WHERE database = ? ORDER BY seq', database).map(entry),
    remove(seq) {
      db.immediate(() => db.run('DELETE FROM team_outbox WHERE seq = ?', seq));
    },
    failed(seq, error) {
      db.immediate(() =>
        db.run(
          'UPDATE team_outbox SET attempts = attempts + 1, last_error = ? WHERE seq = ?',
          error.slice(0, 1000),
          seq,
        ),
      );
    },
    count: () =>
      db.get<{ n: number }>('SELECT count(*) AS n FROM team_outbox WHERE database = ?', database)!.n,
    elsewhere: () =>
      db.all<{ database: string; count: number }>(
        'SELECT database, count(*) AS count FROM team_outbox WHERE database <> ? GROUP BY database ORDER BY database',
        database,
      ),
    has: (intentId) =>
      db.get('SELECT 1 FROM team_outbox WHERE database = ? AND intent_id = ? LIMIT 1', database, intentId) !==
      undefined,
    claim(holder, ms) {
      return db.immediate(() => {
        const at = now();
        const cur = db.get<{ holder: string; until_ms: number }>(
          'SELECT holder, until_ms FROM team_outbox_claim WHERE database = ?',
          database,
        );
        if (cur && cur.holder !== holder && cur.until_ms > at) return false;
        db.run(
          `INSERT INTO team_outbox_claim (database, holder, until_ms) VALUES (?, ?, ?)
           ON CONFLICT (database) DO UPDATE SET holder = excluded.holder, until_ms = excluded.until_ms`,
          database,
          holder,
          at + ms,
        );
        return true;
      });
    },
    release(holder) {
      db.immediate(() =>
        db.run('DELETE FROM team_outbox_claim WHERE database = ? AND holder = ?', database, holder),
      );
    },
  };
}
