import { projectContextEntry } from '../../shared/entry-messages.js';
import { contextElements, emitsMessage, keptBeforeCompaction } from '../../shared/model-context.js';
import type { AgentMessage } from '../../shared/messages.js';
import type {
  CompactionEntry,
  ContextEditEntry,
  SessionContext,
  SessionEntry,
} from '../../shared/session-entries.js';

/*
 * pi 1.6's `buildSessionContext` (its `buildSessionProjection`), rule for rule, written so that the
 * store can run it over the skeleton and read only the bodies the result needs: the last
 * compaction, the entries it keeps, the entries after it, the last thinking level and the last
 * model source. Files of pi 0.73 hold none of 1.6's entries, and for them this gives 0.73's
 * context.
 *
 * - The path runs from a root to the leaf; its last compaction starts the context with its
 *   checkpoint (`systemMessage`) and summary, then the entries from its `firstKeptEntryId` up to
 *   it (system messages left out: the checkpoint replaces them; none when the id is its own or is
 *   not on the path), then every entry after it.
 * - A `context_edit` among those entries changes its target's part: the latest one per target
 *   wins; edits elsewhere (another branch, before the kept range) do not count.
 * - Thinking level and model come from the whole path (the last thinking_level_change; the last
 *   model_change or assistant message).
 */

/** What the algorithm needs to know about a path element before reading its body. */
export interface PathItem {
  id: string;
  type: string;
  role?: string;
}

/** Which path elements make the context: decided from the skeleton and the compaction's body. */
export interface ContextPlan<T> {
  /** The last thinking_level_change on the path. */
  thinking?: T;
  /** The last model_change or assistant message on the path. */
  model?: T;
  /** The last compaction on the path (already read). */
  compaction?: CompactionEntry;
  /** The elements that contribute messages or edits, in path order. */
  emitted: T[];
}

export function emptyContext(): SessionContext {
  return { messages: [], thinkingLevel: 'off', model: null };
}

// The rule of which path elements make the context lives in shared/, where the page reads it too.
export { emitsMessage, keptBeforeCompaction };

/** pi's plan for a root-first `path`. */
export function planFromPath<T extends PathItem>(
  path: readonly T[],
  load: (item: T) => SessionEntry | undefined,
): ContextPlan<T> {
  let thinking: T | undefined;
  let model: T | undefined;
  let compactionIndex = -1;
  for (let i = 0; i < path.length; i++) {
    const item = path[i]!;
    if (item.type === 'thinking_level_change') thinking = item;
    else if (item.type === 'model_change') model = item;
    else if (item.type === 'message' && item.role === 'assistant') model = item;
    else if (item.type === 'compaction') compactionIndex = i;
  }
  const found = compactionIndex >= 0 ? load(path[compactionIndex]!) : undefined;
  const compaction = found?.type === 'compaction' ? found : undefined;
  const emitted = contextElements(
    path,
    compaction ? compactionIndex : -1,
    compaction?.firstKeptEntryId,
  );
  return { thinking, model, compaction, emitted };
}

/**
 * The context a plan describes. `load` returns the body of an element, or undefined when the line
 * is not a usable entry (then it contributes nothing, as an unknown type in pi). `prefetch` hears
 * of every emitted element before the first is loaded.
 */
export function contextFromPlan<T>(
  plan: ContextPlan<T>,
  load: (item: T) => SessionEntry | undefined,
  prefetch?: (items: T[]) => void,
): SessionContext {
  let thinkingLevel = 'off';
  const thinkingEntry = plan.thinking ? load(plan.thinking) : undefined;
  if (thinkingEntry?.type === 'thinking_level_change') thinkingLevel = thinkingEntry.thinkingLevel;

  let model: SessionContext['model'] = null;
  const modelEntry = plan.model ? load(plan.model) : undefined;
  if (modelEntry?.type === 'model_change') {
    model = { provider: modelEntry.provider, modelId: modelEntry.modelId };
  } else if (modelEntry?.type === 'message' && modelEntry.message.role === 'assistant') {
    model = { provider: modelEntry.message.provider, modelId: modelEntry.message.model };
  }

  prefetch?.(plan.emitted);
  const entries: SessionEntry[] = [];
  for (const item of plan.emitted) {
    const entry = load(item);
    if (entry) entries.push(entry);
  }
  return { messages: projectEntries(plan.compaction, entries), thinkingLevel, model };
}

/**
 * The messages of a compaction (or none) and the entries that follow it in the context, each
 * after the latest edit of it among them (pi 1.6's projection).
 */
export function projectEntries(
  compaction: CompactionEntry | undefined,
  entries: readonly SessionEntry[],
): AgentMessage[] {
  const edits = new Map<string, ContextEditEntry>();
  for (const entry of entries) if (entry.type === 'context_edit') edits.set(entry.targetId, entry);
  const messages: AgentMessage[] = [];
  if (compaction) messages.push(...projectContextEntry(compaction, edits.get(compaction.id)));
  for (const entry of entries) messages.push(...projectContextEntry(entry, edits.get(entry.id)));
  return messages;
}

/** pi's context for a root-first `path`. */
export function contextFromPath<T extends PathItem>(
  path: readonly T[],
  load: (item: T) => SessionEntry | undefined,
  prefetch?: (items: T[]) => void,
): SessionContext {
  return contextFromPlan(planFromPath(path, load), load, prefetch);
}

/**
 * The pure form over whole entries (file order), for callers that hold every entry: the leaf
 * rules are pi's — `null` gives the empty context, an unknown or absent leaf falls back to the
 * last entry in file order. A parent cycle ends the path where an entry would repeat.
 */
export function buildSessionContextFromEntries(
  entries: readonly SessionEntry[],
  leafId?: string | null,
): SessionContext {
  if (leafId === null) return emptyContext();
  const byId = new Map<string, SessionEntry>();
  for (const entry of entries) byId.set(entry.id, entry);
  let leaf = leafId ? byId.get(leafId) : undefined;
  leaf ??= entries[entries.length - 1];
  if (!leaf) return emptyContext();
  const path: SessionEntry[] = [];
  const seen = new Set<string>();
  for (let current: SessionEntry | undefined = leaf; current && !seen.has(current.id);) {
    seen.add(current.id);
    path.push(current);
    current = current.parentId ? byId.get(current.parentId) : undefined;
  }
  path.reverse();
  return contextFromPath(
    path.map((entry) => ({
      id: entry.id,
      type: entry.type,
      role: entry.type === 'message' ? entry.message.role : undefined,
      entry,
    })),
    (item) => item.entry,
  );
}
