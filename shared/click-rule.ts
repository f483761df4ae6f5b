import { contentText, type AgentMessage, type ImageContent } from './messages.js';
import type { SessionEntry, TreeNode } from './session-entries.js';

/*
 * The click rule of the session tree, as the product spec's table states it and pi's navigateTree
 * (step 5) applies it: a user or custom message hands its text (and images) back to the editor
 * and moves the leaf to its parent (none for a root prompt, an empty conversation); anything else
 * becomes the leaf itself. The page applies it at once for a click; the server applies it to move
 * the leaf and answer the editor's text, so both always agree.
 */

/** What the rule reads of an entry: a tree node, or a stored entry through `clickTargetOf`. */
export type ClickTarget = Pick<TreeNode, 'id' | 'parentId' | 'type' | 'role'>;

export interface ClickOutcome {
  /** The entry to send to `navigate_tree`. */
  targetId: string;
  /** Where the leaf lands. */
  newLeafId: string | null;
  /** True when the clicked message's text goes back into the editor. */
  fillsEditor: boolean;
}

/** What a click puts in the editor. */
export interface EditorContent {
  text: string;
  images: ImageContent[];
}

export function isEditableMessage(entry: Pick<TreeNode, 'type' | 'role'>): boolean {
  return (entry.type === 'message' && entry.role === 'user') || entry.type === 'custom_message';
}

export function clickOutcome(entry: ClickTarget): ClickOutcome {
  if (isEditableMessage(entry)) {
    const parent = entry.parentId === entry.id ? null : entry.parentId;
    return { targetId: entry.id, newLeafId: parent, fillsEditor: true };
  }
  return { targetId: entry.id, newLeafId: entry.id, fillsEditor: false };
}

/** A stored entry as the click rule reads it, the same fields its tree node carries. */
export function clickTargetOf(entry: SessionEntry): ClickTarget {
  return {
    id: entry.id,
    parentId: entry.parentId,
    type: entry.type,
    ...(entry.type === 'message' ? { role: entry.message.role } : {}),
  };
}

/**
 * The text and images a click on a user or custom message puts in the editor, from the message
 * the entry stands for (`messageOfEntry`); null for any other message, or none at hand.
 */
export function editorContentOf(message: AgentMessage | undefined): EditorContent | null {
  if (!message || (message.role !== 'user' && message.role !== 'custom')) return null;
  const content = message.content;
  const images =
    typeof content === 'string'
      ? []
      : content.filter((block): block is ImageContent => block.type === 'image');
  return { text: contentText(content), images };
}
