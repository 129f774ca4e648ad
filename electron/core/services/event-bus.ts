import type { EventChannel } from '../../../shared/ipc/channels';
import type { EventPayload } from '../../../shared/ipc/contract';

export type EventListener = <E extends EventChannel>(event: E, payload: EventPayload<E>) => void;

/** Main → renderer events. Hosts subscribe and forward (webContents.send, or the browser stream). */
export interface EventBus {
  emit<E extends EventChannel>(event: E, payload: EventPayload<E>): void;
  subscribe(listener: EventListener): () => void;
}

export function createEventBus(): EventBus {
  const listeners = new Set<EventListener>();
  return {
    emit(event, payload) {
      for (const l of listeners) {
        try {
          l(event, payload);
        } catch {
          // One broken subscriber (a closed window) must not stop the others.
        }
      }
    },
    subscribe(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
  };
}
