import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';

/**
 * Looks for card numbers and a security code everywhere a leak could land: every file under a data
 * directory read as raw bytes (the SQLite database, its -wal and -shm, logs, settings, the sandbox's
 * state), plus any texts given (log lines, IPC events and replies, exports, a dump of the renderer's
 * cache). Card numbers are searched in any grouping (spaces, dashes, dots, tabs, up to three such
 * characters between digits) and as UTF-16; the security code as a token of its own (digits inside
 * longer ids, hex or base64 are not it); `strings` (an expiry's spellings) as written, not inside a
 * longer number.
 */
export function scanForCard(args: {
  dir?: string;
  texts?: Record<string, string>;
  numbers: readonly string[];
  cvv: string;
  strings?: readonly string[];
}): string[] {
  const hits: string[] = [];
  const cvvToken = new RegExp(`(?<![0-9A-Za-z+/=._-])${args.cvv}(?![0-9A-Za-z+/=._-])`);
  const escaped = (s: string) => s.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');
  const others = (args.strings ?? []).map((s) => ({ s, re: new RegExp(`(?<!\\d)${escaped(s)}(?!\\d)`) }));
  const look = (where: string, text: string) => {
    const joined = text.replace(/(\d)[ .\-_\t\u00a0]{1,3}(?=\d)/g, '$1');
    for (const n of args.numbers)
      if (joined.includes(n)) hits.push(`${where}: card number ${n.slice(0, 4)}…${n.slice(-4)}`);
    if (cvvToken.test(text)) hits.push(`${where}: security code`);
    for (const o of others) if (o.re.test(text)) hits.push(`${where}: ${o.s}`);
  };
  const walk = (d: string): string[] =>
    readdirSync(d).flatMap((name) => {
      const p = join(d, name);
      return statSync(p).isDirectory() ? walk(p) : [p];
    });
  if (args.dir) {
    for (const file of walk(args.dir)) {
      const bytes = readFileSync(file);
      const where = relative(args.dir, file);
      look(where, bytes.toString('latin1'));
      look(`${where} (UTF-16)`, bytes.toString('utf16le'));
    }
  }
  for (const [where, text] of Object.entries(args.texts ?? {})) look(where, text);
  return hits;
}

/** Every file the scan read, so a test can prove the database and its write-ahead log were among them. */
export function filesUnder(dir: string): string[] {
  const walk = (d: string): string[] =>
    readdirSync(d).flatMap((name) => {
      const p = join(d, name);
      return statSync(p).isDirectory() ? walk(p) : [relative(dir, p)];
    });
  return walk(dir);
}
