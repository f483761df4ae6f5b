import type { TreeNode } from '../../../shared/session-entries';

/*
 * Derives what the session graph shows from the tree skeleton: which entries are visible under a
 * filter, which runs fold into one node, and which nodes form the active path. Pure and linear in
 * the number of entries, so it can run on every change of a 10,000-entry session.
 */

export type TreeFilter = 'all' | 'no-tools' | 'user-only' | 'labelled';
export const TREE_FILTERS: readonly TreeFilter[] = ['all', 'no-tools', 'user-only', 'labelled'];

/** Custom entry types Arbor writes for its own bookkeeping; never drawn. */
export const HIDDEN_CUSTOM_TYPES: ReadonlySet<string> = new Set(['arbor.leaf']);

/** A long unbranched run off the active path folds into one segment from this many items on. */
export const SEGMENT_MIN_ITEMS = 12;

export interface EntryItem {
  kind: 'entry';
  id: string;
  entry: TreeNode;
  /** Role shown to people and written to `data-role`: message role or entry type. */
  role: string;
}

export interface FoldItem {
  /** `fold`: the tool loop of one turn. `segment`: a long unbranched run of turns. */
  kind: 'fold' | 'segment';
  id: string;
  /** The entries inside, root-most first. */
  members: TreeNode[];
  role: 'fold' | 'segment';
}

export type GraphItem = EntryItem | FoldItem;

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
  type: 'entry' | 'fold';
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
}

export interface GraphOptions {
  leafId: string | null;
  filter?: TreeFilter;
  /** Ids of folds and segments the user opened. */
  expanded?: ReadonlySet<string>;
  segmentMinItems?: number;
}

/** The role people see for an entry: the message role, else the entry type. */
export function entryRole(entry: TreeNode): string {
  if (entry.type === 'message') return entry.role ?? 'message';
  if (entry.type === 'custom_message') return 'custom';
  return entry.type;
}

function isAlwaysHidden(entry: TreeNode): boolean {
  if (entry.type === 'label') return true;
  if (entry.type === 'custom') {
    const customType = entry.customType ?? entry.preview;
    return HIDDEN_CUSTOM_TYPES.has(customType);
  }
  return false;
}

function isToolEntry(entry: TreeNode): boolean {
  if (entry.type !== 'message') return false;
  if (entry.role === 'toolResult') return true;
  return entry.role === 'assistant' && (entry.toolCalls ?? 0) > 0 && !entry.isError;
}

function isUserLike(entry: TreeNode): boolean {
  return (entry.type === 'message' && entry.role === 'user') || entry.type === 'custom_message';
}

function passesFilter(entry: TreeNode, filter: TreeFilter): boolean {
  switch (filter) {
    case 'all':
      return true;
    case 'no-tools':
      return !isToolEntry(entry);
    case 'user-only':
      return isUserLike(entry);
    case 'labelled':
      return entry.label !== undefined && entry.label !== '';
  }
}

/** Fold members of a turn's tool loop: assistant replies, tool results, shell runs. */
function isLoopMember(entry: TreeNode): boolean {
  return (
    entry.type === 'message' &&
    (entry.role === 'assistant' || entry.role === 'toolResult' || entry.role === 'bashExecution')
  );
}

interface Indexed {
  byId: Map<string, TreeNode>;
  order: Map<string, number>;
  children: Map<string | null, TreeNode[]>;
  roots: TreeNode[];
}

/**
 * Indexes the skeleton the way pi's `getTree` reads it: the first entry with an id wins, entries
 * whose parent is missing or themselves are roots, children oldest first. Entries caught in a
 * parent cycle are promoted to roots so that nothing disappears.
 */
function indexTree(tree: readonly TreeNode[]): Indexed {
  const byId = new Map<string, TreeNode>();
  const order = new Map<string, number>();
  for (const entry of tree) {
    if (byId.has(entry.id)) continue;
    byId.set(entry.id, entry);
    order.set(entry.id, order.size);
  }
  const children = new Map<string | null, TreeNode[]>();
  const roots: TreeNode[] = [];
  for (const entry of byId.values()) {
    const parent = entry.parentId;
    if (parent === null || parent === entry.id || !byId.has(parent)) {
      roots.push(entry);
      continue;
    }
    let list = children.get(parent);
    if (!list) children.set(parent, (list = []));
    list.push(entry);
  }
  const byTime = (a: TreeNode, b: TreeNode): number =>
    a.timestamp < b.timestamp
      ? -1
      : a.timestamp > b.timestamp
        ? 1
        : (order.get(a.id) ?? 0) - (order.get(b.id) ?? 0);
  for (const list of children.values()) list.sort(byTime);
  roots.sort(byTime);

  // Anything not reachable from a root sits in a cycle: break it at its oldest entry.
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
  if (reached.size < byId.size) {
    for (const entry of byId.values()) {
      if (reached.has(entry.id)) continue;
      roots.push(entry);
      const siblings = entry.parentId === null ? undefined : children.get(entry.parentId);
      if (siblings) siblings.splice(siblings.indexOf(entry), 1);
      mark(entry);
    }
  }
  return { byId, order, children, roots };
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

interface Work {
  item: GraphItem;
  children: Work[];
  onPath: boolean;
  isLeaf: boolean;
  pinned: boolean;
}

/**
 * Replaces every maximal chain of eligible items (each one's only child is the next) of at least
 * `minLength` items with one fold item, unless the user opened it.
 */
function collapseChains(
  roots: Work[],
  eligible: (work: Work) => boolean,
  minLength: number,
  makeFold: (chain: Work[]) => FoldItem,
  expanded: ReadonlySet<string>,
): Work[] {
  // Iterative, so that a 10,000-entry chain does not exhaust the call stack.
  const top = roots.slice();
  const slots: { list: Work[]; index: number }[] = [];
  const pushChildren = (list: Work[]): void => {
    for (let i = 0; i < list.length; i++) slots.push({ list, index: i });
  };
  pushChildren(top);
  while (slots.length > 0) {
    const { list, index } = slots.pop()!;
    const start = list[index]!;
    if (!eligible(start)) {
      pushChildren(start.children);
      continue;
    }
    const chain = [start];
    let last = start;
    while (last.children.length === 1 && eligible(last.children[0]!)) {
      last = last.children[0]!;
      chain.push(last);
    }
    if (chain.length >= minLength) {
      const fold = makeFold(chain);
      if (!expanded.has(fold.id)) {
        const folded: Work = {
          item: fold,
          children: last.children,
          onPath: false,
          isLeaf: false,
          pinned: false,
        };
        list[index] = folded;
        pushChildren(folded.children);
        continue;
      }
    }
    pushChildren(last.children);
  }
  return top;
}

function membersOf(chain: Work[]): TreeNode[] {
  const members: TreeNode[] = [];
  for (const work of chain) {
    if (work.item.kind === 'entry') members.push(work.item.entry);
    else members.push(...work.item.members);
  }
  return members;
}

/**
 * The graph of a session: visible entries and folds as React Flow nodes (positions left at zero
 * for the layout to fill), parent → child edges, the active path and the drawn leaf.
 */
export function sessionToGraph(tree: readonly TreeNode[], options: GraphOptions): SessionGraph {
  const filter = options.filter ?? 'all';
  const expanded = options.expanded ?? new Set<string>();
  const segmentMin = options.segmentMinItems ?? SEGMENT_MIN_ITEMS;
  const { byId, children, roots } = indexTree(tree);

  const leafId = options.leafId !== null && byId.has(options.leafId) ? options.leafId : null;
  const activePath = pathTo(byId, leafId);
  const onPath = new Set(activePath);

  // The drawn leaf: the leaf, or its nearest ancestor that is ever drawn.
  let leafEntryId: string | null = null;
  for (let i = activePath.length - 1; i >= 0; i--) {
    const entry = byId.get(activePath[i]!)!;
    if (!isAlwaysHidden(entry)) {
      leafEntryId = entry.id;
      break;
    }
  }

  const shown = (entry: TreeNode): boolean =>
    !isAlwaysHidden(entry) && (entry.id === leafEntryId || passesFilter(entry, filter));

  // Visible tree: each shown entry hangs under its nearest shown ancestor.
  const top: Work[] = [];
  const stack: { entry: TreeNode; parent: Work | null }[] = [];
  for (let i = roots.length - 1; i >= 0; i--) stack.push({ entry: roots[i]!, parent: null });
  while (stack.length > 0) {
    const { entry, parent } = stack.pop()!;
    let holder = parent;
    if (shown(entry)) {
      const work: Work = {
        item: { kind: 'entry', id: entry.id, entry, role: entryRole(entry) },
        children: [],
        onPath: onPath.has(entry.id),
        isLeaf: entry.id === leafEntryId,
        pinned: false,
      };
      work.pinned = work.onPath || work.isLeaf || (entry.label ?? '') !== '';
      if (parent) parent.children.push(work);
      else top.push(work);
      holder = work;
    }
    const kids = children.get(entry.id) ?? [];
    for (let i = kids.length - 1; i >= 0; i--) stack.push({ entry: kids[i]!, parent: holder });
  }

  // Fold the tool loops of turns off the active path, then long unbranched runs of turns.
  const loopFolded = collapseChains(
    top,
    (work) => !work.pinned && work.item.kind === 'entry' && isLoopMember(work.item.entry),
    2,
    (chain) => ({
      kind: 'fold',
      role: 'fold',
      id: `fold:${chain[0]!.item.id}`,
      members: membersOf(chain),
    }),
    expanded,
  );
  const folded = collapseChains(
    loopFolded,
    (work) => !work.pinned && !work.onPath,
    segmentMin,
    (chain) => ({
      kind: 'segment',
      role: 'segment',
      id: `segment:${membersOf(chain)[0]!.id}`,
      members: membersOf(chain),
    }),
    expanded,
  );

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
      if (item.entry.label) data.label = item.entry.label;
    } else {
      for (const member of item.members) nodeOfEntry.set(member.id, item.id);
    }
    if (work.isLeaf) leafNodeId = item.id;
    nodes.push({
      id: item.id,
      type: item.kind === 'entry' ? 'entry' : 'fold',
      position: { x: 0, y: 0 },
      data,
    });
    childrenOf.set(
      item.id,
      work.children.map((child) => child.item.id),
    );
    if (parentId !== null) {
      const edge: GraphEdge = { id: `${parentId}->${item.id}`, source: parentId, target: item.id };
      if (work.onPath) edge.className = 'on-path';
      edges.push(edge);
    }
    for (let i = work.children.length - 1; i >= 0; i--)
      emit.push({ work: work.children[i]!, parentId: item.id });
  }

  return {
    nodes,
    edges,
    leafNodeId,
    activePath,
    nodeOfEntry,
    childrenOf,
    roots: folded.map((work) => work.item.id),
  };
}

/** The first line of text an aria-label or tooltip shows for a drawn node. */
export function describeItem(item: GraphItem, maxLength = 80): string {
  if (item.kind === 'entry') {
    const text = item.entry.preview.slice(0, maxLength);
    return text ? `${item.role}: ${text}` : item.role;
  }
  const firstUser = item.members.find(isUserLike);
  const first = firstUser ?? item.members[0];
  const preview = first ? first.preview.slice(0, maxLength) : '';
  const count = item.members.length;
  const what =
    item.kind === 'fold'
      ? `fold: ${count} tool-loop entries`
      : `segment: ${count} entries, ${item.members.filter(isUserLike).length} prompts`;
  return preview ? `${what}: ${preview}` : what;
}
