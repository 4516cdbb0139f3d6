// Where syncing stands, for the screens (the header's status, "synced at").

export interface EngineState {
  syncing: boolean;
  lastSyncedAt: number | null;
  /** The last failure of a whole sync (network, server), translated by code. */
  error: string | null;
}

let state: EngineState = { syncing: false, lastSyncedAt: null, error: null };
const listeners = new Set<() => void>();

/** Tells the screens something changed (the state, or the queue and tables they read). */
export function notify(): void {
  for (const listener of listeners) listener();
}

export function setState(patch: Partial<EngineState>): void {
  state = { ...state, ...patch };
  notify();
}

export function subscribe(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

export function engineState(): EngineState {
  return state;
}
