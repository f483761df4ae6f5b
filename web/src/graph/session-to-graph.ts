import type { TreeNode } from '../../../shared/session-entries';
import { entryRole, isAlwaysHidden, passesFilter, type TreeFilter } from './entry-kinds';
import { foldForest, isPinned, SEGMENT_MIN_ITEMS } from './fold-rules';
import type { GraphItem, Work } from './graph-items';
import { nodeText } from './plain-preview';

/*
 * Derives what the session graph shows from the tree skeleton: which entries are visible under a
 * filter, which runs fold into one node (the rules are `fold-rules.ts`'s), and which nodes form
 * the active path. Pure and linear in the number of entries. User messages are always their own
 * nodes; the leaf and the active path are never inside a tool-loop fold or a segment.
 */

export interface GraphNodeData extends Record<string, unknown> {
  item: GraphItem;
  /** The visible parent item, or null for a root of the drawing. */
  parentId: string | null;
  onPath: boolean;
  isLeaf: boolean;
  /** Label of the entry (entries only). */
  label?: string;
}

export interface GraphNode {
  id: string;
  type: 'entry' | 'fold' | 'settings';
  position: { x: number; y: number };
  data: GraphNodeData;
}

export interface GraphEdge {
  id: string;
  source: string;
  target: string;
  className?: string;
}

export interface SessionGraph {
  /** Pre-order: every parent before its children, siblings oldest first. */
  nodes: GraphNode[];
  edges: GraphEdge[];
  /** The drawn node that stands for the leaf (the leaf itself unless it is a hidden entry). */
  leafNodeId: string | null;
  /** Entry ids root → leaf (all of them, drawn or not). */
  activePath: string[];
  /** The drawn node that holds each entry (for entries inside folds, the fold). */
  nodeOfEntry: Map<string, string>;
  /** Visible children per drawn node id, in drawing order. */
  childrenOf: Map<string, string[]>;
  roots: string[];
  /** The filter the graph was drawn with. */
  filter: TreeFilter;
  /**
   * Stands for the drawn shape (nodes and their parents): a graph restyled for a new leaf keeps
   * its predecessor's, so a layout computed for one serves the other.
   */
  shape: object;
}

export interface GraphOptions {
  leafId: string | null;
  filter?: TreeFilter;
  /** Ids of folds and segments the user opened. */
  expanded?: ReadonlySet<string>;
  segmentMinItems?: number;
  /**
   * The index of this very skeleton from an earlier derivation (a leaf move, a filter, a fold
   * opened: the entries are the same), to skip indexing it again.
   */
  index?: GraphIndex;
}

/**
 * The skeleton indexed for drawing: entries by id (first one wins), children per parent oldest
 * first, roots, and the parent ids no entry has (an entry appended with one of those ids would
 * adopt the entries waiting for it).
 */
export interface GraphIndex {
  byId: Map<string, TreeNode>;
  children: Map<string, TreeNode[]>;
  roots: TreeNode[];
  missingParents: Set<string>;
}

type Indexed = GraphIndex;

const byTime = (a: TreeNode, b: TreeNode): number =>
  a.timestamp < b.timestamp ? -1 : a.timestamp > b.timestamp ? 1 : 0;

/** Sorts oldest first; the sort is stable, so entries of one time keep their order in the file. */
function sortByTime(list: TreeNode[]): void {
  for (let i = 1; i < list.length; i++) {
    if (list[i - 1]!.timestamp > list[i]!.timestamp) {
      list.sort(byTime);
      return;
    }
  }
}

/**
 * Indexes the skeleton the way pi's `getTree` reads it: the first entry with an id wins, entries
 * whose parent is missing or themselves are roots, children oldest first. Entries caught in a
 * parent cycle are not reachable from a root: `breakCycles` promotes them when a walk finds that.
 */
function indexTree(tree: readonly TreeNode[]): Indexed {
  const byId = new Map<string, TreeNode>();
  const children = new Map<string, TreeNode[]>();
  const roots: TreeNode[] = [];
  const missingParents = new Set<string>();
  for (const entry of tree) {
    if (byId.has(entry.id)) continue;
    byId.set(entry.id, entry);
  }
  for (const entry of byId.values()) {
    const parent = entry.parentId;
    if (parent === null || parent === entry.id || !byId.has(parent)) {
      if (parent !== null && parent !== entry.id) missingParents.add(parent);
      roots.push(entry);
      continue;
    }
    const list = children.get(parent);
    if (list) list.push(entry);
    else children.set(parent, [entry]);
  }
  for (const list of children.values()) if (list.length > 1) sortByTime(list);
  sortByTime(roots);
  return { byId, children, roots, missingParents };
}

/** Promotes every entry not reachable from a root (it sits in a cycle) to a root of its own. */
function breakCycles({ byId, children, roots }: Indexed): void {
  const reached = new Set<string>();
  const mark = (start: TreeNode): void => {
    const stack = [start];
    while (stack.length > 0) {
      const entry = stack.pop()!;
      if (reached.has(entry.id)) continue;
      reached.add(entry.id);
      for (const child of children.get(entry.id) ?? []) stack.push(child);
    }
  };
  for (const root of roots) mark(root);
  for (const entry of byId.values()) {
    if (reached.has(entry.id)) continue;
    roots.push(entry);
    const siblings = entry.parentId === null ? undefined : children.get(entry.parentId);
    if (siblings) siblings.splice(siblings.indexOf(entry), 1);
    mark(entry);
  }
}

/** Entry ids from a root to `leafId`, guarded against cycles; empty for a null or unknown leaf. */
export function pathTo(byId: ReadonlyMap<string, TreeNode>, leafId: string | null): string[] {
  const path: string[] = [];
  const seen = new Set<string>();
  let current = leafId === null ? undefined : byId.get(leafId);
  while (current && !seen.has(current.id)) {
    seen.add(current.id);
    path.push(current.id);
    current = current.parentId === null ? undefined : byId.get(current.parentId);
  }
  return path.reverse();
}

/** The drawn leaf: the leaf, or its nearest ancestor that is ever drawn. */
export function drawnLeafOf(byId: ReadonlyMap<string, TreeNode>, path: readonly string[]) {
  for (let i = path.length - 1; i >= 0; i--) {
    const entry = byId.get(path[i]!);
    if (entry && !isAlwaysHidden(entry)) return entry.id;
  }
  return null;
}

/** The drawn entries as a forest of work items, and how many entries the walk went through. */
function visibleTree(
  { children, roots }: Indexed,
  leafEntryId: string | null,
  onPath: ReadonlySet<string>,
  filter: TreeFilter,
): { roots: Work[]; walked: number } {
  const top: Work[] = [];
  const entries: TreeNode[] = [];
  const holders: (Work | null)[] = [];
  for (let i = roots.length - 1; i >= 0; i--) {
    entries.push(roots[i]!);
    holders.push(null);
  }
  let walked = 0;
  while (entries.length > 0) {
    const entry = entries.pop()!;
    const parent = holders.pop()!;
    walked++;
    let holder = parent;
    if (!isAlwaysHidden(entry) && (entry.id === leafEntryId || passesFilter(entry, filter))) {
      const work: Work = {
        item: { kind: 'entry', id: entry.id, entry, role: entryRole(entry) },
        children: [],
        onPath: onPath.has(entry.id),
        isLeaf: entry.id === leafEntryId,
        pinned: false,
      };
      work.pinned = isPinned(entry, work.onPath, work.isLeaf);
      if (parent) parent.children.push(work);
      else top.push(work);
      holder = work;
    }
    const kids = children.get(entry.id);
    if (kids === undefined) continue;
    for (let i = kids.length - 1; i >= 0; i--) {
      entries.push(kids[i]!);
      holders.push(holder);
    }
  }
  return { roots: top, walked };
}

/**
 * The graph of a session: visible entries and folds as React Flow nodes (positions left at zero
 * for the layout to fill), parent → child edges, the active path and the drawn leaf.
 */
export function sessionToGraph(tree: readonly TreeNode[], options: GraphOptions): SessionGraph {
  return deriveGraph(tree, options).graph;
}

/**
 * `sessionToGraph` together with the index it drew from, which `growGraph` keeps up to date for
 * appended entries instead of indexing the whole skeleton again.
 */
export function deriveGraph(
  tree: readonly TreeNode[],
  options: GraphOptions,
): { graph: SessionGraph; index: GraphIndex } {
  const filter = options.filter ?? 'all';
  const expanded = options.expanded ?? new Set<string>();
  const segmentMin = options.segmentMinItems ?? SEGMENT_MIN_ITEMS;
  const indexed = options.index ?? indexTree(tree);
  const { byId } = indexed;

  const leafId = options.leafId !== null && byId.has(options.leafId) ? options.leafId : null;
  const activePath = pathTo(byId, leafId);
  const onPath = new Set(activePath);
  const leafEntryId = drawnLeafOf(byId, activePath);

  // Visible tree: each shown entry hangs under its nearest shown ancestor. A walk that misses
  // entries met a parent cycle: break it and walk again.
  let top = visibleTree(indexed, leafEntryId, onPath, filter);
  if (top.walked < indexed.byId.size) {
    breakCycles(indexed);
    top = visibleTree(indexed, leafEntryId, onPath, filter);
  }

  const folded = foldForest(top.roots, expanded, segmentMin);

  // Emit nodes in pre-order.
  const nodes: GraphNode[] = [];
  const edges: GraphEdge[] = [];
  const nodeOfEntry = new Map<string, string>();
  const childrenOf = new Map<string, string[]>();
  let leafNodeId: string | null = null;
  const emit: { work: Work; parentId: string | null }[] = [];
  for (let i = folded.length - 1; i >= 0; i--) emit.push({ work: folded[i]!, parentId: null });
  while (emit.length > 0) {
    const { work, parentId } = emit.pop()!;
    const item = work.item;
    const data: GraphNodeData = { item, parentId, onPath: work.onPath, isLeaf: work.isLeaf };
    if (item.kind === 'entry') {
      nodeOfEntry.set(item.id, item.id);
      for (const change of item.settings ?? []) nodeOfEntry.set(change.id, item.id);
      if (item.entry.label) data.label = item.entry.label;
    } else {
      for (const member of item.members) nodeOfEntry.set(member.id, item.id);
    }
    if (work.isLeaf) leafNodeId = item.id;
    nodes.push({
      id: item.id,
      type: item.kind === 'entry' ? 'entry' : item.kind === 'settings' ? 'settings' : 'fold',
      position: { x: 0, y: 0 },
      data,
    });
    childrenOf.set(
      item.id,
      work.children.map((child) => child.item.id),
    );
    if (parentId !== null) edges.push(edgeOf(parentId, item.id, work.onPath));
    for (let i = work.children.length - 1; i >= 0; i--)
      emit.push({ work: work.children[i]!, parentId: item.id });
  }

  const graph: SessionGraph = {
    nodes,
    edges,
    leafNodeId,
    activePath,
    nodeOfEntry,
    childrenOf,
    roots: folded.map((work) => work.item.id),
    filter,
    shape: {},
  };
  return { graph, index: indexed };
}

/** The edge into `target`, marked when it lies on the active path. */
export function edgeOf(source: string, target: string, onPath: boolean): GraphEdge {
  const edge: GraphEdge = { id: `${source}->${target}`, source, target };
  if (onPath) edge.className = 'on-path';
  return edge;
}

/** The first line of text an aria-label or tooltip shows for a drawn node. */
export function describeItem(item: GraphItem, maxLength = 80): string {
  if (item.kind === 'entry') {
    const text = nodeText(item.role, item.entry.preview).slice(0, maxLength);
    return text ? `${item.role}: ${text}` : item.role;
  }
  const first = item.members.find((member) => member.preview !== '') ?? item.members[0];
  const preview = first ? first.preview.slice(0, maxLength) : '';
  const count = item.members.length;
  if (item.kind === 'settings') return `settings: ${describeSettings(item.members)}`;
  const what =
    item.kind === 'fold'
      ? `fold: ${count} tool-loop entries`
      : `segment: ${count} entries of a turn`;
  return preview ? `${what}: ${preview}` : what;
}

const SETTING_NAMES: Record<string, string> = {
  model_change: 'model',
  thinking_level_change: 'thinking',
  session_info: 'name',
};

/** A run of settings changes in words: "model openai/gpt-4o, thinking high". */
export function describeSettings(changes: readonly TreeNode[], maxLength = 120): string {
  const text = changes
    .map((change) => `${SETTING_NAMES[change.type] ?? change.type} ${change.preview}`.trim())
    .join(', ');
  return text.length > maxLength ? `${text.slice(0, maxLength - 1)}…` : text;
}
