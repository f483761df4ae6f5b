import type { TreeNode } from '../../../shared/session-entries';
import type { TreeFilter } from './entry-kinds';
import { growGraph, relabelGraph } from './grow-graph';
import { restyleForLeaf } from './leaf-restyle';
import { deriveGraph, pathTo, type GraphIndex, type SessionGraph } from './session-to-graph';

/*
 * The derived graph of the open session as it changes. Every entry the active path went through
 * while the page showed the session stays unfolded (leaving a branch does not fold it under the
 * user's eyes), so a leaf move normally keeps the drawn shape and is a restyle of the nodes whose
 * marks changed. Entries appended at the leaf and labels set on unfolded entries update the last
 * graph in place of a new derivation (`grow-graph.ts`). Anything else (a filter, a fold opened,
 * a change none of these covers) derives the graph afresh. Every answer equals
 * `sessionToGraph(tree, { leafId, filter, expanded, keepOpen })` with `keepOpen` as it stands.
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
  private kept: { sessionId: string; ids: Set<string> } | null = null;
  /** How the graph last returned by `derive` was made. */
  step: DerivationStep = 'derive';

  /** `segmentMinItems` as `GraphOptions` has it (tests use small ones). */
  constructor(private readonly segmentMinItems?: number) {}

  /** Every entry the active path went through since the session was opened. */
  get keepOpen(): ReadonlySet<string> {
    return this.kept?.ids ?? new Set<string>();
  }

  derive(
    sessionId: string,
    tree: readonly TreeNode[],
    byId: ReadonlyMap<string, TreeNode>,
    leafId: string | null,
    filter: TreeFilter,
    expanded: ReadonlySet<string>,
  ): SessionGraph {
    if (this.kept?.sessionId !== sessionId) this.kept = { sessionId, ids: new Set<string>() };
    const keepOpen = this.kept.ids;
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
      graph = this.update(previous, tree, byId, leafId, keepOpen);
      if (graph) for (const id of graph.activePath) keepOpen.add(id);
    }
    if (!graph || !index) {
      for (const id of pathTo(byId, leafId)) keepOpen.add(id);
      const options = { leafId, filter, expanded, keepOpen };
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
    keepOpen: ReadonlySet<string>,
  ): SessionGraph | null {
    if (previous.tree === tree) {
      this.step = 'restyle';
      return restyleForLeaf(previous.graph, byId, leafId, keepOpen);
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
      graph = relabelGraph(graph, previous.index, before[changed]!, tree[changed]!, keepOpen);
      this.step = 'relabel';
    }
    const appended = tree.slice(before.length);
    if (!graph || appended.length === 0)
      return graph && restyleForLeaf(graph, byId, leafId, keepOpen);
    // An append after a leaf move the page has not drawn yet (a branch summary, say): first the
    // move, then the append.
    const parentId = appended[0]!.parentId;
    if (parentId !== graph.activePath[graph.activePath.length - 1]) {
      if (parentId === null || !previous.index.byId.has(parentId)) return null;
      graph = restyleForLeaf(graph, byId, parentId, keepOpen);
      if (!graph) return null;
    }
    this.step = 'grow';
    return growGraph(graph, previous.index, appended, leafId);
  }
}
