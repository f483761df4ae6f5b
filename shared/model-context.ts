/*
 * Which entries of a path make up the model's context: pi 1.6's rule (its `buildSessionProjection`)
 * as the server builds the context with it (server/store/session-context.ts) and as the page marks
 * what the model sees (decision 076). Over the skeleton only: ids, types and roles, plus the last
 * compaction's `firstKeptEntryId`.
 *
 * The path runs from a root to the leaf. Without a compaction every message-like entry counts.
 * With one, the context starts with the last compaction's checkpoint and summary, then the entries
 * from its `firstKeptEntryId` up to it (system messages left out: the checkpoint replaces them;
 * none when the id is the compaction's own or is not on the path), then every entry after it.
 */

/** What the rule needs to know of a path element. */
export interface ContextPathItem {
  id: string;
  type: string;
  role?: string | undefined;
}

/** True for entry types that can change the context: messages, and the edits of messages. */
export function emitsMessage(type: string): boolean {
  return (
    type === 'message' ||
    type === 'custom_message' ||
    type === 'branch_summary' ||
    type === 'context_edit'
  );
}

/** True for what a compaction keeps from before itself: not system messages (its checkpoint). */
export function keptBeforeCompaction(item: ContextPathItem): boolean {
  return emitsMessage(item.type) && !(item.type === 'message' && item.role === 'system');
}

/** The index of the path's last compaction, or -1. */
export function lastCompactionIndex(path: readonly ContextPathItem[]): number {
  for (let i = path.length - 1; i >= 0; i--) if (path[i]!.type === 'compaction') return i;
  return -1;
}

/**
 * The path elements whose messages (or edits) the context holds, in path order, besides the
 * compaction itself. `compactionIndex` is the last compaction's (-1, or a compaction whose body
 * cannot be read: none), `firstKeptEntryId` that compaction's.
 */
export function contextElements<T extends ContextPathItem>(
  path: readonly T[],
  compactionIndex: number,
  firstKeptEntryId: string | undefined,
): T[] {
  const emitted: T[] = [];
  if (compactionIndex < 0) {
    for (const item of path) if (emitsMessage(item.type)) emitted.push(item);
    return emitted;
  }
  let kept = false;
  for (let i = 0; i < compactionIndex; i++) {
    const item = path[i]!;
    if (item.id === firstKeptEntryId) kept = true;
    if (kept && keptBeforeCompaction(item)) emitted.push(item);
  }
  for (let i = compactionIndex + 1; i < path.length; i++) {
    if (emitsMessage(path[i]!.type)) emitted.push(path[i]!);
  }
  return emitted;
}

/** Entry types a chat shows as messages. */
function isChatEntryType(type: string): boolean {
  return (
    type === 'message' ||
    type === 'custom_message' ||
    type === 'compaction' ||
    type === 'branch_summary'
  );
}

export interface PathContext {
  /** The last compaction on the path, or null when there is none. */
  compactionId: string | null;
  /** Ids of the path elements the context holds: messages, the compaction, applied context edits. */
  inContext: ReadonlySet<string>;
  /**
   * Message-like entries of the path that are only in history: a compaction summarised them (or
   * an earlier compaction's summary was folded into a later one). System messages before the
   * compaction are not among them: its checkpoint carries the prompt to the model.
   */
  historyOnly: ReadonlySet<string>;
}

/** What of `path` (root first) the model sees, given its last compaction's first kept entry. */
export function pathContext(
  path: readonly ContextPathItem[],
  firstKeptEntryId: string | undefined,
): PathContext {
  const index = lastCompactionIndex(path);
  const inContext = new Set(contextElements(path, index, firstKeptEntryId).map((item) => item.id));
  const historyOnly = new Set<string>();
  if (index < 0) return { compactionId: null, inContext, historyOnly };
  const compactionId = path[index]!.id;
  inContext.add(compactionId);
  for (let i = 0; i < index; i++) {
    const item = path[i]!;
    if (!isChatEntryType(item.type) || inContext.has(item.id)) continue;
    if (item.type === 'message' && item.role === 'system') continue;
    historyOnly.add(item.id);
  }
  return { compactionId, inContext, historyOnly };
}
