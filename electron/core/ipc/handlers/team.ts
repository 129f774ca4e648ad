import type { TeamService } from '../../services/team/service';
import type { HandlerMap } from '../dispatcher';

type TeamChannels =
  'team.status' | 'team.settings' | 'team.save' | 'team.forget' | 'team.setPassword' | 'team.testConnection';

/** Thin: IPC shape → team service. No handler ever returns the password. */
export function teamHandlers(team: TeamService): Pick<HandlerMap, TeamChannels> {
  return {
    'team.status': () => team.status(),
    'team.settings': () => team.settings(),
    'team.save': (input) => team.save(input),
    'team.forget': () => team.forget(),
    'team.setPassword': (input) => team.setPassword(input),
    'team.testConnection': (input) => team.testConnection(input),
  };
}
