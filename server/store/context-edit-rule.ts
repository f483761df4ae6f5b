import type { ContextEditEntry, SessionEntry } from '../../shared/session-entries.js';
import { planFromPath } from './session-context.js';
import { CodedError } from '../errors/coded-error.js';

/*
 * Which context edits may be written, and the replacement each one writes: pi 1.6's
 * `SessionManager.appendContextEdit` rule for rule (the target must be on the active path and be a
 * user, assistant, tool-result or custom message; a string for an assistant or a tool result
 * becomes one text block), plus the undo a person needs: `restore` writes the target's own content
 * back, which pi reads as the original (decision 064).
 */

/** What a person asks of one entry's part of the model's context. */
export type ContextChange = { hide: true } | { text: string } | { restore: true };

/** A refused edit; the code maps to the protocol's `invalid_argument` (or `not_found`). */
export class ContextEditRefused extends CodedError {
  constructor(
    message: string,
    readonly code: 'invalid_request' | 'entry_not_found' = 'invalid_request',
  ) {
    super(message);
  }
}

type Replacement = ContextEditEntry['replacement'];

/** The content of an editable entry as it stands in the file, or undefined for other kinds. */
function ownContent(entry: SessionEntry): NonNullable<Replacement>['content'] | undefined {
  if (entry.type === 'custom_message') return entry.content;
  if (entry.type !== 'message') return undefined;
  const message = entry.message;
  if (message.role === 'user' || message.role === 'assistant' || message.role === 'toolResult') {
    return message.content;
  }
  return undefined;
}

/** The latest edit of `targetId` among `entries` (root first): the one the context applies. */
export function activeEditOf(
  entries: readonly SessionEntry[],
  targetId: string,
): ContextEditEntry | undefined {
  for (let i = entries.length - 1; i >= 0; i--) {
    const entry = entries[i]!;
    if (entry.type === 'context_edit' && entry.targetId === targetId) return entry;
  }
  return undefined;
}

/** The entries of `branch` that make the model's context at its end (pi's rule: a compaction keeps some). */
function contextEntries(branch: readonly SessionEntry[]): SessionEntry[] {
  const path = branch.map((entry) => ({
    id: entry.id,
    type: entry.type,
    ...(entry.type === 'message' ? { role: entry.message.role } : {}),
    entry,
  }));
  return planFromPath(path, (item) => item.entry).emitted.map((item) => item.entry);
}

/**
 * The replacement to write for `change` of `targetId`, given the active path `branch` (root
 * first) and whether the id exists at all. Throws ContextEditRefused with a message a person can
 * act on.
 */
export function replacementFor(
  branch: readonly SessionEntry[],
  targetId: string,
  exists: boolean,
  change: ContextChange,
): Replacement {
  if (!exists)
    throw new ContextEditRefused(`No entry ${targetId} in this session.`, 'entry_not_found');
  const target = branch.find((entry) => entry.id === targetId);
  if (!target) {
    throw new ContextEditRefused(
      `Entry ${targetId} is not on the active path; only messages the model sees now can be edited.`,
    );
  }
  const content = ownContent(target);
  if (content === undefined) {
    throw new ContextEditRefused(
      `Entry ${targetId} is a ${target.type === 'message' ? `${target.message.role} message` : target.type}; only user, assistant, tool-result and custom messages can be edited in the context.`,
    );
  }
  const context = contextEntries(branch);
  if (!context.some((entry) => entry.id === targetId)) {
    throw new ContextEditRefused(
      `Entry ${targetId} was compacted: the model sees only the compaction's summary of it, so an edit would change nothing.`,
    );
  }
  if ('hide' in change) return null;
  if ('text' in change) {
    const role = target.type === 'message' ? target.message.role : 'custom';
    return role === 'assistant' || role === 'toolResult'
      ? { content: [{ type: 'text', text: change.text }] }
      : { content: change.text };
  }
  const active = activeEditOf(context, targetId);
  if (!active || isRestoring(active, target)) {
    throw new ContextEditRefused(
      `Entry ${targetId} is not edited in the context; nothing to undo.`,
    );
  }
  return { content };
}

/** True when `edit` writes back exactly the target's own content (an undo). */
export function isRestoring(edit: ContextEditEntry, target: SessionEntry): boolean {
  const content = ownContent(target);
  return (
    edit.replacement !== null &&
    content !== undefined &&
    JSON.stringify(edit.replacement.content) === JSON.stringify(content)
  );
}
