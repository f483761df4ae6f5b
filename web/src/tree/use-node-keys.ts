import { useCallback, type RefObject } from 'react';
import type { Node } from '@xyflow/react';
import type { TreeNode } from '../../../shared/session-entries';
import type { GraphNodeData, SessionGraph } from '../graph/session-to-graph';

/*
 * The graph's keys on a focused node: arrows move along the tree (up to the parent, down the
 * path, across siblings), Home to the leaf, Enter or Space the click rule, R reads its branch,
 * L labels, C copies its text, Shift+F10 or the context-menu key opens its menu (decision 117).
 */

interface NodeKeysDeps {
  canvas: RefObject<HTMLDivElement | null>;
  graph: SessionGraph;
  nodeById: ReadonlyMap<string, Node<GraphNodeData>>;
  /** The node keyboard focus is on (roving tabindex). */
  current: string | null;
  setFocusedId(nodeId: string): void;
  isInView(nodeId: string): boolean;
  centerOn(nodeId: string | null, animate: boolean): void;
  byId: ReadonlyMap<string, TreeNode>;
  readOnly: boolean;
  read(entryId: string): void;
  activate(nodeId: string): void;
  label(entryId: string): void;
  copy(entryId: string): void;
  openMenu(entryId: string, anchor: HTMLElement): void;
}

export function useNodeKeys(deps: NodeKeysDeps): (event: React.KeyboardEvent) => void {
  const { canvas, graph, nodeById, current, setFocusedId, isInView, centerOn } = deps;
  const { byId, readOnly, read, activate, label, copy, openMenu } = deps;
  const moveFocus = useCallback(
    (nodeId: string | null) => {
      if (!nodeId) return;
      setFocusedId(nodeId);
      if (!isInView(nodeId)) centerOn(nodeId, false);
      // The node may mount a frame or two later (when the view moved to it): wait for it.
      let tries = 0;
      const focus = (): void => {
        const element = canvas.current?.querySelector<HTMLElement>(
          `.react-flow__node[data-id="${CSS.escape(nodeId)}"] [role="button"]`,
        );
        if (element) element.focus({ preventScroll: true });
        else if (++tries < 10) requestAnimationFrame(focus);
      };
      requestAnimationFrame(focus);
    },
    [centerOn, isInView, canvas, setFocusedId],
  );

  return useCallback(
    (event: React.KeyboardEvent) => {
      if (!current) return;
      const node = nodeById.get(current);
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
          const onPath = children.find((id) => nodeById.get(id)?.data.onPath);
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
        case 'r':
        case 'R':
        case 'l':
        case 'L':
        case 'c':
        case 'C': {
          if ((event.target as HTMLElement).getAttribute('role') !== 'button') return;
          // Ctrl+C and the like keep their meaning.
          if (event.ctrlKey || event.metaKey || event.altKey) return;
          if (!byId.has(current)) return;
          event.preventDefault();
          const key = event.key.toLowerCase();
          if (key === 'r') read(current);
          else if (key === 'c') copy(current);
          else if (!readOnly) label(current);
          return;
        }
        case 'ContextMenu':
        case 'F10': {
          const element = event.target as HTMLElement;
          if (element.getAttribute('role') !== 'button') return;
          if (event.key === 'F10' && !event.shiftKey) return;
          event.preventDefault();
          openMenu(current, element);
          return;
        }
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
    [activate, read, current, graph, nodeById, moveFocus, byId, copy, label, readOnly, openMenu],
  );
}
