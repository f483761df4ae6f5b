import { memo, useContext } from 'react';
import { Handle, Position, type Node, type NodeProps } from '@xyflow/react';
import { describeItem, type GraphNodeData } from '../graph/session-to-graph';
import { TreeActionsContext } from './tree-actions';
import { MARK_LEAF, MARK_NONE, useMark } from './active-marks';

/**
 * A run of settings changes with no single node after it (at the leaf, at a branch, at the tip of
 * a branch): a small mark; a click opens it into its entries, to continue from one.
 */
export const SettingsNode = memo(function SettingsNode({ data }: NodeProps<Node<GraphNodeData>>) {
  const actions = useContext(TreeActionsContext);
  const item = data.item;
  const mark = useMark(item.id);
  if (item.kind !== 'settings') return null;
  const focused = actions.focusedId === item.id;
  const label = describeItem(item);
  const classes = ['entry-node', 'settings-node'];
  if (mark !== MARK_NONE) classes.push('on-path');
  if (mark === MARK_LEAF) classes.push('is-leaf');
  const count = item.members.length;
  return (
    <div className="entry-node-frame settings-node-frame">
      <Handle type="target" position={Position.Top} isConnectable={false} />
      <div
        className={classes.join(' ')}
        role="button"
        tabIndex={focused ? 0 : -1}
        data-entry-id={item.members[0]?.id ?? item.id}
        data-role="settings"
        data-settings-id={item.id}
        aria-label={label}
        aria-expanded="false"
        aria-current={mark === MARK_LEAF ? 'true' : undefined}
        onFocus={() => actions.setFocused(item.id)}
      >
        <span className="node-text">
          ⚙ {count === 1 ? label.replace(/^settings: /, '') : `${count} settings changes`}
        </span>
      </div>
      <div className="node-preview" role="tooltip">
        {label}
      </div>
      <Handle type="source" position={Position.Bottom} isConnectable={false} />
    </div>
  );
});
