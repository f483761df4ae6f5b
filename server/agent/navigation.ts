import { contentText, type ImageContent } from '../../shared/messages.js';
import type { SessionStore } from '../store/session-store.js';

/*
 * pi's rule for where a click in the tree moves the leaf (navigateTree step 5): a user or custom
 * message → its parent, with its text (and images) back in the editor; the root user message →
 * no leaf at all; any other entry → that entry itself.
 */

export class UnknownEntryError extends Error {
  readonly code = 'entry_not_found';
}

export interface NavigationPlan {
  newLeafId: string | null;
  editorText?: string;
  editorImages?: ImageContent[];
}

export function resolveNavigation(store: SessionStore, targetId: string | null): NavigationPlan {
  if (targetId === null) return { newLeafId: null };
  const entry = store.getEntry(targetId);
  if (!entry) throw new UnknownEntryError(`Unknown entry "${targetId}"`);
  const content =
    entry.type === 'message' && entry.message.role === 'user'
      ? entry.message.content
      : entry.type === 'custom_message'
        ? entry.content
        : undefined;
  if (content === undefined) return { newLeafId: targetId };
  const images =
    typeof content === 'string'
      ? []
      : content.filter((block): block is ImageContent => block.type === 'image');
  return {
    newLeafId: entry.parentId,
    editorText: contentText(content),
    ...(images.length > 0 ? { editorImages: images } : {}),
  };
}
