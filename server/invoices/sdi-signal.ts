type Listener = () => void;
const listeners = new Set<Listener>();

/**
 * Called (in this process) when a document is issued or a corrected file queued, so the SDI sending job
 * goes in a moment instead of at its next poll. The caller's transaction may not have committed yet:
 * the job runs a second later, and the next poll catches what it missed. Returns the unsubscribe function.
 */
export function onSdiWork(listener: Listener): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

export function signalSdiWork(): void {
  for (const listener of listeners) listener();
}
