import pg from 'pg';
import { AppError, isAppError } from '../../../shared/domain/errors';
import { TeamSettingsProblem } from '../../../shared/domain/team-settings';
import type { TeamConnectionTest } from '../services/team/ports';
import { whoAmI } from './postgres/approvals';
import { pgClientConfig } from './postgres/connection';
import { readSchemaVersion } from './postgres/migrate';
import { DESK_SCHEMA_VERSION } from './postgres/migrations';
import { readCaFile } from './team-settings';
import { openFailure, shownAddress, withPassword } from './team-storage';

/**
 * Settings → Team database → Test connection: one connection with what the person entered (not what
 * this desk runs with), the same client settings a desk uses (TLS with the host name verified when a CA
 * is given), then who the login is, its groups and limits and the schema version, and disconnect.
 * Nothing is written. Failures say what to do, in the words the desk uses when it opens (openFailure),
 * never with the password.
 */
export function createTeamConnectionTest(o: {
  deskId: string;
  connectTimeoutMs?: number;
}): TeamConnectionTest {
  return async ({ url, caFile, password }) => {
    const address = shownAddress(url);
    let ca: string | undefined;
    try {
      ca = caFile ? readCaFile(caFile) : undefined;
    } catch (e) {
      if (!(e instanceof TeamSettingsProblem)) throw e;
      throw new AppError('invalid_input', e.message, { details: { fields: { [e.field]: e.message } } });
    }
    const client = new pg.Client({
      ...pgClientConfig({
        connectionString: withPassword({ connectionString: url, ...(password ? { password } : {}) }),
        ...(ca ? { ca } : {}),
        applicationName: 'refund-desk-settings-test',
        deskId: o.deskId,
      }),
      connectionTimeoutMillis: o.connectTimeoutMs ?? 10_000,
    });
    // A connection cut while testing is an answer of the test, not an unhandled error of the process.
    client.on('error', () => undefined);
    try {
      await client.connect();
      const database = await readSchemaVersion(client);
      if (database === 0)
        throw new AppError(
          'unavailable',
          `The team database at ${address} has no Refund Desk schema yet: the administrator runs “cli team migrate” once, then adds people (cli team add-person).`,
          { details: { storage: 'team', todo: 'cli team migrate' } },
        );
      const me = await whoAmI(client);
      return { ...me, schema: { database, desk: DESK_SCHEMA_VERSION }, address };
    } catch (e) {
      if (isAppError(e) && e.details?.['storage'] === 'team') throw e;
      throw openFailure(e, address);
    } finally {
      await client.end().catch(() => undefined);
    }
  };
}
