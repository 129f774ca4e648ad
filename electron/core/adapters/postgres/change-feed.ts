import type pg from 'pg';
import type { IntentRecord } from '../../services/engine/port';

/**
 * `watch` for the team database: LISTEN/NOTIFY says "something changed", the change feed re-reads.
 *
 * - What changed is read by `changed_xid` (the writing transaction of each row) against a watermark: the
 *   oldest transaction still running when the last read took its snapshot. Every row written by a
 *   transaction at or above it is read again next time, so a transaction that commits late (a lower xid
 *   after a higher one) is never skipped; rows seen at the same xid are not reported twice.
 * - node-postgres does not reconnect a LISTEN connection (node-postgres#967): this supervisor does. On
 *   any error or end of the listening connection it reconnects (backing off), LISTENs again and re-reads
 *   from the watermark, which covers whatever was committed during the gap. A heartbeat (a query on the
 *   listening connection, then a re-read) notices a connection that died silently and any missed NOTIFY.
 * - A notification only schedules a read; reads never overlap (a notification during one reads again).
 */
export interface ChangeFeedOptions {
  /**
   * A new dedicated client for LISTEN (not from the pool: it stays checked out for ever), not yet
   * connected: the feed listens to its errors first. A server shutting down can send its "terminating
   * connection" in the same read as the end of the handshake; on a client nobody listens to yet, that
   * error is thrown from the socket's event and ends the process.
   */
  client: () => Promise<pg.Client>;
  /** One consistent read: the snapshot's xmin and every row with changed_xid >= `since`. */
  read: (since: bigint) => Promise<{ xmin: bigint; rows: Array<{ xid: bigint; record: IntentRecord }> }>;
  /** Where the feed starts: the xmin when the store was opened, or where the last watch stopped. */
  watermark: bigint;
  heartbeatMs: number;
  onChanged: (changed: IntentRecord[]) => void;
  onError?: (where: string, e: unknown) => void;
  /** Each time the feed listens (again): the database is reachable (the desk's read-only state ends). */
  onListening?: () => void;
}

export const CHANNEL = 'refund_desk_intents';

export interface ChangeFeed {
  stop(): Promise<bigint>;
  /** Resolves once the feed is listening (tests; the desk's status line). */
  listening(): Promise<void>;
}

export function startChangeFeed(o: ChangeFeedOptions): ChangeFeed {
  let watermark = o.watermark;
  const seen = new Map<string, bigint>();
  let stopped = false;
  let client: pg.Client | undefined;
  let failures = 0;
  let reconnectTimer: ReturnType<typeof setTimeout> | undefined;
  let reading: Promise<void> | undefined;
  let again = false;
  let onListening: Array<() => void> = [];

  async function readOnce(): Promise<void> {
    const { xmin, rows } = await o.read(watermark);
    const changed: IntentRecord[] = [];
    for (const { xid, record } of rows) {
      if (seen.get(record.id) === xid) continue;
      seen.set(record.id, xid);
      changed.push(record);
    }
    // Below the new watermark nothing is read again: forget what was seen there.
    if (xmin > watermark) {
      watermark = xmin;
      for (const [id, xid] of seen) if (xid < watermark) seen.delete(id);
    }
    if (changed.length > 0 && !stopped) o.onChanged(changed);
  }

  function catchUp(): void {
    if (stopped) return;
    if (reading) {
      again = true;
      return;
    }
    reading = (async () => {
      do {
        again = false;
        try {
          await readOnce();
        } catch (e) {
          // The database is unreachable: the heartbeat reads again once it is back.
          o.onError?.('read', e);
        }
      } while (again && !stopped);
      reading = undefined;
    })();
  }

  function lost(c: pg.Client, e?: unknown): void {
    if (client !== c) return;
    client = undefined;
    if (e) o.onError?.('listen', e);
    c.removeAllListeners('notification');
    void c.end().catch(() => undefined);
    scheduleReconnect();
  }

  function scheduleReconnect(): void {
    if (stopped || reconnectTimer) return;
    const delay = Math.min(o.heartbeatMs, 50 * 2 ** Math.min(failures, 10));
    failures += 1;
    reconnectTimer = setTimeout(() => {
      reconnectTimer = undefined;
      void listen();
    }, delay);
    reconnectTimer.unref?.();
  }

  async function listen(): Promise<void> {
    if (stopped) return;
    let c: pg.Client | undefined;
    try {
      c = await o.client();
      const mine = c;
      c.on('error', (e) => lost(mine, e));
      c.on('end', () => lost(mine));
      c.on('notification', () => catchUp());
      await c.connect();
      await c.query(`LISTEN ${CHANNEL}`);
      if (stopped) {
        await c.end();
        return;
      }
      client = c;
      failures = 0;
      for (const f of onListening.splice(0)) f();
      o.onListening?.();
      // Whatever was committed before LISTEN took effect (a first start, or the gap after a reconnect).
      catchUp();
    } catch (e) {
      o.onError?.('connect', e);
      if (c) void c.end().catch(() => undefined);
      scheduleReconnect();
    }
  }

  const heartbeat = setInterval(() => {
    const c = client;
    if (c) void c.query('SELECT 1').catch((e: unknown) => lost(c, e));
    catchUp();
  }, o.heartbeatMs);
  heartbeat.unref?.();
  void listen();

  return {
    listening: () => (client ? Promise.resolve() : new Promise<void>((r) => onListening.push(r))),
    async stop() {
      stopped = true;
      clearInterval(heartbeat);
      if (reconnectTimer) clearTimeout(reconnectTimer);
      const c = client;
      client = undefined;
      onListening = [];
      if (c) await c.end().catch(() => undefined);
      await reading;
      return watermark;
    },
  };
}
