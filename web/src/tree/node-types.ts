import type { EdgeTypes, NodeTypes } from '@xyflow/react';
import { EntryNode } from './EntryNode';
import { FoldNode } from './FoldNode';
import { SettingsNode } from './SettingsNode';
import { TreeEdge } from './TreeEdge';

/** Defined once at module scope, as React Flow requires, so nodes are never remounted. */
export const nodeTypes: NodeTypes = {
  entry: EntryNode,
  fold: FoldNode,
  settings: SettingsNode,
};

export const edgeTypes: EdgeTypes = { tree: TreeEdge };
