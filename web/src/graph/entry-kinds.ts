import type { TreeNode } from '../../../shared/session-entries';
import { isEditableMessage } from '../../../shared/click-rule';

/*
 * What kind of thing an entry of the tree skeleton is, as the graph sees it: its role, whether it
 * is ever drawn, whether a filter keeps it, and whether it may be folded with its turn.
 */

export type TreeFilter = 'all' | 'no-tools' | 'user-only' | 'labelled';
export const TREE_FILTERS: readonly TreeFilter[] = ['all', 'no-tools', 'user-only', 'labelled'];

/**
 * Custom entry types of bookkeeping (Arbor's leaf markers and workspace snapshots, pi 1.6's
 * virtual-model state); a snapshot is to be drawn as a mark on its path, not a node.
 */
export const HIDDEN_CUSTOM_TYPES: ReadonlySet<string> = new Set([
  'arbor.leaf',
  'arbor.snapshot',
  'pi.virtual-model-state',
]);

/** The role people see for an entry: the message role, else the entry type. */
export function entryRole(entry: TreeNode): string {
  if (entry.type === 'message') return entry.role ?? 'message';
  if (entry.type === 'custom_message') return 'custom';
  return entry.type;
}

/**
 * Label entries, pi 1.6's usage entries (they count in the cost, as in pi's tree), and bookkeeping
 * custom entries: never drawn under any filter.
 */
export function isAlwaysHidden(entry: TreeNode): boolean {
  if (entry.type === 'label' || entry.type === 'usage') return true;
  if (entry.type === 'custom') {
    const customType = entry.customType ?? entry.preview;
    return HIDDEN_CUSTOM_TYPES.has(customType);
  }
  return false;
}

function isToolEntry(entry: TreeNode): boolean {
  if (entry.type !== 'message') return false;
  if (entry.role === 'toolResult') return true;
  return entry.role === 'assistant' && (entry.toolCalls ?? 0) > 0 && !entry.isError;
}

/** User messages and custom messages: what a click hands back to the editor; never folded. */
export function isUserLike(entry: TreeNode): boolean {
  return isEditableMessage(entry);
}

export function isLabelled(entry: TreeNode): boolean {
  return entry.label !== undefined && entry.label !== '';
}

export function passesFilter(entry: TreeNode, filter: TreeFilter): boolean {
  switch (filter) {
    case 'all':
      return true;
    case 'no-tools':
      return !isToolEntry(entry);
    case 'user-only':
      return isUserLike(entry);
    case 'labelled':
      return isLabelled(entry);
  }
}

/** Members of a turn's tool loop: assistant replies, tool results, shell runs. */
export function isLoopMember(entry: TreeNode): boolean {
  return (
    entry.type === 'message' &&
    (entry.role === 'assistant' || entry.role === 'toolResult' || entry.role === 'bashExecution')
  );
}

/** Model, thinking-level and session-name changes: drawn as marks on the path, not as nodes. */
export function isSettingsEntry(entry: TreeNode): boolean {
  return (
    entry.type === 'model_change' ||
    entry.type === 'thinking_level_change' ||
    entry.type === 'session_info'
  );
}
