import { useCallback, useEffect, useState, type ReactNode } from 'react';
import type { Node } from '@xyflow/react';
import type { TreeNode } from '../../../shared/session-entries';
import { NodeMenu, type NodeMenuAction } from './NodeMenu';

/*
 * The graph's one node menu (decision 117): which node it is open on and where, what its items
 * do, the right-click that opens it, and the moment "Copied" is said after a copy.
 */

interface NodeMenuDeps {
  sessionId: string;
  byId: ReadonlyMap<string, TreeNode>;
  readOnly: boolean;
  read(entryId: string): void;
  activate(entryId: string): void;
  label(entryId: string): void;
  /** Resolves to whether the text was copied. */
  copy(entryId: string): Promise<boolean>;
}

export function useNodeMenu(deps: NodeMenuDeps): {
  menuFor: string | null;
  openMenu(entryId: string, anchor: HTMLElement): void;
  copyNode(entryId: string): void;
  onNodeContextMenu(event: React.MouseEvent, node: Node): void;
  /** The open menu and the status line, drawn beside the graph. */
  layer: ReactNode;
} {
  const { sessionId, byId, readOnly, read, activate, label, copy } = deps;
  const [menu, setMenu] = useState<{ entryId: string; anchor: HTMLElement } | null>(null);
  const [shownSession, setShownSession] = useState(sessionId);
  if (shownSession !== sessionId) {
    setShownSession(sessionId);
    setMenu(null);
  }
  const [copied, setCopied] = useState(0);
  useEffect(() => {
    if (!copied) return undefined;
    const timer = setTimeout(() => setCopied(0), 1500);
    return () => clearTimeout(timer);
  }, [copied]);

  const copyNode = useCallback(
    (entryId: string) => {
      void copy(entryId).then((done) => {
        if (done) setCopied((n) => n + 1);
      });
    },
    [copy],
  );

  const openMenu = useCallback(
    (entryId: string, anchor: HTMLElement) => {
      if (byId.has(entryId)) setMenu({ entryId, anchor });
    },
    [byId],
  );

  const onNodeContextMenu = useCallback(
    (event: React.MouseEvent, node: Node) => {
      if (!byId.has(node.id)) return;
      event.preventDefault();
      const frame = event.currentTarget as HTMLElement;
      openMenu(node.id, frame.querySelector<HTMLElement>('[role="button"]') ?? frame);
    },
    [byId, openMenu],
  );

  const onAction = (entryId: string, action: NodeMenuAction) => {
    setMenu(null);
    if (action === 'read') read(entryId);
    else if (action === 'activate') activate(entryId);
    else if (action === 'label') label(entryId);
    else copyNode(entryId);
  };

  const entry = menu ? byId.get(menu.entryId) : undefined;
  const layer = (
    <>
      <p className="tree-status" role="status">
        {copied ? 'Copied the node’s text' : ''}
      </p>
      {menu && entry ? (
        <NodeMenu
          anchor={{ current: menu.anchor }}
          role={entry.role ?? entry.type}
          readOnly={readOnly}
          onAction={(action) => onAction(menu.entryId, action)}
          onClose={() => setMenu(null)}
        />
      ) : null}
    </>
  );
  return { menuFor: menu?.entryId ?? null, openMenu, copyNode, onNodeContextMenu, layer };
}
