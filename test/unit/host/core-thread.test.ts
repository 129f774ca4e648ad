import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { CoreOpenFailure, type CoreThread, startCoreThread } from '../../../electron/hosts/web/core-thread';

/**
 * A worker that speaks core-worker.ts's side of the protocol (core-thread-protocol.ts) without a core,
 * so the HTTP thread's side is tested on its own; its `dataDir` says how it behaves. The real worker is
 * run by the built-host and cli tests.
 */
const FAKE_WORKER = `
import { parentPort, workerData } from 'node:worker_threads';
const how = workerData.dataDir;
if (how === 'bad-flag') parentPort.postMessage({ type: 'failed', message: '--ca-file goes with --database-url (team mode).', exitCode: 2 });
else if (how === 'crash-on-call') {
  parentPort.on('message', (m) => { if (m.type === 'call') throw new Error('boom'); });
  parentPort.postMessage({ type: 'ready' });
} else {
  parentPort.on('message', (m) => {
    if (m.type === 'close') { parentPort.postMessage({ type: 'closed' }); parentPort.close(); return; }
    if (m.channel === 'throws') return parentPort.postMessage({ type: 'fault', id: m.id });
    if (m.channel === 'emit') parentPort.postMessage({ type: 'event', line: JSON.stringify({ event: 'app.notice', payload: m.input }) });
    parentPort.postMessage({ type: 'reply', id: m.id, json: JSON.stringify({ channel: m.channel, input: m.input ?? null, unparseable: m.unparseable }) });
  });
  parentPort.postMessage({ type: 'ready', shown: how === 'team' ? 'postgres://bob@db/desk' : undefined });
}
`;
const file = join(mkdtempSync(join(tmpdir(), 'rd-core-thread-')), 'fake-core-worker.mjs');
writeFileSync(file, FAKE_WORKER);
const started: CoreThread[] = [];
const start = (how: string, lost?: (e: Error) => void) => {
  const thread = startCoreThread(pathToFileURL(file), { dataDir: how, database: {} }, lost);
  started.push(thread);
  return thread;
};
afterAll(async () => {
  await Promise.all(started.map((t) => t.close()));
});

describe("the browser host's core thread (HTTP thread side)", () => {
  it('answers each call with its own reply, by id, as the JSON text the worker made', async () => {
    const core = await start('ok').ready;
    const replies = await Promise.all([
      core.call('app.info', undefined),
      core.call('profiles.list', { a: 1 }),
    ]);
    expect(replies.map((r) => JSON.parse(r) as unknown)).toEqual([
      { channel: 'app.info', input: null, unparseable: false },
      { channel: 'profiles.list', input: { a: 1 }, unparseable: false },
    ]);
  });

  it('tells the worker a body was not JSON (the symbol the server gives cannot cross threads)', async () => {
    const core = await start('ok').ready;
    expect(JSON.parse(await core.call('app.info', Symbol('unparseable')))).toMatchObject({
      unparseable: true,
    });
  });

  it('hands each event line to its listeners until they unsubscribe; a call that threw fails', async () => {
    const core = await start('ok').ready;
    const lines: string[] = [];
    const off = core.onEvent((line) => lines.push(line));
    await core.call('emit', { text: 'one' });
    off();
    await core.call('emit', { text: 'two' });
    expect(lines).toEqual([JSON.stringify({ event: 'app.notice', payload: { text: 'one' } })]);
    await expect(core.call('throws', undefined)).rejects.toThrow('The call failed in the core.');
  });

  it('passes on the team database as it may be printed', async () => {
    expect((await start('team').ready).shown).toBe('postgres://bob@db/desk');
  });

  it('fails `ready` with the message and exit code the worker gave when the core did not open, and nothing is "lost"', async () => {
    const lost: Error[] = [];
    const failure = await start('bad-flag', (e) => lost.push(e)).ready.catch((e: unknown) => e);
    expect(failure).toBeInstanceOf(CoreOpenFailure);
    expect(failure).toMatchObject({
      exitCode: 2,
      message: '--ca-file goes with --database-url (team mode).',
    });
    expect(lost).toEqual([]);
  });

  it('a worker that dies fails the calls waiting on it and is told to `lost`; close() still returns', async () => {
    let told: (e: Error) => void = () => undefined;
    const lost = new Promise<Error>((resolve) => (told = resolve));
    const thread = start('crash-on-call', told);
    const core = await thread.ready;
    await expect(core.call('app.info', undefined)).rejects.toThrow(/boom|ended/);
    expect((await lost).message).toMatch(/boom/);
    await expect(core.call('app.info', undefined)).rejects.toThrow();
    await thread.close();
  });

  it('close() asks the core to close and waits for it: nothing is "lost"', async () => {
    const lost: Error[] = [];
    const thread = start('ok', (e) => lost.push(e));
    await thread.ready;
    await thread.close();
    expect(lost).toEqual([]);
  });
});
