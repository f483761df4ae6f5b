import type { TreeNode } from '../../../shared/session-entries';

/*
 * What the session graph draws, one item per node: an entry of its own, or a fold of entries.
 * The derivation (session-to-graph.ts), its fold rules (fold-rules.ts, settings-marks.ts) and the
 * tree's components all speak these types, so they live below every one of them.
 */

export interface EntryItem {
  kind: 'entry';
  id: string;
  entry: TreeNode;
  /** Role shown to people and written to `data-role`: message role or entry type. */
  role: string;
  /** The run of settings changes just above it, drawn as a chip on this node (root-most first). */
  settings?: TreeNode[];
}

export interface FoldItem {
  /**
   * `fold`: the tool loop of one turn. `segment`: everything but the prompt of one turn inside a
   * long unbranched run of turns (the prompts of the run stay drawn between the segments).
   * `settings`: a run of settings changes with no single node after it to carry it as a chip.
   */
  kind: 'fold' | 'segment' | 'settings';
  id: string;
  /** The entries inside, root-most first. */
  members: TreeNode[];
  role: 'fold' | 'segment' | 'settings';
}

export type GraphItem = EntryItem | FoldItem;

/** A drawn item with its drawn children, before folding settles what is drawn. */
export interface Work {
  item: GraphItem;
  children: Work[];
  onPath: boolean;
  isLeaf: boolean;
  /** Never inside a tool-loop fold or a segment. */
  pinned: boolean;
}
