/** The Durable Object's storage as the coordinator's state, and its one alarm shared by everything it schedules. */
import type { CoordinatorState } from '../../coordinator/commands';

/** The Durable Object's storage as the state coordinator commands keep. */
export function buildObjectState(storage: DurableObjectStorage): CoordinatorState {
  return {
    get: async <T>(key: string) => storage.get<T>(key),
    put: async (key, value) => storage.put(key, value),
    delete: async (key) => {
      await storage.delete(key);
    },
    list: async <T>(prefix: string, end: string, limit: number) => storage.list<T>({ prefix, end, limit }),
  };
}

/**
 * Arms the object's one alarm at `at` unless an earlier one is set: moves, snapshots, restores and the expiry of live
 * streams share it, and each one's alarm work runs at every alarm and arms the next it needs.
 */
export async function setEarliestAlarm(storage: DurableObjectStorage, at: number): Promise<void> {
  const current = await storage.getAlarm();
  if (current === null || at < current) await storage.setAlarm(at);
}
