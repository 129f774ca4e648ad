import { lstatSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

/**
 * Versions before the database kept their refund journal in `refund-journal.jsonl` and never read
 * `refund-desk.db`. On a data directory this version has used, such a version would not see a refund this
 * version holds as unresolved and could send it again. So this version keeps a directory at that path.
 * Every version before the database opened the path as a file before deciding a refund (the last one,
 * git d3cc16c: `openJsonlFile` reads the file, then opens it for appending), so with a directory there it
 * stops with EISDIR before anything is sent: its CLI exits 1 ("Unexpected failure: EISDIR …"), its app
 * cannot start its refund journal. A journal an older version still manages to write (on a data directory
 * that had no guard yet, or whose guard was removed) is imported at the next start (./legacy-import.ts).
 */
export const JOURNAL_FILE = 'refund-journal.jsonl';

const README = `Refund Desk keeps this folder here on purpose.

Versions of Refund Desk before its database (refund-desk.db) kept their refund journal in a file with
this name and do not read the database. With this folder in the file's place they stop before sending
any refund, so they cannot send again a refund that this version holds as unresolved.

Do not delete or rename this folder. To go back to an older version, use a new data folder.
`;

/**
 * Makes sure the guard is in place. 'journal': an older version's journal file is at the path right now
 * (import it, then call this again); 'guarded': the guard is there.
 */
export function guardAgainstOlderVersions(dataDir: string): 'guarded' | 'journal' {
  const path = join(dataDir, JOURNAL_FILE);
  try {
    mkdirSync(path);
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code !== 'EEXIST') throw e;
    // Another process placed it first, or an older version wrote its journal there.
    return lstatSync(path).isDirectory() ? 'guarded' : 'journal';
  }
  try {
    writeFileSync(join(path, 'README.txt'), README, { flag: 'wx' });
  } catch {
    // The folder is the guard; its explanation is a courtesy (another process may be writing it).
  }
  return 'guarded';
}
