import { memo, useCallback, useEffect, useLayoutEffect, useMemo, useRef, useState } from 'react';
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
import type { TreeFilter } from '../graph/entry-kinds';
import type { GraphItem } from '../graph/graph-items';
import type { GraphEdge, GraphNode, GraphNodeData } from '../graph/session-to-graph';
import { NODE_HEIGHT, NODE_WIDTH } from '../graph/tree-layout';
import { openView, shownSessionId } from '../state/page-selectors';
import { usePage } from '../state/use-page-store';
import { edgeTypes, nodeTypes } from './node-types';
import { ActiveMarks, ActiveMarksContext, MARK_LEAF, MARK_PATH } from './active-marks';
import { TreeActionsContext, type TreeActions } from './tree-actions';
import { LabelDialog } from './LabelDialog';
import { TreeToolbar, type SummaryChoice } from './TreeToolbar';
import { useSessionGraph } from './use-session-graph';
import { useGraphLayout } from './use-graph-layout';
import { useEntryReveal } from './use-entry-reveal';
import { useLeafFollow } from './use-leaf-follow';
import { useThemeInEffect } from '../theme/theme';
import { useNodeMenu } from './use-node-menu';
import { useNodeKeys } from './use-node-keys';

export interface SessionTreeProps {
  /** A click on an entry (the click rule is applied by the caller). */
  onNavigate(entry: TreeNode, summary: SummaryChoice): void;
  /**
   * Read the path to an entry in the chat without moving the leaf: a viewer's click, and anyone's
   * Alt+click, R key or "Read this branch" button (decision 076).
   */
  onRead(entryId: string): void;
  /** The pointer rests on an entry a click may act on: a chance to fetch what the click needs. */
  onPrefetch(entry: TreeNode): void;
  onSetLabel(entryId: string, label: string | undefined): void;
  /** "Copy text" of a node's menu, or C on a focused node; resolves to whether it was copied. */
  onCopy(entryId: string): Promise<boolean>;
}

/** Graphs with more drawn nodes than this go without a minimap (it would draw every node). */
const MINIMAP_LIMIT = 1500;

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

type Point = { x: number; y: number };

// React Flow objects are kept per drawn item (and position) and per edge id: a leaf move restyles
// through the active marks, not through new nodes or edges, so React Flow gets the very same
// objects, and arrays, as before.
const flowNodes = new WeakMap<GraphItem, { at: Point; node: Node<GraphNodeData> }>();

function flowNodeOf(node: GraphNode, at: Point): Node<GraphNodeData> {
  const cached = flowNodes.get(node.data.item);
  if (cached && cached.at === at) return cached.node;
  const made: Node<GraphNodeData> = {
    id: node.id,
    type: node.type,
    position: at,
    // Its path and leaf marks are read from the active marks, never from here.
    data: node.data,
    draggable: false,
    selectable: false,
    connectable: false,
    width: NODE_WIDTH,
    height: NODE_HEIGHT,
    // Known handles let React Flow skip its first-render measurement of every node.
    handles: NODE_HANDLES,
    // Sizes are fixed by CSS: declaring them lets React Flow place nodes never mounted.
    measured: { width: NODE_WIDTH, height: NODE_HEIGHT },
  };
  flowNodes.set(node.data.item, { at, node: made });
  return made;
}

function flowEdgeOf(cache: Map<string, Edge>, edge: GraphEdge): Edge {
  let made = cache.get(edge.id);
  if (!made) {
    made = {
      id: edge.id,
      source: edge.source,
      target: edge.target,
      type: 'tree',
      focusable: false,
      selectable: false,
    };
    cache.set(edge.id, made);
  }
  return made;
}

/** What the graph draws of the open session, read from the page store. */
interface DrawnSession {
  sessionId: string;
  tree: TreeNode[];
  /** The same entries by id. */
  byId: ReadonlyMap<string, TreeNode>;
  leafId: string | null;
  readOnly: boolean;
}

const NO_TREE: TreeNode[] = [];
const NO_ENTRIES: ReadonlyMap<string, TreeNode> = new Map();

/**
 * The open session's graph (nothing before its first snapshot): React Flow over the derived
 * graph, with folds, filters and keys. It re-renders when the session's entries, leaf or access
 * change, never for a streamed delta.
 */
export const SessionTree = memo(function SessionTree(props: SessionTreeProps) {
  const sessionId = usePage(shownSessionId);
  const tree = usePage((state) => openView(state)?.tree ?? NO_TREE);
  const byId = usePage((state) => openView(state)?.byId ?? NO_ENTRIES);
  const leafId = usePage((state) => openView(state)?.leafId ?? null);
  const readOnly = usePage((state) => !(openView(state)?.access.canWrite ?? false));
  if (!sessionId) return null;
  return (
    <ReactFlowProvider>
      <SessionTreeInner
        {...props}
        sessionId={sessionId}
        tree={tree}
        byId={byId}
        leafId={leafId}
        readOnly={readOnly}
      />
    </ReactFlowProvider>
  );
});

function SessionTreeInner({
  sessionId,
  tree,
  byId,
  leafId,
  readOnly,
  onNavigate,
  onRead,
  onPrefetch,
  onSetLabel,
  onCopy,
}: SessionTreeProps & DrawnSession) {
  const flow = useReactFlow();
  const theme = useThemeInEffect();
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

  const graph = useSessionGraph(sessionId, tree, byId, leafId, filter, expanded);
  const placement = useGraphLayout(graph);
  const nodeById = useMemo(() => new Map(graph.nodes.map((node) => [node.id, node])), [graph]);

  // The active marks follow every graph, restyled or derived, before the browser paints.
  const [marks] = useState(() => new ActiveMarks());
  useLayoutEffect(() => {
    const drawnOnPath = new Set<string>();
    for (const id of graph.activePath) {
      const node = graph.nodeOfEntry.get(id);
      if (node === id || node?.startsWith('settings:')) drawnOnPath.add(node);
    }
    marks.set(drawnOnPath, graph.leafNodeId);
  }, [graph, marks]);

  const effectiveFocus =
    focusedId && nodeById.has(focusedId) ? focusedId : (graph.leafNodeId ?? graph.roots[0] ?? null);

  // What React Flow gets depends on the drawn shape and the layout only: a restyled
  // graph has the same items and edges, so the arrays stay the same and React Flow does nothing.
  const latest = useRef(graph);
  latest.current = graph;
  const edgeCache = useRef({ sessionId, edges: new Map<string, Edge>() });
  if (edgeCache.current.sessionId !== sessionId)
    edgeCache.current = { sessionId, edges: new Map<string, Edge>() };
  const { shape } = graph;
  const { nodes, edges } = useMemo(() => {
    const current = latest.current;
    const cache = edgeCache.current.edges;
    const nodes: Node<GraphNodeData>[] = [];
    const edges: Edge[] = [];
    if (!placement) return { nodes, edges };
    const place = (node: GraphNode): void => {
      const at =
        placement.byId.get(node.id) ??
        (node.data.parentId ? placement.byId.get(node.data.parentId) : undefined);
      // A node the running layout has not placed yet waits for it.
      if (!at) return;
      nodes.push(flowNodeOf(node, at));
    };
    // React Flow draws only what is in view (`onlyRenderVisibleElements`): it gets every node.
    for (const node of current.nodes) place(node);
    for (const edge of current.edges) edges.push(flowEdgeOf(cache, edge));
    return { nodes, edges };
    // `shape` stands for the items and edges of `latest.current` (a restyle keeps them).
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [shape, placement]);

  const centerOn = useCallback(
    (nodeId: string | null, animate: boolean) => {
      if (!nodeId || !placement) return;
      const at = placement.byId.get(nodeId);
      if (!at) return;
      const zoom = Math.max(flow.getZoom(), 0.8);
      void flow.setCenter(at.x + NODE_WIDTH / 2, at.y + NODE_HEIGHT / 2, {
        zoom,
        duration: animate ? 250 : 0,
      });
    },
    [flow, placement],
  );

  // Open each session centred on its leaf.
  const centredFor = useRef<string | null>(null);
  useEffect(() => {
    if (!placement || centredFor.current === sessionId) return;
    centredFor.current = sessionId;
    centerOn(graph.leafNodeId ?? graph.roots[0] ?? null, false);
  }, [placement, sessionId, graph, centerOn]);

  const canvas = useRef<HTMLDivElement>(null);
  const { isInView, fitClear, onMoveStart, onMoveEnd } = useLeafFollow(
    canvas,
    placement,
    sessionId,
    graph.leafNodeId,
    centerOn,
  );

  // Search opens a session at an entry: centre on it and mark it, the leaf where it is.
  useEntryReveal({ sessionId, graph, placement, canvas, setExpanded, centerOn, setFocusedId });

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
    if (!placement || centredFilter.current === filter) return;
    centredFilter.current = filter;
    centerOn(graph.leafNodeId ?? graph.roots[0] ?? null, false);
  }, [placement, filter, graph, centerOn]);

  const activate = useCallback(
    (nodeId: string) => {
      if (/^(fold|segment|settings):/.test(nodeId)) {
        setExpanded((open) => new Set(open).add(nodeId));
        return;
      }
      const entry = byId.get(nodeId);
      if (!entry) return;
      // Who may not act reads instead: the click never moves the leaf for them.
      if (readOnly) onRead(entry.id);
      else onNavigate(entry, summary);
    },
    [byId, onNavigate, onRead, readOnly, summary],
  );

  const read = useCallback(
    (nodeId: string) => {
      if (byId.has(nodeId)) onRead(nodeId);
    },
    [byId, onRead],
  );

  const prefetch = useCallback(
    (nodeId: string) => {
      const entry = byId.get(nodeId);
      if (entry && !readOnly) onPrefetch(entry);
    },
    [byId, onPrefetch, readOnly],
  );

  const nodeMenu = useNodeMenu({
    sessionId,
    byId,
    readOnly,
    read,
    activate,
    label: setLabelTarget,
    copy: onCopy,
  });
  const { openMenu, copyNode } = nodeMenu;

  const onNodeClick = useCallback(
    (event: React.MouseEvent, node: Node) => {
      if (event.altKey && !node.id.startsWith('fold:') && !node.id.startsWith('segment:'))
        read(node.id);
      else activate(node.id);
    },
    [activate, read],
  );

  const onKeyDown = useNodeKeys({
    canvas,
    graph,
    nodeById,
    current: effectiveFocus,
    setFocusedId,
    isInView,
    centerOn,
    byId,
    readOnly,
    read,
    activate,
    label: setLabelTarget,
    copy: copyNode,
    openMenu,
  });

  // A new function for every graph, so that the minimap redraws the marks after a leaf move.
  const minimapClass = useCallback(
    (node: Node) => {
      void graph;
      const mark = marks.markOf(node.id);
      return mark === MARK_LEAF ? 'minimap-leaf' : mark === MARK_PATH ? 'minimap-path' : '';
    },
    [graph, marks],
  );

  const actions = useMemo<TreeActions>(
    () => ({
      activate,
      read,
      prefetch,
      editLabel: setLabelTarget,
      openMenu,
      menuFor: nodeMenu.menuFor,
      focusedId: effectiveFocus,
      setFocused: setFocusedId,
      readOnly,
    }),
    [activate, read, prefetch, openMenu, nodeMenu.menuFor, effectiveFocus, readOnly],
  );

  const labelEntry = labelTarget ? byId.get(labelTarget) : undefined;

  return (
    <ActiveMarksContext.Provider value={marks}>
      <TreeActionsContext.Provider value={actions}>
        <TreeToolbar
          filter={filter}
          onFilter={setFilter}
          summary={summary}
          onSummary={setSummary}
          onFitLeaf={() => centerOn(graph.leafNodeId, true)}
          onFitAll={() => {
            if (placement) fitClear(placement.bounds);
          }}
          readOnly={readOnly}
          count={graph.nodes.length}
        />
        <div className="session-tree-canvas" ref={canvas} onKeyDown={onKeyDown}>
          <ReactFlow
            colorMode={theme}
            nodes={nodes}
            edges={edges}
            nodeTypes={nodeTypes}
            edgeTypes={edgeTypes}
            onlyRenderVisibleElements
            nodesDraggable={false}
            nodesConnectable={false}
            nodesFocusable={false}
            edgesFocusable={false}
            elementsSelectable={false}
            minZoom={0.05}
            maxZoom={2}
            onNodeClick={onNodeClick}
            onNodeContextMenu={nodeMenu.onNodeContextMenu}
            onMoveStart={onMoveStart}
            onMoveEnd={onMoveEnd}
            zoomOnDoubleClick={false}
            deleteKeyCode={null}
            selectionKeyCode={null}
            multiSelectionKeyCode={null}
          >
            <Background gap={24} size={1} />
            {/* React Flow's own fit button would fit only the nodes it holds; "Fit all" fits the graph. */}
            <Controls showInteractive={false} showFitView={false} />
            {graph.nodes.length <= MINIMAP_LIMIT ? (
              <MiniMap pannable zoomable ariaLabel="Tree overview" nodeClassName={minimapClass} />
            ) : null}
          </ReactFlow>
        </div>
        {nodeMenu.layer}
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
    </ActiveMarksContext.Provider>
  );
}
