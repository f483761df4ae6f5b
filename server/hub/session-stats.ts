import type { SessionStats } from '../../shared/session-stats-schema.js';
import { usageStats, UsageStatsBuilder } from '../../shared/session-stats.js';
import { ArborError } from '../errors/error-catalog.js';
import type { LiveSession } from './live-session.js';

/**
 * The answer to `get_session_stats`: pi 1.6's figures for every entry of the session and for the
 * path to `entryId` (the leaf when absent), with the context usage the session shows.
 */
export function sessionStatsOf(live: LiveSession, entryId?: string): SessionStats {
  const view = live.agent.view;
  if (entryId !== undefined && !view.getNode(entryId))
    throw new ArborError('not_found', `No entry ${entryId} in this session.`);
  const whole = new UsageStatsBuilder();
  view.forEachEntry((entry) => whole.add(entry));
  const end = entryId ?? view.getLeafId();
  return {
    sessionId: live.sessionId,
    session: whole.result(),
    branch: usageStats(end === null ? [] : view.getBranch(end)),
    entryId: end,
    contextUsage: live.agent.getState().contextUsage,
  };
}
