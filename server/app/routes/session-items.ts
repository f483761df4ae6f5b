import type { UserSummary } from '../../../shared/protocol.js';
import type { SessionListItem } from '../../../shared/rest-shapes.js';
import { sessionPermissions } from '../../auth/authorisation.js';
import type { SessionOwners } from '../../auth/session-owners.js';
import type { Workspace } from '../../config/workspaces.js';
import { sessionIdFromFileName, sessionIdOfFile } from '../../store/session-header-id.js';
import type { SessionInfo } from '../../store/session-listing.js';

/**
 * A listing row as clients see it: ids instead of paths, lineage as a session id, and what `user`
 * may do to it (the same rule the routes apply).
 */
export function toListItem(
  info: SessionInfo,
  workspace: Workspace,
  owners: SessionOwners,
  user: UserSummary | undefined,
): SessionListItem {
  const owner = owners.ownerOf(info.id);
  // The parent's header says who it is; a parent no longer there is known by its file name only.
  const parentSessionId = info.parentSession
    ? (sessionIdOfFile(info.parentSession) ?? sessionIdFromFileName(info.parentSession))
    : undefined;
  return {
    id: info.id,
    workspaceId: workspace.id,
    ...(info.name !== undefined ? { name: info.name } : {}),
    firstMessage: info.firstMessage,
    created: info.created,
    modified: info.modified,
    messageCount: info.messageCount,
    ...(parentSessionId !== undefined ? { parentSessionId } : {}),
    owner,
    may: user ? sessionPermissions(user, owner) : { rename: false, delete: false },
  };
}

/** Case-insensitive match of every word of `query` against the name and first prompt. */
export function matchesQuery(item: SessionListItem, query: string): boolean {
  const haystack = `${item.name ?? ''}\n${item.firstMessage}`.toLowerCase();
  return query
    .toLowerCase()
    .split(/\s+/)
    .filter((word) => word.length > 0)
    .every((word) => haystack.includes(word));
}
