import type { z } from 'zod';
import type { Result } from '../../domain/errors';
import type { EventChannel, InvokeChannel } from '../channels';
import { appEvents, appHealth, appInfo, appOpenExternal } from './app';

/**
 * The IPC contract: one entry per operation (`domain.verb`) with zod input and output schemas, plus
 * declared main → renderer events. Main parses every input with it; the preload and the browser
 * bridge are typed against it.
 */
export const contract = {
  'app.info': appInfo,
  'app.health': appHealth,
  'app.openExternal': appOpenExternal,
} satisfies Record<InvokeChannel, { input: z.ZodType; output: z.ZodType }>;

export const events = {
  ...appEvents,
} satisfies Record<EventChannel, z.ZodType>;

export type Contract = typeof contract;
export type Input<C extends InvokeChannel> = z.input<Contract[C]['input']>;
export type Output<C extends InvokeChannel> = z.output<Contract[C]['output']>;
export type EventPayload<E extends EventChannel> = z.output<(typeof events)[E]>;

/** The API the preload (Electron) and the bridge script (browser host) expose to the renderer. */
export type Bridge = {
  [C in InvokeChannel]: undefined extends Input<C>
    ? (input?: Input<C>) => Promise<Result<Output<C>>>
    : (input: Input<C>) => Promise<Result<Output<C>>>;
} & {
  on: { [E in EventChannel]: (listener: (payload: EventPayload<E>) => void) => () => void };
};
