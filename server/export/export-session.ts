import { sessionTitle } from '../../shared/session-title.js';
import { SessionStore } from '../store/session-store.js';
import { markdownRenderer } from './html-text.js';
import { sessionHtmlChunks, type ExportScope } from './session-html.js';
import type { TreeNode } from '../../shared/session-entries.js';

export interface ExportOptions {
  /** When the export says it was made. */
  now?: Date;
  /** How long markdown may take over the whole export before the rest is shown plain. */
  markdownBudgetMs?: number;
  /** Told the page's title once the file is read, before the first piece. */
  onTitle?(title: string): void;
}

/**
 * The page's title: the session's name, else its first prompt, as the sidebar names it; with
 * scope `path`, the first prompt on the path, so that nothing of another branch shows.
 */
function exportTitle(
  name: string | undefined,
  scope: ExportScope,
  tree: readonly TreeNode[],
  onPath: ReadonlySet<string>,
): string {
  const first = tree.find(
    (node) => node.role === 'user' && (scope === 'all' || onPath.has(node.id)),
  );
  return sessionTitle({ name, firstMessage: first?.preview ?? '' });
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
    const title = exportTitle(store.getSessionName(), scope, tree, onPath);
    options.onTitle?.(title);
    yield* sessionHtmlChunks(
      {
        sessionId: store.sessionId,
        title,
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
