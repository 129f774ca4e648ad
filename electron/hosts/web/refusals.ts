import { AppError, toErrorEnvelope } from '../../../shared/domain/errors';
import { newCorrelationId } from '../../../shared/domain/ids';
import { forbiddenEnvelope } from '../../core/ipc/dispatcher';

/**
 * The browser host's own refusals, as the IPC error envelope's JSON. A module of their own because
 * server.ts loads it only when it first refuses: the envelope's modules bring zod and the schema of
 * every call, which the host's HTTP thread otherwise never runs (its core, on its own thread, does).
 */
export const forbidden = (): string => JSON.stringify(forbiddenEnvelope());

export const tooLarge = (maxBytes: number): string =>
  JSON.stringify(
    toErrorEnvelope(
      new AppError(
        'invalid_input',
        `The request was larger than ${maxBytes / 1024 / 1024} MB and was not processed. Send less at once.`,
      ),
      newCorrelationId(),
    ),
  );
