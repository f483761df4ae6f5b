import { memo } from 'react';
import { BaseEdge, getBezierPath, type EdgeProps } from '@xyflow/react';
import { MARK_NONE, useMark } from './active-marks';

/** A parent → child edge, drawn strong when the child lies on the active path. */
export const TreeEdge = memo(function TreeEdge(props: EdgeProps) {
  const onPath = useMark(props.target) !== MARK_NONE;
  const [path] = getBezierPath(props);
  return <BaseEdge path={path} className={onPath ? 'on-path' : undefined} interactionWidth={0} />;
});
