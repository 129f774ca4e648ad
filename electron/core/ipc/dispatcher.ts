import type { z } from 'zod';
import { AppError, type Result, toErrorEnvelope } from '../../../shared/domain/errors';
import { newCorrelationId } from '../../../shared/domain/ids';
import { INVOKE_CHANNELS, type InvokeChannel } from '../../../shared/ipc/channels';
import type { Input, Output } from '../../../shared/ipc/contract';
import { loadedSpec, specOf } from '../../../shared/ipc/contract/lazy';
import type { Logger } from '../services/ports';

/** What a handler receives besides its parsed input. */
export interface CallContext {
  correlationId: string;
}

export type Handler<C extends InvokeChannel> = (
  input: Input<C>,
  ctx: CallContext,
) => Promise<Output<C>> | Output<C>;
export type HandlerMap = { [C in InvokeChannel]: Handler<C> };

export type Dispatch = (channel: string, rawInput: unknown) => Promise<Result<unknown>>;

const KNOWN = new Set<string>(INVOKE_CHANNELS);

const clip = (text: string, max: number) => (text.length > max ? `${text.slice(0, max - 1)}…` : text);

/**
 * Summarises zod issues into something a person (and a test) can read, without echoing values. Key names
 * are caller-controlled (zod echoes unrecognized ones), so paths and messages are capped too.
 */
function describeIssues(error: z.ZodError): { message: string; issues: { path: string; message: string }[] } {
  const issues = error.issues.slice(0, 10).map((i) => ({
    path: clip(i.path.map(String).join('.') || '(input)', 100),
    message: clip(i.message, 200),
  }));
  return { message: issues.map((i) => `${i.path}: ${i.message}`).join('; '), issues };
}

/**
 * The host-independent half of `handle()`: parse input with the contract, call the handler, check the
 * output, and catch everything into the envelope. Electron's ipcMain and the browser host both call
 * this after doing their own sender check. No exception escapes.
 */
export function createDispatcher(handlers: HandlerMap, log: Logger): Dispatch {
  return async (channel, rawInput) => {
    const correlationId = newCorrelationId();
    try {
      if (!KNOWN.has(channel)) {
        throw new AppError('invalid_input', `Unknown operation "${channel.slice(0, 64)}".`);
      }
      const ch = channel as InvokeChannel;
      // Loaded with its group on the first call of the group (see lazy.ts): not all at the core's start.
      const spec = loadedSpec(ch) ?? (await specOf(ch));
      const parsed = spec.input.safeParse(rawInput);
      if (!parsed.success) {
        const d = describeIssues(parsed.error);
        throw new AppError('invalid_input', `The request for ${ch} was not valid: ${d.message}`, {
          details: { issues: d.issues },
        });
      }
      const handler = handlers[ch] as (input: unknown, ctx: CallContext) => Promise<unknown> | unknown;
      const value = await handler(parsed.data, { correlationId });
      const out = spec.output.safeParse(value);
      if (!out.success) {
        // A handler returned something outside the contract: a bug in main, never the user's fault.
        log.error('ipc.output_invalid', {
          channel: ch,
          correlationId,
          issues: describeIssues(out.error).message,
        });
        throw new Error('handler output violated the contract');
      }
      return { ok: true, value: out.data };
    } catch (e) {
      const envelope = toErrorEnvelope(e, correlationId);
      if (envelope.error.code === 'internal') {
        log.error('ipc.exception', {
          channel: channel.slice(0, 64),
          correlationId,
          error: e instanceof Error ? e.message : String(e),
        });
      } else {
        log.info('ipc.error', { channel: channel.slice(0, 64), correlationId, code: envelope.error.code });
      }
      return envelope;
    }
  };
}

/** Envelope for a call refused before dispatch (untrusted sender, missing secret). */
export function forbiddenEnvelope(): Result<never> {
  return toErrorEnvelope(
    new AppError('forbidden', 'This caller is not allowed to use Refund Desk.'),
    newCorrelationId(),
  );
}
