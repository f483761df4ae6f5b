import { clickOutcome, clickTargetOf, editorContentOf } from '../../shared/click-rule.js';
import { messageOfEntry } from '../../shared/entry-messages.js';
import type { ImageContent } from '../../shared/messages.js';
import { EntryNotFoundError } from '../store/entry-errors.js';
import type { SessionStore } from '../store/session-store.js';
import type { NavigateOptions } from './agent-session-types.js';

/*
 * Where a move to `targetId` puts the leaf and what the editor gets back: the click rule of
 * shared/click-rule.ts, the one the page applies, read off the stored entry.
 */

export interface NavigationPlan {
  newLeafId: string | null;
  editorText?: string;
  editorImages?: ImageContent[];
}

export function resolveNavigation(store: SessionStore, targetId: string | null): NavigationPlan {
  if (targetId === null) return { newLeafId: null };
  const entry = store.getEntry(targetId);
  if (!entry) throw new EntryNotFoundError(targetId);
  const outcome = clickOutcome(clickTargetOf(entry));
  const editor = outcome.fillsEditor ? editorContentOf(messageOfEntry(entry)) : null;
  if (!editor) return { newLeafId: outcome.newLeafId };
  return {
    newLeafId: outcome.newLeafId,
    editorText: editor.text,
    ...(editor.images.length > 0 ? { editorImages: editor.images } : {}),
  };
}

/**
 * Moves the leaf as `plan` says: with a branch summary left at the new position when `summary`
 * is given (the label, if any, then names the summary), else a plain move (the label names the
 * picked entry).
 */
export function applyNavigation(
  store: SessionStore,
  plan: NavigationPlan,
  move: {
    targetId: string | null;
    summary?: { summary: string; details?: unknown } | undefined;
    label?: string | undefined;
  },
): void {
  if (move.summary) {
    const id = store.branchWithSummary(
      plan.newLeafId,
      move.summary.summary,
      move.summary.details,
      false,
    );
    if (move.label) store.appendLabelChange(id, move.label);
    return;
  }
  if (plan.newLeafId === null) store.resetLeaf();
  else store.branch(plan.newLeafId);
  if (move.label && move.targetId !== null) store.appendLabelChange(move.targetId, move.label);
}

/** What the branch summary of a leaf move asks for: the branch it leaves behind. */
export function branchSummaryOptions(
  oldLeafId: string | null,
  targetId: string | null,
  opts: NavigateOptions,
) {
  return {
    oldLeafId,
    // The picked entry, as pi collects the branch (a picked prompt goes to the editor).
    targetId,
    ...(opts.customInstructions !== undefined
      ? { customInstructions: opts.customInstructions }
      : {}),
    ...(opts.replaceInstructions !== undefined
      ? { replaceInstructions: opts.replaceInstructions }
      : {}),
  };
}
