import type { TreeNode } from '../../../shared/session-entries';
import { entryRole, isAlwaysHidden, passesFilter } from './entry-kinds';
import { standsAlone, labelChangeKeepsFolds } from './fold-rules';
import type { EntryItem } from './graph-items';
import {
  edgeOf,
  type GraphEdge,
  type GraphIndex,
  type GraphNode,
  type GraphNodeData,
  type SessionGraph,
} from './session-to-graph';

/*
 * The common changes of a streaming session without deriving the graph again: entries appended at
 * the leaf (each step of an answer, a prompt that opens a branch, a label entry) and a label set
 * on an entry that is drawn on its own and stays unfolded either way. Each function answers only
 * when the change is local — it then equals `sessionToGraph` of the new skeleton and leaf, as the
 * rules of `fold-rules.ts` fold it — and otherwise returns null for the caller to derive afresh.
 */

/** How a drawn shape came from its predecessor's: nodes added (in order) under their parents. */
export interface ShapeGrowth {
  /** Held weakly, so that a long stream of grown shapes does not keep every old one alive. */
  from: WeakRef<object>;
  added: { id: string; parentId: string }[];
}

const growths = new WeakMap<object, ShapeGrowth>();

/** How `shape` grew from an earlier one, when a graph of it was made by this module. */
export function growthOf(shape: object): ShapeGrowth | undefined {
  return growths.get(shape);
}

function grownShape(from: object, added: ShapeGrowth['added']): object {
  const shape = {};
  growths.set(shape, { from: new WeakRef(from), added });
  return shape;
}

/**
 * The graph once `appended` (the skeleton's new entries, in file order) joined it with the leaf
 * on the last of them, or null. `graph` must have been drawn from `index`; `index`, and `graph`'s `nodeOfEntry` and `childrenOf`, are brought up to date in
 * place only when this answers. Answers when the entries form
 * a chain under the old leaf, the first newest among its siblings, and the old leaf's drawn node
 * stays drawn as an entry of its own, and each entry grows alone (`standsAlone`: no settings marks):
 * every node they hang under is then on the active path, so nothing folds or unfolds.
 */
export function growGraph(
  graph: SessionGraph,
  index: GraphIndex,
  appended: readonly TreeNode[],
  leafId: string | null,
): SessionGraph | null {
  const oldPath = graph.activePath;
  const oldLeaf = oldPath[oldPath.length - 1];
  const oldDrawn = graph.leafNodeId;
  const last = appended[appended.length - 1];
  if (!last || oldLeaf === undefined || oldDrawn === null || leafId !== last.id) return null;
  if (graph.nodeOfEntry.get(oldDrawn) !== oldDrawn || !appended.every(standsAlone)) return null;

  let parent = oldLeaf;
  const fresh = new Set<string>();
  for (const entry of appended) {
    if (entry.parentId !== parent || index.byId.has(entry.id) || fresh.has(entry.id)) return null;
    // An entry some earlier one names as its missing parent would adopt it.
    if (index.missingParents.has(entry.id)) return null;
    fresh.add(entry.id);
    parent = entry.id;
  }
  const siblings = index.children.get(oldLeaf);
  const newest = siblings?.[siblings.length - 1];
  if (newest && newest.timestamp > appended[0]!.timestamp) return null;
  // Between the drawn leaf and the leaf lie hidden entries: each must be its parent's newest
  // child, so the appended entries come last under the drawn leaf.
  for (let i = oldPath.length - 1; i >= 0 && oldPath[i] !== oldDrawn; i--) {
    const entry = index.byId.get(oldPath[i]!);
    const up = entry?.parentId;
    const list = up === undefined || up === null ? undefined : index.children.get(up);
    if (!entry || !list || list[list.length - 1] !== entry) return null;
  }

  let newDrawn = oldDrawn;
  for (const entry of appended) if (!isAlwaysHidden(entry)) newDrawn = entry.id;
  const oldDrawnEntry = index.byId.get(oldDrawn);
  if (!oldDrawnEntry) return null;
  // The old leaf may have been drawn only for being the leaf.
  if (newDrawn !== oldDrawn && !passesFilter(oldDrawnEntry, graph.filter)) return null;

  // From here on the change is local: update the index and build the new graph.
  for (const entry of appended) {
    index.byId.set(entry.id, entry);
    const list = index.children.get(entry.parentId!);
    if (list) list.push(entry);
    else index.children.set(entry.parentId!, [entry]);
  }
  const activePath = [...oldPath, ...appended.map((entry) => entry.id)];

  const addedNodes: GraphNode[] = [];
  const addedEdges: GraphEdge[] = [];
  const added: ShapeGrowth['added'] = [];
  let holder = oldDrawn;
  for (const entry of appended) {
    if (isAlwaysHidden(entry)) continue;
    if (entry.id !== newDrawn && !passesFilter(entry, graph.filter)) continue;
    const data: GraphNodeData = {
      item: { kind: 'entry', id: entry.id, entry, role: entryRole(entry) },
      parentId: holder,
      onPath: true,
      isLeaf: entry.id === newDrawn,
    };
    if (entry.label) data.label = entry.label;
    addedNodes.push({ id: entry.id, type: 'entry', position: { x: 0, y: 0 }, data });
    addedEdges.push(edgeOf(holder, entry.id, true));
    added.push({ id: entry.id, parentId: holder });
    holder = entry.id;
  }

  const restyle = (node: GraphNode): GraphNode =>
    node.id === oldDrawn && newDrawn !== oldDrawn
      ? { ...node, data: { ...node.data, isLeaf: false } }
      : node;
  if (addedNodes.length === 0) {
    return { ...graph, nodes: graph.nodes.map(restyle), activePath, leafNodeId: newDrawn };
  }

  // The new nodes go right after the last node of the drawn leaf's subtree (pre-order), and
  // their edges at the same place among the edges (one edge per node that has a parent).
  let tail = oldDrawn;
  for (;;) {
    const kids = graph.childrenOf.get(tail);
    if (!kids || kids.length === 0) break;
    tail = kids[kids.length - 1]!;
  }
  const nodes: GraphNode[] = [];
  let edgeAt = 0;
  let inserted = false;
  for (const node of graph.nodes) {
    nodes.push(restyle(node));
    if (node.data.parentId !== null) edgeAt += inserted ? 0 : 1;
    if (node.id === tail) {
      nodes.push(...addedNodes);
      inserted = true;
    }
  }
  if (!inserted) return null;
  const edges = graph.edges.slice(0, edgeAt);
  edges.push(...addedEdges);
  for (let i = edgeAt; i < graph.edges.length; i++) edges.push(graph.edges[i]!);

  // The maps are updated in place, not copied (a copy costs milliseconds on a big session): the
  // graph grown from is superseded, and the new entries mean nothing to what still holds it.
  const { nodeOfEntry, childrenOf } = graph;
  for (const { id, parentId } of added) {
    nodeOfEntry.set(id, id);
    childrenOf.set(parentId, [...(childrenOf.get(parentId) ?? []), id]);
    childrenOf.set(id, []);
  }
  return {
    ...graph,
    nodes,
    edges,
    leafNodeId: newDrawn,
    activePath,
    shape: grownShape(graph.shape, added),
  };
}

function sameBesidesLabel(a: TreeNode, b: TreeNode): boolean {
  return (
    a.id === b.id &&
    a.parentId === b.parentId &&
    a.type === b.type &&
    a.role === b.role &&
    a.preview === b.preview &&
    a.timestamp === b.timestamp &&
    a.toolCalls === b.toolCalls &&
    a.isError === b.isError &&
    a.customType === b.customType
  );
}

/**
 * The graph once `next` replaced `previous` in the skeleton (the same entry with another label),
 * or null. Answers when the entry is drawn on its own and is kept unfolded with or without a
 * label (on the active path, the leaf, or labelled before and after), outside the
 * "Labelled" filter. The shape is new (its node changed) but grown by nothing, so its layout holds.
 */
export function relabelGraph(
  graph: SessionGraph,
  index: GraphIndex,
  previous: TreeNode,
  next: TreeNode,
): SessionGraph | null {
  const id = next.id;
  if (graph.filter === 'labelled' || !sameBesidesLabel(previous, next)) return null;
  if (index.byId.get(id) !== previous || graph.nodeOfEntry.get(id) !== id) return null;
  const at = graph.nodes.findIndex((node) => node.id === id);
  const node = graph.nodes[at];
  if (!node) return null;
  if (!labelChangeKeepsFolds(previous, next, node.data.onPath, node.data.isLeaf)) return null;
  let list = previous.parentId === null ? undefined : index.children.get(previous.parentId);
  let slot = list ? list.indexOf(previous) : -1;
  if (slot < 0) {
    list = index.roots;
    slot = list.indexOf(previous);
  }
  if (!list || slot < 0) return null;

  list[slot] = next;
  index.byId.set(id, next);
  const before = node.data.item;
  const item: EntryItem = { kind: 'entry', id, entry: next, role: entryRole(next) };
  if (before.kind === 'entry' && before.settings) item.settings = before.settings;
  const data: GraphNodeData = {
    item,
    parentId: node.data.parentId,
    onPath: node.data.onPath,
    isLeaf: node.data.isLeaf,
  };
  if (next.label) data.label = next.label;
  const nodes = graph.nodes.slice();
  nodes[at] = { ...node, data };
  return { ...graph, nodes, shape: grownShape(graph.shape, []) };
}
