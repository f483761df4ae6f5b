import type { AgentMessage } from '../../../shared/messages';
import type { TreeNode } from '../../../shared/session-entries';
import { activePathIds } from './active-path';
import { contextEditsOnPath, type ContextEditShown } from './context-edits';
import { modelContextOnPath } from './model-context';
import type { SessionView } from './session-reducer';

/*
 * Queries over the page's picture of a session: the active path, the chat's items, and which
 * bodies the chat is about to draw without having them. An entry's body is the shared
 * `messageOfEntry` (shared/entry-messages.ts).
 */

/** Entry types that the chat shows from the active path. */
export function isChatEntry(node: TreeNode): boolean {
  return (
    node.type === 'message' ||
    node.type === 'custom_message' ||
    node.type === 'compaction' ||
    node.type === 'branch_summary'
  );
}

export interface ChatItem {
  /** Entry id, or a synthetic key for messages not yet stored. */
  key: string;
  entryId: string | null;
  role: string;
  message: AgentMessage | undefined;
  streaming: boolean;
  /** The body could not be had from the server: the chat says so instead of waiting. */
  unavailable?: boolean;
  /** How the model sees this message when a context edit changed it (decision 064). */
  contextEdit?: ContextEditShown;
  /** A compaction summarised it: only in history, not sent to the model (decision 076). */
  historyOnly?: true;
}

/** What the chat shows: the active path's chat entries, then unsaved and streaming messages. */
export function chatItems(view: SessionView): ChatItem[] {
  const items: ChatItem[] = [];
  const path = activePathIds(view);
  const context = modelContextOnPath(view, path);
  const edits = contextEditsOnPath(view, context, path);
  for (const id of path) {
    const node = view.byId.get(id)!;
    if (!isChatEntry(node)) continue;
    const message = view.bodies.get(id);
    if (message?.role === 'custom' && !message.display) continue;
    // Announced while its message is still streaming: its message_end brings the body, and until
    // then the streaming item below is that message. Drawn once, not also as a placeholder.
    if (!message && view.streaming && view.awaitingBody.includes(id)) continue;
    items.push({
      key: id,
      entryId: id,
      role: message?.role ?? node.role ?? node.type,
      message,
      streaming: false,
      ...(!message && view.unavailable.has(id) ? { unavailable: true } : {}),
      ...(edits.has(id) ? { contextEdit: edits.get(id)! } : {}),
      ...(context?.historyOnly.has(id) ? { historyOnly: true as const } : {}),
    });
  }
  view.unsaved.forEach((message, i) =>
    items.push({
      key: `unsaved:${i}:${message.timestamp}`,
      entryId: null,
      role: message.role,
      message,
      streaming: false,
    }),
  );
  if (view.streaming) {
    items.push({
      key: `streaming:${view.streaming.timestamp}`,
      entryId: null,
      role: view.streaming.role,
      message: view.streaming,
      streaming: true,
    });
  }
  return items;
}

/**
 * Path entries among the newest `shown` chat items (what the chat draws, `chatItems(view).slice(-shown)`)
 * whose bodies the page neither has nor awaits from the event stream, root side first. Older path
 * entries stay unfetched until the user reveals them: a snapshot carries only the newest bodies.
 * Walks back from the leaf only as far as the chat draws.
 */
export function missingBodies(view: SessionView, shown: number): string[] {
  let slots = shown - view.unsaved.length - (view.streaming ? 1 : 0);
  const missing: string[] = [];
  const seen = new Set<string>();
  let current = view.leafId === null ? undefined : view.byId.get(view.leafId);
  while (current && slots > 0 && !seen.has(current.id)) {
    seen.add(current.id);
    if (isChatEntry(current)) {
      const message = view.bodies.get(current.id);
      if (!message) {
        if (!view.awaitingBody.includes(current.id) && !view.unavailable.has(current.id))
          missing.push(current.id);
        slots--;
      } else if (message.role !== 'custom' || message.display) {
        slots--;
      }
    }
    current = current.parentId === null ? undefined : view.byId.get(current.parentId);
  }
  return missing.reverse();
}
