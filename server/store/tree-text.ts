import type { TreeNode } from '../../shared/session-entries.js';

/*
 * The session tree as indented text (for `arbor tree`). A straight chain stays at one indent, so
 * a 20,000-entry conversation does not march off the screen; only branch points indent, drawn
 * with box characters. The leaf is marked with `*`.
 */

export interface TreeTextSource {
  getChildren(parentId: string | null): TreeNode[];
  getLeafId(): string | null;
}

function describe(node: TreeNode): string {
  const kind = node.type === 'message' ? (node.role ?? node.type) : node.type;
  const flags = [node.isError ? 'error' : '', node.toolCalls ? `${node.toolCalls} tool calls` : '']
    .filter(Boolean)
    .join(', ');
  const preview = node.preview.length > 60 ? `${node.preview.slice(0, 59)}…` : node.preview;
  return [
    `${node.id} ${kind}`,
    flags ? ` (${flags})` : '',
    preview ? `: ${preview}` : '',
    node.label !== undefined ? `  [${node.label}]` : '',
  ].join('');
}

export function renderTreeText(source: TreeTextSource): string {
  const leaf = source.getLeafId();
  const lines: string[] = [];
  if (leaf === null) lines.push('* (leaf: before the first entry)');
  // Each frame: a node to print, the prefix for its line, and the prefix its chain continues with.
  const stack: { node: TreeNode; first: string; rest: string }[] = [];
  const pushChildren = (children: TreeNode[], rest: string): void => {
    if (children.length === 1) {
      stack.push({ node: children[0]!, first: rest, rest });
      return;
    }
    for (let i = children.length - 1; i >= 0; i--) {
      const last = i === children.length - 1;
      stack.push({
        node: children[i]!,
        first: `${rest}${last ? '└─ ' : '├─ '}`,
        rest: `${rest}${last ? '   ' : '│  '}`,
      });
    }
  };
  pushChildren(source.getChildren(null), '');
  while (stack.length > 0) {
    const { node, first, rest } = stack.pop()!;
    lines.push(`${node.id === leaf ? '* ' : '  '}${first}${describe(node)}`);
    pushChildren(source.getChildren(node.id), rest);
  }
  return lines.length > 0 ? `${lines.join('\n')}\n` : '(empty session)\n';
}
