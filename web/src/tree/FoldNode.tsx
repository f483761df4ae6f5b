import { memo, useContext } from 'react';
import { Handle, Position, type Node, type NodeProps } from '@xyflow/react';
import { describeItem, type GraphNodeData } from '../graph/session-to-graph';
import { TreeActionsContext } from './tree-actions';

/** A folded tool loop or segment: a count and the first prompt; a click opens it. */
export const FoldNode = memo(function FoldNode({ data }: NodeProps<Node<GraphNodeData>>) {
  const actions = useContext(TreeActionsContext);
  const item = data.item;
  if (item.kind === 'entry') return null;
  const focused = actions.focusedId === item.id;
  const label = describeItem(item);
  const first = item.members[0];
  return (
    <div className="entry-node-frame">
      <Handle type="target" position={Position.Top} isConnectable={false} />
      <div
        className={`entry-node fold-node kind-${item.kind}`}
        role="button"
        tabIndex={focused ? 0 : -1}
        data-entry-id={first?.id ?? item.id}
        data-role={item.role}
        data-fold-id={item.id}
        aria-label={label}
        aria-expanded="false"
        onFocus={() => actions.setFocused(item.id)}
      >
        <span className="node-role">{item.kind === 'fold' ? 'Tools' : 'Turn'}</span>
        <span className="node-text">
          {item.kind === 'fold'
            ? `${item.members.length} steps folded`
            : `${item.members.length} entries folded`}
        </span>
      </div>
      <div className="node-preview" role="tooltip">
        {label}
      </div>
      <Handle type="source" position={Position.Bottom} isConnectable={false} />
    </div>
  );
});
