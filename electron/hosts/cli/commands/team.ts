import { hostname } from 'node:os';
import { formatMinor } from '../../../../shared/domain/money';
import { importLocalRefunds } from '../../../core/adapters/team-import';
import { defaultAppDataDir } from '../connection';
import { migratePostgres } from '../../../core/adapters/postgres/migrate';
import {
  addPerson,
  type Limit,
  setPolicy,
  TEAM_ROLES,
  type TeamRole,
} from '../../../core/adapters/postgres/team-admin';
import { amountInCurrency, DATABASE_OPTIONS, databaseFrom, runTeam } from '../database';
import { type CliIo, type Command, EXIT, parseCliArgs, UsageError } from '../io';

const USAGE = [
  'team migrate --database-url <owner URL>',
  'team add-person <login> --role viewer|maker|checker [--approve-up-to 1000.00:USD ...] --database-url <owner URL>',
  'team policy --merchant <no> --store <no> --approval-above 100.00:USD [--expire-hours 24] [--environment production|sandbox|demo|custom] --database-url <owner URL>',
  'team import-local [--data-dir <dir>] --database-url <your URL> [--json]',
].join('\n           ');

/** A login role name as PostgreSQL keeps it unquoted-safe: what a DBA types in CREATE ROLE. */
const LOGIN = /^[A-Za-z_][A-Za-z0-9_.@-]{0,62}$/;

async function migrate(args: string[], io: CliIo): Promise<number> {
  const { values } = parseCliArgs(args, { ...DATABASE_OPTIONS });
  const db = databaseFrom(values, io);
  return runTeam(io, db, async () => {
    const r = await migratePostgres({
      connectionString: db.connectionString,
      ...(db.ca ? { ca: db.ca } : {}),
    });
    io.out(
      r.from === r.to
        ? `The team database ${db.shown} is at schema ${r.to}: nothing to migrate (groups and privileges checked).`
        : `The team database ${db.shown} is now at schema ${r.to} (was ${r.from}).`,
    );
    return EXIT.OK;
  });
}

async function person(args: string[], io: CliIo): Promise<number> {
  const { values, positionals } = parseCliArgs(
    args,
    {
      ...DATABASE_OPTIONS,
      role: { type: 'string' },
      'approve-up-to': { type: 'string', multiple: true },
    },
    true,
  );
  const [login, ...extra] = positionals;
  if (!login || extra.length > 0)
    throw new UsageError('Give exactly one login role: team add-person <login> …');
  if (!LOGIN.test(login))
    throw new UsageError('<login> must be a PostgreSQL login role name (letters, digits, _ . @ -).');
  const role = values.role as TeamRole | undefined;
  if (!role || !TEAM_ROLES.includes(role))
    throw new UsageError(`--role must be one of ${TEAM_ROLES.join(', ')}.`);
  const limits: Limit[] = (values['approve-up-to'] ?? []).map((t) => {
    const a = amountInCurrency(t, '--approve-up-to');
    if (a.amountMinor <= 0) throw new UsageError('--approve-up-to must be above zero.');
    return { currency: a.currency, upToMinor: a.amountMinor };
  });
  if (new Set(limits.map((l) => l.currency)).size !== limits.length)
    throw new UsageError('--approve-up-to: one limit per currency.');
  if (role !== 'checker' && limits.length > 0)
    throw new UsageError('--approve-up-to is for checkers only (--role checker).');
  if (role === 'checker' && limits.length === 0)
    throw new UsageError(
      'A checker needs at least one --approve-up-to limit, e.g. --approve-up-to 1000.00:USD.',
    );
  const db = databaseFrom(values, io);
  return runTeam(io, db, async () => {
    const r = await addPerson(
      { connectionString: db.connectionString, ...(db.ca ? { ca: db.ca } : {}) },
      { login, role, limits },
    );
    io.out(`${login} is now a ${role} (${r.groups.join(', ')}).`);
    for (const l of r.limits)
      io.out(`  approves up to ${formatMinor(l.upToMinor, l.currency)} ${l.currency}`);
    return EXIT.OK;
  });
}

async function policy(args: string[], io: CliIo): Promise<number> {
  const { values } = parseCliArgs(args, {
    ...DATABASE_OPTIONS,
    merchant: { type: 'string' },
    store: { type: 'string' },
    'approval-above': { type: 'string' },
    'expire-hours': { type: 'string' },
    environment: { type: 'string' },
  });
  if (!values.merchant || !/^\d{1,20}$/.test(values.merchant))
    throw new UsageError('--merchant must be the merchant number (digits).');
  if (!values.store || !/^\d{1,20}$/.test(values.store))
    throw new UsageError('--store must be the store number (digits).');
  if (!values['approval-above']) throw new UsageError('--approval-above is required, e.g. 100.00:USD.');
  const above = amountInCurrency(values['approval-above'], '--approval-above');
  const hours = values['expire-hours'] === undefined ? 24 : Number(values['expire-hours']);
  if (!Number.isInteger(hours) || hours < 1 || hours > 720)
    throw new UsageError('--expire-hours must be a whole number of hours from 1 to 720.');
  const environments = ['production', 'sandbox', 'demo', 'custom'];
  if (values.environment !== undefined && !environments.includes(values.environment))
    throw new UsageError(
      `--environment must be one of ${environments.join(', ')} (default: every environment).`,
    );
  const db = databaseFrom(values, io);
  return runTeam(io, db, async () => {
    await setPolicy(
      { connectionString: db.connectionString, ...(db.ca ? { ca: db.ca } : {}) },
      {
        ...(values.environment ? { environment: values.environment } : {}),
        merchantNo: values.merchant!,
        storeNo: values.store!,
        currency: above.currency,
        approvalAboveMinor: above.amountMinor,
        expireHours: hours,
      },
    );
    io.out(
      `Refunds above ${formatMinor(above.amountMinor, above.currency)} ${above.currency} for merchant ${values.merchant} store ${values.store}${values.environment ? ` (${values.environment})` : ''} now need a checker's approval; requests expire after ${hours} hours.`,
    );
    return EXIT.OK;
  });
}

/**
 * `team import-local`: a desk switching to team mode imports the refunds it kept in its own file, once
 * (adapters/team-import.ts), as the person whose login is in the URL. Exit 0 imported (or nothing left
 * to import), 4 refused (a local refund is unresolved: nothing imported; or an id is taken), 5 the
 * database cannot be reached.
 */
async function importLocal(args: string[], io: CliIo): Promise<number> {
  const { values } = parseCliArgs(args, {
    ...DATABASE_OPTIONS,
    'data-dir': { type: 'string' },
    json: { type: 'boolean', default: false },
  });
  const dataDir = values['data-dir'] ?? defaultAppDataDir(io.env);
  const db = databaseFrom(values, io);
  return runTeam(io, db, async () => {
    const r = await importLocalRefunds({
      dataDir,
      address: db.shown,
      now: Date.now,
      connection: {
        connectionString: db.connectionString,
        ...(db.ca ? { ca: db.ca } : {}),
        applicationName: 'refund-desk-cli',
        deskId: `cli@${hostname()}`,
      },
    });
    if (values.json) io.out(JSON.stringify(r, null, 2));
    else if (r.local === 0) io.out(`${dataDir} holds no refunds: nothing to import.`);
    else {
      io.out(
        `${r.imported.length} refund${r.imported.length === 1 ? '' : 's'} of ${dataDir} imported into ${db.shown}${r.already ? `; ${r.already} had been imported before` : ''} (audit entries: ${r.audit.imported} copied${r.audit.already ? `, ${r.audit.already} before` : ''}).`,
      );
      if (r.paymentsLeft > 0)
        io.out(
          `${r.paymentsLeft} back-office payment record(s) stay in this desk's file (they are not refunds).`,
        );
    }
    if (r.taken.length > 0) {
      io.err(
        `Not imported: the team database already has another refund with the id of ${r.taken.join(', ')}. Report this to the administrator with this folder's refund-desk.db.`,
      );
      return EXIT.REJECTED;
    }
    return EXIT.OK;
  });
}

/**
 * `team`: the administrator's commands, with the database OWNER's login — never a desk's. Login roles
 * themselves are the DBA's (CREATE ROLE … LOGIN PASSWORD …); see README "Team mode".
 */
export const teamCommand: Command = {
  name: 'team',
  summary:
    'set up the team database (administrator, owner login): migrate, add-person, policy; a desk imports its local refunds once: import-local',
  usage: USAGE,
  async run(args, io) {
    const [sub, ...rest] = args;
    if (sub === 'migrate') return migrate(rest, io);
    if (sub === 'add-person') return person(rest, io);
    if (sub === 'policy') return policy(rest, io);
    if (sub === 'import-local') return importLocal(rest, io);
    throw new UsageError(
      `Unknown team command "${(sub ?? '').slice(0, 40)}": migrate, add-person, policy or import-local.`,
    );
  },
};
