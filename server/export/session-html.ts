import { createHash } from 'node:crypto';
import { currentSystemMessage } from '../../shared/system-prompt.js';
import { messageOfEntry } from '../../shared/entry-messages.js';
import type { AgentMessage } from '../../shared/messages.js';
import type { SessionEntry, TreeNode } from '../../shared/session-entries.js';
import { escapeHtml, type MarkdownRenderer } from './html-text.js';
import { entryHtml, entryShows, systemMessageHtml } from './message-html.js';
import { EXPORT_CSS } from './export-css.js';

/*
 * A session as one self-contained HTML page (docs/decisions/088-export-and-share.md): rendered on
 * the server, no script at all, styles inline and allowed by their hash, images as data URLs. The
 * page's CSP allows nothing else to load, so a hostile session can neither run code in it nor make
 * it reach the network when someone opens it.
 */

export type ExportScope = 'path' | 'all';

export interface SessionExport {
  sessionId: string;
  /** What the session is called (shared/session-title.ts): as the sidebar shows it. */
  title: string;
  cwd: string;
  leafId: string | null;
  scope: ExportScope;
  /** The entries from the root to the leaf. */
  path: SessionEntry[];
  /** The tree to draw: every node (`all`) or the path's (`path`), in file order. */
  nodes: readonly TreeNode[];
  /** With `all`: the body of an entry off the path. */
  entryOf(id: string): SessionEntry | undefined;
  exportedAt: Date;
}

const STYLE_HASH = createHash('sha256').update(EXPORT_CSS).digest('base64');

/** The page's policy: its one style block and data-URL images, nothing else. */
export const EXPORT_CSP =
  `default-src 'none'; style-src 'sha256-${STYLE_HASH}'; img-src data:; ` +
  "base-uri 'none'; form-action 'none'";

function describe(node: TreeNode): string {
  const kind = node.type === 'message' ? (node.role ?? 'message') : node.type;
  return node.preview ? `${kind}: ${node.preview}` : kind;
}

/**
 * The tree as nested lists: a straight chain stays in one list, a branch point opens one list per
 * child, so a long conversation does not nest deeper and deeper. Each node links to its entry.
 * Built with an explicit stack: a hostile file's depth cannot overflow the call stack.
 */
function treeHtml(nodes: readonly TreeNode[], leafId: string | null, shown: Set<string>): string {
  const children = new Map<string | null, TreeNode[]>();
  const ids = new Set(nodes.map((node) => node.id));
  for (const node of nodes) {
    const parent = node.parentId !== null && ids.has(node.parentId) ? node.parentId : null;
    const list = children.get(parent) ?? [];
    list.push(node);
    children.set(parent, list);
  }
  const out: string[] = [];
  type Item = { chain: TreeNode } | { html: string };
  const stack: Item[] = [];
  const pushBranches = (kids: TreeNode[]) => {
    for (let i = kids.length - 1; i >= 0; i--) {
      stack.push({ html: '</li>' }, { chain: kids[i]! }, { html: '<li>' });
    }
  };
  out.push('<ul class="tree">');
  stack.push({ html: '</ul>' });
  pushBranches(children.get(null) ?? []);
  while (stack.length > 0) {
    const item = stack.pop()!;
    if ('html' in item) {
      out.push(item.html);
      continue;
    }
    out.push('<ol>');
    let node: TreeNode | undefined = item.chain;
    while (node) {
      const leaf = node.id === leafId;
      const text =
        escapeHtml(describe(node)) + (node.label ? ` <mark>${escapeHtml(node.label)}</mark>` : '');
      const link = shown.has(node.id)
        ? `<a href="#e-${escapeHtml(node.id)}"${leaf ? ' aria-current="true"' : ''}>${text}</a>`
        : `<span${leaf ? ' aria-current="true"' : ''}>${text}</span>`;
      out.push(`<li>${link}${leaf ? ' <strong>(leaf)</strong>' : ''}`);
      const kids: TreeNode[] = children.get(node.id) ?? [];
      if (kids.length === 1) {
        out.push('</li>');
        node = kids[0];
      } else if (kids.length === 0) {
        out.push('</li></ol>');
        node = undefined;
      } else {
        out.push('<ul>');
        stack.push({ html: '</ul></li></ol>' });
        pushBranches(kids);
        node = undefined;
      }
    }
  }
  return out.join('');
}

/**
 * The exported page, piece by piece: the head and the tree first, then one piece per entry, so a
 * long session streams to its reader without the whole page ever being one string.
 */
export function* sessionHtmlChunks(
  session: SessionExport,
  markdown: MarkdownRenderer,
): Generator<string, void, undefined> {
  const title = session.title;
  const messages = session.path
    .map((entry) => messageOfEntry(entry))
    .filter((message): message is AgentMessage => message !== undefined);
  const system = currentSystemMessage(messages);
  const onPath = new Set(session.path.map((entry) => entry.id));
  const offPath: SessionEntry[] = [];
  if (session.scope === 'all') {
    for (const node of session.nodes) {
      const entry = onPath.has(node.id) ? undefined : session.entryOf(node.id);
      if (entry && entryShows(entry)) offPath.push(entry);
    }
  }
  // Only entries that show something get a link in the tree.
  const shown = new Set<string>();
  for (const entry of [...session.path, ...offPath]) if (entryShows(entry)) shown.add(entry.id);
  yield `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="${EXPORT_CSP}">
<meta name="referrer" content="no-referrer">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(title)}</title>
<style>${EXPORT_CSS}</style>
</head>
<body>
<header>
<h1>${escapeHtml(title)}</h1>
<p>Session <code>${escapeHtml(session.sessionId)}</code> in <code>${escapeHtml(session.cwd)}</code>; exported by Arbor on ${escapeHtml(
    session.exportedAt.toISOString(),
  )} (${session.scope === 'all' ? 'the whole tree' : 'the active path'}).</p>
</header>
<div class="layout">
<nav aria-label="Session tree"><h2>Tree</h2>${treeHtml(session.nodes, session.leafId, shown)}</nav>
<main>
<section aria-label="System prompt"><h2>System prompt</h2>${
    system ? systemMessageHtml(system) : '<p class="note">No system prompt was recorded.</p>'
  }</section>
<section aria-label="Active path"><h2>Chat (active path)</h2>
`;
  let any = false;
  for (const entry of session.path) {
    const html = entryHtml(entry, markdown);
    if (!html) continue;
    any = true;
    yield `${html}\n`;
  }
  if (!any) yield '<p class="note">No messages.</p>\n';
  yield '</section>\n';
  if (offPath.length > 0) {
    yield '<section aria-label="Other branches"><h2>Entries on other branches</h2>\n';
    for (const entry of offPath) yield `${entryHtml(entry, markdown)}\n`;
    yield '</section>\n';
  }
  yield '</main>\n</div>\n</body>\n</html>\n';
}
