import type { ProfilesRuntime } from '../../services/profiles/runtime';
import type { HandlerMap } from '../dispatcher';

type ProfileChannels =
  | 'profiles.list'
  | 'profiles.save'
  | 'profiles.delete'
  | 'profiles.activate'
  | 'profiles.setToken'
  | 'profiles.clearToken'
  | 'profiles.testConnection';

/** Thin: IPC shape → profiles service. No handler ever returns a token. */
export function profileHandlers(rt: ProfilesRuntime): Pick<HandlerMap, ProfileChannels> {
  const { profiles } = rt;
  return {
    'profiles.list': async () => ({
      ...(await profiles.list()),
      demoAvailable: rt.demoBaseUrl() !== undefined,
      secretStorage: profiles.secretStorage(),
      notices: [...profiles.notices()],
    }),
    'profiles.save': (input) => profiles.save(input),
    'profiles.delete': async (input) => {
      await profiles.remove(input.id);
      return { deleted: true as const };
    },
    'profiles.activate': (input) => profiles.activate(input.id),
    'profiles.setToken': (input) =>
      profiles.setToken(input.id, input.token, { allowPlainText: input.allowPlainTextStorage === true }),
    'profiles.clearToken': (input) => profiles.clearToken(input.id),
    'profiles.testConnection': (input) => rt.testConnection(input.id),
  };
}
