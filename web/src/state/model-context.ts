import { lastCompactionIndex, pathContext, type PathContext } from '../../../shared/model-context';
import type { TreeNode } from '../../../shared/session-entries';
import { activePathIds } from './active-path';
import type { SessionView } from './session-reducer';

/*
 * What the model's context holds of the path the page shows (decision 076), by the rule the
 * server builds the context with (shared/model-context.ts): after a compaction, what it summarised
 * is only in history. The rule needs the last compaction's first kept entry, which the page reads
 * from the compaction's body (fetched with `get_entries` like other bodies).
 */

export type ContextView = Pick<SessionView, 'byId' | 'leafId' | 'compactions'>;

function pathNodes(view: ContextView, path: readonly string[]): TreeNode[] {
  const nodes: TreeNode[] = [];
  for (const id of path) {
    const node = view.byId.get(id);
    if (node) nodes.push(node);
  }
  return nodes;
}

/**
 * The model's context on the path to the view's leaf (`path`, root first, when the caller has
 * it), or undefined while the last compaction's first kept entry is not known yet.
 */
export function modelContextOnPath(
  view: ContextView,
  path: readonly string[] = activePathIds(view),
): PathContext | undefined {
  const nodes = pathNodes(view, path);
  const index = lastCompactionIndex(nodes);
  if (index < 0) return pathContext(nodes, undefined);
  const id = nodes[index]!.id;
  if (!view.compactions.has(id)) return undefined;
  return pathContext(nodes, view.compactions.get(id));
}

/** The path's last compaction when the page has not read its body yet (and could), to fetch. */
export function missingCompactionBodies(
  view: ContextView & Pick<SessionView, 'unavailable'>,
  path: readonly string[] = activePathIds(view),
): string[] {
  const nodes = pathNodes(view, path);
  const index = lastCompactionIndex(nodes);
  if (index < 0) return [];
  const id = nodes[index]!.id;
  return view.compactions.has(id) || view.unavailable.has(id) ? [] : [id];
}

/** A key that changes exactly when the entries marked "only in history" change. */
export function historyOnlyKey(context: PathContext | undefined): string {
  return context ? [...context.historyOnly].join(',') : '';
}
