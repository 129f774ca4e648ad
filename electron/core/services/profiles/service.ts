import { z } from 'zod';
import { isKnownCurrency } from '../../../../shared/domain/currencies';
import { closePolicyAtFloor, UNKNOWN_CLOSE_FLOOR } from '../../../../shared/domain/guardrails';
import { AppError } from '../../../../shared/domain/errors';
import { newSortableId } from '../../../../shared/domain/ids';
import {
  ENVIRONMENT_BASE_URLS,
  type Environment,
  fieldErrors,
  isLoopbackUrl,
  type Profile,
  type ProfileInput,
  profileInputSchema,
  profileSchema,
} from '../../../../shared/domain/profile';
import type { profileViewSchema } from '../../../../shared/ipc/contract/profiles';
import type { GatewayConfig } from '../gateway/client';
import type { Clock, Logger } from '../ports';
import { type SecretStore, type SecretStoreInfo, SettingsCorruptError, type SettingsStore } from './ports';

const settingsSchema = z.object({
  version: z.literal(1),
  profiles: z.array(profileSchema),
  activeProfileId: z.string().nullable(),
});
type Settings = z.infer<typeof settingsSchema>;

/**
 * The keys of the settings document this service owns. The document holds others (the team database's
 * connection, `teamDatabase`, written by Settings → Team database): they are kept as they are on every
 * write, and a document holding only them is a first run for profiles, not damage.
 */
const PROFILE_KEYS: readonly string[] = ['version', 'profiles', 'activeProfileId'];

/**
 * Earlier versions took any three letters as a limit's currency; a limit in a currency this app does not
 * handle can never apply, so it is left out (with a notice) rather than setting the whole file aside.
 */
export function withoutUnknownLimitCurrencies(raw: Record<string, unknown>): {
  settings: Record<string, unknown>;
  dropped: { profile: string; currency: string }[];
} {
  const dropped: { profile: string; currency: string }[] = [];
  if (!Array.isArray(raw['profiles'])) return { settings: raw, dropped };
  const profiles = (raw['profiles'] as unknown[]).map((p) => {
    const limits = (p as { guardrails?: { limits?: unknown } } | null)?.guardrails?.limits;
    if (!Array.isArray(limits)) return p;
    const kept = limits.filter((l) => {
      const c = (l as { currency?: unknown } | null)?.currency;
      if (typeof c !== 'string' || isKnownCurrency(c)) return true;
      dropped.push({
        profile: String((p as { name?: unknown }).name ?? '').slice(0, 60),
        currency: c.slice(0, 12),
      });
      return false;
    });
    const q = p as { guardrails: Record<string, unknown> };
    return kept.length === limits.length ? p : { ...q, guardrails: { ...q.guardrails, limits: kept } };
  });
  return { settings: { ...raw, profiles }, dropped };
}

/**
 * Earlier versions let a profile close an unknown refund as not sent after 1 check and 0 minutes. A
 * stored policy below the floor (shared/domain/guardrails.ts UNKNOWN_CLOSE_FLOOR) is never trusted: it is
 * raised to the floor on reading (and written so at the next save), and the person is told.
 */
export function withCloseFloor(profiles: readonly Profile[]): { profiles: Profile[]; raised: string[] } {
  const raised: string[] = [];
  const out = profiles.map((p) => {
    const stored = p.guardrails?.unknownClose;
    if (!p.guardrails || !stored) return p;
    const floored = closePolicyAtFloor(stored);
    if (floored.minChecks === stored.minChecks && floored.minMinutes === stored.minMinutes) return p;
    raised.push(p.name);
    return { ...p, guardrails: { ...p.guardrails, unknownClose: floored } };
  });
  return { profiles: out, raised };
}

/** The embedded sandbox's coordinates, when it runs (Demo profiles point at it). */
export interface DemoRuntime {
  baseUrl: string;
  merchantNo: string;
  storeNo: string;
  /** The vendor's public demo token: not a secret, but still never logged or sent to the renderer. */
  token: string;
}

export interface Notice {
  level: 'info' | 'warning' | 'error';
  message: string;
  at: string;
}

/** A profile as the renderer sees it (shared/ipc/contract/profiles.ts): never the token. */
export type ProfileView = z.infer<typeof profileViewSchema>;

export interface ProfilesDeps {
  settings: SettingsStore;
  secrets: SecretStore;
  clock: Clock;
  log: Logger;
  demo?: () => DemoRuntime | undefined;
  /** The operator's name when a profile names none (the host's OS account; ports.ProcessIdentity). */
  osUser?: string;
}

/** Where a profile's API token is kept in the secret store. */
export const secretKey = (profileId: string) => `profile:${profileId}:token`;

/**
 * Named merchant profiles and the active one. Non-secret fields go to the settings store (validated on
 * every read); tokens go to the secret store and never come back out except to sign. A corrupt settings
 * file is moved aside and reported, never silently reset.
 */
export function createProfilesService(deps: ProfilesDeps) {
  const notices: Notice[] = [];
  const listeners = new Set<() => void>();
  let settingsProblem: string | undefined;
  let state: Settings = load();

  function notice(level: Notice['level'], message: string): void {
    notices.push({ level, message, at: new Date(deps.clock.now()).toISOString() });
  }

  function load(): Settings {
    let raw: Record<string, unknown>;
    try {
      raw = deps.settings.read();
    } catch (e) {
      if (!(e instanceof SettingsCorruptError)) throw e;
      return quarantine(e.why ?? 'could not be read');
    }
    for (const note of deps.settings.readNotes?.() ?? []) notice('info', note);
    // Only a missing file or `{}` is a first run: anything else that is not an object is damage.
    if (Array.isArray(raw) || typeof raw !== 'object' || raw === null)
      return quarantine('did not hold a settings object');
    if (!Object.keys(raw).some((k) => PROFILE_KEYS.includes(k)))
      return { version: 1, profiles: [], activeProfileId: null };
    const { settings, dropped } = withoutUnknownLimitCurrencies(raw);
    const parsed = settingsSchema.safeParse(settings);
    if (!parsed.success) return quarantine('was not in the expected shape');
    for (const d of dropped)
      notice(
        'warning',
        `The refund limit in ${d.currency} of profile “${d.profile}” was removed: this app does not handle ${d.currency}.`,
      );
    const { profiles, raised } = withCloseFloor(parsed.data.profiles);
    for (const name of raised)
      notice(
        'warning',
        `Profile “${name.slice(0, 60)}” allowed closing an unknown refund as not sent sooner than is safe; it now needs at least ${UNKNOWN_CLOSE_FLOOR.minChecks} checks over ${UNKNOWN_CLOSE_FLOOR.minMinutes} minutes (the payment service may still apply a refund that long after it was sent).`,
      );
    return { ...parsed.data, profiles };
  }

  function quarantine(why: string): Settings {
    const movedTo = deps.settings.quarantine();
    settingsProblem = `The settings file ${why} and was moved aside${movedTo ? ` to ${movedTo}` : ''}. Your profiles start empty; tokens are untouched.`;
    deps.log.error('settings.corrupt', { why, movedTo: movedTo ?? '(not moved)' });
    notice('error', settingsProblem);
    return { version: 1, profiles: [], activeProfileId: null };
  }

  function persist(next: Settings): void {
    // Whatever else the document holds (the team connection) is written back unchanged.
    let others: Record<string, unknown> = {};
    try {
      others = Object.fromEntries(
        Object.entries(deps.settings.read()).filter(([k]) => !PROFILE_KEYS.includes(k)),
      );
    } catch {
      // Unreadable now (damaged since it was loaded): the profiles are written; load() reported the rest.
    }
    deps.settings.write({ ...others, ...next });
    state = next;
    for (const l of listeners) l();
  }

  function find(id: string): Profile {
    const p = state.profiles.find((x) => x.id === id);
    if (!p) throw new AppError('not_found', 'That profile no longer exists. Reload the list and try again.');
    return p;
  }

  function baseUrlOf(p: Profile): string | undefined {
    if (p.environment === 'demo') return deps.demo?.()?.baseUrl;
    if (p.environment === 'custom') return p.baseUrl;
    return ENVIRONMENT_BASE_URLS[p.environment];
  }

  async function hasToken(p: Profile): Promise<boolean> {
    if (p.environment === 'demo') return Boolean(deps.demo?.());
    return deps.secrets.has(secretKey(p.id));
  }

  async function view(p: Profile): Promise<ProfileView> {
    const url = baseUrlOf(p);
    return {
      ...p,
      hasToken: await hasToken(p),
      ...(url ? { effectiveBaseUrl: url } : {}),
      // The name every confirmation shows is the one main records (refunds, payments, audit).
      operator: p.operatorName ?? deps.osUser ?? 'unknown operator',
    };
  }

  function validate(input: ProfileInput) {
    const parsed = profileInputSchema.safeParse(input);
    if (!parsed.success) {
      const fields = fieldErrors(parsed.error);
      throw new AppError('invalid_input', Object.values(fields).join(' '), { details: { fields } });
    }
    return parsed.data;
  }

  return {
    /** Problems found while loading settings, for the health check and the Settings screen. */
    notices: (): readonly Notice[] => notices,
    settingsProblem: () => settingsProblem,
    secretStorage: (): SecretStoreInfo => deps.secrets.info(),
    onChange(listener: () => void): () => void {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },

    async list(): Promise<{ profiles: ProfileView[]; activeProfileId: string | null }> {
      return {
        profiles: await Promise.all(state.profiles.map(view)),
        activeProfileId: state.activeProfileId,
      };
    },

    active(): Profile | undefined {
      return state.profiles.find((p) => p.id === state.activeProfileId);
    },

    get(id: string): Profile {
      return find(id);
    },

    /** Every profile as stored (no secret is read). */
    all(): readonly Profile[] {
      return state.profiles;
    },

    /** The address a profile's calls go to now (Demo: the running sandbox), or undefined. */
    effectiveBaseUrl(id: string): string | undefined {
      return baseUrlOf(find(id));
    },

    /** Creates (no id) or updates a profile. The first profile becomes active. */
    async save(input: ProfileInput): Promise<ProfileView> {
      const v = validate(input);
      const now = new Date(deps.clock.now()).toISOString();
      const demo = v.environment === 'demo' ? deps.demo?.() : undefined;
      if (v.environment === 'demo' && !demo) {
        throw new AppError(
          'unavailable',
          'The built-in sandbox is not running in this session, so a Demo profile cannot be used. Choose another environment.',
        );
      }
      const fields = {
        name: v.name,
        // A Demo profile always talks as the sandbox's demo merchant: other numbers could not work there.
        merchantNo: demo ? demo.merchantNo : v.merchantNo,
        storeNo: demo ? demo.storeNo : v.storeNo,
        environment: v.environment,
        ...(v.environment === 'custom' && v.baseUrl ? { baseUrl: v.baseUrl.replace(/\/+$/, '') } : {}),
        ipnEnabled: v.ipnEnabled,
        ...(v.operatorName ? { operatorName: v.operatorName } : {}),
        ...(v.merGroupNo ? { merGroupNo: v.merGroupNo } : {}),
        ...(v.guardrails ? { guardrails: v.guardrails } : {}),
      };
      // Only a Custom address on this machine carries a declared money mode (elsewhere the address decides).
      const declarable =
        v.environment === 'custom' && fields.baseUrl !== undefined && isLoopbackUrl(fields.baseUrl);
      let saved: Profile;
      let profiles: Profile[];
      let retarget = false;
      if (v.id) {
        const old = find(v.id);
        // Guardrails are only changed where the input says so: an edit that omits them keeps them, and one
        // that gives only the limits keeps the stored "close as not sent" policy.
        const keptClose = old.guardrails?.unknownClose;
        const guardrails =
          v.guardrails === undefined
            ? old.guardrails
            : v.guardrails.unknownClose === undefined && keptClose
              ? { ...v.guardrails, unknownClose: keptClose }
              : v.guardrails;
        // An edit that does not say keeps the declaration while the address stays the same.
        const declared =
          v.loopbackMoneyMode ?? (old.baseUrl === fields.baseUrl ? old.loopbackMoneyMode : undefined);
        saved = {
          ...fields,
          ...(guardrails ? { guardrails } : {}),
          ...(declarable && declared ? { loopbackMoneyMode: declared } : {}),
          id: old.id,
          createdAt: old.createdAt,
          updatedAt: now,
        };
        profiles = state.profiles.map((p) => (p.id === old.id ? saved : p));
        // A token is only ever sent to the host it was entered for: a new destination needs it again.
        retarget = old.environment !== saved.environment || old.baseUrl !== saved.baseUrl;
      } else {
        saved = {
          ...fields,
          ...(declarable && v.loopbackMoneyMode ? { loopbackMoneyMode: v.loopbackMoneyMode } : {}),
          id: newSortableId('P', deps.clock.now()),
          createdAt: now,
          updatedAt: now,
        };
        profiles = [...state.profiles, saved];
      }
      if (profiles.some((p) => p.id !== saved.id && p.name.toLowerCase() === saved.name.toLowerCase())) {
        throw new AppError(
          'conflict',
          `A profile called “${saved.name}” already exists. Choose another name.`,
          { details: { fields: { name: 'Another profile already has this name.' } } },
        );
      }
      if (retarget && (await deps.secrets.has(secretKey(saved.id)))) {
        await deps.secrets.delete(secretKey(saved.id));
        deps.log.info('profiles.token_cleared', { profileId: saved.id, reason: 'destination_changed' });
      }
      persist({ ...state, profiles, activeProfileId: state.activeProfileId ?? saved.id });
      deps.log.info('profiles.saved', {
        profileId: saved.id,
        environment: saved.environment,
        created: !v.id,
      });
      return view(saved);
    },

    async remove(id: string): Promise<void> {
      find(id);
      const profiles = state.profiles.filter((p) => p.id !== id);
      const activeProfileId =
        state.activeProfileId === id ? (profiles[0]?.id ?? null) : state.activeProfileId;
      await deps.secrets.delete(secretKey(id));
      persist({ ...state, profiles, activeProfileId });
      deps.log.info('profiles.deleted', { profileId: id });
    },

    async activate(id: string): Promise<ProfileView> {
      const p = find(id);
      persist({ ...state, activeProfileId: id });
      deps.log.info('profiles.activated', { profileId: id, environment: p.environment });
      return view(p);
    },

    /** Stores a token for a profile. The value is never returned, logged or echoed. */
    async setToken(
      id: string,
      token: string,
      opts: { allowPlainText?: boolean } = {},
    ): Promise<{ hasToken: true; persisted: boolean }> {
      const p = find(id);
      if (p.environment === 'demo') {
        throw new AppError(
          'invalid_input',
          'The Demo profile uses the built-in sandbox’s public demo credentials; it needs no token.',
        );
      }
      const trimmed = token.trim();
      if (!/^[\x21-\x7e]{8,256}$/.test(trimmed)) {
        throw new AppError(
          'invalid_input',
          'That does not look like an API token: paste the whole token (at least 8 characters, no spaces).',
          {
            details: { fields: { token: 'Paste the whole token, without spaces.' } },
          },
        );
      }
      const r = await deps.secrets.set(secretKey(id), trimmed, opts);
      deps.log.info('profiles.token_set', { profileId: id, persisted: r.persisted });
      for (const l of listeners) l();
      return { hasToken: true, persisted: r.persisted };
    },

    async clearToken(id: string): Promise<{ hasToken: false }> {
      find(id);
      await deps.secrets.delete(secretKey(id));
      deps.log.info('profiles.token_cleared', { profileId: id });
      for (const l of listeners) l();
      return { hasToken: false };
    },

    /** Main-only: the token of a profile, for signing and IPN verification. */
    async tokenFor(id: string): Promise<string | undefined> {
      const p = find(id);
      if (p.environment === 'demo') return deps.demo?.()?.token;
      return deps.secrets.get(secretKey(id));
    },

    /**
     * Everything the gateway needs to call as this profile (the active one by default). `tokenOf` lets
     * the gateway registry answer from its cache instead of reading the secret store on every call.
     */
    async gatewayConfig(
      id?: string,
      tokenOf: (id: string) => Promise<string | undefined> = (x) => this.tokenFor(x),
    ): Promise<GatewayConfig> {
      const p = id ? find(id) : this.active();
      if (!p)
        throw new AppError('invalid_input', 'No merchant profile is active. Add or choose one in Settings.');
      const baseUrl = baseUrlOf(p);
      if (!baseUrl)
        throw new AppError(
          'unavailable',
          'The built-in sandbox is not running, so the Demo profile cannot connect. Restart Refund Desk.',
        );
      const token = await tokenOf(p.id);
      if (!token)
        throw new AppError(
          'unauthorized',
          `The profile “${p.name}” has no API token yet. Add it in Settings, then try again.`,
        );
      return {
        baseUrl,
        merchantNo: p.merchantNo,
        storeNo: p.storeNo,
        token,
        ...(p.merGroupNo ? { merGroupNo: p.merGroupNo } : {}),
      };
    },

    mode(): Environment | 'none' {
      return this.active()?.environment ?? 'none';
    },
  };
}
export type ProfilesService = ReturnType<typeof createProfilesService>;
