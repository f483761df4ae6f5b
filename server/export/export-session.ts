import { SessionStore } from '../store/session-store.js';
import { markdownRenderer } from './html-text.js';
import { sessionHtmlChunks, type ExportScope } from './session-html.js';

export interface ExportOptions {
  /** When the export says it was made. */
  now?: Date;
  /** How long markdown may take over the whole export before the rest is shown plain. */
  markdownBudgetMs?: number;
}

/**
 * A session file as one HTML page, piece by piece: the whole tree (`all`) or only the path to its
 * leaf (`path`). Reads only: no lock, nothing written, so a live session can be exported while it
 * runs. The file is open until the last piece is taken or the caller stops early.
 */
export function* exportSessionChunks(
  file: string,
  scope: ExportScope,
  options: ExportOptions = {},
): Generator<string, void, undefined> {
  const store = SessionStore.openReadOnly(file);
  try {
    const path = store.getBranch();
    const onPath = new Set(path.map((entry) => entry.id));
    const tree = store.getTree();
    yield* sessionHtmlChunks(
      {
        sessionId: store.sessionId,
        name: store.getSessionName(),
        cwd: store.cwd,
        leafId: store.getLeafId(),
        scope,
        path,
        nodes: scope === 'all' ? tree : tree.filter((node) => onPath.has(node.id)),
        entryOf: (id) => store.getEntry(id),
        exportedAt: options.now ?? new Date(),
      },
      markdownRenderer(options.markdownBudgetMs),
    );
  } finally {
    store.close();
  }
}
