import { memo, useCallback, useEffect, useMemo, useRef, useState } from 'react';
import {
  Background,
  Controls,
  MiniMap,
  ReactFlow,
  Position,
  ReactFlowProvider,
  useReactFlow,
  type NodeHandle,
  type Edge,
  type Node,
} from '@xyflow/react';
import type { TreeNode } from '../../../shared/session-entries';
import { sessionToGraph, type GraphNodeData, type TreeFilter } from '../graph/session-to-graph';
import {
  layoutInputOf,
  layoutTree,
  NODE_HEIGHT,
  NODE_WIDTH,
  WORKER_THRESHOLD,
  type LayoutInput,
  type LayoutResult,
} from '../graph/tree-layout';
import { runLayout } from '../graph/run-layout';
import { nodeTypes } from './node-types';
import { TreeActionsContext, type TreeActions } from './tree-actions';
import { LabelDialog } from './LabelDialog';
import { TreeToolbar, type SummaryChoice } from './TreeToolbar';

export interface SessionTreeProps {
  sessionId: string;
  tree: TreeNode[];
  leafId: string | null;
  readOnly: boolean;
  /** A click on an entry (the click rule is applied by the caller). */
  onNavigate(entry: TreeNode, summary: SummaryChoice): void;
  onSetLabel(entryId: string, label: string | undefined): void;
}

/**
 * React Flow's minimap draws every node (it does not cull), so past this size it would cost more
 * than the graph itself; big sessions rely on fit-to-leaf and the folded graph instead.
 */
const MINIMAP_LIMIT = 2000;

const NODE_HANDLES: NodeHandle[] = [
  { type: 'target', position: Position.Top, x: NODE_WIDTH / 2, y: 0, width: 1, height: 1 },
  {
    type: 'source',
    position: Position.Bottom,
    x: NODE_WIDTH / 2,
    y: NODE_HEIGHT,
    width: 1,
    height: 1,
  },
];

interface Positions {
  key: string;
  byId: Map<string, { x: number; y: number }>;
}

function structureKey(input: LayoutInput): string {
  let key = '';
  for (let i = 0; i < input.ids.length; i++) key += `${input.ids[i]}<${input.parents[i]};`;
  return key;
}

function positionsOf(input: LayoutInput, result: LayoutResult, key: string): Positions {
  const byId = new Map<string, { x: number; y: number }>();
  input.ids.forEach((id, i) =>
    byId.set(id, { x: result.positions[i * 2]!, y: result.positions[i * 2 + 1]! }),
  );
  return { key, byId };
}

/** The session graph: React Flow over the derived graph, with folds, filters and keys. */
export const SessionTree = memo(function SessionTree(props: SessionTreeProps) {
  return (
    <ReactFlowProvider>
      <SessionTreeInner {...props} />
    </ReactFlowProvider>
  );
});

function SessionTreeInner({
  sessionId,
  tree,
  leafId,
  readOnly,
  onNavigate,
  onSetLabel,
}: SessionTreeProps) {
  const flow = useReactFlow();
  const [filter, setFilter] = useState<TreeFilter>('all');
  const [expanded, setExpanded] = useState<ReadonlySet<string>>(new Set());
  const [summary, setSummary] = useState<SummaryChoice>({ mode: 'none', instructions: '' });
  const [focusedId, setFocusedId] = useState<string | null>(null);
  const [labelTarget, setLabelTarget] = useState<string | null>(null);
  const [shownSession, setShownSession] = useState(sessionId);
  if (shownSession !== sessionId) {
    setShownSession(sessionId);
    setExpanded(new Set());
    setFocusedId(null);
  }

  const graph = useMemo(
    () => sessionToGraph(tree, { leafId, filter, expanded }),
    [tree, leafId, filter, expanded],
  );
  const byEntryId = useMemo(() => new Map(tree.map((node) => [node.id, node])), [tree]);

  // Layout: inline for small graphs, in a worker for big ones; reused while the shape is unchanged.
  const input = useMemo(
    () => layoutInputOf(graph.nodes.map((node) => ({ id: node.id, parentId: node.data.parentId }))),
    [graph],
  );
  const key = useMemo(() => structureKey(input), [input]);
  const [asyncPositions, setAsyncPositions] = useState<Positions | null>(null);
  const syncPositions = useMemo(() => {
    if (input.ids.length > WORKER_THRESHOLD) return null;
    return positionsOf(input, layoutTree(input), key);
  }, [input, key]);
  useEffect(() => {
    if (syncPositions || asyncPositions?.key === key) return;
    let live = true;
    void runLayout(input).then((result) => {
      if (live && result) setAsyncPositions(positionsOf(input, result, key));
    });
    return () => {
      live = false;
    };
  }, [input, key, syncPositions, asyncPositions]);
  const positions = syncPositions ?? asyncPositions;

  const nodes = useMemo<Node<GraphNodeData>[]>(() => {
    if (!positions) return [];
    const placed = positions.byId;
    return graph.nodes.map((node) => {
      const position = placed.get(node.id) ??
        (node.data.parentId ? placed.get(node.data.parentId) : undefined) ?? { x: 0, y: 0 };
      return {
        id: node.id,
        type: node.type,
        position,
        data: node.data,
        draggable: false,
        selectable: false,
        connectable: false,
        width: NODE_WIDTH,
        height: NODE_HEIGHT,
        // Known handles let React Flow skip its first-render measurement of every node, so only
        // the nodes in view are ever mounted.
        handles: NODE_HANDLES,
        // Sizes are fixed by CSS: declaring them lets fit-view count nodes never mounted.
        measured: { width: NODE_WIDTH, height: NODE_HEIGHT },
      };
    });
  }, [graph, positions]);
  const edges = useMemo<Edge[]>(
    () =>
      graph.edges.map((edge) => ({
        id: edge.id,
        source: edge.source,
        target: edge.target,
        ...(edge.className ? { className: edge.className } : {}),
        focusable: false,
        selectable: false,
      })),
    [graph],
  );

  const centerOn = useCallback(
    (nodeId: string | null, animate: boolean) => {
      if (!nodeId || !positions) return;
      const at = positions.byId.get(nodeId);
      if (!at) return;
      const zoom = Math.max(flow.getZoom(), 0.8);
      void flow.setCenter(at.x + NODE_WIDTH / 2, at.y + NODE_HEIGHT / 2, {
        zoom,
        duration: animate ? 250 : 0,
      });
    },
    [flow, positions],
  );

  // Open each session centred on its leaf.
  const centredFor = useRef<string | null>(null);
  useEffect(() => {
    if (!positions || centredFor.current === sessionId) return;
    centredFor.current = sessionId;
    centerOn(graph.leafNodeId ?? graph.roots[0] ?? null, false);
  }, [positions, sessionId, graph, centerOn]);

  const canvas = useRef<HTMLDivElement>(null);
  const isInView = useCallback(
    (nodeId: string): boolean => {
      const at = positions?.byId.get(nodeId);
      const box = canvas.current?.getBoundingClientRect();
      if (!at || !box || box.width === 0) return false;
      const { x, y, zoom } = flow.getViewport();
      const sx = at.x * zoom + x;
      const sy = at.y * zoom + y;
      return (
        sx >= 0 &&
        sy >= 0 &&
        sx + NODE_WIDTH * zoom <= box.width &&
        sy + NODE_HEIGHT * zoom <= box.height
      );
    },
    [flow, positions],
  );

  // Follow the leaf when it moves out of sight (a new answer, a click elsewhere, another tab).
  const followed = useRef<string | null>(null);
  useEffect(() => {
    const leaf = graph.leafNodeId;
    if (!positions || !leaf || followed.current === leaf) return;
    followed.current = leaf;
    if (!isInView(leaf)) centerOn(leaf, false);
  }, [positions, graph.leafNodeId, isInView, centerOn]);

  // A panel that was hidden (narrow screens) has no size: centre on the leaf once it is shown.
  const leafRef = useRef(graph.leafNodeId);
  leafRef.current = graph.leafNodeId;
  useEffect(() => {
    const element = canvas.current;
    if (!element || typeof ResizeObserver === 'undefined') return;
    let hidden = element.getBoundingClientRect().width === 0;
    const observer = new ResizeObserver(() => {
      const nowHidden = element.getBoundingClientRect().width === 0;
      if (hidden && !nowHidden) requestAnimationFrame(() => centerOn(leafRef.current, false));
      hidden = nowHidden;
    });
    observer.observe(element);
    return () => observer.disconnect();
  }, [centerOn]);

  // A new filter moves every node: keep the leaf where the eye is.
  const centredFilter = useRef(filter);
  useEffect(() => {
    if (!positions || centredFilter.current === filter) return;
    centredFilter.current = filter;
    centerOn(graph.leafNodeId ?? graph.roots[0] ?? null, false);
  }, [positions, filter, graph, centerOn]);

  const activate = useCallback(
    (nodeId: string) => {
      if (nodeId.startsWith('fold:') || nodeId.startsWith('segment:')) {
        setExpanded((open) => new Set(open).add(nodeId));
        return;
      }
      const entry = byEntryId.get(nodeId);
      if (entry && !readOnly) onNavigate(entry, summary);
    },
    [byEntryId, onNavigate, readOnly, summary],
  );

  const onNodeClick = useCallback((_: unknown, node: Node) => activate(node.id), [activate]);

  const effectiveFocus =
    focusedId && graph.childrenOf.has(focusedId)
      ? focusedId
      : (graph.leafNodeId ?? graph.roots[0] ?? null);

  const moveFocus = useCallback(
    (nodeId: string | null) => {
      if (!nodeId) return;
      setFocusedId(nodeId);
      const at = positions?.byId.get(nodeId);
      if (at) {
        const { x, y, zoom } = flow.getViewport();
        const box = document.querySelector('.session-tree-canvas')?.getBoundingClientRect();
        const sx = at.x * zoom + x;
        const sy = at.y * zoom + y;
        if (
          !box ||
          sx < 0 ||
          sy < 0 ||
          sx + NODE_WIDTH * zoom > box.width ||
          sy + NODE_HEIGHT * zoom > box.height
        )
          centerOn(nodeId, false);
      }
      requestAnimationFrame(() => {
        const element = document.querySelector<HTMLElement>(
          `.react-flow__node[data-id="${CSS.escape(nodeId)}"] [role="button"]`,
        );
        element?.focus({ preventScroll: true });
      });
    },
    [centerOn, flow, positions],
  );

  const onKeyDown = useCallback(
    (event: React.KeyboardEvent) => {
      const current = effectiveFocus;
      if (!current) return;
      const node = graph.nodes.find((n) => n.id === current);
      const parentId = node?.data.parentId ?? null;
      const siblings = parentId === null ? graph.roots : (graph.childrenOf.get(parentId) ?? []);
      const index = siblings.indexOf(current);
      let target: string | null | undefined;
      switch (event.key) {
        case 'ArrowUp':
          target = parentId;
          break;
        case 'ArrowDown': {
          const children = graph.childrenOf.get(current) ?? [];
          const onPath = children.find((id) => graph.nodes.find((n) => n.id === id)?.data.onPath);
          target = onPath ?? children[0];
          break;
        }
        case 'ArrowLeft':
          target = siblings[index - 1];
          break;
        case 'ArrowRight':
          target = siblings[index + 1];
          break;
        case 'Home':
          target = graph.leafNodeId;
          break;
        case 'Enter':
        case ' ':
          if ((event.target as HTMLElement).getAttribute('role') !== 'button') return;
          event.preventDefault();
          activate(current);
          return;
        default:
          return;
      }
      event.preventDefault();
      if (target) moveFocus(target);
    },
    [activate, effectiveFocus, graph, moveFocus],
  );

  const actions = useMemo<TreeActions>(
    () => ({
      activate,
      editLabel: setLabelTarget,
      focusedId: effectiveFocus,
      setFocused: setFocusedId,
      readOnly,
    }),
    [activate, effectiveFocus, readOnly],
  );

  const labelEntry = labelTarget ? byEntryId.get(labelTarget) : undefined;

  return (
    <TreeActionsContext.Provider value={actions}>
      <TreeToolbar
        filter={filter}
        onFilter={setFilter}
        summary={summary}
        onSummary={setSummary}
        onFitLeaf={() => centerOn(graph.leafNodeId, true)}
        onFitAll={() => void flow.fitView({ duration: 250 })}
        readOnly={readOnly}
        count={graph.nodes.length}
      />
      <div className="session-tree-canvas" ref={canvas} onKeyDown={onKeyDown}>
        <ReactFlow
          nodes={nodes}
          edges={edges}
          nodeTypes={nodeTypes}
          onlyRenderVisibleElements
          nodesDraggable={false}
          nodesConnectable={false}
          nodesFocusable={false}
          edgesFocusable={false}
          elementsSelectable={false}
          minZoom={0.05}
          maxZoom={2}
          onNodeClick={onNodeClick}
          zoomOnDoubleClick={false}
          deleteKeyCode={null}
          selectionKeyCode={null}
          multiSelectionKeyCode={null}
        >
          <Background gap={24} size={1} />
          <Controls showInteractive={false} />
          {nodes.length <= MINIMAP_LIMIT ? (
            <MiniMap
              pannable
              zoomable
              ariaLabel="Tree overview"
              nodeClassName={(node) =>
                (node.data as GraphNodeData).isLeaf
                  ? 'minimap-leaf'
                  : (node.data as GraphNodeData).onPath
                    ? 'minimap-path'
                    : ''
              }
            />
          ) : null}
        </ReactFlow>
      </div>
      {labelEntry ? (
        <LabelDialog
          entry={labelEntry}
          onSave={(label) => {
            onSetLabel(labelEntry.id, label);
            setLabelTarget(null);
          }}
          onCancel={() => setLabelTarget(null)}
        />
      ) : null}
    </TreeActionsContext.Provider>
  );
}
