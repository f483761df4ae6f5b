import type { SessionListItem } from '../../../shared/rest-shapes';
import { sessionTitle } from '../../../shared/session-title';

/**
 * What tells a fork or clone apart from the session it came from (both open with the same first
 * prompt, so both rows would read alike): "Fork of “…” · made <when>". Nothing for other sessions.
 */
export function LineageNote({
  session,
  byId,
}: {
  session: SessionListItem;
  byId: ReadonlyMap<string, SessionListItem>;
}) {
  if (!session.parentSessionId) return null;
  const parent = byId.get(session.parentSessionId);
  const made = new Date(session.created).toLocaleString();
  return (
    <span className="session-lineage">
      {parent ? `Fork of “${sessionTitle(parent)}”` : 'Fork'} · made {made}
    </span>
  );
}
