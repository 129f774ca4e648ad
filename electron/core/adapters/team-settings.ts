import { readFileSync } from 'node:fs';
import { TeamSettingsProblem, teamSettingsSchema, teamUrlOf } from '../../../shared/domain/team-settings';
import type { Logger } from '../services/ports';
import type { SecretStore, SettingsStore } from '../services/profiles/ports';
import { TEAM_PASSWORD_KEY } from '../services/team/ports';
import type { AppStorage } from '../services/storage';
import { openAppStorage } from './sqlite/app-storage';
import { openTeamStorage, shownAddress, teamStorageUnavailable } from './team-storage';

/** Where the desktop app keeps the team database's password: main's secret store, never settings or IPC. */
export { TEAM_PASSWORD_KEY } from '../services/team/ports';
/** The team connection in the settings file (shared/domain/team-settings.ts): the Settings screen writes it. */
export { teamSettingsSchema, type TeamSettings } from '../../../shared/domain/team-settings';

/**
 * The PEM of a CA file named in Settings. Throws TeamSettingsProblem (field caFile) when it cannot be
 * read or holds no certificate; the message names the path, never the content.
 */
export function readCaFile(path: string): string {
  let pem: string;
  try {
    pem = readFileSync(path, 'utf8');
  } catch {
    throw new TeamSettingsProblem(
      'caFile',
      `The team database's CA file ${path.slice(0, 200)} cannot be read: check the path in Settings → Team database.`,
    );
  }
  if (!pem.includes('-----BEGIN CERTIFICATE-----'))
    throw new TeamSettingsProblem(
      'caFile',
      `The team database's CA file ${path.slice(0, 200)} holds no certificate (PEM, "-----BEGIN CERTIFICATE-----"): ask the administrator for the CA certificate file.`,
    );
  return pem;
}

/** What the host opens team storage with (adapters/team-storage.ts). */
export interface TeamConnection {
  url: string;
  ca?: string;
  password?: string;
}

/**
 * The team connection of the settings document, with the password from the secret store; undefined when
 * none is set (a single desk). A setting that cannot be used is an Error whose message says which and
 * what to do (the host shows it, read-only, instead of silently working alone).
 */
export async function teamConnectionFrom(
  settings: SettingsStore,
  secrets: SecretStore,
  log: Logger,
): Promise<TeamConnection | undefined> {
  let raw: unknown;
  try {
    raw = settings.read()['teamDatabase'];
  } catch {
    // A damaged settings file is the profiles service's to report; no team connection then.
    return undefined;
  }
  if (raw === undefined || raw === null) return undefined;
  const parsed = teamSettingsSchema.safeParse(raw);
  if (!parsed.success)
    throw new Error(
      'The team database settings cannot be used (address missing or not text): set them again in Settings → Team database.',
    );
  const t = parsed.data;
  // Never a password from the settings file: it would be on disk in clear.
  const url = teamUrlOf(t, 'drop');
  const ca = t.caFile ? readCaFile(t.caFile) : undefined;
  const password = await secrets.get(TEAM_PASSWORD_KEY).catch((e: unknown) => {
    log.warn('team.password_unreadable', { error: e instanceof Error ? e.message : String(e) });
    return undefined;
  });
  return { url, ...(ca ? { ca } : {}), ...(password ? { password } : {}) };
}

/**
 * The desktop app's storage: the SQLite file alone, or — when Settings name a team database — team
 * storage. A team database that cannot be opened at start leaves the desk read-only with the reason
 * (teamStorageUnavailable), never silently alone on its own journal.
 */
export async function openDeskStorage(o: {
  dataDir: string;
  now: () => number;
  log: Logger;
  settings: SettingsStore;
  secrets: SecretStore;
  deskId: string;
}): Promise<AppStorage> {
  const local = () => openAppStorage({ dataDir: o.dataDir, now: o.now, log: o.log });
  let team: TeamConnection | undefined;
  try {
    team = await teamConnectionFrom(o.settings, o.secrets, o.log);
  } catch (e) {
    const why = e instanceof Error ? e.message : String(e);
    o.log.error('team.settings', { error: why });
    return teamStorageUnavailable(local(), why);
  }
  if (!team) return local();
  try {
    return await openTeamStorage({
      dataDir: o.dataDir,
      now: o.now,
      log: o.log,
      database: {
        connectionString: team.url,
        ...(team.ca ? { ca: team.ca } : {}),
        ...(team.password ? { password: team.password } : {}),
        deskId: o.deskId,
        applicationName: 'refund-desk',
      },
    });
  } catch (e) {
    const why = e instanceof Error ? e.message : String(e);
    o.log.error('team.open_failed', { error: why });
    return teamStorageUnavailable(local(), why, { address: shownAddress(team.url), deskId: o.deskId });
  }
}
