import type { TreeNode } from '../../../shared/session-entries';
import type { TreeFilter } from './entry-kinds';
import { growGraph, relabelGraph } from './grow-graph';
import { restyleForLeaf } from './leaf-restyle';
import { deriveGraph, type GraphIndex, type SessionGraph } from './session-to-graph';

/*
 * The derived graph of the open session as it changes. Entries appended at the leaf and labels
 * set on unfolded entries update the last graph in place of a new derivation (`grow-graph.ts`); a
 * leaf move that changes no fold restyles the nodes whose marks changed (`leaf-restyle.ts`).
 * Anything else (a filter, a fold opened, a leaf move that folds or unfolds something) derives the
 * graph afresh. Every answer equals `sessionToGraph(tree, { leafId, filter, expanded })`: what
 * folds depends on the session and the leaf, never on what this page drew before, so the graph a
 * reload draws is the one grown live (`fold-rules.ts`).
 */

/** How the last graph was made. */
export type DerivationStep = 'derive' | 'restyle' | 'grow' | 'relabel';

interface Derivation {
  sessionId: string;
  tree: readonly TreeNode[];
  filter: TreeFilter;
  expanded: ReadonlySet<string>;
  graph: SessionGraph;
  /** The index `graph` was drawn from; kept up to date by the steps that update `graph`. */
  index: GraphIndex;
}

export class GraphDeriver {
  private last: Derivation | null = null;
  /** How the graph last returned by `derive` was made. */
  step: DerivationStep = 'derive';

  /** `segmentMinItems` as `GraphOptions` has it (tests use small ones). */
  constructor(private readonly segmentMinItems?: number) {}

  derive(
    sessionId: string,
    tree: readonly TreeNode[],
    byId: ReadonlyMap<string, TreeNode>,
    leafId: string | null,
    filter: TreeFilter,
    expanded: ReadonlySet<string>,
  ): SessionGraph {
    const previous = this.last;
    let graph: SessionGraph | null = null;
    let index: GraphIndex | null = null;
    if (
      previous &&
      previous.sessionId === sessionId &&
      previous.filter === filter &&
      previous.expanded === expanded
    ) {
      index = previous.index;
      graph = this.update(previous, tree, byId, leafId);
    }
    if (!graph || !index) {
      // The same skeleton (a leaf move, a filter, a fold opened) keeps its index.
      const same = previous?.sessionId === sessionId && previous.tree === tree;
      const options = { leafId, filter, expanded, ...(same ? { index: previous.index } : {}) };
      ({ graph, index } = deriveGraph(
        tree,
        this.segmentMinItems === undefined
          ? options
          : { ...options, segmentMinItems: this.segmentMinItems },
      ));
      this.step = 'derive';
    }
    this.last = { sessionId, tree, filter, expanded, graph, index };
    return graph;
  }

  /** The last graph brought up to `tree` and `leafId` without a derivation, or null. */
  private update(
    previous: Derivation,
    tree: readonly TreeNode[],
    byId: ReadonlyMap<string, TreeNode>,
    leafId: string | null,
  ): SessionGraph | null {
    if (previous.tree === tree) {
      this.step = 'restyle';
      return restyleForLeaf(previous.graph, byId, leafId);
    }
    const before = previous.tree;
    if (tree.length < before.length) return null;
    let changed = -1;
    for (let i = 0; i < before.length; i++) {
      if (tree[i] === before[i]) continue;
      if (changed >= 0) return null;
      changed = i;
    }
    let graph: SessionGraph | null = previous.graph;
    if (changed >= 0) {
      graph = relabelGraph(graph, previous.index, before[changed]!, tree[changed]!);
      this.step = 'relabel';
    }
    const appended = tree.slice(before.length);
    if (!graph || appended.length === 0) return graph && restyleForLeaf(graph, byId, leafId);
    // An append after a leaf move the page has not drawn yet (a branch summary, say): first the
    // move, then the append.
    const parentId = appended[0]!.parentId;
    if (parentId !== graph.activePath[graph.activePath.length - 1]) {
      if (parentId === null || !previous.index.byId.has(parentId)) return null;
      graph = restyleForLeaf(graph, byId, parentId);
      if (!graph) return null;
    }
    this.step = 'grow';
    return growGraph(graph, previous.index, appended, leafId);
  }
}
