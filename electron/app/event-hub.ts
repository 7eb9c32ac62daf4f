/** The services' events to the shells: one listener list, errors in one listener never reach the others. */
import type { EventName, EventPayload } from '../../shared/bridge/contract';

export type EventListener = (name: EventName, payload: unknown) => void;

export class EventHub {
  private readonly listeners = new Set<EventListener>();

  on(listener: EventListener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  emit<N extends EventName>(name: N, payload: EventPayload<N>): void {
    for (const listener of [...this.listeners]) {
      try {
        listener(name, payload);
      } catch {
        // A shell's failing listener (a closed window) must not stop telemetry.
      }
    }
  }

  clear(): void {
    this.listeners.clear();
  }
}
