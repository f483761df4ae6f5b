import { SessionStore } from '../store/session-store.js';
import { renderSessionHtml, type ExportScope } from './session-html.js';

/**
 * A session file as one HTML page: the whole tree (`all`) or only the path to its leaf (`path`).
 * Reads only: no lock, nothing written, so a live session can be exported while it runs.
 */
export function exportSessionFile(file: string, scope: ExportScope, now = new Date()): string {
  const store = SessionStore.openReadOnly(file);
  try {
    const leafId = store.getLeafId();
    const path = store.getBranch();
    const onPath = new Set(path.map((entry) => entry.id));
    const tree = store.getTree();
    return renderSessionHtml({
      sessionId: store.sessionId,
      name: store.getSessionName(),
      cwd: store.cwd,
      leafId,
      scope,
      path,
      nodes: scope === 'all' ? tree : tree.filter((node) => onPath.has(node.id)),
      entryOf: (id) => store.getEntry(id),
      exportedAt: now,
    });
  } finally {
    store.close();
  }
}
