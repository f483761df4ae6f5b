import { memo, useContext } from 'react';
import type { TreeNode } from '../../../shared/session-entries';
import { Handle, Position, type Node, type NodeProps } from '@xyflow/react';
import { describeItem, describeSettings, type GraphNodeData } from '../graph/session-to-graph';
import { settingsMarkId } from '../graph/settings-marks';
import { nodeText } from '../graph/plain-preview';
import { TreeActionsContext } from './tree-actions';
import { MARK_LEAF, MARK_NONE, useMark } from './active-marks';
import {
  ContextEditsContext,
  HISTORY_ONLY_NOTE,
  HistoryOnlyContext,
  ReadingContext,
} from './context-edit-marks';

const ROLE_MARK: Record<string, string> = {
  user: 'You',
  assistant: 'AI',
  toolResult: 'Tool',
  compaction: 'Compact',
  branch_summary: 'Summary',
  custom: 'Note',
  bashExecution: 'Shell',
  model_change: 'Model',
  thinking_level_change: 'Thinking',
  session_info: 'Name',
  system: 'System',
  context_edit: 'Edit',
};

/** The settings changes just above a node: a chip that opens them into nodes of their own. */
function SettingsChip({ changes }: { changes: readonly TreeNode[] }) {
  const actions = useContext(TreeActionsContext);
  const text = describeSettings(changes);
  const id = settingsMarkId(changes[0]!);
  return (
    <button
      type="button"
      className="node-settings-chip"
      tabIndex={-1}
      data-settings-id={id}
      aria-label={`Settings changed before this: ${text}. Show them`}
      title={`Settings changed before this: ${text}`}
      onClick={(event) => {
        event.stopPropagation();
        actions.activate(id);
      }}
    >
      ⚙ {changes.length === 1 ? text : `${changes.length} changes`}
    </button>
  );
}

/** One entry of the session drawn as a node: role, preview, label, leaf and path marks. */
export const EntryNode = memo(function EntryNode({ data }: NodeProps<Node<GraphNodeData>>) {
  const actions = useContext(TreeActionsContext);
  const item = data.item;
  const mark = useMark(item.id);
  const contextEdit = useContext(ContextEditsContext).get(item.id);
  const historyOnly = useContext(HistoryOnlyContext).has(item.id);
  const isRead = useContext(ReadingContext) === item.id;
  if (item.kind !== 'entry') return null;
  const isLeaf = mark === MARK_LEAF;
  const entry = item.entry;
  const classes = ['entry-node', `role-${item.role}`];
  if (mark !== MARK_NONE) classes.push('on-path');
  if (isLeaf) classes.push('is-leaf');
  if (entry.isError) classes.push('is-error');
  if (contextEdit) classes.push(`context-${contextEdit.kind}`);
  if (historyOnly) classes.push('history-only');
  if (isRead) classes.push('is-read');
  const editNote = contextEdit
    ? contextEdit.kind === 'hidden'
      ? 'hidden from the model'
      : `replaced for the model: ${contextEdit.text}`
    : historyOnly
      ? HISTORY_ONLY_NOTE
      : '';
  const focused = actions.focusedId === item.id;
  const preview =
    nodeText(item.role, entry.preview) ||
    (entry.toolCalls ? `${entry.toolCalls} tool call(s)` : '');
  return (
    <div className="entry-node-frame">
      <Handle type="target" position={Position.Top} isConnectable={false} />
      <div
        className={classes.join(' ')}
        role="button"
        tabIndex={focused ? 0 : -1}
        data-entry-id={item.id}
        data-role={item.role}
        aria-label={editNote ? `${describeItem(item)} (${editNote})` : describeItem(item)}
        data-context-edit={contextEdit?.kind}
        data-history-only={historyOnly ? 'true' : undefined}
        aria-current={isLeaf ? 'true' : undefined}
        onFocus={() => actions.setFocused(item.id)}
        onPointerEnter={() => actions.prefetch(item.id)}
      >
        <span className="node-role">{ROLE_MARK[item.role] ?? item.role}</span>
        <span className="node-text">{preview}</span>
        {data.label ? <span className="node-label">{data.label}</span> : null}
        {contextEdit ? (
          <span className="node-context-edit" title={editNote}>
            {contextEdit.kind === 'hidden' ? 'hidden' : `→ ${contextEdit.text}`}
          </span>
        ) : null}
      </div>
      {item.settings ? <SettingsChip changes={item.settings} /> : null}
      <button
        type="button"
        className="node-menu-button"
        tabIndex={-1}
        aria-label={`Actions for ${item.role} node`}
        aria-haspopup="menu"
        aria-expanded={actions.menuFor === item.id}
        title="Read this branch, continue here, label, copy (right-click, Shift+F10)"
        onClick={(event) => {
          event.stopPropagation();
          actions.openMenu(item.id, event.currentTarget);
        }}
      >
        ⋯
      </button>
      {preview ? (
        <div className="node-preview" role="tooltip">
          {preview}
        </div>
      ) : null}
      <Handle type="source" position={Position.Bottom} isConnectable={false} />
    </div>
  );
});
