import type { AgentMessage } from '../../../shared/messages';
import type { ContextEditEntry } from '../../../shared/session-entries';
import type { PathContext } from '../../../shared/model-context';
import { activePathIds } from './active-path';
import type { SessionView } from './session-reducer';

/*
 * What the page shows of pi 1.6's context edits (decision 064): for each message on the active
 * path, the edit in effect there (the latest edit of it on the path, as the model's context
 * applies it). An edit that writes back the message's own content is an undo, shown as no edit.
 */

/** How the model sees one message, when not as it stands. */
export type ContextEditShown = { kind: 'hidden' } | { kind: 'replaced'; text: string };

/** The roles whose content a person may hide or replace (pi's editable kinds). */
export function isContextEditable(role: string): boolean {
  return role === 'user' || role === 'assistant' || role === 'toolResult' || role === 'custom';
}

type Replacement = NonNullable<ContextEditEntry['replacement']>;

function contentText(content: Replacement['content']): string {
  if (typeof content === 'string') return content;
  return content
    .map((block) =>
      block.type === 'text'
        ? String(block.text)
        : block.type === 'image'
          ? '[image]'
          : `[${block.type}]`,
    )
    .join('\n');
}

/** The content of a message the chat holds, as a context edit would restore it. */
function ownContent(message: AgentMessage | undefined): unknown {
  if (!message) return undefined;
  switch (message.role) {
    case 'user':
    case 'assistant':
    case 'toolResult':
    case 'custom':
      return message.content;
    default:
      return undefined;
  }
}

type EditsView = Pick<SessionView, 'byId' | 'leafId' | 'bodies' | 'contextEdits'>;

/**
 * Target id → how the model sees it, for the edits in effect on the active path. With `context`
 * (the model's context on that path), only the edits the context applies count: after a
 * compaction, an edit written before its kept range no longer changes anything (as in pi 1.6).
 */
export function contextEditsOnPath(
  view: EditsView,
  context?: PathContext,
  path: readonly string[] = activePathIds(view),
): Map<string, ContextEditShown> {
  const latest = new Map<string, ContextEditEntry>();
  for (const id of path) {
    const edit = view.contextEdits.get(id);
    if (edit && (!context || context.inContext.has(id))) latest.set(edit.targetId, edit);
  }
  const shown = new Map<string, ContextEditShown>();
  for (const [targetId, edit] of latest) {
    if (edit.replacement === null) {
      shown.set(targetId, { kind: 'hidden' });
      continue;
    }
    const own = ownContent(view.bodies.get(targetId));
    if (own !== undefined && JSON.stringify(own) === JSON.stringify(edit.replacement.content))
      continue;
    shown.set(targetId, { kind: 'replaced', text: contentText(edit.replacement.content) });
  }
  return shown;
}

/** Context edits on the active path whose bodies the page neither has nor could get. */
export function missingEditBodies(view: EditsView & Pick<SessionView, 'unavailable'>): string[] {
  return activePathIds(view).filter(
    (id) =>
      view.byId.get(id)?.type === 'context_edit' &&
      !view.contextEdits.has(id) &&
      !view.unavailable.has(id),
  );
}

/** A key that changes exactly when what the page shows of the edits changes. */
export function contextEditsKey(edits: ReadonlyMap<string, ContextEditShown>): string {
  return JSON.stringify([...edits]);
}

/** What a person asks of a message: hide it (`null`), replace it (a string) or undo an edit. */
export type ContextEditRequest = null | string | { restore: true };
