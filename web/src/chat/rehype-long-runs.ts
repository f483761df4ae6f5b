import type { Element, ElementContent, Root } from 'hast';
import { splitLongRuns } from './long-text';

/*
 * Markdown's share of long-text.ts: every run of text without spaces long enough to be broken
 * inside goes into a `.long-run` span, which wraps in linear time. Code blocks (`pre`) do not
 * wrap and are left as they are.
 */
function wrapRuns(parent: Root | Element): void {
  let changed = false;
  const children: ElementContent[] = [];
  for (const child of parent.children) {
    if (child.type === 'element' && child.tagName !== 'pre') wrapRuns(child);
    if (child.type !== 'text') {
      children.push(child as ElementContent);
      continue;
    }
    const pieces = splitLongRuns(child.value);
    if (!pieces.some((piece) => piece.long)) {
      children.push(child);
      continue;
    }
    changed = true;
    for (const piece of pieces)
      children.push(
        piece.long
          ? {
              type: 'element',
              tagName: 'span',
              properties: { className: ['long-run'] },
              children: [{ type: 'text', value: piece.text }],
            }
          : { type: 'text', value: piece.text },
      );
  }
  if (changed) parent.children = children;
}

export function rehypeLongRuns() {
  return (tree: Root) => wrapRuns(tree);
}
