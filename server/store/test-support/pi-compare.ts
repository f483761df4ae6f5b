import { SessionManager } from '@mariozechner/pi-coding-agent';
import { expect } from 'vitest';
import { SessionStore } from '../session-store.js';

/**
 * Checks, for every entry of `file` as pi sees it, that pi's `buildSessionContext` with that entry
 * as leaf equals ours, and that pi's context at its own leaf (the last line) equals ours at our
 * leaf. Returns how many leaves were compared. The file must be v3 (pi rewrites older ones).
 */
export function expectSameContextsAsPi(file: string): number {
  const ours = SessionStore.openReadOnly(file);
  const pi = SessionManager.open(file);
  expect(JSON.parse(JSON.stringify(ours.buildSessionContext()))).toEqual(
    JSON.parse(JSON.stringify(pi.buildSessionContext())),
  );
  let compared = 0;
  for (const entry of pi.getEntries()) {
    pi.branch(entry.id);
    expect(ours.buildSessionContext(entry.id), `context at ${entry.id}`).toEqual(
      pi.buildSessionContext(),
    );
    compared++;
  }
  ours.close();
  return compared;
}
