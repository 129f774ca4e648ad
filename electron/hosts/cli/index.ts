import { runCli } from './main';

/** `npm run --silent cli -- <command> ...` (runs under tsx; see main.ts for the commands). */
void runCli(process.argv.slice(2), {
  out: (line) => process.stdout.write(`${line}\n`),
  err: (line) => process.stderr.write(`${line}\n`),
  env: process.env,
}).then((code) => {
  process.exitCode = code;
});
