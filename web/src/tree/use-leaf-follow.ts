import { useCallback, useEffect, useRef, type RefObject } from 'react';
import { useReactFlow } from '@xyflow/react';
import type { Placement } from '../graph/placement';
import { NODE_HEIGHT, NODE_WIDTH } from '../graph/tree-layout';
import { freeRects, largestFree, panIntoFree, type Box } from './free-area';

/*
 * The view follows the leaf: when it moves (a new answer, a move in another tab) and is not fully
 * in sight, the view pans by the least that shows it clear of every overlay drawn over the graph
 * (the minimap, the zoom controls, any panel), or centres on it when it is far away. Not while the
 * user drags the canvas, nor after the user moved the view so that the old leaf is out of sight.
 */

/** How close to the free area's edge (in screen pixels) the leaf may sit before the view follows. */
const FOLLOW_MARGIN = 24;

/** The share of the free area left around a fitted graph, on each side. */
const FIT_PADDING = 0.05;
/** The zoom range of the graph (SessionTree's minZoom and maxZoom). */
const MIN_ZOOM = 0.05;
const MAX_ZOOM = 2;

/** What is drawn over the graph: React Flow's panels and anything marked as an overlay. */
const OVERLAYS = '.react-flow__panel, [data-graph-overlay]';

interface LeafFollow {
  /** Whether a node lies fully inside the canvas. */
  isInView(nodeId: string): boolean;
  /** Fits `bounds` (graph coordinates) into the largest part of the canvas no overlay covers. */
  fitClear(bounds: Box): void;
  onMoveStart(event: MouseEvent | TouchEvent | null): void;
  onMoveEnd(): void;
}

export function useLeafFollow(
  canvas: RefObject<HTMLDivElement | null>,
  placement: Placement | null,
  sessionId: string,
  leafNodeId: string | null,
  centerOn: (nodeId: string | null, animate: boolean) => void,
): LeafFollow {
  const flow = useReactFlow();

  /** Where a node sits on the canvas, in screen pixels relative to the canvas (null: unknown). */
  const screenBoxOf = useCallback(
    (nodeId: string) => {
      const at = placement?.byId.get(nodeId);
      const box = canvas.current?.getBoundingClientRect();
      if (!at || !box || box.width === 0) return null;
      const { x, y, zoom } = flow.getViewport();
      const node: Box = {
        x: at.x * zoom + x,
        y: at.y * zoom + y,
        width: NODE_WIDTH * zoom,
        height: NODE_HEIGHT * zoom,
      };
      return { node, canvas: box };
    },
    [canvas, flow, placement],
  );

  const isInView = useCallback(
    (nodeId: string): boolean => {
      const at = screenBoxOf(nodeId);
      if (!at) return false;
      const { node } = at;
      return (
        node.x >= 0 &&
        node.y >= 0 &&
        node.x + node.width <= at.canvas.width &&
        node.y + node.height <= at.canvas.height
      );
    },
    [screenBoxOf],
  );

  /** The overlays' boxes, relative to the canvas. */
  const overlaysOf = useCallback(
    (box: DOMRect): Box[] => {
      const found = canvas.current?.querySelectorAll<HTMLElement>(OVERLAYS) ?? [];
      const boxes: Box[] = [];
      for (const element of found) {
        const rect = element.getBoundingClientRect();
        if (rect.width === 0 || rect.height === 0) continue;
        boxes.push({
          x: rect.x - box.x,
          y: rect.y - box.y,
          width: rect.width,
          height: rect.height,
        });
      }
      return boxes;
    },
    [canvas],
  );

  /** Pans just enough to bring a node clear of the overlays (centres on it when far away). */
  const bringIntoView = useCallback(
    (nodeId: string) => {
      const at = screenBoxOf(nodeId);
      if (!at) return;
      const { node } = at;
      const { width, height } = at.canvas;
      if (node.x < -width || node.x > 2 * width || node.y < -height || node.y > 2 * height) {
        centerOn(nodeId, true);
        return;
      }
      const area: Box = { x: 0, y: 0, width, height };
      const overlays = overlaysOf(at.canvas);
      let pan = panIntoFree(node, area, overlays, FOLLOW_MARGIN);
      if (!pan) {
        // No free part has room for it: centre it in the largest.
        const free = largestFree(area, overlays);
        pan = {
          dx: free.x + free.width / 2 - (node.x + node.width / 2),
          dy: free.y + free.height / 2 - (node.y + node.height / 2),
        };
      }
      if (pan.dx === 0 && pan.dy === 0) return;
      const viewport = flow.getViewport();
      void flow.setViewport(
        { x: viewport.x + pan.dx, y: viewport.y + pan.dy, zoom: viewport.zoom },
        { duration: 200 },
      );
    },
    [flow, screenBoxOf, overlaysOf, centerOn],
  );

  const fitClear = useCallback(
    (bounds: Box) => {
      const box = canvas.current?.getBoundingClientRect();
      if (!box || box.width === 0 || bounds.width <= 0 || bounds.height <= 0) return;
      const area: Box = { x: 0, y: 0, width: box.width, height: box.height };
      // Of the parts no overlay covers, the one that shows the graph largest.
      let best: { free: Box; zoom: number } | null = null;
      for (const free of freeRects(area, overlaysOf(box))) {
        const zoom = Math.min(
          (free.width * (1 - 2 * FIT_PADDING)) / bounds.width,
          (free.height * (1 - 2 * FIT_PADDING)) / bounds.height,
        );
        if (!best || zoom > best.zoom) best = { free, zoom };
      }
      if (!best) return;
      const zoom = Math.min(MAX_ZOOM, Math.max(MIN_ZOOM, best.zoom));
      const { free } = best;
      void flow.setViewport(
        {
          x: free.x + free.width / 2 - (bounds.x + bounds.width / 2) * zoom,
          y: free.y + free.height / 2 - (bounds.y + bounds.height / 2) * zoom,
          zoom,
        },
        { duration: 250 },
      );
    },
    [canvas, flow, overlaysOf],
  );

  const dragging = useRef(false);
  const userMoved = useRef(false);
  const followed = useRef<string | null>(null);
  useEffect(() => {
    const leaf = leafNodeId;
    if (!placement || !leaf || followed.current === leaf) return;
    // A leaf the running layout has not placed yet is followed once it is.
    if (!placement.byId.has(leaf)) return;
    const previous = followed.current;
    followed.current = leaf;
    if (previous === null || dragging.current) return;
    if (userMoved.current && !isInView(previous)) return;
    userMoved.current = false;
    bringIntoView(leaf);
  }, [placement, leafNodeId, isInView, bringIntoView]);
  useEffect(() => {
    followed.current = null;
    userMoved.current = false;
  }, [sessionId]);
  const onMoveStart = useCallback((event: MouseEvent | TouchEvent | null) => {
    if (!event) return;
    dragging.current = true;
    userMoved.current = true;
  }, []);
  const onMoveEnd = useCallback(() => {
    dragging.current = false;
  }, []);

  return { isInView, fitClear, onMoveStart, onMoveEnd };
}
