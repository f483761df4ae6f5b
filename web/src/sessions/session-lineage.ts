import type { SessionListItem } from '../../../shared/rest-shapes';

export interface LineageRow {
  session: SessionListItem;
  depth: number;
}

/**
 * Orders sessions for the sidebar: newest first, each fork or clone indented under the session it
 * came from (when that one is in the list), children newest first too.
 */
export function lineageRows(sessions: readonly SessionListItem[]): LineageRow[] {
  const ids = new Set(sessions.map((s) => s.id));
  const byNewest = [...sessions].sort((a, b) =>
    a.modified < b.modified ? 1 : a.modified > b.modified ? -1 : 0,
  );
  const children = new Map<string, SessionListItem[]>();
  const top: SessionListItem[] = [];
  for (const session of byNewest) {
    const parent = session.parentSessionId;
    if (parent && ids.has(parent) && parent !== session.id) {
      let list = children.get(parent);
      if (!list) children.set(parent, (list = []));
      list.push(session);
    } else {
      top.push(session);
    }
  }
  const rows: LineageRow[] = [];
  const seen = new Set<string>();
  const stack: LineageRow[] = top.map((session) => ({ session, depth: 0 })).reverse();
  while (stack.length > 0) {
    const row = stack.pop()!;
    if (seen.has(row.session.id)) continue;
    seen.add(row.session.id);
    rows.push(row);
    const kids = children.get(row.session.id) ?? [];
    for (let i = kids.length - 1; i >= 0; i--)
      stack.push({ session: kids[i]!, depth: row.depth + 1 });
  }
  // Sessions caught in a lineage cycle have no top-level ancestor: list them flat.
  for (const session of byNewest) if (!seen.has(session.id)) rows.push({ session, depth: 0 });
  return rows;
}
