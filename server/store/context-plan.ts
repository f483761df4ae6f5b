import type { SessionContext, SessionEntry } from '../../shared/session-entries.js';
import type { BodyCache } from './body-cache.js';
import {
  contextFromPlan,
  emitsMessage,
  emptyContext,
  keptBeforeCompaction,
  planFromPath,
  type ContextPlan,
} from './session-context.js';
import type { EntryRecord, SessionIndex } from './session-index.js';

/**
 * pi's context for the entry `target` of a store: `null` gives the empty context; an unknown id
 * falls back to the last entry of the file, as pi does. `retain` keeps the bodies read in memory
 * (for the context at the leaf, which the next turn reads again).
 */
export function contextAt(
  index: SessionIndex,
  bodies: BodyCache,
  target: string | null,
  retain: boolean,
): SessionContext {
  if (target === null) return emptyContext();
  const start = index.byId.has(target) ? target : (index.lastId ?? null);
  if (start === null) return emptyContext();
  const load = (record: EntryRecord) => bodies.get(record, retain);
  const plan = planFromAncestry(index, start, load);
  return contextFromPlan(plan, load, (records) => bodies.prefetch(records, retain));
}

/**
 * pi's plan for the context at `leafId`, found from the entries the context contains: the
 * ancestry gives the last compaction, thinking change and model source, so only the stretch from
 * the compaction's first kept entry to the leaf is walked, not the whole path to the root. Falls
 * back to the plain walk where the shortcut could differ from pi (duplicate ids, an unreadable
 * compaction) or from itself (on a file with a parent cycle the cached ancestry depends on which
 * entry was asked for first; the plain walk from the leaf does not).
 */
function planFromAncestry(
  index: SessionIndex,
  leafId: string,
  load: (record: EntryRecord) => SessionEntry | undefined,
): ContextPlan<EntryRecord> {
  const leaf = index.byId.get(leafId);
  const byPath = () => planFromPath(index.pathTo(leafId), load);
  if (!leaf || index.duplicateIds.length > 0 || index.hasCycles) return byPath();
  index.ancestry(leaf);
  const compactionRecord = leaf.compaction;
  const compactionBody = compactionRecord ? load(compactionRecord) : undefined;
  if (compactionRecord && compactionBody?.type !== 'compaction') return byPath();
  const compaction = compactionBody?.type === 'compaction' ? compactionBody : undefined;

  const after: EntryRecord[] = [];
  for (let r: EntryRecord | undefined = leaf; r && r !== compactionRecord; r = index.parentOf(r)) {
    if (emitsMessage(r.type)) after.push(r);
  }
  after.reverse();
  const before: EntryRecord[] = [];
  if (compactionRecord && compaction) {
    let found = false;
    for (let r = index.parentOf(compactionRecord); r; r = index.parentOf(r)) {
      if (keptBeforeCompaction(r)) before.push(r);
      if (r.id === compaction.firstKeptEntryId) {
        found = true;
        break;
      }
    }
    // pi emits nothing before the compaction when its first kept entry is not on the path.
    if (!found) before.length = 0;
    before.reverse();
  }
  return {
    thinking: leaf.thinking,
    model: leaf.model,
    compaction,
    emitted: before.length ? [...before, ...after] : after,
  };
}
