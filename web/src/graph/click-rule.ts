import type { TreeNode } from '../../../shared/session-entries';

/*
 * The click rule of the session graph, as the product spec's table states it (and as pi's
 * navigateTree does): a user or custom message hands its text back to the editor and moves the
 * leaf to its parent (none for a root prompt, an empty conversation); anything else becomes the
 * leaf itself.
 */

export interface ClickOutcome {
  /** The entry to send to `navigate_tree`. */
  targetId: string;
  /** Where the leaf lands. */
  newLeafId: string | null;
  /** True when the clicked message's text goes back into the editor. */
  fillsEditor: boolean;
}

export function isEditableMessage(entry: TreeNode): boolean {
  return (entry.type === 'message' && entry.role === 'user') || entry.type === 'custom_message';
}

export function clickOutcome(entry: TreeNode): ClickOutcome {
  if (isEditableMessage(entry)) {
    const parent = entry.parentId === entry.id ? null : entry.parentId;
    return { targetId: entry.id, newLeafId: parent, fillsEditor: true };
  }
  return { targetId: entry.id, newLeafId: entry.id, fillsEditor: false };
}
