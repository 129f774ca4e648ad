import { AppError } from '../../../../shared/domain/errors';
import {
  type TeamSettings,
  TeamSettingsProblem,
  teamSettingsSchema,
  teamUrlOf,
} from '../../../../shared/domain/team-settings';
import type { Input, Output } from '../../../../shared/ipc/contract';
import type { TeamForm } from '../../../../shared/ipc/contract/team';
import type { Logger } from '../ports';
import type { SecretStore, SettingsStore } from '../profiles/ports';
import type { AppStorage } from '../storage';
import { TEAM_PASSWORD_KEY, type TeamConnectionTest } from './ports';

/** The settings document's key for the team connection (adapters/team-settings.ts reads it at start). */
const KEY = 'teamDatabase';

/** A form's optional field: empty is "none". */
const given = (s: string | undefined) => (s && s.trim() ? s.trim() : undefined);

function toSettings(form: TeamForm): TeamSettings {
  const caFile = given(form.caFile);
  const login = given(form.login);
  return { address: form.address.trim(), ...(caFile ? { caFile } : {}), ...(login ? { login } : {}) };
}

/** The connection string of a form, refusing a password in the address (the form has a field for it). */
function urlOf(form: TeamForm): string {
  try {
    return teamUrlOf(toSettings(form), 'refuse');
  } catch (e) {
    if (!(e instanceof TeamSettingsProblem)) throw e;
    throw new AppError('invalid_input', e.message, { details: { fields: { [e.field]: e.message } } });
  }
}

/** What the schema versions mean for the person, when they differ (as the desk says when it opens). */
function schemaNote(schema: { database: number; desk: number }): string | undefined {
  if (schema.database > schema.desk)
    return `The team database is at schema ${schema.database}, newer than this Refund Desk (schema ${schema.desk}): update Refund Desk. Until then this desk can browse but not refund.`;
  if (schema.database < schema.desk)
    return `The team database is at schema ${schema.database}, older than this Refund Desk (schema ${schema.desk}): the administrator runs the migration (cli team migrate). Until then this desk can browse but not refund.`;
  return undefined;
}

/**
 * Settings → Team database and the desk's team state.
 *
 * - The connection (address, CA file, login) is the settings document's `teamDatabase`, written beside
 *   the profiles (which keep it on their writes); the password goes to the secret store only and never
 *   comes back out — the screen learns only whether one is set.
 * - Saved settings take effect when the desktop app starts again: storage is opened once, before any
 *   service, and every service holds it (swapping it under a running refund would be the unsafe kind of
 *   clever). The screen says so; `restartNeeded` tells it a change is waiting.
 * - Test connection uses what the form holds, not what the desk runs with: one connection, who am I,
 *   groups, limits and the schema version, then it disconnects. Nothing is written.
 */
export function createTeamService(deps: {
  settings: SettingsStore;
  secrets: SecretStore;
  test: TeamConnectionTest;
  log: Logger;
  storage: Pick<AppStorage, 'team' | 'untrusted'>;
  /** Whether this host opens the team database from Settings at start (the desktop app) or from flags. */
  appliesAt: 'restart' | 'command-line';
}) {
  let changed = false;

  function readDoc(): Record<string, unknown> {
    try {
      return deps.settings.read();
    } catch {
      throw new AppError(
        'unavailable',
        'The settings file cannot be read right now, so the team database settings were not changed. See the notice in Settings, then try again.',
      );
    }
  }

  async function settings(): Promise<Output<'team.settings'>> {
    let raw: unknown;
    try {
      raw = deps.settings.read()[KEY];
    } catch {
      raw = undefined; // a damaged file is the profiles' notice; nothing saved for the team then
    }
    const parsed = raw === undefined || raw === null ? undefined : teamSettingsSchema.safeParse(raw);
    let problem: string | undefined;
    if (parsed?.success) {
      try {
        teamUrlOf(parsed.data, 'drop');
      } catch (e) {
        problem = e instanceof Error ? e.message : String(e);
      }
    } else if (parsed)
      problem = 'The saved team database settings cannot be used: enter them again and Save.';
    return {
      saved: parsed?.success ? parsed.data : null,
      passwordSet: await deps.secrets.has(TEAM_PASSWORD_KEY).catch(() => false),
      appliesAt: deps.appliesAt,
      restartNeeded: changed,
      secretStorage: deps.secrets.info(),
      ...(problem ? { problem } : {}),
    };
  }

  return {
    settings,

    async save(form: TeamForm): Promise<Output<'team.settings'>> {
      urlOf(form);
      const doc = readDoc();
      deps.settings.write({ ...doc, [KEY]: toSettings(form) });
      changed = true;
      deps.log.info('team.settings_saved', { address: teamUrlOf(toSettings(form), 'drop') });
      return settings();
    },

    async forget(): Promise<Output<'team.settings'>> {
      const { [KEY]: saved, ...rest } = readDoc();
      const hadPassword = await deps.secrets.has(TEAM_PASSWORD_KEY).catch(() => true);
      // Nothing to forget: nothing is written (a desk alone stays exactly as it was).
      if (saved === undefined && !hadPassword) return settings();
      if (saved !== undefined) deps.settings.write(rest);
      if (hadPassword) await deps.secrets.delete(TEAM_PASSWORD_KEY);
      changed = true;
      deps.log.info('team.settings_removed', {});
      return settings();
    },

    async setPassword(input: Input<'team.setPassword'>): Promise<Output<'team.setPassword'>> {
      const r = await deps.secrets.set(TEAM_PASSWORD_KEY, input.password, {
        allowPlainText: input.allowPlainTextStorage === true,
      });
      changed = true;
      deps.log.info('team.password_set', { persisted: r.persisted });
      return { passwordSet: true, persisted: r.persisted };
    },

    async testConnection(input: Input<'team.testConnection'>): Promise<Output<'team.testConnection'>> {
      const url = urlOf(input);
      const password = input.password ?? (await deps.secrets.get(TEAM_PASSWORD_KEY).catch(() => undefined));
      const caFile = given(input.caFile);
      const me = await deps.test({ url, ...(caFile ? { caFile } : {}), ...(password ? { password } : {}) });
      const note = schemaNote(me.schema);
      return { ...me, ...(note ? { schemaNote: note } : {}) };
    },

    status(): Output<'team.status'> {
      const team = deps.storage.team?.();
      if (!team) return { mode: 'single' };
      const reason = deps.storage.untrusted();
      return {
        mode: 'team',
        ...(team.address ? { address: team.address } : {}),
        ...(team.login ? { login: team.login } : {}),
        ...(team.deskId ? { deskId: team.deskId } : {}),
        ...(team.schema ? { schema: team.schema } : {}),
        ...(reason
          ? { readOnly: { reason, ...(team.unreachableSince ? { since: team.unreachableSince } : {}) } }
          : {}),
      };
    },
  };
}
export type TeamService = ReturnType<typeof createTeamService>;
