/** Where main keeps the team database's password: its secret store (safeStorage), never settings or IPC. */
export const TEAM_PASSWORD_KEY = 'team-database:password';

/** Who the team database says a login is, and the schema versions of the database and of this desk. */
export interface TeamIdentity {
  login: string;
  /** refund_viewer, refund_maker, refund_checker: the groups granted to the login. */
  groups: string[];
  /** What the login may approve, per currency (minor units). */
  limits: Array<{ currency: string; upToMinor: number }>;
  schema: { database: number; desk: number };
  /** The address connected to, as it may be shown (no password). */
  address: string;
}

/**
 * Connects once with what a person entered (adapters/team-connection-test.ts), asks who the login is and
 * disconnects. A failure is an AppError whose message says what to do, never with the password.
 */
export type TeamConnectionTest = (c: {
  url: string;
  caFile?: string;
  password?: string;
}) => Promise<TeamIdentity>;
