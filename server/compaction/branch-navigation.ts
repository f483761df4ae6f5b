import { contentText } from '../../shared/messages.js';
import type { SessionEntry } from '../../shared/session-entries.js';

/*
 * Where the leaf lands when the user picks an entry in the tree, and how a branch summary and a
 * label are written there, as pi 0.73's navigateTree does.
 */

/** The part of a store that navigation writes to. */
export interface NavigationWriter {
  getEntry(id: string): SessionEntry | undefined;
  branch(id: string): void;
  resetLeaf(): void;
  branchWithSummary(
    fromId: string | null,
    summary: string,
    details?: unknown,
    fromHook?: boolean,
  ): string;
  appendLabelChange(targetId: string, label: string | undefined): string;
}

export interface NavigationTarget {
  /** The entry that becomes the leaf (null: before the first entry). */
  newLeafId: string | null;
  /** Text to put back in the editor (a user or custom message's text). */
  editorText?: string;
}

export class UnknownEntryError extends Error {
  readonly code = 'unknown_entry';
  constructor(readonly entryId: string) {
    super(`No entry with id ${entryId} in this session`);
    this.name = 'UnknownEntryError';
  }
}

/**
 * A user message or custom message puts the leaf on its parent and its text in the editor (so it
 * can be edited and sent again as a new branch); anything else becomes the leaf itself.
 */
export function navigationTarget(
  store: Pick<NavigationWriter, 'getEntry'>,
  targetId: string,
): NavigationTarget {
  const entry = store.getEntry(targetId);
  if (!entry) throw new UnknownEntryError(targetId);
  if (entry.type === 'message' && entry.message.role === 'user') {
    return { newLeafId: entry.parentId, editorText: contentText(entry.message.content) };
  }
  if (entry.type === 'custom_message') {
    return { newLeafId: entry.parentId, editorText: contentText(entry.content) };
  }
  return { newLeafId: targetId };
}

/**
 * Moves the leaf. With a summary: a `branch_summary` entry as the child of the new leaf (its
 * `fromId` is the new leaf or "root"), labelled when asked. Without: a plain move (or reset to
 * before the first entry), and a label, when asked, on the picked entry. Returns the summary
 * entry's id, if one was written.
 */
export function applyNavigation(
  store: NavigationWriter,
  move: {
    targetId: string;
    newLeafId: string | null;
    summary?: { text: string; details?: unknown; fromHook?: boolean };
    label?: string;
  },
): string | undefined {
  const label = move.label?.trim() ? move.label.trim() : undefined;
  if (move.summary) {
    const summaryId = store.branchWithSummary(
      move.newLeafId,
      move.summary.text,
      move.summary.details,
      move.summary.fromHook,
    );
    if (label) store.appendLabelChange(summaryId, label);
    return summaryId;
  }
  if (move.newLeafId === null) store.resetLeaf();
  else store.branch(move.newLeafId);
  if (label) store.appendLabelChange(move.targetId, label);
  return undefined;
}
