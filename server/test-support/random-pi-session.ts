import { SessionManager } from '@mariozechner/pi-coding-agent';
import { SessionEntrySchema, type SessionEntry } from '../../shared/session-entries.js';
import { randomSession, type SessionWriter } from './random-session.js';

/*
 * The generator's random sessions written by pi's own SessionManager, in memory: the oracle side
 * of the tests that compare Arbor with pi. Apart from random-session.ts because pi's library is
 * ESM only and the generator is also loaded in worker threads.
 */

/** A random session written by pi's own SessionManager (so its shape is pi's), in memory. */
export interface RandomPiSession {
  manager: ReturnType<typeof SessionManager.inMemory>;
  /** Every entry, parsed with Arbor's schemas. */
  entries: SessionEntry[];
  /** Ids of every entry, for picking leaves. */
  ids: string[];
}

export function randomPiSession(seed: number, steps = 120): RandomPiSession {
  const manager = SessionManager.inMemory('/tmp/project');
  // pi's message types are not Arbor's schema-derived ones; the file is pi's all the same.
  randomSession(manager as unknown as SessionWriter, seed, steps);
  const entries = (manager.getEntries() as unknown[]).map((entry) =>
    SessionEntrySchema.parse(entry),
  );
  return { manager, entries, ids: entries.map((entry) => entry.id) };
}
