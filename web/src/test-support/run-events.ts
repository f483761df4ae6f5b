import type { AgentSessionEvent } from '../../../shared/agent-events';
import { sessionReducer, type SessionView } from '../state/session-reducer';
import { frames } from './snapshot-builder';

/** `events` through the reducer as the socket delivers them (sequence numbers from `firstSeq`). */
export function run(
  view: SessionView | null,
  events: AgentSessionEvent[],
  firstSeq = 1,
): SessionView {
  let next = view;
  for (const frame of frames(events, firstSeq))
    next = sessionReducer(next, { type: 'event', frame });
  return next!;
}
