import { createContext, useContext } from 'react';
import type { AppErrorShape, Result } from '../../../shared/domain/errors';
import { BRIDGE_GLOBAL } from '../../../shared/ipc/channels';
import type { Bridge } from '../../../shared/ipc/contract';

/**
 * The only reader of the global bridge (exposed by the Electron preload, or by the browser host's
 * bridge script). Everything else gets it from React context, so tests can supply their own.
 */
export function readGlobalBridge(): Bridge | undefined {
  return (globalThis as unknown as Record<string, Bridge | undefined>)[BRIDGE_GLOBAL];
}

export const BridgeContext = createContext<Bridge | null>(null);

export function useBridge(): Bridge {
  const bridge = useContext(BridgeContext);
  if (!bridge) throw new Error('Refund Desk bridge missing: the renderer was loaded outside its host.');
  return bridge;
}

/** An expected failure from main, carried through react-query as an Error with the envelope inside. */
export class BridgeError extends Error {
  override name = 'BridgeError';
  constructor(readonly error: Extract<Result<unknown>, { ok: false }>['error']) {
    super(error.message);
  }
}

/** Unwraps an envelope for react-query: value on success, BridgeError otherwise. */
export async function unwrap<T>(promise: Promise<Result<T>>): Promise<T> {
  const r = await promise;
  if (r.ok) return r.value;
  throw new BridgeError(r.error);
}

/**
 * The envelope of a failed mutation or query, for words on screen: main's expected failure as it sent
 * it, or — for anything else, a bug in the renderer — one envelope that says so. Every screen words
 * errors from this one function.
 */
export const errorOf = (e: unknown): AppErrorShape =>
  e instanceof BridgeError
    ? e.error
    : {
        code: 'internal',
        message: 'Something went wrong inside Refund Desk. Nothing was sent.',
        retryable: false,
        correlationId: '',
      };
