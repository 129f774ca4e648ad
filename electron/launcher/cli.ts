import { resolve } from 'node:path';
import { ensureElectron } from './ensure-electron';

/** `npm start` / `npm run dev` run this first (see ensure-electron.ts); exit 1 stops the launch. */
void ensureElectron({
  projectRoot: resolve(import.meta.dirname, '../..'),
  env: process.env,
  say: (text) => process.stderr.write(`${text}\n`),
}).then((ok) => {
  process.exitCode = ok ? 0 : 1;
});
