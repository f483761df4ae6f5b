import type { TreeNode } from '../../../shared/session-entries';
import type { TreeFilter } from './entry-kinds';
import { growGraph, relabelGraph } from './grow-graph';
import { restyleForLeaf } from './leaf-restyle';
import { deriveGraph, type GraphIndex, type SessionGraph } from './session-to-graph';

/*
 * The derived graph of the open session as it changes. Entries appended at the leaf and labels
 * set on unfolded entries update the last graph in place of a new derivation (`grow-graph.ts`); a
 * leaf move restyles the nodes whose marks changed (`leaf-restyle.ts`). Anything else (a filter,
 * a fold opened, a move into a fold) derives the graph afresh. Every settled answer equals
 * `sessionToGraph(tree, { leafId, filter, expanded })`: what folds depends on the session and the
 * leaf, never on what this page drew before, so the graph a reload draws is the one grown live
 * (`fold-rules.ts`). A leaf move that folds the branch it leaves is shown at once with the old
 * shape and is not settled; `derive(…, true)`, which the page calls once idle, then folds it.
 */

/** How the last graph was made. */
export type DerivationStep = 'derive' | 'restyle' | 'interim' | 'grow' | 'relabel';

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
  /**
   * Whether the last graph kept a shape a fresh derivation would change (an interim restyle, and
   * whatever grew from it): `derive(…, true)` then derives it afresh.
   */
  private interim = false;
  /** How the graph last returned by `derive` was made. */
  step: DerivationStep = 'derive';

  /** Whether the last graph equals a fresh derivation (else the caller settles it when idle). */
  get settled(): boolean {
    return !this.interim;
  }

  /** `segmentMinItems` as `GraphOptions` has it (tests use small ones). */
  constructor(private readonly segmentMinItems?: number) {}

  derive(
    sessionId: string,
    tree: readonly TreeNode[],
    byId: ReadonlyMap<string, TreeNode>,
    leafId: string | null,
    filter: TreeFilter,
    expanded: ReadonlySet<string>,
    settle = false,
  ): SessionGraph {
    const previous = this.last;
    let graph: SessionGraph | null = null;
    let index: GraphIndex | null = null;
    if (
      previous &&
      previous.sessionId === sessionId &&
      previous.filter === filter &&
      previous.expanded === expanded &&
      !(settle && this.interim)
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
      this.interim = false;
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
    if (previous.tree === tree) return this.moveLeaf(previous.graph, byId, leafId);
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
      graph = this.moveLeaf(graph, byId, parentId);
      if (!graph) return null;
    }
    this.step = 'grow';
    return growGraph(graph, previous.index, appended, leafId);
  }

  /**
   * `graph` restyled for a leaf move: exactly when nothing folds or unfolds, else in the interim
   * (the move shows at once; the fold of the branch left behind waits for the page to be idle).
   */
  private moveLeaf(
    graph: SessionGraph,
    byId: ReadonlyMap<string, TreeNode>,
    leafId: string | null,
  ): SessionGraph | null {
    const exact = restyleForLeaf(graph, byId, leafId, 'exact');
    if (exact) {
      this.step = 'restyle';
      return exact;
    }
    const interim = restyleForLeaf(graph, byId, leafId, 'interim');
    if (interim) {
      this.step = 'interim';
      this.interim = true;
    }
    return interim;
  }
}
