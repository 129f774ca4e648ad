import pg from 'pg';
import { AppError } from '../../../../shared/domain/errors';
import type { Currency } from '../../../../shared/domain/currencies';
import { mapPgError, safeAmount } from './connection';

/**
 * The administrator's side of team mode (`cli team add-person`, `cli team policy`), run with the database
 * owner's login. Login roles themselves are the DBA's (CREATE ROLE … LOGIN PASSWORD …): Refund Desk
 * never sees or sets a person's password.
 */
export const TEAM_ROLES = ['viewer', 'maker', 'checker'] as const;
export type TeamRole = (typeof TEAM_ROLES)[number];
export const groupOf = (role: TeamRole) => `refund_${role}` as const;

export interface OwnerConnection {
  connectionString: string;
  ca?: string;
}

export interface Limit {
  currency: Currency;
  upToMinor: number;
}

async function asOwner<T>(o: OwnerConnection, fn: (c: pg.Client) => Promise<T>): Promise<T> {
  const c = new pg.Client({
    connectionString: o.connectionString,
    connectionTimeoutMillis: 10_000,
    ...(o.ca ? { ssl: { ca: o.ca, rejectUnauthorized: true } } : {}),
  });
  c.on('error', () => undefined);
  try {
    await c.connect();
    await c.query('BEGIN');
    const r = await fn(c);
    await c.query('COMMIT');
    return r;
  } catch (e) {
    await c.query('ROLLBACK').catch(() => undefined);
    throw mapPgError(e);
  } finally {
    await c.end().catch(() => undefined);
  }
}

/**
 * Makes an existing login role a viewer, maker or checker: exactly that group (the others are revoked, so
 * a person's role is one answer), and — for a checker — their approval limits, replacing any earlier ones.
 */
export async function addPerson(
  o: OwnerConnection,
  p: { login: string; role: TeamRole; limits: readonly Limit[] },
): Promise<{ groups: string[]; limits: Limit[] }> {
  if (p.role !== 'checker' && p.limits.length > 0)
    throw new AppError('invalid_input', 'only a checker has approval limits (--approve-up-to)');
  for (const l of p.limits) safeAmount(l.upToMinor, 'the approval limit');
  return asOwner(o, async (c) => {
    const role = (
      await c.query<{ rolcanlogin: boolean; rolsuper: boolean }>(
        'SELECT rolcanlogin, rolsuper FROM pg_roles WHERE rolname = $1',
        [p.login],
      )
    ).rows[0];
    if (!role || !role.rolcanlogin)
      throw new AppError(
        'not_found',
        `there is no login role "${p.login.slice(0, 63)}": the DBA creates it first (CREATE ROLE … LOGIN PASSWORD …), then runs add-person`,
      );
    if (role.rolsuper)
      throw new AppError(
        'invalid_input',
        `"${p.login.slice(0, 63)}" is a superuser, who bypasses every rule: give each person an ordinary login role`,
      );
    const schema = await c.query("SELECT 1 FROM pg_roles WHERE rolname = 'refund_checker'");
    if (!schema.rowCount)
      throw new AppError('unavailable', 'the team database is not set up yet: run cli team migrate first');
    const who = c.escapeIdentifier(p.login);
    for (const r of TEAM_ROLES) if (r !== p.role) await c.query(`REVOKE ${groupOf(r)} FROM ${who}`);
    await c.query(`GRANT ${groupOf(p.role)} TO ${who}`);
    await c.query('DELETE FROM refund_desk.approval_limits WHERE login = $1', [p.login]);
    for (const l of p.limits)
      await c.query(
        'INSERT INTO refund_desk.approval_limits (login, currency, up_to_minor) VALUES ($1, $2, $3)',
        [p.login, l.currency, l.upToMinor],
      );
    return { groups: [groupOf(p.role)], limits: [...p.limits] };
  });
}

export interface Policy {
  /** '*' (or absent): every environment of the merchant and store. */
  environment?: string;
  merchantNo: string;
  storeNo: string;
  currency: Currency;
  approvalAboveMinor: number;
  expireHours: number;
}

/** Sets (or replaces) an account's approval policy for one currency. */
export async function setPolicy(o: OwnerConnection, p: Policy): Promise<void> {
  safeAmount(p.approvalAboveMinor, 'the approval threshold');
  await asOwner(o, async (c) => {
    await c.query(
      `INSERT INTO refund_desk.approval_policies
         (environment, merchant_no, store_no, currency, approval_above_minor, expire_hours)
       VALUES ($1, $2, $3, $4, $5, $6)
       ON CONFLICT (environment, merchant_no, store_no, currency) DO UPDATE SET
         approval_above_minor = EXCLUDED.approval_above_minor, expire_hours = EXCLUDED.expire_hours,
         set_by = session_user, set_on_server = now()`,
      [p.environment ?? '*', p.merchantNo, p.storeNo, p.currency, p.approvalAboveMinor, p.expireHours],
    );
  });
}
