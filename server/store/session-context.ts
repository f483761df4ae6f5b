import type { AgentMessage } from '../../shared/messages.js';
import type {
  CompactionEntry,
  SessionContext,
  SessionEntry,
} from '../../shared/session-entries.js';

/*
 * pi's `buildSessionContext`, rule for rule (pi-session-format.md §3.4), written so that the store
 * can run it over the skeleton and read only the bodies the result needs: the last compaction, the
 * entries it keeps, the entries after it, the last thinking level and the last model source.
 */

/** What the algorithm needs to know about a path element before reading its body. */
export interface PathItem {
  id: string;
  type: string;
  role?: string;
}

export function emptyContext(): SessionContext {
  return { messages: [], thinkingLevel: 'off', model: null };
}

/**
 * The context for a root-first `path`. `load` returns the body of a path item, or undefined when
 * the line is not a usable entry (then it contributes nothing, as an unknown type in pi).
 */
export function contextFromPath<T extends PathItem>(
  path: readonly T[],
  load: (item: T) => SessionEntry | undefined,
): SessionContext {
  let thinkingIndex = -1;
  let modelIndex = -1;
  let compactionIndex = -1;
  for (let i = 0; i < path.length; i++) {
    const item = path[i]!;
    if (item.type === 'thinking_level_change') thinkingIndex = i;
    else if (item.type === 'model_change') modelIndex = i;
    else if (item.type === 'message' && item.role === 'assistant') modelIndex = i;
    else if (item.type === 'compaction') compactionIndex = i;
  }

  let thinkingLevel = 'off';
  const thinkingEntry = thinkingIndex >= 0 ? load(path[thinkingIndex]!) : undefined;
  if (thinkingEntry?.type === 'thinking_level_change') thinkingLevel = thinkingEntry.thinkingLevel;

  let model: SessionContext['model'] = null;
  const modelEntry = modelIndex >= 0 ? load(path[modelIndex]!) : undefined;
  if (modelEntry?.type === 'model_change') {
    model = { provider: modelEntry.provider, modelId: modelEntry.modelId };
  } else if (modelEntry?.type === 'message' && modelEntry.message.role === 'assistant') {
    model = { provider: modelEntry.message.provider, modelId: modelEntry.message.model };
  }

  const messages: AgentMessage[] = [];
  const emit = (item: T): void => {
    if (item.type !== 'message' && item.type !== 'custom_message' && item.type !== 'branch_summary')
      return;
    const entry = load(item);
    if (entry) pushEntryMessage(messages, entry);
  };

  const compaction = compactionIndex >= 0 ? load(path[compactionIndex]!) : undefined;
  if (compaction?.type === 'compaction') {
    messages.push(compactionSummaryMessage(compaction));
    let kept = false;
    for (let i = 0; i < compactionIndex; i++) {
      const item = path[i]!;
      if (item.id === compaction.firstKeptEntryId) kept = true;
      if (kept) emit(item);
    }
    for (let i = compactionIndex + 1; i < path.length; i++) emit(path[i]!);
  } else {
    for (const item of path) emit(item);
  }
  return { messages, thinkingLevel, model };
}

function isoToMillis(timestamp: string): number {
  return new Date(timestamp).getTime();
}

function pushEntryMessage(messages: AgentMessage[], entry: SessionEntry): void {
  if (entry.type === 'message') {
    messages.push(entry.message);
  } else if (entry.type === 'custom_message') {
    messages.push({
      role: 'custom',
      customType: entry.customType,
      content: entry.content,
      display: entry.display,
      details: entry.details,
      timestamp: isoToMillis(entry.timestamp),
    });
  } else if (entry.type === 'branch_summary' && entry.summary) {
    messages.push({
      role: 'branchSummary',
      summary: entry.summary,
      fromId: entry.fromId,
      timestamp: isoToMillis(entry.timestamp),
    });
  }
}

function compactionSummaryMessage(entry: CompactionEntry): AgentMessage {
  return {
    role: 'compactionSummary',
    summary: entry.summary,
    tokensBefore: entry.tokensBefore,
    timestamp: isoToMillis(entry.timestamp),
  };
}

/**
 * The pure form over whole entries (file order), for callers that hold every entry: the leaf
 * rules are pi's — `null` gives the empty context, an unknown or absent leaf falls back to the
 * last entry in file order.
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
