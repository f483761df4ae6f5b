import { BookOpen, Copy, CornerDownRight, PencilLine, Tag } from 'lucide-react';
import type { RefObject } from 'react';
import { Keyboard, Menu, MenuItem, Popover, Text } from 'react-aria-components';
import './node-menu.css';

export type NodeMenuAction = 'read' | 'activate' | 'label' | 'copy';

/**
 * A node's menu in the graph: read its branch, continue from it (for a prompt: edit it and run
 * again), label it, copy its text, each with the key that does the same on a focused node. Opened
 * by the node's "⋯" button, a right-click, or the context-menu key (Shift+F10).
 */
export function NodeMenu({
  anchor,
  role,
  readOnly,
  onAction,
  onClose,
}: {
  anchor: RefObject<HTMLElement | null>;
  role: string;
  readOnly: boolean;
  onAction(action: NodeMenuAction): void;
  onClose(): void;
}) {
  const prompt = role === 'user';
  return (
    <Popover
      className="node-menu-popover"
      aria-label={`Actions for ${role} node`}
      triggerRef={anchor}
      isOpen
      onOpenChange={(open) => {
        if (!open) onClose();
      }}
      placement="bottom end"
    >
      <Menu
        className="node-menu"
        aria-label={`Actions for ${role} node`}
        autoFocus="first"
        onAction={(key) => onAction(key as NodeMenuAction)}
        onClose={onClose}
      >
        <MenuItem id="read" className="node-menu-item" textValue="Read this branch">
          <BookOpen aria-hidden size={14} />
          <Text slot="label">Read this branch</Text>
          <Keyboard>R</Keyboard>
        </MenuItem>
        {readOnly ? null : (
          <MenuItem
            id="activate"
            className="node-menu-item"
            textValue={prompt ? 'Edit and run again' : 'Continue from here'}
          >
            {prompt ? (
              <PencilLine aria-hidden size={14} />
            ) : (
              <CornerDownRight aria-hidden size={14} />
            )}
            <Text slot="label">{prompt ? 'Edit and run again' : 'Continue from here'}</Text>
            <Keyboard>Enter</Keyboard>
          </MenuItem>
        )}
        {readOnly ? null : (
          <MenuItem id="label" className="node-menu-item" textValue="Label">
            <Tag aria-hidden size={14} />
            <Text slot="label">Label…</Text>
            <Keyboard>L</Keyboard>
          </MenuItem>
        )}
        <MenuItem id="copy" className="node-menu-item" textValue="Copy text">
          <Copy aria-hidden size={14} />
          <Text slot="label">Copy text</Text>
          <Keyboard>C</Keyboard>
        </MenuItem>
      </Menu>
    </Popover>
  );
}
